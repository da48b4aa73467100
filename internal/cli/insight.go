package cli

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/insight"
	"github.com/cairn-dev/cairn/internal/usage"
	"github.com/cairn-dev/cairn/internal/words"
)

// statsCmd shows what the insight tools measure, for people: models side by
// side (model_performance, model_compare, model_recommend) or Cairn's tool
// usage, as tables with bars; --json prints the tools' structured answer.
func statsCmd() *cobra.Command {
	var (
		days                 int
		by, taskType, models string
		class                string
		recommend            string
		compare, tools       bool
		asJSON               bool
	)
	cmd := &cobra.Command{
		Use:   "stats",
		Short: "What the agents' sessions measure: models side by side, or Cairn's tool usage (--tools)",
		Long: `Reads the sessions and the usage Cairn records (the insight toolset's data):
  cairn stats                    each model's sessions, test pass rate, failures, rework, time per task
  cairn stats --by client        the same by client (or agent)
  cairn stats --compare          models side by side, with the differences the sample shows
  cairn stats --recommend "fix the login form CSS"   the model with the best evidence, or none
  cairn stats --tools            tool calls: counts, error rates, p50/p95, common sequences
Rates carry 95% intervals. --json prints what the matching tool answers.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				ctx, w := cmd.Context(), cmd.OutOrStdout()
				q := insight.Query{Days: days, By: by, TaskType: taskType, Models: splitList(models), Task: recommend, Class: class}
				switch {
				case tools:
					u, err := s.Insight.ToolUsage(ctx, days, "", 20)
					if err != nil {
						return err
					}
					text, v := render.ToolUsage(u)
					if asJSON {
						return printJSON(w, v)
					}
					return toolTable(w, u, text)
				case cmd.Flags().Changed("recommend"):
					r, err := s.Insight.Recommend(ctx, q)
					if err != nil {
						return err
					}
					text, v := render.Recommend(r, s.Insight.MinSample())
					if asJSON {
						return printJSON(w, v)
					}
					_, err = fmt.Fprintln(w, text)
					return err
				case compare:
					c, err := s.Insight.Compare(ctx, q)
					if err != nil {
						return err
					}
					text, v := render.Compare(c)
					if asJSON {
						return printJSON(w, v)
					}
					_, err = fmt.Fprintln(w, text)
					return err
				}
				p, err := s.Insight.Performance(ctx, q)
				if err != nil {
					return err
				}
				_, v := render.Performance(p)
				if asJSON {
					return printJSON(w, v)
				}
				daily, err := s.Insight.Daily(ctx, q.Days)
				if err != nil {
					return err
				}
				return performanceTable(w, p, daily)
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&days, "days", 30, "the window, in days back from now")
	f.StringVar(&by, "by", "", "model (default), client or agent")
	f.StringVar(&taskType, "type", "", "only sessions of this task type: "+strings.Join(usage.TaskTypes, ", "))
	f.StringVar(&class, "class", "", "only sessions classify_task matched to this skill or agent (unknown: unclassified)")
	f.StringVar(&models, "models", "", "--compare: these models, comma-separated (default every one seen)")
	f.StringVar(&recommend, "recommend", "", "a task in words: the model with the best evidence for its type")
	f.BoolVar(&compare, "compare", false, "models side by side, with the differences the sample shows")
	f.BoolVar(&tools, "tools", false, "Cairn's tool usage instead of models")
	f.BoolVar(&asJSON, "json", false, "print the tool's structured answer as JSON")
	return cmd
}

// healthCmd shows project_health for people: the score, each component
// with a bar, and the sessions' test pass rate day by day.
func healthCmd() *cobra.Command {
	var (
		days   int
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "health",
		Short: "The project's health score (0-100) from named, weighted components, each with its trend and data",
		Long: `project_health for people: tests passing at session end, unresolved failures,
recurring mistakes, stale memory, blocked work, failed loops, lifecycle loop-backs and
bottlenecks, failing checks, tool errors; each with its weight (.cairn/config.toml's
[insight.health_weights]) and trend against the window before. --json prints the
tool's structured answer.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				h, err := s.Insight.Health(cmd.Context(), days)
				if err != nil {
					return err
				}
				_, v := render.Health(h)
				if asJSON {
					return printJSON(cmd.OutOrStdout(), v)
				}
				daily, err := s.Insight.Daily(cmd.Context(), days)
				if err != nil {
					return err
				}
				return healthTable(cmd.OutOrStdout(), h, daily)
			})
		},
	}
	cmd.Flags().IntVar(&days, "days", 30, "the window, in days back from now")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the tool's structured answer as JSON")
	return cmd
}

// shareBar draws a share (0 to 1) as a bar of width cells.
func shareBar(share float64, width int) string {
	if math.IsNaN(share) {
		share = 0
	}
	n := int(math.Round(max(0, min(1, share)) * float64(width)))
	return strings.Repeat("█", n) + strings.Repeat("·", width-n)
}

// sparkline draws values (0 to 1; negative: no data) a character each.
func sparkline(vs []float64) string {
	const ticks = "▁▂▃▄▅▆▇█"
	rs := []rune(ticks)
	var b strings.Builder
	for _, v := range vs {
		if v < 0 {
			b.WriteRune(' ')
			continue
		}
		b.WriteRune(rs[int(math.Round(min(1, v)*float64(len(rs)-1)))])
	}
	return b.String()
}

// passLine is the daily test pass rates as a sparkline.
func passLine(daily []insight.Day) string {
	vs := make([]float64, len(daily))
	for i, d := range daily {
		vs[i] = -1
		if d.TestPass.N > 0 {
			vs[i] = d.TestPass.P
		}
	}
	return sparkline(vs)
}

func pctOrDash(r usage.Rate) string {
	if r.N == 0 {
		return "-"
	}
	return fmt.Sprintf("%3.0f%% [%.0f-%.0f]", 100*r.P, 100*r.Lo, 100*r.Hi)
}

func performanceTable(w io.Writer, p insight.Performance, daily []insight.Day) error {
	if len(p.Groups) == 0 {
		_, err := fmt.Fprintln(w, "No sessions in the window: sessions come from the hooks (cairn init --hooks) or the session tool.")
		return err
	}
	fmt.Fprintf(w, "%d sessions in %d days, by %s; tests passing at session end, day by day: %s\n\n", p.Sessions, p.Days, p.By, passLine(daily))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.ToUpper(p.By)+"\tSESSIONS\tTASKS\tTESTS PASS\t\tFAILURES LEFT\tREWORK\tMIN/TASK")
	for _, g := range p.Groups {
		mt := "-"
		if g.TimePerTask.N > 0 {
			mt = fmt.Sprintf("%.3g", g.TimePerTask.Mid)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\n", g.Key, g.Sessions, g.Tasks, shareBar(g.TestPass.P, 10), pctOrDash(g.TestPass),
			pctOrDash(g.Failure), pctOrDash(g.Rework), mt)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nTests passing by task type:")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, strings.ToUpper(p.By)+"\t"+strings.ToUpper(strings.Join(usage.TaskTypes, "\t")))
	for _, g := range p.Groups {
		row := []string{g.Key}
		for _, t := range usage.TaskTypes {
			row = append(row, pctOrDash(g.ByType[t].TestPass))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
}

func toolTable(w io.Writer, u insight.ToolUsage, text string) error {
	if u.Calls == 0 {
		_, err := fmt.Fprintln(w, text)
		return err
	}
	fmt.Fprintf(w, "%d tool calls in %d days\n\n", u.Calls, u.Days)
	most := u.Tools[0].Calls
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TOOL\tCALLS\t\tERRORS\tP50\tP95\tBYTES")
	for _, t := range u.Tools {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%.1f%%\t%s\t%s\t%d\n", t.Tool, t.Calls, shareBar(float64(t.Calls)/float64(most), 12), 100*t.Errors.P,
			t.P50.Round(10e3), t.P95.Round(10e3), t.Bytes)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, s := range u.Sequences {
		if i == 0 {
			fmt.Fprintln(w, "\nCommon sequences:")
		}
		fmt.Fprintf(w, "  %s → %s  ×%d\n", s.From, s.To, s.Count)
	}
	if u.Dropped > 0 {
		fmt.Fprintf(w, "\n%d events dropped (the store was busy)\n", u.Dropped)
	}
	return nil
}

func healthTable(w io.Writer, h insight.Health, daily []insight.Day) error {
	fmt.Fprintf(w, "Project health %d/100  %s  (over %d days)\n", h.Score, shareBar(float64(h.Score)/100, 20), h.Days)
	fmt.Fprintf(w, "Tests passing at session end, day by day: %s\n\n", passLine(daily))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "COMPONENT\tSCORE\t\tWEIGHT\tTREND\tDATA")
	for _, c := range h.Components {
		score, b := "-", strings.Repeat(" ", 10)
		if c.HasData {
			score, b = fmt.Sprintf("%.0f", 100*c.Score), shareBar(c.Score, 10)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%g\t%s\t%s\n", c.Name, score, b, c.Weight, c.Trend, c.Detail)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, c := range h.Components {
		for i, p := range c.Phases {
			if i == 0 {
				fmt.Fprintln(w, "\nMedian time per lifecycle phase:")
			}
			h := func(x float64) string { return words.Duration(time.Duration(x * float64(time.Hour))) }
			fmt.Fprintf(w, "  %-14s %s %s [%s-%s] of %d\n", p.Phase, shareBar(p.Median.Mid/maxPhase(c.Phases), 20), h(p.Median.Mid), h(p.Median.Lo), h(p.Median.Hi), p.Median.N)
		}
	}
	if h.Bottleneck != "" {
		fmt.Fprintf(w, "Bottleneck: %s takes clearly longer than every other phase.\n", h.Bottleneck)
	}
	return nil
}

func maxPhase(ps []insight.PhaseTime) float64 {
	m := 0.0
	for _, p := range ps {
		m = max(m, p.Median.Mid)
	}
	if m == 0 {
		return 1
	}
	return m
}

// feedbackCmd rates a session, or one tool's answer in it, for a person at
// the terminal: the feedback tool's rating, given by a person.
func feedbackCmd() *cobra.Command {
	var session, tool, note string
	cmd := &cobra.Command{
		Use:   "feedback good|bad",
		Short: "Rate a session (default the newest) or one tool's answer in it: counted by stats and health",
		Long: `Rates the newest session, or --session's, good or bad; --tool rates that tool's
answer instead of the whole session; --note says why (redacted like all text).
cairn stats and cairn health count the ratings.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withProject(cmd, func(s *app.Services) error {
				r, err := s.Insight.Give(cmd.Context(), "", insight.Feedback{Session: session, Rating: args[0], Tool: tool, Note: note, By: insight.ByPerson})
				if err != nil {
					return err
				}
				_, err = fmt.Fprintf(cmd.OutOrStdout(), "Recorded: %s of %s rated %s (given %d times).\n", r.Target, r.Session, r.Rating, r.Count)
				return err
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&session, "session", "", "the session rated, such as s4 (default the newest)")
	f.StringVar(&tool, "tool", "", "rate this tool's answer in the session instead of the session")
	f.StringVar(&note, "note", "", "why, in a sentence")
	return cmd
}
