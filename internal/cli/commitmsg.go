package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/hands"
)

func commitMsgCmd() *cobra.Command {
	var (
		rng, checkFile string
		refs           []string
		asJSON         bool
	)
	cmd := &cobra.Command{
		Use:   "commit-msg",
		Short: "Write a Conventional Commits message for the staged changes (or a range), or check one (--check FILE, as a commit-msg hook)",
		Long: `Without --check, prints a Conventional Commits message for the staged changes
(or --range BASE..HEAD, BASE...HEAD, or one commit): the type and scope
inferred from the files changed, a subject of at most 72 characters, a body
with the main changes, BREAKING CHANGE: when exported Go API was removed or
changed incompatibly. Use it as: cairn commit-msg | git commit -F -

With --check FILE (- for standard input) it checks a message as commitlint's
config-conventional does; exit status 1 when it has an error. Git's commit-msg
hook runs: cairn commit-msg --check "$1"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			err := runCommitMsg(cmd, rng, checkFile, refs, asJSON)
			if err != nil {
				if _, ok := errors.AsType[*statusError](err); !ok {
					err = &statusError{status: CheckCannotRun, err: err}
				}
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&rng, "range", "", "describe a range instead of the staged changes: BASE..HEAD, BASE...HEAD or one commit")
	f.StringVar(&checkFile, "check", "", "check the message in this file (- for standard input) instead of writing one")
	f.StringArrayVar(&refs, "ref", nil, "a reference for the Refs: footer (a task id, an issue); repeatable")
	f.BoolVar(&asJSON, "json", false, "print the structured answer as JSON")
	return cmd
}

func runCommitMsg(cmd *cobra.Command, rng, checkFile string, refs []string, asJSON bool) error {
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	root, err := project.FindRoot(cwd)
	if err != nil {
		return err
	}
	req := hands.CommitRequest{Range: rng, Refs: refs}
	if checkFile != "" {
		if rng != "" {
			return &problem.FieldError{Field: "--check", Problem: "was given with --range", Fix: "check a message, or write one for a range, not both"}
		}
		var b []byte
		if checkFile == "-" {
			b, err = io.ReadAll(io.LimitReader(cmd.InOrStdin(), 1<<20))
		} else {
			b, err = os.ReadFile(checkFile)
		}
		if err != nil {
			return err
		}
		req.Message = string(b)
		if strings.TrimSpace(req.Message) == "" {
			req.Message = "\n" // checked as empty, not taken as no message
		}
	}
	res, err := hands.New(root).CommitMessage(cmd.Context(), req)
	if err != nil {
		return err
	}
	w := cmd.OutOrStdout()
	switch {
	case asJSON:
		err = printJSON(w, render.CommitViewOf(res))
	case res.Suggestion != nil:
		// The message alone, ready for git commit -F -; how it was made
		// on stderr.
		_, err = io.WriteString(w, res.Suggestion.Message)
		fmt.Fprintln(cmd.ErrOrStderr(), "cairn commit-msg: "+strings.Join(res.Suggestion.Reasons, "; "))
	default:
		_, err = fmt.Fprintln(w, render.CommitText(res))
	}
	if err != nil {
		return err
	}
	if res.Suggestion == nil && !res.Valid() {
		return &statusError{status: CheckFindings}
	}
	return nil
}
