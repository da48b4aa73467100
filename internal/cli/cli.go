// Package cli is Cairn's command line: `cairn serve` for agents and the
// commands people use on the same store.
package cli

import (
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// Root returns the cairn command with all its subcommands.
func Root(version string) *cobra.Command {
	if version == "" {
		version = buildVersion()
	}
	root := &cobra.Command{
		Use:           "cairn",
		Short:         "Working memory for AI coding agents over MCP: a focus stack, a dependency-aware plan, iterative loops, project memory",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(serveCmd(version), initCmd(), versionCmd(version), tasksCmd(), nextCmd(), showCmd(), loopsCmd(), loopCmd(), lifecyclesCmd(), lifecycleCmd(), importCmd(), memoryCmd(), bridgeCmd(version), hookCmd(), boardCmd(version))
	return root
}

func buildVersion() string {
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

// envDefault returns the environment variable's value, or def when unset.
func envDefault(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}

// newLogger logs to stderr: in stdio mode stdout is the protocol.
func newLogger(level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(level))); err != nil {
		return nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: l})), nil
}
