package cli

import (
	"fmt"
	"io"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/evolution"
)

// evolutionCmd is the evolution engine for people: status, analyze,
// review and revert, through the same service as the MCP tools.
func evolutionCmd() *cobra.Command {
	var asJSON bool
	out := func(w io.Writer, text string, v any) error {
		if asJSON {
			return printJSON(w, v)
		}
		_, err := fmt.Fprintln(w, text)
		return err
	}
	cmd := &cobra.Command{
		Use:   "evolution",
		Short: "Patterns across sessions turned into changes: status, analyze, review, revert",
		Long: `The evolution engine (.cairn/config.toml [evolution]): candidates found in the session
history with their evidence and confidence; above the auto threshold a change is applied
and logged in .cairn/evolution/log.jsonl, between draft and auto it becomes a draft under
.cairn/drafts (see cairn drafts), below it stays pending.`,
	}
	cmd.PersistentFlags().BoolVar(&asJSON, "json", false, "print the tool's structured answer as JSON")
	status := &cobra.Command{Use: "status", Short: "What was learned, what is pending and why, learning period or kill switch", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				st, err := s.Evolution.Status(cmd.Context())
				if err != nil {
					return err
				}
				text, v := render.EvolutionStatus(st)
				return out(cmd.OutOrStdout(), text, v)
			})
		}}
	var dryRun, withDiff bool
	var kind string
	analyze := &cobra.Command{Use: "analyze", Short: "Find candidates; apply, draft or keep each pending by its confidence", Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				a, err := s.Evolution.Analyze(cmd.Context(), evolution.Query{DryRun: dryRun, Kind: kind})
				if err != nil {
					return err
				}
				text, v := render.Analysis(a, withDiff)
				return out(cmd.OutOrStdout(), text, v)
			})
		}}
	analyze.Flags().BoolVar(&dryRun, "dry-run", false, "report only; change nothing")
	analyze.Flags().BoolVar(&withDiff, "diff", false, "show each candidate's diff")
	analyze.Flags().StringVar(&kind, "kind", "", "only candidates of this kind")
	review := &cobra.Command{Use: "review [seq]", Short: "A logged change before and after (default the newest)", Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			seq, err := seqArg(args)
			if err != nil {
				return err
			}
			return withProject(cmd, func(s *app.Services) error {
				r, err := s.Evolution.Review(seq)
				if err != nil {
					return err
				}
				text, v := render.EvolutionReview(r)
				return out(cmd.OutOrStdout(), text, v)
			})
		}}
	revert := &cobra.Command{Use: "revert <seq>", Short: "Restore exactly what a logged change replaced", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			seq, err := seqArg(args)
			if err != nil {
				return err
			}
			return withProject(cmd, func(s *app.Services) error {
				e, err := s.Evolution.Revert(seq)
				if err != nil {
					return err
				}
				text, v := render.EntryText(e)
				return out(cmd.OutOrStdout(), text, v)
			})
		}}
	cmd.AddCommand(status, analyze, review, revert)
	return cmd
}

func seqArg(args []string) (int, error) {
	if len(args) == 0 {
		return 0, nil
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a change number: use the seq evolution status lists", args[0])
	}
	return n, nil
}

// draftsCmd lists, shows, approves and rejects the drafts.
func draftsCmd() *cobra.Command {
	var asJSON bool
	var status, kind string
	var minConf float64
	cmd := &cobra.Command{
		Use:   "drafts",
		Short: "Drafts the evolution engine (or a person) wrote for review: list, show, approve, reject",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				ds, err := s.Evolution.Drafts(evolution.DraftQuery{Status: status, Kind: kind, MinConfidence: minConf})
				if err != nil {
					return err
				}
				text, v := render.DraftsText(ds)
				if asJSON {
					return printJSON(cmd.OutOrStdout(), map[string]any{"drafts": v})
				}
				_, err = fmt.Fprintln(cmd.OutOrStdout(), text)
				return err
			})
		},
	}
	cmd.PersistentFlags().BoolVar(&asJSON, "json", false, "print the tool's structured answer as JSON")
	cmd.Flags().StringVar(&status, "status", "", "draft, approved, rejected or reverted")
	cmd.Flags().StringVar(&kind, "kind", "", "rule, workflow, routing, severity, knowledge or skill")
	cmd.Flags().Float64Var(&minConf, "min-confidence", 0, "only drafts at least this confident (0 to 1)")
	list := &cobra.Command{Use: "list", Short: "The drafts, most confident first", Args: cobra.NoArgs, RunE: cmd.RunE}
	list.Flags().AddFlagSet(cmd.Flags())
	show := &cobra.Command{Use: "show <id>", Short: "A draft, its evidence and its file", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withProject(cmd, func(s *app.Services) error {
				d, content, err := s.Evolution.Draft(args[0])
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), map[string]any{"draft": render.DraftViewOf(d), "content": content})
				}
				_, err = fmt.Fprintln(cmd.OutOrStdout(), render.DraftText(d, content))
				return err
			})
		}}
	approve := &cobra.Command{Use: "approve <id>", Short: "Promote a draft into the project (logged, revertible)", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withProject(cmd, func(s *app.Services) error {
				d, e, err := s.Evolution.Approve(args[0])
				if err != nil {
					return err
				}
				text, v := render.EntryText(e)
				if asJSON {
					return printJSON(cmd.OutOrStdout(), map[string]any{"draft": render.DraftViewOf(d), "change": v})
				}
				_, err = fmt.Fprintln(cmd.OutOrStdout(), "Approved "+d.ID+". "+text)
				return err
			})
		}}
	var reason string
	reject := &cobra.Command{Use: "reject <id>", Short: "Reject a draft: its pattern is not proposed again", Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withProject(cmd, func(s *app.Services) error {
				d, err := s.Evolution.Reject(args[0], reason)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), render.DraftViewOf(d))
				}
				_, err = fmt.Fprintln(cmd.OutOrStdout(), "Rejected "+d.ID+": not proposed again.")
				return err
			})
		}}
	reject.Flags().StringVar(&reason, "reason", "", "why, kept in the manifest")
	cmd.AddCommand(list, show, approve, reject)
	return cmd
}
