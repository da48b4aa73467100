package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/report"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/service/memories"
)

// ciAgent is the agent a CI run's command results are recorded as.
const ciAgent = "ci"

// ciFormats are the reports `cairn ci` writes.
var ciFormats = []string{"text", "json", "github", "markdown", "sarif"}

func ciCmd(version string) *cobra.Command {
	var (
		base, format, failOn, only, output string
		lines, noCommands, noRecord        bool
	)
	cmd := &cobra.Command{
		Use:   "ci",
		Short: "The checks a CI job runs: every validator and the dependency drift over the tree or a diff, and the project's commands",
		Long: `Runs every validator of the hands and the dependency version drift over the
whole tree, or over the files changed since a base (--diff origin/main: from
git's merge base with HEAD to the work tree, untracked files included); with
--lines, only the findings on changed lines.

Then it runs the project's commands ([[ci.commands]] in .cairn/config.toml:
name, run, timeout) in the project root through sh -c, each within its time
limit, and records each result in the store as a session event of agent "ci"
(evidence the lifecycle's gates read; --no-record to skip). A failed command
is a finding of rule ci/command-failed.

Formats: text, json, github (workflow commands: annotations on the pull
request), markdown (a pull request comment), sarif (SARIF 2.1.0 for code
scanning). --output writes the report to a file and a summary to stdout.

Exit status: 0 when no finding is of the --fail-on severity or worse (default
error), 1 when one is, 2 when the run could not be made.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			err := runCI(cmd, version, ciOptions{base: base, format: format, failOn: failOn, only: splitList(only), output: output,
				lines: lines, noCommands: noCommands, noRecord: noRecord})
			if err != nil {
				if _, ok := errors.AsType[*statusError](err); !ok {
					err = &statusError{status: CheckCannotRun, err: err}
				}
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&base, "diff", "", "check only the files changed since this base (origin/main), through git's merge base")
	f.BoolVar(&lines, "lines", false, "with --diff: only the findings on changed lines")
	f.StringVar(&format, "format", "text", "report format: "+strings.Join(ciFormats, ", "))
	f.StringVar(&failOn, "fail-on", "error", "exit 1 when a finding is of this severity or worse: error, warning or info")
	f.StringVar(&only, "only", "", "run only these checks, comma-separated")
	f.StringVar(&output, "output", "", "write the report to this file (a summary goes to stdout)")
	f.BoolVar(&noCommands, "no-commands", false, "do not run the configured commands")
	f.BoolVar(&noRecord, "no-record", false, "do not record the commands' results in the store")
	return cmd
}

type ciOptions struct {
	base, format, failOn, output string
	only                         []string
	lines, noCommands, noRecord  bool
}

func runCI(cmd *cobra.Command, version string, o ciOptions) error {
	ctx := cmd.Context()
	min, err := check.ParseSeverity(o.failOn)
	if err != nil {
		return &problem.FieldError{Field: "--fail-on", Problem: problem.Quote(o.failOn) + " is not a severity", Fix: "use error, warning or info"}
	}
	if !contains(ciFormats, o.format) {
		return &problem.FieldError{Field: "--format", Problem: problem.Quote(o.format) + " is not a format", Fix: "use one of " + strings.Join(ciFormats, ", ")}
	}
	if o.lines && o.base == "" {
		return &problem.FieldError{Field: "--lines", Problem: "needs --diff", Fix: "pass --diff origin/main with it"}
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := project.FindRoot(cwd)
	if err != nil {
		return err
	}
	var commands []project.CICommand
	if !o.noCommands {
		if commands, err = project.ReadCICommands(root); err != nil {
			return err
		}
	}
	h := hands.New(root)
	res, err := h.CI(ctx, hands.CIRequest{Base: o.base, Lines: o.lines, Checks: o.only, All: true})
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	var runsDone []hands.CommandRun
	for _, c := range commands {
		fmt.Fprintf(stderr, "cairn ci: running %s: %s\n", c.Name, c.Run)
		r := h.RunCommand(ctx, c, func(p []byte) { stderr.Write(p) })
		runsDone = append(runsDone, r)
		verdict := "passed"
		if r.Failed() {
			verdict = fmt.Sprintf("failed (exit %d)", r.ExitCode)
			if r.TimedOut {
				verdict = "timed out after " + c.Timeout.String()
			}
		}
		fmt.Fprintf(stderr, "cairn ci: %s %s in %s\n", c.Name, verdict, r.Duration.Round(1e6))
	}
	if len(runsDone) > 0 && !o.noRecord {
		if err := recordRuns(ctx, runsDone); err != nil {
			fmt.Fprintf(stderr, "cairn ci: the commands' results were not recorded: %v\n", err)
		}
	}
	findings := res.Findings
	for _, r := range runsDone {
		if f, ok := r.Finding(); ok {
			findings = append(findings, f)
		}
	}
	if len(findings) != len(res.Findings) {
		res.Result = hands.Summarize(res.Result, findings)
	}

	var out bytes.Buffer
	switch o.format {
	case "text":
		fmt.Fprintln(&out, render.CIText(res, render.CheckCLI))
		for _, r := range runsDone {
			fmt.Fprintf(&out, "Command %s: exit %d in %s\n", r.Name, r.ExitCode, r.Duration.Round(1e6))
		}
	case "json":
		err = printJSON(&out, struct {
			render.CIView
			Commands []commandView `json:"commands,omitempty"`
		}{render.CIViewOf(res), commandViews(runsDone)})
	case "github":
		err = report.GitHub(&out, res.Findings)
	case "markdown":
		err = report.Markdown(&out, res.Findings, report.MarkdownOptions{Title: "Cairn CI"})
	case "sarif":
		err = report.SARIF(&out, report.Tool{Name: "cairn", Version: Version(version), InformationURI: "https://github.com/cairn-dev/cairn"}, h.Rules(), res.Findings)
	}
	if err != nil {
		return err
	}
	var w io.Writer = cmd.OutOrStdout()
	if o.output != "" {
		if err := os.WriteFile(o.output, out.Bytes(), 0o644); err != nil {
			return err
		}
		fmt.Fprintf(w, "cairn ci: %s report written to %s: %s over %s.\n", o.format, o.output, findingsWord(res.Total), res.Scope)
	} else if _, err := w.Write(out.Bytes()); err != nil {
		return err
	}
	for _, f := range res.Findings {
		if f.Severity.AtLeast(min) {
			return &statusError{status: CheckFindings}
		}
	}
	return nil
}

// commandView is one command's run in `cairn ci --format json`.
type commandView struct {
	Name     string        `json:"name"`
	Run      string        `json:"run"`
	ExitCode int           `json:"exit_code"`
	TimedOut bool          `json:"timed_out,omitempty"`
	Duration time.Duration `json:"duration_ns"`
	Failure  string        `json:"failure,omitempty"`
}

func commandViews(rs []hands.CommandRun) []commandView {
	var out []commandView
	for _, r := range rs {
		out = append(out, commandView{Name: r.Name, Run: r.Run, ExitCode: r.ExitCode, TimedOut: r.TimedOut, Duration: r.Duration, Failure: r.Failure})
	}
	return out
}

func findingsWord(n int) string {
	if n == 1 {
		return "1 finding"
	}
	return fmt.Sprintf("%d findings", n)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// recordRuns records each command's result as a tool use of agent "ci":
// a test command becomes a test event with its counts, a failure a
// failure event; the gates read them.
func recordRuns(ctx context.Context, rs []hands.CommandRun) error {
	s, err := app.Open(ctx, app.Config{})
	if err != nil {
		return err
	}
	defer s.Close()
	for _, r := range rs {
		u := memories.ToolUse{Agent: ciAgent, Client: memory.Client{}, Tool: "cairn ci", Command: r.Run, Failed: r.Failed()}
		if r.Failed() {
			u.Error = r.Output
		} else {
			u.Output = r.Output
		}
		if _, err := s.Memory.RecordToolUse(ctx, u); err != nil {
			return err
		}
	}
	return nil
}
