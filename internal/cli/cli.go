// Package cli is Cairn's command line for people (tasks, loops, memory,
// lifecycles, import, init) and the hook commands agents' clients run, on
// the same services the MCP tools use. The servers' commands are
// internal/serve's.
package cli

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

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
	root.AddCommand(initCmd(), versionCmd(version), tasksCmd(), nextCmd(), showCmd(), loopsCmd(), loopCmd(), lifecyclesCmd(), lifecycleCmd(), importCmd(), memoryCmd(), sessionsCmd(), sessionCmd(), hookCmd(), statsCmd(), healthCmd(), checkCmd(), ciCmd(version), commitMsgCmd(), evolutionCmd(), draftsCmd())
	return root
}

// Version is version when set at build time, else the module's version
// from the build info, else "dev". A pseudo-version (a build from a
// checkout, not a release) is "dev" too: the revision says more, and
// VersionLine adds it.
func Version(version string) string {
	bi, _ := debug.ReadBuildInfo()
	return moduleVersion(version, bi)
}

func moduleVersion(version string, bi *debug.BuildInfo) string {
	if version != "" {
		return version
	}
	if bi == nil {
		return "dev"
	}
	v := strings.TrimSuffix(bi.Main.Version, "+dirty")
	if v == "" || v == "(devel)" || pseudo.MatchString(v) {
		return "dev"
	}
	return v
}

// pseudo matches the tail of a Go pseudo-version: a 14-digit UTC time and
// a 12-digit revision prefix.
var pseudo = regexp.MustCompile(`[-.]\d{14}-[0-9a-f]{12}$`)

// VersionLine is what `cairn version` prints: the version and, when the
// build recorded its source control state (go build in a checkout), the
// short revision, "-dirty" when the work tree had changes, and the
// commit's date: "cairn v1.2.0 (3f2a9c1, 2026-11-29)".
func VersionLine(version string, bi *debug.BuildInfo) string {
	line := "cairn " + moduleVersion(version, bi)
	if bi == nil {
		return line
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return line
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if dirty {
		rev += "-dirty"
	}
	if t, err := time.Parse(time.RFC3339, at); err == nil {
		rev += ", " + t.UTC().Format(time.DateOnly)
	}
	return line + " (" + rev + ")"
}

func versionCmd(version string) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print cairn's version, and the commit it was built from when the build recorded it",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			bi, _ := debug.ReadBuildInfo()
			_, err := fmt.Fprintln(cmd.OutOrStdout(), VersionLine(version, bi))
			return err
		},
	}
}

// when is how the command line shows a moment in its tables and pages: the
// local time to the minute. JSON output carries RFC 3339 in UTC
// (render.Time).
func when(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02 15:04")
}
