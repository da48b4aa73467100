package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service/scaffold"
	"github.com/cairn-dev/cairn/internal/setup"
	"github.com/spf13/cobra"
)

func initCmd() *cobra.Command {
	var (
		clients  []string
		hooks    bool
		dryRun   bool
		command  string
		gitHooks bool
		level    string
	)
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Make the current directory a Cairn project and wire it into your agent clients",
		Long: `Creates .cairn/ (the project's store) and adds Cairn to the clients' project
configuration, merging into the files that are there (keys it did not write are
kept, formatting too) and changing nothing on a second run:

  claude-code  .mcp.json (the server always loaded); with --hooks, .claude/settings.json
  cursor       .cursor/mcp.json; with --hooks, .cursor/hooks.json
  vscode       .vscode/mcp.json; with --hooks, .github/hooks/cairn.json (unless VS Code
               runs the cairn hooks of .claude/settings.json already)
  codex        .codex/config.toml; with --hooks, .codex/hooks.json
  gemini       .gemini/settings.json (hooks in the same file)

and a short section on using Cairn in AGENTS.md. Without --client: Claude Code and
every client whose directory the project has. --dry-run prints the diff only.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			if level != "" && !slices.Contains(scaffold.Levels, level) {
				return fmt.Errorf("--scaffold %q: use %s; nothing was written", level, strings.Join(scaffold.Levels, ", "))
			}
			if gitHooks {
				return initGitHooks(cmd, wd, command, dryRun)
			}
			changes, err := setup.Plan(setup.Options{Root: wd, Clients: clients, Hooks: hooks, Command: command})
			if err != nil {
				return fmt.Errorf("nothing was written: %w", err)
			}
			w := cmd.OutOrStdout()
			_, statErr := os.Stat(filepath.Join(wd, project.DirName))
			fresh := statErr != nil
			if dryRun {
				if fresh {
					fmt.Fprintf(w, "would create %s/ (the project's store)\n", project.DirName)
				}
				n := 0
				for _, c := range changes {
					if c.Changed() {
						n++
						fmt.Fprint(w, setup.Diff(c))
					}
				}
				if n == 0 && !fresh && level == "" {
					fmt.Fprintln(w, "Nothing to change.")
				}
				return runScaffold(w, wd, level, true, changes)
			}
			dir, err := project.Init(wd)
			if err != nil {
				return err
			}
			s, err := app.Open(cmd.Context(), app.Config{Dir: wd, InitEmpty: true})
			if err != nil {
				return err
			}
			s.Close()
			if err := setup.Apply(wd, changes); err != nil {
				return err
			}
			if fresh {
				fmt.Fprintf(w, "Initialized Cairn in %s\n", dir)
			}
			n := 0
			for _, c := range changes {
				verb := "unchanged"
				switch {
				case !c.Changed():
				case c.Before == nil:
					verb = "created  "
				default:
					verb = "updated  "
				}
				if c.Changed() {
					n++
				}
				fmt.Fprintf(w, "%s %s: %s\n", verb, c.Path, c.What)
			}
			if err := runScaffold(w, wd, level, false, changes); err != nil {
				return err
			}
			if n == 0 && !fresh {
				if level == "" {
					fmt.Fprintln(w, "Nothing to change.")
				}
				return nil
			}
			for _, c := range changes {
				if !c.Changed() || !strings.Contains(c.What, "adds hooks") {
					continue
				}
				switch c.Path {
				case ".claude/settings.json":
					fmt.Fprintln(w, "Claude Code runs `cairn hook` on its events from its next session; cairn must be on its PATH.")
				case ".gemini/settings.json":
					fmt.Fprintln(w, "Gemini CLI runs `cairn hook --client gemini` on its events from its next session, in a folder it trusts; cairn must be on its PATH.")
				case ".codex/hooks.json":
					fmt.Fprintln(w, "Codex CLI runs `cairn hook --client codex` on its events once you trust the project's hooks (hooks must not be off in its config); cairn must be on its PATH.")
				case ".cursor/hooks.json":
					fmt.Fprintln(w, "Cursor runs `cairn hook --client cursor` on its agent's events from its next session; cairn must be on its PATH.")
				case setup.VSCodeHooksFile:
					fmt.Fprintln(w, "VS Code runs `cairn hook --client vscode` on its agent's events (agent hooks are in preview; an organization may turn them off); cairn must be on its PATH.")
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&clients, "client", nil, "clients to wire: "+strings.Join(setup.Clients, ", ")+" or all (repeatable or comma-separated)")
	f.BoolVar(&hooks, "hooks", false, "also wire the clients' hooks (cairn hook EVENT): Claude Code, Gemini CLI, Codex CLI, Cursor, VS Code")
	f.BoolVar(&gitHooks, "git-hooks", false, "install git hooks instead: commit-msg (cairn commit-msg --check) and pre-commit (a secret scan of the staged files); with a hook manager (core.hooksPath, husky, pre-commit, lefthook) print how to add them there; a hook you wrote is never overwritten")
	f.BoolVar(&dryRun, "dry-run", false, "print the diff of what would change; write nothing")
	f.StringVar(&level, "scaffold", "", "also write the knowledge folders the context tools read, with starter content: minimal, standard or full (never replacing a file)")
	f.StringVar(&command, "command", "cairn", "the command the clients run (a path if cairn is not on their PATH)")
	return cmd
}

// initGitHooks installs the git hooks, or says how to add them to the
// project's hook manager.
func initGitHooks(cmd *cobra.Command, root, command string, dryRun bool) error {
	plan, err := setup.PlanGitHooks(root, command)
	if err != nil {
		return fmt.Errorf("nothing was written: %w", err)
	}
	w := cmd.OutOrStdout()
	if plan.Manager != "" {
		fmt.Fprintf(w, "This project manages its git hooks with %s: nothing was written.\n%s\n", plan.Manager, plan.Advice)
		return nil
	}
	if !dryRun {
		if err := setup.ApplyGitHooks(plan); err != nil {
			return err
		}
	}
	for _, h := range plan.Hooks {
		switch h.State {
		case "kept":
			fmt.Fprintf(w, "kept      %s: it is yours, not Cairn's; add this line to it:\n  %s\n", h.Path, h.Line)
		case "same":
			fmt.Fprintf(w, "unchanged %s\n", h.Path)
		default:
			verb := map[string]string{"create": "created  ", "update": "updated  "}[h.State]
			if dryRun {
				verb = "would " + h.State
			}
			fmt.Fprintf(w, "%s %s: %s\n", verb, h.Path, h.Line)
		}
	}
	return nil
}
