package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/service/lifecycles"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/words"
)

func lifecyclesCmd() *cobra.Command {
	var (
		status, phase string
		limit, offset int
	)
	cmd := &cobra.Command{
		Use:   "lifecycles",
		Short: "List the stories' lifecycles: definition, phase, loop-backs (--status open|done, --phase)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				page, err := s.Lifecycles.List(cmd.Context(), lifecycles.LifecycleList{Status: status, Phase: phase, Page: page.Page{Offset: offset, Limit: limit}})
				if err != nil {
					return err
				}
				items, total := page.Items, page.Total
				w := cmd.OutOrStdout()
				if total == 0 {
					_, err := fmt.Fprintln(w, "No lifecycles. Agents start them with lifecycle_init (toolset lifecycle).")
					return err
				}
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tTASK\tDEFINITION\tPHASE\tSINCE\tLOOP-BACKS\tTITLE")
				for _, it := range items {
					ph, since := it.Status, "-"
					if it.Status == "open" {
						ph, since = it.Phase, when(it.PhaseSince)
					}
					fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%s\n", it.ID, it.Task.ID, it.Definition, ph, since, it.Loops, it.Task.Title)
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				if offset+len(items) < total {
					_, err := fmt.Fprintf(w, "(%d-%d of %d; --offset %d for more)\n", offset+1, offset+len(items), total, offset+len(items))
					return err
				}
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&status, "status", "", "open or done")
	f.StringVar(&phase, "phase", "", "only lifecycles in this phase")
	f.IntVar(&limit, "limit", 0, fmt.Sprintf("show at most this many (default %d, at most %d)", page.Lifecycle.Default, page.Lifecycle.Max))
	f.IntVar(&offset, "offset", 0, "skip this many")
	return cmd
}

func lifecycleCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "lifecycle ID",
		Short: "Show one lifecycle: phase, criteria met and missing, history",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withProject(cmd, func(s *app.Services) error {
				v, err := s.Lifecycles.Status(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				fmt.Fprintf(w, "Lifecycle %d (%s) on task %s  %s\n", v.ID, v.Definition, v.Task.ID, v.Task.Title)
				if v.Phase == "" {
					fmt.Fprintf(w, "%s, started %s\n", v.Status, when(v.StartedAt))
				} else {
					fmt.Fprintf(w, "phase %s (%d of %d) for %s\n", v.Phase, v.PhaseNum, v.Phases, words.Duration(v.TimeInPhase))
				}
				for _, m := range v.Met {
					ev := m.Evidence.Text
					if m.Evidence.Command != "" {
						ev = fmt.Sprintf("`%s` exited %d", m.Evidence.Command, *m.Evidence.ExitCode)
					}
					fmt.Fprintf(w, "  met      %s: %s\n", m.ID, ev)
				}
				for _, m := range v.Missing {
					gate := ""
					if m.Gate {
						gate = " (gate)"
					}
					fmt.Fprintf(w, "  missing  %s%s: %s\n", m.ID, gate, m.Text)
				}
				if len(v.History) > 0 {
					fmt.Fprintf(w, "\nHistory (%d):\n", len(v.History))
					for _, h := range v.History {
						to := h.To
						if to == "" {
							to = "done"
						}
						fmt.Fprintf(w, "  %s  %s → %s after %s", when(h.At), h.From, to, words.Duration(h.Spent))
						if h.Back {
							fmt.Fprintf(w, " (loop back: %s)", h.Reason)
						}
						fmt.Fprintln(w)
					}
				}
				return nil
			})
		},
	}
}
