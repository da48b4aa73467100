package hands

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/runs"
)

// The project's configured commands ([[ci.commands]] in .cairn/config.toml)
// are run by `cairn ci` only: no MCP tool calls RunCommand.

// The rules of a configured command's findings.
const (
	RuleCommandFailed  = "ci/command-failed"
	RuleCommandTimeout = "ci/command-timeout"
)

var commandRules = []check.Rule{
	{ID: RuleCommandFailed, Severity: check.Error, Title: "a configured command failed",
		Why: "The project's CI commands (tests, lint) are its own gates: a failure means the change is not ready.",
		Fix: "Run the command locally, fix what it reports, run it again.", Bad: "go test ./... exits 1", Good: "go test ./... exits 0"},
	{ID: RuleCommandTimeout, Severity: check.Error, Title: "a configured command ran past its time limit",
		Why: "A command that does not finish gives no verdict, and a hung test holds the CI runner.",
		Fix: "Find what hangs (go test -timeout, pytest --timeout), or raise the command's timeout in .cairn/config.toml.",
		Bad: `timeout = "1m" for a 5-minute suite`, Good: `timeout = "10m"`},
}

// CommandRun is the result of one configured command.
type CommandRun struct {
	Name     string
	Run      string
	ExitCode int
	TimedOut bool
	Duration time.Duration
	// Output is the last 64 KiB of stdout and stderr, interleaved.
	Output string
	// Failure is the line worth quoting from a failed run.
	Failure string
}

// Failed reports whether the run failed or timed out.
func (r CommandRun) Failed() bool { return r.ExitCode != 0 || r.TimedOut }

// Finding is the run's finding, if it failed.
func (r CommandRun) Finding() (check.Finding, bool) {
	if !r.Failed() {
		return check.Finding{}, false
	}
	rule := commandRules[0]
	msg := fmt.Sprintf("%s (%s) exited %d", r.Name, r.Run, r.ExitCode)
	if r.TimedOut {
		rule = commandRules[1]
		msg = fmt.Sprintf("%s (%s) ran past its time limit", r.Name, r.Run)
	}
	if r.Failure != "" {
		msg += ": " + r.Failure
	}
	return check.Finding{Rule: rule.ID, Severity: rule.Severity, File: project.ConfigFile, Message: msg, Fix: rule.Fix, Link: check.RuleLink(rule)}, true
}

const commandOutputCap = 64 << 10

// tailWriter keeps the last max bytes written to it.
type tailWriter struct {
	b   []byte
	max int
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	if len(w.b) > w.max {
		w.b = append(w.b[:0], w.b[len(w.b)-w.max:]...)
	}
	return len(p), nil
}

// RunCommand runs one configured command in the project root through
// sh -c, within its time limit, and reads its output for a failure line.
// echo, when not nil, gets the output as it comes.
func (s *Service) RunCommand(ctx context.Context, c project.CICommand, echo func([]byte)) CommandRun {
	ctx, cancel := context.WithTimeout(ctx, c.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", c.Run)
	cmd.Dir = s.root
	cmd.Env = append(os.Environ(), "CI_CAIRN=1")
	cmd.WaitDelay = 5 * time.Second
	out := &tailWriter{max: commandOutputCap}
	w := &echoWriter{tail: out, echo: echo}
	cmd.Stdout, cmd.Stderr = w, w
	start := time.Now()
	err := cmd.Run()
	r := CommandRun{Name: c.Name, Run: c.Run, Duration: time.Since(start), Output: string(out.b)}
	if err != nil {
		r.ExitCode = -1
		if ee, ok := errors.AsType[*exec.ExitError](err); ok && ee.ExitCode() >= 0 {
			r.ExitCode = ee.ExitCode()
		}
		r.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
		r.Failure = runs.Failure(c.Run, r.Output).Line
		if r.Failure == "" && r.ExitCode == -1 {
			r.Failure = err.Error()
		}
	}
	return r
}

// echoWriter keeps the tail and echoes; one pointer given as both stdout
// and stderr, so exec calls it from one goroutine at a time.
type echoWriter struct {
	tail *tailWriter
	echo func([]byte)
}

func (w *echoWriter) Write(p []byte) (int, error) {
	if w.echo != nil {
		w.echo(p)
	}
	return w.tail.Write(p)
}
