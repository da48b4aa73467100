package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/service/loops"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/words"
)

// bar draws a progress bar of width cells for a percentage.
func bar(pct float64, width int) string {
	pct = max(0, min(100, pct))
	full := int(pct/100*float64(width) + 0.5)
	return "[" + strings.Repeat("#", full) + strings.Repeat(".", width-full) + "]"
}

func loopsCmd() *cobra.Command {
	var (
		status string
		all    bool
	)
	cmd := &cobra.Command{
		Use:   "loops",
		Short: "List the loops (those not finished unless --all or --status)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				var list []loops.Loop
				q := loops.LoopQuery{Statuses: splitList(status), All: all, Page: page.Page{Limit: page.Plan.Max}}
				for {
					pg, err := s.Loops.List(cmd.Context(), q)
					if err != nil {
						return err
					}
					list = append(list, pg.Loops...)
					if q.Offset = pg.NextOffset; q.Offset == 0 {
						break
					}
				}
				w := cmd.OutOrStdout()
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				n := 0
				for _, lp := range list {
					if n == 0 {
						fmt.Fprintln(tw, "ID\tSTATUS\tITERATION\tPROGRESS\tOBJECTIVE")
					}
					n++
					st := lp.State
					fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s %3.0f%%\t%s\n", lp.ID, st.Status, st.Iteration, st.MaxIterations,
						bar(st.Progress.Percentage, 10), st.Progress.Percentage, st.Objective)
				}
				if n == 0 {
					_, err := fmt.Fprintln(w, "No loops. Agents start them with loop_start; `cairn loops --all` shows finished ones.")
					return err
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().StringVar(&status, "status", "", "only these statuses, comma-separated")
	cmd.Flags().BoolVar(&all, "all", false, "include finished loops")
	return cmd
}

func loopCmd() *cobra.Command {
	var history bool
	cmd := &cobra.Command{
		Use:   "loop ID",
		Short: "Show one loop with a progress bar (--history for its history)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withProject(cmd, func(s *app.Services) error {
				lp, err := s.Loops.Get(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				showLoop(w, lp)
				if !history {
					return nil
				}
				q := loops.StatusQuery{History: true, Page: page.Page{Limit: page.Plan.Max}}
				for {
					_, h, err := s.Loops.Status(cmd.Context(), args[0], q)
					if err != nil {
						return err
					}
					if q.Offset == 0 {
						fmt.Fprintf(w, "\nHistory (%d):\n", h.Total)
					}
					for _, e := range h.Events {
						fmt.Fprintf(w, "  %s  %-10s %s\n", when(e.At), e.Kind, e.Detail)
					}
					if q.Offset = h.NextOffset; q.Offset == 0 {
						return nil
					}
				}
			})
		},
	}
	cmd.Flags().BoolVar(&history, "history", false, "show the loop's history")
	return cmd
}

func showLoop(w io.Writer, lp loops.Loop) {
	st := lp.State
	fmt.Fprintf(w, "Loop %s: %s\n", lp.ID, st.Objective)
	fmt.Fprintf(w, "%s %3.0f%%  %s, iteration %d of %d\n", bar(st.Progress.Percentage, 30), st.Progress.Percentage, st.Status, st.Iteration, st.MaxIterations)
	fmt.Fprintf(w, "Done when: %s\n", st.CompletionCriteria)
	if st.Progress.Message != "" {
		fmt.Fprintf(w, "Progress: %s\n", st.Progress.Message)
	}
	fmt.Fprintf(w, "Artifacts: %d created, %d modified; %s\n", st.Progress.ArtifactsCreated, st.Progress.ArtifactsModified, words.Plural(st.Progress.Checkpoints, "checkpoint", "checkpoints"))
	if st.LastAction != "" {
		fmt.Fprintf(w, "Last action: %s\n", st.LastAction)
	}
	for i, n := range st.NextSteps {
		if st.Finished() {
			break // a finished loop has no next step
		}
		from := ""
		if i == 0 && st.NextStepsFrom != 0 && st.NextStepsFrom < st.Iteration {
			from = fmt.Sprintf(" (given at iteration %d)", st.NextStepsFrom)
		}
		fmt.Fprintf(w, "Next %d%s: %s\n", i+1, from, n)
	}
	if st.Error != nil {
		fmt.Fprintf(w, "Error: %s (code %s, recoverable %v)\n", st.Error.Message, st.Error.Code, st.Error.Recoverable)
	}
	if st.Evidence != "" {
		fmt.Fprintf(w, "Evidence: %s\n", st.Evidence)
	}
	fmt.Fprintf(w, "Started %s by %s, updated %s; mode %s, priority %s\n", when(st.CreatedAt),
		orDash(st.Metadata.CreatedBy), when(st.UpdatedAt), st.Metadata.ExecutionMode, st.Metadata.Priority)
	if st.Description != "" {
		fmt.Fprintf(w, "Description: %s\n", st.Description)
	}
	if len(st.Metadata.Tags) > 0 {
		fmt.Fprintf(w, "Tags: %s\n", strings.Join(st.Metadata.Tags, ", "))
	}
	if len(st.Metadata.Extra) > 0 {
		if b, err := json.Marshal(st.Metadata.Extra); err == nil {
			fmt.Fprintf(w, "Metadata: %s\n", b)
		}
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
