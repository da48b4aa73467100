package memory

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Missing names what was not found: What is "entry", "session" or
// "branch context".
type Missing struct {
	What string
	ID   string
}

// listing is what lists the ids of each kind of thing.
var listing = map[string]problem.Action{"session": problem.ListSessions, "branch context": problem.ListBranches}

// NotFound refuses id: no entry, session or branch context (what) has it.
// The Missing is the Error's Detail.
func NotFound(what, id string) error {
	hint, ok := listing[what]
	if !ok {
		hint = problem.SearchMemory
	}
	return &problem.Error{Kind: problem.NotFound, Problem: fmt.Sprintf("%s %s not found", what, id), Hint: hint,
		Detail: Missing{What: what, ID: id}}
}

// MissingOf returns what err says was not found.
func MissingOf(err error) (Missing, bool) { return problem.DetailOf[Missing](err) }

// SessionID is a session's number within its project, shown as "s4".
type SessionID int64

// String renders the id as agents see it.
func (id SessionID) String() string {
	if id == 0 {
		return ""
	}
	return "s" + strconv.FormatInt(int64(id), 10)
}

// ParseSessionID reads "s4" or "4".
func ParseSessionID(s string) (SessionID, error) {
	s = strings.TrimSpace(s)
	n := strings.TrimPrefix(strings.TrimPrefix(s, "s"), "S")
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil || v <= 0 || n == "" || n[0] == '+' {
		return 0, fmt.Errorf("%q is not a session id", s)
	}
	return SessionID(v), nil
}

// Note is a decision as a session or branch records it.
type Note struct {
	Decision  string    `json:"decision"`
	Reasoning string    `json:"reasoning,omitempty"`
	SessionID SessionID `json:"sessionId,omitempty"`
	At        time.Time `json:"at,omitzero"`
}

// Resolved is an error met and how it was fixed.
type Resolved struct {
	Error     string    `json:"error"`
	Fix       string    `json:"fix,omitempty"`
	SessionID SessionID `json:"sessionId,omitempty"`
	At        time.Time `json:"at,omitzero"`
}

// Provider is the AI behind a session.
type Provider struct {
	Provider string `json:"provider,omitempty"` // anthropic, openai, ollama, …
	Model    string `json:"model,omitempty"`
	Client   string `json:"client,omitempty"`  // claude-code, cursor, …
	Version  string `json:"version,omitempty"` // the client's version
}

// With is p with the fields o sets replacing its own: what a client or
// agent says of its AI adds to what was known, and an empty field never
// erases one.
func (p Provider) With(o Provider) Provider {
	for _, f := range []struct {
		dst *string
		src string
	}{{&p.Provider, o.Provider}, {&p.Model, o.Model}, {&p.Client, o.Client}, {&p.Version, o.Version}} {
		if f.src != "" {
			*f.dst = f.src
		}
	}
	return p
}

// Outcomes a session can end with.
var Outcomes = []string{"success", "partial", "failed", "abandoned"}

// Client is the agent's client a session belongs to: its name, its own id
// for the session (Claude Code's and Gemini CLI's session_id), and the
// process that runs it, which the client's MCP servers descend from too.
type Client struct {
	Name      string
	SessionID string
	Proc      Proc
}

// Key is what names the session among a project's: the client's name and
// its session id; "" when the client gave none.
func (c Client) Key() string {
	if c.SessionID == "" {
		return ""
	}
	return c.Name + ":" + c.SessionID
}

// Proc names a process across time: its pid and when it started (in the
// operating system's own ticks), so that a pid the system reuses is not
// taken for the old process.
type Proc struct {
	PID   int
	Start uint64
}

// Session is one working session of an agent: its head, and what happened
// in it (Record), read from its events. Sessions thread: a session started
// from a parent joins the parent's thread, so memory carries across
// reconnects.
type Session struct {
	ID        SessionID
	ThreadID  SessionID
	ParentID  SessionID
	Agent     string
	Client    Client
	Branch    string
	Goal      string
	AI        Provider
	StartedAt time.Time
	EndedAt   time.Time
	// TasksPending is what the agent said is left (session update's
	// tasks_pending, which replaces it).
	TasksPending []string

	Outcome string // one of Outcomes, once ended
	// OutcomeWhy says what the outcome was made from: the evidence when
	// Cairn computed it, or that the agent said so.
	OutcomeWhy string
	Summary    string

	Record Record
}

// Open reports whether the session has not ended.
func (s Session) Open() bool { return s.EndedAt.IsZero() }

// EventKind is what an event of a session records.
type EventKind string

// The kinds of session events, and what each one's Key is.
const (
	EventFile      EventKind = "file"      // a file modified; Key: its path in the project
	EventTest      EventKind = "test"      // a test run; Key: the command
	EventFailure   EventKind = "failure"   // a command that failed; Key: the command and the failure's fingerprint
	EventTask      EventKind = "task"      // a task completed; Key: its id
	EventMemory    EventKind = "memory"    // a memory entry written; Key: its id
	EventDecision  EventKind = "decision"  // a decision the agent noted; Key: a digest of it
	EventResolved  EventKind = "resolved"  // an error the agent noted as fixed; Key: a digest of it
	EventLoop      EventKind = "loop"      // a loop iteration or end; Key: the loop and its iteration
	EventLifecycle EventKind = "lifecycle" // a lifecycle phase change; Key: the lifecycle and its phase
	// EventRevert is work undone: a commit reverted or an edit undone in
	// the session; Key: what was undone, Detail: the evidence.
	EventRevert EventKind = "revert"
	// EventFeedback is a rating a person or agent gave the session or one
	// of its answers; Key: the rating, what it rates and a digest of the
	// note; Subject: "session" or the tool; Detail: good or bad; Type: who
	// gave it (person or agent); Note: the note, redacted.
	EventFeedback EventKind = "feedback"
	// EventEdit is a file edit's digests, kept so that an edit that undoes
	// an earlier one is seen (not shown in the record); Key: the path and
	// the digests of the text replaced and of the text put in.
	EventEdit EventKind = "edit"
)

// What a revert event's Key starts with ("commit:…", "edit:…").
const (
	RevertCommit = "commit"
	RevertEdit   = "edit"
)

// EventKinds lists the kinds in the order a record shows them.
var EventKinds = []EventKind{EventTest, EventFailure, EventFile, EventTask, EventMemory, EventDecision, EventResolved, EventLoop, EventLifecycle, EventRevert, EventFeedback}

// Event is one thing that happened in a session. An event recorded again
// (the same kind and key) is counted, not repeated: Count and At grow.
type Event struct {
	Session SessionID
	Kind    EventKind
	Key     string
	// Subject is what the event is about (the file, the command, the task
	// or entry id); Detail says what happened, in a line.
	Subject string
	Detail  string
	// Note is more: a decision's reasoning, a fix.
	Note string
	// Tail is the last lines of a failure's output; Type the error's type
	// where the language names one (ValueError, E0308).
	Tail []string
	Type string
	// Test is a test run's result.
	Test *TestResult
	// ResolvedAt is when a later run of the same command passed (a
	// failure), zero while unresolved.
	ResolvedAt time.Time
	Count      int
	FirstAt    time.Time
	At         time.Time
}

// TestResult is what a test run said.
type TestResult struct {
	Runner string
	// OK says no test failed; None that the run found no test to run.
	OK      bool
	None    bool
	Passed  int
	Failed  int
	Skipped int
	// Counted says the runner's output gave the counts; without it only OK
	// is known (from the exit status).
	Counted bool
	Summary string   // the runner's own summary line
	Failing []string // the first failing tests' names
}

// Record is what happened in a session, from its events: the newest of
// each kind (at most a page each) and how many there are of each.
type Record struct {
	Events map[EventKind][]Event // newest first
	Totals map[EventKind]int
}

// Of returns the record's events of a kind, newest first.
func (r Record) Of(k EventKind) []Event { return r.Events[k] }

// Total is how many events of kind k the session holds, shown or not.
func (r Record) Total(k EventKind) int { return r.Totals[k] }

// Subjects returns the subjects of the record's events of kind k, newest
// first.
func (r Record) Subjects(k EventKind) []string {
	es := r.Events[k]
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Subject
	}
	return out
}

// Unresolved returns the record's failures no later run fixed, newest
// first.
func (r Record) Unresolved() []Event {
	var out []Event
	for _, e := range r.Events[EventFailure] {
		if e.ResolvedAt.IsZero() {
			out = append(out, e)
		}
	}
	return out
}

// LastTests returns the newest run of each test command, newest first: a
// session's tests pass at its end when each of these did.
func (r Record) LastTests() []Event {
	return r.Events[EventTest] // one event a command: At is its last run
}

// Outcome works out how a session ended from its record, and says why:
// completed when its last test runs passed (or, with no tests run, when it
// completed tasks and left no failure unresolved); failed when a last test
// run failed, or failures are unresolved and nothing was completed;
// partial otherwise. Work the session reverted (commits, edits undone) is
// named in why: evidence beside the outcome, which it does not change.
func (r Record) Outcome() (outcome, why string) {
	outcome, why = r.outcome()
	if n := r.Total(EventRevert); n > 0 {
		why += fmt.Sprintf("; reverted %d time(s): %s", n, quoteList(r.Subjects(EventRevert), 2))
	}
	return outcome, why
}

func (r Record) outcome() (outcome, why string) {
	tests, open := r.LastTests(), r.Unresolved()
	var failing []string
	for _, t := range tests {
		if t.Test != nil && !t.Test.OK {
			failing = append(failing, t.Subject)
		}
	}
	done := r.Total(EventTask)
	switch {
	case len(failing) > 0:
		return "failed", fmt.Sprintf("the last run of %s failed", quoteList(failing, 2))
	case len(tests) > 0 && len(open) == 0:
		return "success", fmt.Sprintf("the last run of %s passed", quoteList(subjects(tests), 2))
	case len(tests) > 0:
		return "partial", fmt.Sprintf("tests passed, but %d failed command(s) were not run again successfully (%s)", len(open), quoteList(subjects(open), 2))
	case done > 0 && len(open) == 0:
		return "success", fmt.Sprintf("%d task(s) completed, no failure left unresolved; no tests were run", done)
	case len(open) > 0 && done == 0:
		return "failed", fmt.Sprintf("%d failed command(s) left unresolved and nothing completed (%s)", len(open), quoteList(subjects(open), 2))
	case len(open) > 0:
		return "partial", fmt.Sprintf("%d task(s) completed, but %d failed command(s) left unresolved", done, len(open))
	}
	return "partial", "no tests run, no task completed: nothing shows the work is done"
}

func subjects(es []Event) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Subject
	}
	return out
}

// quoteList quotes the first n items and counts the rest.
func quoteList(items []string, n int) string {
	var qs []string
	for i, s := range items {
		if i == n {
			qs = append(qs, fmt.Sprintf("%d more", len(items)-n))
			break
		}
		qs = append(qs, strconv.Quote(s))
	}
	return strings.Join(qs, ", ")
}

// Decisions are the record's decisions as notes, newest first.
func (r Record) Decisions() []Note {
	var out []Note
	for _, e := range r.Events[EventDecision] {
		out = append(out, Note{Decision: e.Detail, Reasoning: e.Note, SessionID: e.Session, At: e.FirstAt})
	}
	return out
}

// ResolvedErrors are the record's errors noted as fixed, newest first.
func (r Record) ResolvedErrors() []Resolved {
	var out []Resolved
	for _, e := range r.Events[EventResolved] {
		out = append(out, Resolved{Error: e.Detail, Fix: e.Note, SessionID: e.Session, At: e.FirstAt})
	}
	return out
}

// BranchContext is what a git branch's work has learned, kept across the
// sessions on it until the branch is merged or promoted.
type BranchContext struct {
	Branch         string     `json:"branch"`
	Feature        string     `json:"feature,omitempty"`
	Phase          string     `json:"phase,omitempty"`
	Notes          string     `json:"notes,omitempty"`
	Decisions      []Note     `json:"decisions,omitempty"`
	Errors         []Resolved `json:"errors,omitempty"`
	FilesModified  []string   `json:"filesModified,omitempty"`
	TasksCompleted []string   `json:"tasksCompleted,omitempty"`
	TasksPending   []string   `json:"tasksPending,omitempty"`
	Sessions       int        `json:"sessions,omitempty"`
	// MergedInto names the branch this one was folded into; PromotedAt is
	// when its decisions last became permanent memory.
	MergedInto string    `json:"mergedInto,omitempty"`
	PromotedAt time.Time `json:"promotedAt,omitzero"`
	UpdatedAt  time.Time `json:"updatedAt"`
}

// Union appends to dst the items of src it does not already hold.
func Union(dst, src []string) []string {
	seen := make(map[string]bool, len(dst))
	for _, s := range dst {
		seen[s] = true
	}
	for _, s := range src {
		if s = strings.TrimSpace(s); s != "" && !seen[s] {
			seen[s] = true
			dst = append(dst, s)
		}
	}
	return dst
}

// Merge folds src's context into dst: lists are unioned, decisions and
// errors appended unless already there, text fields kept unless empty.
func Merge(dst, src BranchContext) BranchContext {
	if dst.Feature == "" {
		dst.Feature = src.Feature
	}
	if dst.Phase == "" {
		dst.Phase = src.Phase
	}
	if src.Notes != "" && !strings.Contains(dst.Notes, src.Notes) {
		if dst.Notes != "" {
			dst.Notes += "\n"
		}
		dst.Notes += src.Notes
	}
	for _, n := range src.Decisions {
		if !hasNote(dst.Decisions, n) {
			dst.Decisions = append(dst.Decisions, n)
		}
	}
	for _, r := range src.Errors {
		if !hasResolved(dst.Errors, r) {
			dst.Errors = append(dst.Errors, r)
		}
	}
	dst.FilesModified = Union(dst.FilesModified, src.FilesModified)
	dst.TasksCompleted = Union(dst.TasksCompleted, src.TasksCompleted)
	dst.TasksPending = Union(dst.TasksPending, src.TasksPending)
	dst.Sessions += src.Sessions
	return dst
}

func hasNote(ns []Note, n Note) bool {
	for _, x := range ns {
		if x.Decision == n.Decision {
			return true
		}
	}
	return false
}

func hasResolved(rs []Resolved, r Resolved) bool {
	for _, x := range rs {
		if x.Error == r.Error && x.Fix == r.Fix {
			return true
		}
	}
	return false
}

// MarshalText renders the id as "s4" in JSON.
func (id SessionID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText reads "s4", "4" or "".
func (id *SessionID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*id = 0
		return nil
	}
	v, err := ParseSessionID(string(b))
	*id = v
	return err
}

// sessionKey carries a session in a context.
type sessionKey struct{}

// WithSession returns ctx carrying the session a call works in: what the
// services do under it (tasks completed, memory written, loop iterations,
// lifecycle phases) becomes its events.
func WithSession(ctx context.Context, id SessionID) context.Context {
	if id == 0 {
		return ctx
	}
	return context.WithValue(ctx, sessionKey{}, id)
}

// SessionFrom is the session ctx carries, zero for none.
func SessionFrom(ctx context.Context) SessionID {
	id, _ := ctx.Value(sessionKey{}).(SessionID)
	return id
}
