// Package cli is Cairn's command line for people (tasks, loops, memory,
// lifecycles, import, init) and the hook commands agents' clients run, on
// the same services the MCP tools use. The servers' commands are
// internal/serve's.
package cli

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Root returns the cairn command with the human commands; the servers'
// commands (serve, bridge, board) are added by the binary (see
// internal/serve). version is the build's, else the module's.
func Root(version string) *cobra.Command {
	version = Version(version)
	root := &cobra.Command{
		Use:           "cairn",
		Short:         "Working memory for AI coding agents over MCP: a focus stack, a dependency-aware plan, iterative loops, project memory",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(initCmd(), versionCmd(version), tasksCmd(), nextCmd(), showCmd(), loopsCmd(), loopCmd(), lifecyclesCmd(), lifecycleCmd(), importCmd(), memoryCmd(), sessionsCmd(), sessionCmd(), hookCmd(), statsCmd(), healthCmd(), checkCmd())
	return root
}

// Version is version when set at build time, else the module's version
// from the build info, else "dev".
func Version(version string) string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}

func versionCmd(version string) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print cairn's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(cmd.OutOrStdout(), "cairn", version)
			return err
		},
	}
}
