package render

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/words"
)

// SessionLine is a session in one line.
func SessionLine(s memory.Session) string { return SessionLineClip(s, SessionListClip) }

// SessionLineClip is SessionLine with the goal clipped at clip bytes (zero:
// whole).
func SessionLineClip(s memory.Session, clip int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", s.ID)
	if s.ThreadID != s.ID {
		fmt.Fprintf(&b, " (thread %s)", s.ThreadID)
	}
	state := "open"
	if !s.Open() {
		state = s.Outcome
	}
	fmt.Fprintf(&b, " %s %s", state, s.StartedAt.Format("2006-01-02 15:04"))
	if s.Branch != "" {
		b.WriteString(" on " + s.Branch)
	}
	if s.Goal != "" {
		goal := s.Goal
		if clip > 0 {
			goal = flat(problem.Clip(goal, clip))
		}
		b.WriteString(": " + goal)
	}
	if n := s.Record.Total(memory.EventDecision); n > 0 {
		b.WriteString(" [" + words.Plural(n, "decision", "decisions") + "]")
	}
	return b.String()
}

// Session is a session and its record as text, for the model and people
// alike (session get, cairn session ID).
func Session(s memory.Session) string {
	var b strings.Builder
	b.WriteString(SessionLineClip(s, 0))
	if s.ParentID != 0 {
		b.WriteString("\nparent: " + s.ParentID.String())
	}
	if s.Client.Name != "" {
		b.WriteString("\nclient: " + s.Client.Name)
		if s.Client.SessionID != "" {
			b.WriteString(" session " + s.Client.SessionID)
		}
	}
	if s.AI.Provider != "" || s.AI.Model != "" {
		fmt.Fprintf(&b, "\nai: %s %s via %s", s.AI.Provider, s.AI.Model, s.AI.Client)
	}
	if !s.Open() {
		fmt.Fprintf(&b, "\nended %s (%s)", s.EndedAt.Format(time.RFC3339), memories.Took(s.StartedAt, s.EndedAt))
		if s.OutcomeWhy != "" {
			b.WriteString("; " + s.Outcome + ": " + s.OutcomeWhy)
		}
	}
	if s.Summary != "" {
		b.WriteString("\n" + s.Summary)
	}
	r := s.Record
	Record(&b, r.Decisions(), r.ResolvedErrors(), r.Subjects(memory.EventFile), r.Subjects(memory.EventTask), s.TasksPending)
	for _, t := range r.Of(memory.EventTest) {
		fmt.Fprintf(&b, "\ntest run: %s: %s", t.Subject, t.Detail)
		if t.Test != nil && len(t.Test.Failing) > 0 {
			b.WriteString(" (" + strings.Join(t.Test.Failing, ", ") + ")")
		}
		if t.Count > 1 {
			fmt.Fprintf(&b, ", run %d times", t.Count)
		}
	}
	if fs := r.Of(memory.EventFailure); len(fs) > 0 {
		b.WriteString("\nfailures:")
		for _, f := range fs {
			state := "unresolved"
			if !f.ResolvedAt.IsZero() {
				state = "resolved by a later run"
			}
			line := "\n- " + f.Subject + ": " + f.Detail + " (" + state
			if f.Count > 1 {
				line += fmt.Sprintf(", %d times", f.Count)
			}
			b.WriteString(line + ")")
		}
	}
	if ms := r.Of(memory.EventMemory); len(ms) > 0 {
		b.WriteString("\nmemory written: " + strings.Join(r.Subjects(memory.EventMemory), ", "))
	}
	for _, k := range []memory.EventKind{memory.EventLoop, memory.EventLifecycle, memory.EventRevert} {
		for _, e := range r.Of(k) {
			fmt.Fprintf(&b, "\n%s %s: %s", k, e.Subject, e.Detail)
		}
	}
	for _, e := range r.Of(memory.EventFeedback) {
		fmt.Fprintf(&b, "\nfeedback %s on %s (%s)", e.Detail, e.Subject, e.Type)
		if e.Note != "" {
			b.WriteString(": " + e.Note)
		}
	}
	var capped []string
	for _, k := range memory.EventKinds {
		if shown, n := len(r.Of(k)), r.Total(k); n > shown {
			capped = append(capped, fmt.Sprintf("%d of %d %s", shown, n, k))
		}
	}
	if len(capped) > 0 {
		b.WriteString("\n(newest shown: " + strings.Join(capped, ", ") + ")")
	}
	return b.String()
}

func Record(b *strings.Builder, ds []memory.Note, rs []memory.Resolved, files, done, pending []string) {
	if len(ds) > 0 {
		b.WriteString("\ndecisions:")
		for _, d := range ds {
			b.WriteString("\n- " + d.Decision)
			if d.Reasoning != "" {
				b.WriteString(" (because " + d.Reasoning + ")")
			}
		}
	}
	if len(rs) > 0 {
		b.WriteString("\nerrors resolved:")
		for _, r := range rs {
			b.WriteString("\n- " + r.Error)
			if r.Fix != "" {
				b.WriteString(" → " + r.Fix)
			}
		}
	}
	for _, l := range []struct {
		name  string
		items []string
	}{{"files modified", files}, {"tasks completed", done}, {"tasks pending", pending}} {
		if len(l.items) > 0 {
			b.WriteString("\n" + l.name + ": " + strings.Join(l.items, ", "))
		}
	}
}

type NoteView struct {
	Decision  string `json:"decision"`
	Reasoning string `json:"reasoning,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	At        string `json:"at,omitempty"`
}

type ResolvedView struct {
	Error     string `json:"error"`
	Fix       string `json:"fix,omitempty"`
	SessionID string `json:"session_id,omitempty"`
	At        string `json:"at,omitempty"`
}

// SessionHead is what a session's views share: who, where, when.
type SessionHead struct {
	ID        string           `json:"id"`
	ThreadID  string           `json:"thread_id"`
	ParentID  string           `json:"parent_id,omitempty"`
	Agent     string           `json:"agent,omitempty"`
	Client    string           `json:"client,omitempty"`
	Branch    string           `json:"branch,omitempty"`
	Goal      string           `json:"goal,omitempty"`
	AI        *memory.Provider `json:"ai,omitempty"`
	StartedAt string           `json:"started_at"`
	EndedAt   string           `json:"ended_at,omitempty"`
}

// HeadOf is s's head with its goal clipped at clip bytes (zero: whole).
func HeadOf(s memory.Session, clip int) SessionHead {
	h := SessionHead{ID: s.ID.String(), ThreadID: s.ThreadID.String(), ParentID: s.ParentID.String(), Agent: s.Agent, Client: s.Client.Name,
		Branch: s.Branch, Goal: s.Goal, StartedAt: Time(s.StartedAt), EndedAt: Time(s.EndedAt)}
	if clip > 0 {
		h.Goal = problem.Clip(s.Goal, clip)
	}
	if s.AI != (memory.Provider{}) {
		ai := s.AI
		h.AI = &ai
	}
	return h
}

// TestView is a test run as session get shows it: its command's last run.
type TestView struct {
	Command string   `json:"command"`
	Runner  string   `json:"runner,omitempty"`
	OK      bool     `json:"ok"`
	NoTests bool     `json:"no_tests,omitempty"`
	Passed  int      `json:"passed,omitempty"`
	Failed  int      `json:"failed,omitempty"`
	Skipped int      `json:"skipped,omitempty"`
	Failing []string `json:"failing,omitempty"` // the first failing tests
	Runs    int      `json:"runs,omitempty"`
	At      string   `json:"at"`
}

// FailureView is a distinct failure of a command.
type FailureView struct {
	Command  string   `json:"command"`
	Line     string   `json:"line"`
	Type     string   `json:"type,omitempty"` // the error's type or code: ValueError, E0308
	Tail     []string `json:"tail,omitempty"`
	Times    int      `json:"times,omitempty"`
	Resolved string   `json:"resolved_at,omitempty"`
	At       string   `json:"at"`
}

type SessionView struct {
	SessionHead
	// ClientSession is the client's own id of the session (Claude Code's
	// session_id), which the session is keyed by.
	ClientSession  string         `json:"client_session,omitempty"`
	Decisions      []NoteView     `json:"decisions,omitempty"`
	ErrorsResolved []ResolvedView `json:"errors_resolved,omitempty"`
	FilesModified  []string       `json:"files_modified,omitempty"`
	TasksCompleted []string       `json:"tasks_completed,omitempty"`
	TasksPending   []string       `json:"tasks_pending,omitempty"`
	Tests          []TestView     `json:"tests,omitempty"`
	Failures       []FailureView  `json:"failures,omitempty"`
	MemoryWritten  []string       `json:"memory_written,omitempty"`
	// Reverts are the work the session undid ("what: evidence"), Feedback
	// the ratings it received ("bad on memory_search (agent): note").
	Reverts  []string `json:"reverts,omitempty"`
	Feedback []string `json:"feedback,omitempty"`
	// Totals count each list whole where it shows only its newest.
	Totals     map[string]int `json:"totals,omitempty"`
	Outcome    string         `json:"outcome,omitempty"`
	OutcomeWhy string         `json:"outcome_why,omitempty"`
	Summary    string         `json:"summary,omitempty"`
}

// SessionListClip is how much of a session's goal and summary the session
// list shows; session get shows them whole, with the lists the list counts.
const SessionListClip = 120

// SessionBrief is a session as the list shows it: its lists counted, its
// goal and summary clipped. A session list answered with every session's
// every decision, file and task: 4 KB a session, 80 KB a page.
type SessionBrief struct {
	SessionHead
	Outcome        string `json:"outcome,omitempty"`
	Summary        string `json:"summary,omitempty"`
	Decisions      int    `json:"decisions,omitempty"`
	ErrorsResolved int    `json:"errors_resolved,omitempty"`
	FilesModified  int    `json:"files_modified,omitempty"`
	TasksCompleted int    `json:"tasks_completed,omitempty"`
	TasksPending   int    `json:"tasks_pending,omitempty"`
	TestsRun       int    `json:"tests_run,omitempty"`
	Failures       int    `json:"failures,omitempty"`
	MemoryWritten  int    `json:"memory_written,omitempty"`
}

func BriefOf(s memory.Session) SessionBrief {
	r := s.Record
	return SessionBrief{SessionHead: HeadOf(s, SessionListClip), Outcome: s.Outcome,
		Summary: problem.Clip(s.Summary, SessionListClip), Decisions: r.Total(memory.EventDecision), ErrorsResolved: r.Total(memory.EventResolved),
		FilesModified: r.Total(memory.EventFile), TasksCompleted: r.Total(memory.EventTask), TasksPending: len(s.TasksPending),
		TestsRun: r.Total(memory.EventTest), Failures: r.Total(memory.EventFailure), MemoryWritten: r.Total(memory.EventMemory)}
}

func NotesOf(ns []memory.Note, rs []memory.Resolved) ([]NoteView, []ResolvedView) {
	var nv []NoteView
	for _, n := range ns {
		nv = append(nv, NoteView{Decision: n.Decision, Reasoning: n.Reasoning, SessionID: n.SessionID.String(), At: Time(n.At)})
	}
	var rv []ResolvedView
	for _, r := range rs {
		rv = append(rv, ResolvedView{Error: r.Error, Fix: r.Fix, SessionID: r.SessionID.String(), At: Time(r.At)})
	}
	return nv, rv
}

func SessionViewOf(s memory.Session) SessionView {
	r := s.Record
	v := SessionView{SessionHead: HeadOf(s, 0), ClientSession: s.Client.SessionID, FilesModified: r.Subjects(memory.EventFile), TasksCompleted: r.Subjects(memory.EventTask),
		TasksPending: s.TasksPending, MemoryWritten: r.Subjects(memory.EventMemory), Outcome: s.Outcome, OutcomeWhy: s.OutcomeWhy, Summary: s.Summary}
	v.Decisions, v.ErrorsResolved = NotesOf(r.Decisions(), r.ResolvedErrors())
	for _, t := range r.Of(memory.EventTest) {
		tv := TestView{Command: t.Subject, Runs: t.Count, At: Time(t.At)}
		if t.Test != nil {
			tv.Runner, tv.OK, tv.NoTests, tv.Passed, tv.Failed, tv.Skipped, tv.Failing = t.Test.Runner, t.Test.OK, t.Test.None, t.Test.Passed, t.Test.Failed, t.Test.Skipped, t.Test.Failing
		}
		v.Tests = append(v.Tests, tv)
	}
	for _, f := range r.Of(memory.EventFailure) {
		v.Failures = append(v.Failures, FailureView{Command: f.Subject, Line: f.Detail, Type: f.Type, Tail: f.Tail, Times: f.Count, Resolved: Time(f.ResolvedAt), At: Time(f.At)})
	}
	for _, e := range r.Of(memory.EventRevert) {
		v.Reverts = append(v.Reverts, e.Subject+": "+e.Detail)
	}
	for _, e := range r.Of(memory.EventFeedback) {
		f := fmt.Sprintf("%s on %s (%s)", e.Detail, e.Subject, e.Type)
		if e.Note != "" {
			f += ": " + e.Note
		}
		v.Feedback = append(v.Feedback, f)
	}
	for _, k := range memory.EventKinds {
		if n := r.Total(k); n > len(r.Of(k)) {
			if v.Totals == nil {
				v.Totals = map[string]int{}
			}
			v.Totals[string(k)] = n
		}
	}
	return v
}
