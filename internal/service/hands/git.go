package hands

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
)

// The hands read a project's history through the git binary: a diff, a
// merge base, a file as a commit has it. Reading is all they do with it
// (no command of the project is run by a tool); each call has a time
// limit and a cap on what it reads.

const (
	gitTimeout = 30 * time.Second
	gitMaxOut  = 32 << 20
)

// errNoGit says the project is not a git work tree, or git is missing.
var errNoGit = errors.New("not a git work tree")

// capWriter keeps the first max bytes written to it and drops the rest.
type capWriter struct {
	buf bytes.Buffer
	max int
	cut bool
}

func (w *capWriter) Write(p []byte) (int, error) {
	if room := w.max - w.buf.Len(); room < len(p) {
		w.cut = true
		if room > 0 {
			w.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return w.buf.Write(p)
}

// git runs git in the project root and returns its standard output.
func (s *Service) git(ctx context.Context, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, gitTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", s.root, "-c", "core.quotepath=off", "-c", "diff.noprefix=false"}, args...)...)
	// No lock on the index for a read; messages in English, parsed below.
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	out := &capWriter{max: gitMaxOut}
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return nil, fmt.Errorf("%w: the git binary is not installed", errNoGit)
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: %w", args[0], ctx.Err())
		}
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "not a git repository") {
			return nil, fmt.Errorf("%w: %s", errNoGit, msg)
		}
		return nil, fmt.Errorf("git %s: %s", args[0], problemLine(msg, err))
	}
	return out.buf.Bytes(), nil
}

// problemLine is git's first line of complaint, or err.
func problemLine(msg string, err error) string {
	if msg == "" {
		return err.Error()
	}
	line, _, _ := strings.Cut(msg, "\n")
	return strings.TrimPrefix(line, "fatal: ")
}

// mergeBase resolves base against head to the commit they share, as a
// pull request's diff is taken. field names the argument for a refusal.
func (s *Service) mergeBase(ctx context.Context, field, base, head string) (string, error) {
	if err := checkRev(field, base); err != nil {
		return "", err
	}
	out, err := s.git(ctx, "merge-base", base, head)
	if err != nil {
		if errors.Is(err, errNoGit) {
			return "", noGit(field)
		}
		return "", &problem.FieldError{Field: field, Problem: problem.Quote(base) + " has no merge base with " + head + " (" + err.Error() + ")",
			Fix: "name a branch or commit this repository has (fetch it first in CI: fetch-depth: 0)"}
	}
	return strings.TrimSpace(string(out)), nil
}

// checkRev refuses a revision that git would read as an option or that
// holds characters no revision has.
func checkRev(field, rev string) error {
	if rev == "" || strings.HasPrefix(rev, "-") || len(rev) > 256 || strings.ContainsAny(rev, " \t\r\n\x00") {
		return &problem.FieldError{Field: field, Problem: problem.Quote(rev) + " is not a revision",
			Fix: "name a branch, tag or commit: origin/main, v1.2.0, HEAD~3"}
	}
	return nil
}

// noGit is the refusal of a call that needs the project's git history.
func noGit(field string) error {
	return &problem.FieldError{Field: field, Problem: "needs the project's git history, and the project is not a git work tree (or git is not installed)",
		Fix: "run it inside a git clone, or pass the unified diff as diff"}
}
