package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
)

// withProject opens the project of the working directory for one command.
func withProject(cmd *cobra.Command, fn func(s *app.Services) error) error {
	s, err := app.Open(cmd.Context(), app.Config{Embed: app.EmbedFromEnv()})
	if err != nil {
		return err
	}
	defer s.Close()
	return fn(s)
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// splitList reads a comma-separated flag value.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func tasksCmd() *cobra.Command {
	var (
		status, priority, sortBy string
		all, desc, asJSON        bool
		limit, offset            int
	)
	cmd := &cobra.Command{
		Use:   "tasks",
		Short: "List the plan's tasks as a table (open ones unless --all or --status)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			q := plan.TaskQuery{Statuses: splitList(status), Priorities: splitList(priority), OpenOnly: !all, Sort: sortBy,
				Page: page.Page{Offset: offset, Limit: limit}}
			if cmd.Flags().Changed("desc") {
				q.Order = "asc"
				if desc {
					q.Order = "desc"
				}
			}
			return withProject(cmd, func(s *app.Services) error {
				page, err := allTasks(cmd, s, q)
				if err != nil {
					return err
				}
				if asJSON {
					return printJSON(cmd.OutOrStdout(), map[string]any{"total": page.Total, "tasks": jsonItems(page.Items)})
				}
				return taskTable(cmd.OutOrStdout(), page.Items, page.Total, page.Offset)
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&status, "status", "", "only these statuses, comma-separated")
	f.StringVar(&priority, "priority", "", "only these priorities, comma-separated")
	f.BoolVar(&all, "all", false, "include done and cancelled tasks")
	f.StringVar(&sortBy, "sort", "id", "id, priority, created, updated or status")
	f.BoolVar(&desc, "desc", false, "sort descending (default for priority: most important first; --desc=false for low first)")
	f.IntVar(&limit, "limit", 0, "show at most this many (0: all, read a page at a time)")
	f.IntVar(&offset, "offset", 0, "skip this many")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

type jsonTask struct {
	ID       string     `json:"id"`
	Ref      string     `json:"ref,omitempty"`
	Title    string     `json:"title"`
	Status   string     `json:"status"`
	Priority string     `json:"priority"`
	Deps     []string   `json:"dependencies,omitempty"`
	Created  string     `json:"createdAt"`
	Updated  string     `json:"updatedAt"`
	Claim    *jsonClaim `json:"claim,omitempty"`
	Phase    string     `json:"phase,omitempty"`
}

type jsonClaim struct {
	Agent string `json:"agent"`
	Until string `json:"until"`
}

// held is a task's claim and phase as the table and show print them.
func held(c *task.Claim, l *plan.LifecycleMark, now time.Time) string {
	var out string
	if l != nil {
		out += fmt.Sprintf(" [phase %s, lifecycle %d]", l.Phase, l.ID)
	}
	switch {
	case c == nil:
	case c.Live(now):
		out += fmt.Sprintf(" [claimed by %s until %s]", c.Agent, when(c.ExpiresAt))
	default:
		out += fmt.Sprintf(" [claim by %s expired %s]", c.Agent, when(c.ExpiresAt))
	}
	return out
}

// allTasks is the page q asks for; with no limit, every page from q's
// offset on, read at the service's largest page size.
func allTasks(cmd *cobra.Command, s *app.Services, q plan.TaskQuery) (plan.TaskPage, error) {
	if q.Limit != 0 {
		return s.Plan.List(cmd.Context(), q)
	}
	q.Limit = page.Plan.Max
	var all plan.TaskPage
	for {
		page, err := s.Plan.List(cmd.Context(), q)
		if err != nil {
			return plan.TaskPage{}, err
		}
		if all.Items == nil {
			all.Offset = page.Offset
		}
		all.Items, all.Total = append(all.Items, page.Items...), page.Total
		if page.NextOffset == 0 {
			return all, nil
		}
		q.Offset = page.NextOffset
	}
}

func jsonItems(items []plan.Item) []jsonTask {
	out := []jsonTask{}
	for _, it := range items {
		j := jsonTask{ID: it.ID.String(), Title: it.Title, Status: string(it.Status), Priority: string(it.Priority),
			Created: render.Time(it.CreatedAt), Updated: render.Time(it.UpdatedAt)}
		if it.ParentID != 0 {
			j.Ref = task.RefString(it.Task)
		}
		for _, d := range it.Deps {
			j.Deps = append(j.Deps, d.String())
		}
		if it.Claim != nil {
			j.Claim = &jsonClaim{Agent: it.Claim.Agent, Until: render.Time(it.Claim.ExpiresAt)}
		}
		if it.Lifecycle != nil {
			j.Phase = it.Lifecycle.Phase
		}
		out = append(out, j)
	}
	return out
}

func taskTable(w io.Writer, items []plan.Item, total, offset int) error {
	if total == 0 {
		_, err := fmt.Fprintln(w, "No tasks. Agents add them with create_task or create_new_task; `cairn tasks --all` shows done ones.")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSUBTASK\tSTATUS\tPRIORITY\tAFTER\tTITLE")
	now := time.Now()
	for _, it := range items {
		ref := "-"
		if it.ParentID != 0 {
			ref = task.RefString(it.Task)
		}
		deps := "-"
		if len(it.Deps) > 0 {
			ds := make([]string, len(it.Deps))
			for i, d := range it.Deps {
				ds[i] = d.String()
			}
			deps = strings.Join(ds, ",")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s%s\n", it.ID, ref, it.Status, it.Priority, deps, it.Title, held(it.Claim, it.Lifecycle, now))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(items) < total {
		_, err := fmt.Fprintf(w, "(%d-%d of %d; --offset %d for more)\n", offset+1, offset+len(items), total, offset+len(items))
		return err
	}
	return nil
}

func nextCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "next",
		Short: "Show the task to work on next, and why",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				r, err := s.Plan.Next(cmd.Context(), plan.NextQuery{})
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if asJSON {
					out := map[string]any{"rationale": r.Rationale}
					if r.Task != nil {
						out["task"] = jsonItems([]plan.Item{{Task: *r.Task}})[0]
					}
					return printJSON(w, out)
				}
				if r.Task == nil {
					if r.Hint != problem.NoAction {
						r.Rationale += "; " + commandHints(r.Hint) + "."
					}
					_, err := fmt.Fprintln(w, r.Rationale)
					return err
				}
				d, err := s.Plan.Get(cmd.Context(), r.Task.ID.String())
				if err != nil {
					return err
				}
				fmt.Fprintln(w, r.Rationale)
				fmt.Fprintln(w)
				return showDetail(w, d)
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func showCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "show ID",
		Short: "Show one task in full (ID, or parentId.N for a subtask)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withProject(cmd, func(s *app.Services) error {
				d, err := s.Plan.Get(cmd.Context(), args[0])
				if err != nil {
					return err
				}
				return showDetail(cmd.OutOrStdout(), d)
			})
		},
	}
}

func showDetail(w io.Writer, d plan.Detail) error {
	fmt.Fprintf(w, "%s  %s\n", d.ID, d.Title)
	if d.ParentID != 0 {
		fmt.Fprintf(w, "subtask %s of %s\n", task.RefString(d.Task), d.ParentID)
	}
	fmt.Fprintf(w, "status %s, priority %s, created %s, updated %s", d.Status, d.Priority,
		when(d.CreatedAt), when(d.UpdatedAt))
	if !d.CompletedAt.IsZero() {
		fmt.Fprintf(w, ", done %s", when(d.CompletedAt))
	}
	fmt.Fprintln(w)
	if h := held(d.Claim, d.Lifecycle, time.Now()); h != "" {
		fmt.Fprintln(w, strings.TrimSpace(h))
	}
	for _, r := range d.Imports {
		fmt.Fprintln(w, r)
	}
	list := func(name string, ts []task.Task) {
		if len(ts) == 0 {
			return
		}
		fmt.Fprintf(w, "\n%s:\n", name)
		for _, t := range ts {
			fmt.Fprintf(w, "  %-6s %-12s %s\n", t.ID, t.Status, t.Title)
		}
	}
	list("Depends on", d.Deps)
	list("Dependents", d.Dependents)
	list("Subtasks", d.Subtasks)
	if d.Body != "" {
		fmt.Fprintf(w, "\n%s\n", d.Body)
	}
	return nil
}
