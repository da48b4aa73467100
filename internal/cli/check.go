package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/hands"
)

// The exit statuses of cairn check, as linters use them: findings are not
// a failure of the command, so they have a status of their own.
const (
	// CheckClean: no finding of the --fail-on severity (or worse).
	CheckClean = 0
	// CheckFindings: at least one finding of that severity.
	CheckFindings = 1
	// CheckCannotRun: the check could not run (a path outside the project,
	// a bad flag or param, a malformed .cairn/config.toml).
	CheckCannotRun = 2
)

// statusError ends a command with an exit status of its own; its message,
// if any, has been printed already (or is a refusal to print).
type statusError struct {
	status int
	err    error // nil: nothing more to say
}

func (e *statusError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *statusError) Unwrap() error { return e.err }

func checkCmd() *cobra.Command {
	var (
		only, failOn string
		params       []string
		asJSON       bool
	)
	cmd := &cobra.Command{
		Use:   "check [PATHS]",
		Short: "Run the hands' validators over the project (or PATHS): OpenAPI, SQL, Dockerfiles, Mermaid, tests, locales, tokens, markup, secrets",
		Long: `Runs the validators of the hands toolset (validate_sql, scan_secrets, ...) over
the project, or over the files and directories named, with the same findings and
words as the tools: one line a finding, path:line:col severity rule message.
.gitignore is respected; suppressions (inline cairn:ignore RULE reason, and
checks.ignore in .cairn/config.toml) are applied and counted. No store is opened.

Checks: ` + strings.Join(hands.CheckNames(), ", ") + `.

Exit status: 0 when no finding is of the --fail-on severity or worse (default
error), 1 when one is, 2 when the check could not run (a path outside the
project, a bad flag or param, a malformed .cairn/config.toml).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			err := runCheck(cmd, args, splitList(only), params, failOn, asJSON)
			if err != nil {
				if _, ok := errors.AsType[*statusError](err); !ok {
					err = &statusError{status: CheckCannotRun, err: err}
				}
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&only, "only", "", "run only these checks, comma-separated ("+strings.Join(hands.CheckNames(), ", ")+")")
	f.StringArrayVar(&params, "param", nil, "a check's param, CHECK.KEY=VALUE (sql.dialect=mysql, tests.threshold=80); repeatable")
	f.StringVar(&failOn, "fail-on", "error", "exit 1 when a finding is of this severity or worse: error, warning or info")
	f.BoolVar(&asJSON, "json", false, "print the structured answer (the tools' structuredContent) as JSON")
	return cmd
}

func runCheck(cmd *cobra.Command, args, only, rawParams []string, failOn string, asJSON bool) error {
	min, err := check.ParseSeverity(failOn)
	if err != nil {
		return &problem.FieldError{Field: "--fail-on", Problem: problem.Quote(failOn) + " is not a severity", Fix: "use error, warning or info"}
	}
	params, err := parseParams(rawParams)
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := project.FindRoot(cwd)
	if err != nil {
		return err
	}
	// Paths are the shell's: relative to the working directory.
	paths := make([]string, len(args))
	for i, a := range args {
		if !filepath.IsAbs(a) {
			a = filepath.Join(cwd, a)
		}
		paths[i] = a
	}
	h := hands.New(root)
	// Each check run is recorded for insight in a project Cairn already
	// keeps (one without .cairn gets none made); a check never fails for
	// want of it.
	if fi, err := os.Stat(filepath.Join(project.StoreRoot(root), project.DirName)); err == nil && fi.IsDir() {
		if s, err := app.Open(cmd.Context(), app.Config{Root: root}); err == nil {
			defer s.Close()
			h = h.Recording(s.Insight.Record)
		}
	}
	res, err := h.Check(cmd.Context(), hands.Request{Checks: only, Paths: paths, Params: params, All: true})
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	if asJSON {
		err = printJSON(w, render.CheckViewOf(res))
	} else {
		_, err = fmt.Fprintln(w, render.CheckText(res, render.CheckCLI))
	}
	if err != nil {
		return err
	}
	for _, f := range res.Findings {
		if f.Severity.AtLeast(min) {
			return &statusError{status: CheckFindings}
		}
	}
	return nil
}

// parseParams reads --param CHECK.KEY=VALUE flags.
func parseParams(raw []string) (map[string]map[string]string, error) {
	out := map[string]map[string]string{}
	for _, p := range raw {
		kv, val, ok := strings.Cut(p, "=")
		name, key, ok2 := strings.Cut(kv, ".")
		if !ok || !ok2 || name == "" || key == "" {
			return nil, &problem.FieldError{Field: "--param", Problem: problem.Quote(p) + " is not CHECK.KEY=VALUE", Fix: "write it as sql.dialect=mysql"}
		}
		if _, known := hands.KindOf(name); !known {
			return nil, &problem.FieldError{Field: "--param", Problem: problem.Quote(name) + " is not a check", Fix: "use one of " + strings.Join(hands.CheckNames(), ", ")}
		}
		if out[name] == nil {
			out[name] = map[string]string{}
		}
		out[name][key] = val
	}
	return out, nil
}
