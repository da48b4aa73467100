package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/words"
)

// sessionsCmd lists the project's sessions, newest first: what the session
// tool's list shows, as a table.
func sessionsCmd() *cobra.Command {
	var (
		branch, thread string
		open, asJSON   bool
		limit, offset  int
	)
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List the agents' sessions, newest first: outcome, what each recorded",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withProject(cmd, func(s *app.Services) error {
				l, err := s.Memory.Sessions(cmd.Context(), memories.SessionQuery{ThreadID: thread, Branch: branch, OpenOnly: open,
					Page: page.Page{Offset: offset, Limit: limit}})
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if asJSON {
					out := struct {
						Sessions   []render.SessionBrief `json:"sessions"`
						Total      int                   `json:"total"`
						NextOffset int                   `json:"next_offset,omitempty"`
					}{Sessions: []render.SessionBrief{}, Total: l.Total, NextOffset: l.NextOffset}
					for _, x := range l.Sessions {
						out.Sessions = append(out.Sessions, render.BriefOf(x))
					}
					return printJSON(w, out)
				}
				if l.Total == 0 {
					_, err := fmt.Fprintln(w, "No sessions yet. Agents open them with the session tool, or the hooks do (cairn init --hooks).")
					return err
				}
				tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
				fmt.Fprintln(tw, "ID\tSTATE\tSTARTED\tTOOK\tAGENT\tBRANCH\tRECORD\tGOAL")
				for _, x := range l.Sessions {
					state, end := x.Outcome, x.EndedAt
					if x.Open() {
						state = "open"
					}
					took := "-"
					if !end.IsZero() {
						took = memories.Took(x.StartedAt, end)
					}
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", x.ID, state, when(x.StartedAt), took,
						x.Agent, x.Branch, recordCounts(x.Record), words.OneLine(x.Goal, 60))
				}
				if err := tw.Flush(); err != nil {
					return err
				}
				if l.NextOffset != 0 {
					fmt.Fprintf(w, "%d of %d; --offset %d shows older\n", len(l.Sessions), l.Total, l.NextOffset)
				}
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&branch, "branch", "", "sessions on this git branch")
	f.StringVar(&thread, "thread", "", "one thread (a session id, such as s4)")
	f.BoolVar(&open, "open", false, "open sessions only")
	f.IntVar(&limit, "limit", 0, fmt.Sprintf("sessions to show, 1 to %d (default %d)", page.Session.Max, page.Session.Default))
	f.IntVar(&offset, "offset", 0, "sessions to skip")
	f.BoolVar(&asJSON, "json", false, "print the session tool's list as JSON")
	return cmd
}

// recordCounts is a session's record counted in a table cell: "3 files, 2
// tests, 1 failure".
func recordCounts(r memory.Record) string {
	var out string
	add := func(n int, one, many string) {
		if n == 0 {
			return
		}
		if out != "" {
			out += ", "
		}
		out += words.Plural(n, one, many)
	}
	add(r.Total(memory.EventFile), "file", "files")
	add(r.Total(memory.EventTest), "test run", "test runs")
	add(r.Total(memory.EventFailure), "failure", "failures")
	add(r.Total(memory.EventTask), "task", "tasks")
	add(r.Total(memory.EventDecision), "decision", "decisions")
	add(r.Total(memory.EventMemory), "entry", "entries")
	if out == "" {
		return "-"
	}
	return out
}

// sessionCmd shows one session and its record, as the session tool's get.
func sessionCmd() *cobra.Command {
	var (
		asJSON bool
		limit  int
	)
	cmd := &cobra.Command{
		Use:   "session ID",
		Short: "Show a session and its record: files, test runs, failures, tasks, decisions, outcome",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withProject(cmd, func(s *app.Services) error {
				x, err := s.Memory.Session(cmd.Context(), "", args[0], page.Page{Limit: limit})
				if err != nil {
					return err
				}
				w := cmd.OutOrStdout()
				if asJSON {
					v := render.SessionViewOf(x)
					return printJSON(w, struct {
						Session *render.SessionView `json:"session"`
					}{&v})
				}
				_, err = fmt.Fprintln(w, render.Session(x))
				return err
			})
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 0, fmt.Sprintf("newest items of each list, 1 to %d (default %d)", page.Record.Max, page.Record.Default))
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the session tool's answer as JSON")
	return cmd
}
