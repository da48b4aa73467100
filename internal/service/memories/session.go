package memories

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
)

// SessionPatch is what a session start, update or end adds. Lists are
// appended (without duplicates); set text fields replace.
type SessionPatch struct {
	Goal           string
	AI             memory.Provider
	Decisions      []memory.Note
	ErrorsResolved []memory.Resolved
	FilesModified  []string
	TasksCompleted []string
	TasksPending   []string // replaces the list when set: what is pending now
	Outcome        string
	Summary        string
}

// Limits on what a session or branch records.
const (
	maxSessionList = 200 // items per list
	maxNoteText    = 4096
)

func (p *SessionPatch) clean() (int, error) {
	n := 0
	red := func(s *string) {
		out, r := redact.Redact(*s)
		*s, n = strings.TrimSpace(out), n+r.Total
	}
	red(&p.Goal)
	red(&p.Summary)
	n += redact.Scrub(&p.FilesModified, &p.TasksCompleted, &p.TasksPending, &p.AI)
	for i := range p.Decisions {
		red(&p.Decisions[i].Decision)
		red(&p.Decisions[i].Reasoning)
		if p.Decisions[i].Decision == "" {
			return n, &problem.FieldError{Field: fmt.Sprintf("decisions[%d].decision", i), Problem: "is empty", Fix: "give the decision"}
		}
	}
	for i := range p.ErrorsResolved {
		red(&p.ErrorsResolved[i].Error)
		red(&p.ErrorsResolved[i].Fix)
		if p.ErrorsResolved[i].Error == "" {
			return n, &problem.FieldError{Field: fmt.Sprintf("errors_resolved[%d].error", i), Problem: "is empty", Fix: "give the error that was resolved"}
		}
	}
	if p.Outcome != "" && !slices.Contains(memory.Outcomes, p.Outcome) {
		return n, &problem.FieldError{Field: "outcome", Problem: "is " + problem.Quote(p.Outcome), Fix: "use " + page.OneOf(memory.Outcomes)}
	}
	for _, f := range []struct {
		name string
		v    string
	}{{"goal", p.Goal}, {"summary", p.Summary}} {
		if len(f.v) > maxNoteText {
			return n, &problem.FieldError{Field: f.name, Problem: fmt.Sprintf("is %d bytes", len(f.v)), Fix: fmt.Sprintf("keep it under %d", maxNoteText)}
		}
	}
	for _, l := range []struct {
		name  string
		items []string
	}{{"filesModified", p.FilesModified}, {"tasksCompleted", p.TasksCompleted}, {"tasksPending", p.TasksPending}} {
		if len(l.items) > maxSessionList {
			return n, &problem.FieldError{Field: l.name, Problem: fmt.Sprintf("has %d items", len(l.items)), Fix: fmt.Sprintf("give at most %d", maxSessionList)}
		}
	}
	if len(p.Decisions) > maxSessionList || len(p.ErrorsResolved) > maxSessionList {
		return n, &problem.FieldError{Field: "decisions", Problem: "has too many items", Fix: fmt.Sprintf("give at most %d a call", maxSessionList)}
	}
	return n, nil
}

// apply sets the head fields p sets.
func (p SessionPatch) apply(s *memory.Session) {
	if p.Goal != "" {
		s.Goal = p.Goal
	}
	s.AI = s.AI.With(p.AI)
	if p.Summary != "" {
		s.Summary = p.Summary
	}
	if p.Outcome != "" {
		s.Outcome, s.OutcomeWhy = p.Outcome, "the agent said so"
	}
	if p.TasksPending != nil {
		s.TasksPending = memory.Union(nil, p.TasksPending)
	}
}

// events are what p adds to session id's record, as of at.
func (p SessionPatch) events(id memory.SessionID, at time.Time) []memory.Event {
	var out []memory.Event
	add := func(kind memory.EventKind, key, subject, detail, note string) {
		out = append(out, memory.Event{Session: id, Kind: kind, Key: key, Subject: subject, Detail: detail, Note: note, At: at})
	}
	for _, d := range p.Decisions {
		add(memory.EventDecision, digest(d.Decision), "", d.Decision, d.Reasoning)
	}
	for _, r := range p.ErrorsResolved {
		add(memory.EventResolved, digest(r.Error), "", r.Error, r.Fix)
	}
	for _, f := range p.FilesModified {
		if f = strings.TrimSpace(f); f != "" {
			add(memory.EventFile, f, f, "", "")
		}
	}
	for _, t := range p.TasksCompleted {
		if t = strings.TrimSpace(t); t != "" {
			add(memory.EventTask, t, t, "", "")
		}
	}
	return out
}

// digest keys an event by its text.
func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}

// record adds events to the session.
func record(ctx context.Context, tx store.Tx, es []memory.Event) error {
	for _, e := range es {
		if err := tx.RecordEvent(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

// SessionResult is a session and how many secrets were redacted from what
// the call recorded.
type SessionResult struct {
	Session  memory.Session
	Redacted int
	// Previous is the agent's session that was still open when a new one
	// started; it is ended as abandoned unless the new one continues it.
	Previous memory.SessionID
}

// StartSession opens a session for agent. With a parent it joins the
// parent's thread; without one, an agent's still-open session becomes the
// parent, so reconnects keep one thread.
func (m *Memory) StartSession(ctx context.Context, agent, parentRef, branch string, p SessionPatch) (SessionResult, error) {
	parent, err := parseSessionID("parent_session_id", parentRef)
	if err != nil {
		return SessionResult{}, err
	}
	red, err := p.clean()
	if err != nil {
		return SessionResult{}, err
	}
	if branch = strings.TrimSpace(branch); branch == "" {
		branch = m.Branch()
	}
	now := m.now()
	res := SessionResult{Redacted: red}
	err = m.store.Update(ctx, func(tx store.Tx) error {
		s := memory.Session{Agent: agent, Branch: branch, StartedAt: now}
		open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 16})
		if err != nil {
			return err
		}
		if parent == 0 && len(open) > 0 {
			parent = open[0].ID
		}
		if parent != 0 {
			ps, err := store.Session(ctx, tx, parent)
			if err != nil {
				return withField(err, "parent_session_id")
			}
			s.ParentID, s.ThreadID = ps.ID, ps.ThreadID
		}
		// The agent's open sessions end here: one agent works in one session.
		for _, o := range open {
			if o.Outcome == "" {
				o.Outcome, o.OutcomeWhy = "abandoned", "the agent started another session without ending it"
				if o.ID == parent {
					o.Outcome, o.OutcomeWhy = "partial", "the agent continued it in a new session"
				}
			}
			res.Previous = o.ID
			if err := m.end(ctx, tx, o, now); err != nil {
				return err
			}
		}
		p.apply(&s)
		if s, err = tx.PutSession(ctx, s); err != nil {
			return err
		}
		if err := record(ctx, tx, p.events(s.ID, now)); err != nil {
			return err
		}
		res.Session, err = withTotals(ctx, tx, s)
		return err
	})
	if err != nil {
		return SessionResult{}, fmt.Errorf("start session: %w", err)
	}
	return res, nil
}

// withTotals is s with its record counted (the events themselves are not
// read): what an answer about a session just changed says of it.
func withTotals(ctx context.Context, tx store.Tx, s memory.Session) (memory.Session, error) {
	_, totals, err := tx.Events(ctx, store.EventQuery{Sessions: []memory.SessionID{s.ID}, TotalsOnly: true})
	s.Record.Totals = totals.Of(s.ID)
	return s, err
}

// end ends s as of now and folds its record into its branch's context.
func (m *Memory) end(ctx context.Context, tx store.Tx, s memory.Session, now time.Time) error {
	rec, err := readRecord(ctx, tx, s.ID, outcomeEvents)
	if err != nil {
		return err
	}
	s.Record, s.EndedAt = rec, now
	if err := foldBranch(ctx, tx, s, 1, "", now); err != nil {
		return err
	}
	_, err = tx.PutSession(ctx, s)
	return err
}

// parseSessionID reads a session id ("s4" or "4") for the argument field;
// an empty one is zero.
func parseSessionID(field, s string) (memory.SessionID, error) {
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	id, err := memory.ParseSessionID(s)
	if err != nil {
		return 0, &problem.FieldError{Field: field, Problem: "is " + problem.Quote(s) + ", not a session id",
			Fix: `pass an id such as "s4"`, Hint: problem.ListSessions}
	}
	return id, nil
}

// withField names the argument behind a not-found error.
func withField(err error, field string) error {
	if m, ok := memory.MissingOf(err); ok {
		return &problem.FieldError{Field: field, Problem: fmt.Sprintf("names %s %s, which does not exist", m.What, m.ID),
			Fix: "pass an existing id", Hint: problem.ListSessions}
	}
	return err
}

// resolveSession is the session an update or end applies to: id, else the
// agent's open session.
func (m *Memory) resolveSession(ctx context.Context, tx store.Tx, agent string, id memory.SessionID) (memory.Session, error) {
	if id != 0 {
		return store.Session(ctx, tx, id)
	}
	open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 1})
	if err != nil {
		return memory.Session{}, err
	}
	if len(open) == 0 {
		return memory.Session{}, &problem.FieldError{Field: "session_id", Problem: "is missing and this agent has no open session",
			Fix: "pass the session's id", Hint: problem.StartSession}
	}
	return open[0], nil
}

// UpdateSession records progress in a session (id, else the agent's open
// one).
func (m *Memory) UpdateSession(ctx context.Context, agent, id string, p SessionPatch) (SessionResult, error) {
	return m.changeSession(ctx, agent, id, p, false)
}

// EndSession closes a session with its outcome and folds what it recorded
// into its branch's context.
func (m *Memory) EndSession(ctx context.Context, agent, id string, p SessionPatch) (SessionResult, error) {
	if p.Outcome = strings.TrimSpace(p.Outcome); p.Outcome == "" {
		p.Outcome = "success"
	}
	return m.changeSession(ctx, agent, id, p, true)
}

func (m *Memory) changeSession(ctx context.Context, agent, ref string, p SessionPatch, end bool) (SessionResult, error) {
	id, err := parseSessionID("session_id", ref)
	if err != nil {
		return SessionResult{}, err
	}
	red, err := p.clean()
	if err != nil {
		return SessionResult{}, err
	}
	res := SessionResult{Redacted: red}
	err = m.store.Update(ctx, func(tx store.Tx) error {
		s, err := m.resolveSession(ctx, tx, agent, id)
		if err != nil {
			return withField(err, "session_id")
		}
		if !s.Open() {
			return problem.New(problem.Closed, fmt.Sprintf("session %s ended at %s", s.ID, s.EndedAt.Format("2006-01-02 15:04")), problem.StartSession)
		}
		now := m.now()
		p.apply(&s)
		if err := record(ctx, tx, p.events(s.ID, now)); err != nil {
			return err
		}
		if res.Session, err = withTotals(ctx, tx, s); err != nil {
			return err
		}
		if end {
			res.Session.EndedAt = now
			return m.end(ctx, tx, s, now)
		}
		_, err = tx.PutSession(ctx, s)
		return err
	})
	if err != nil {
		return SessionResult{}, fmt.Errorf("session: %w", err)
	}
	return res, nil
}

// foldBranch adds a session's record to its branch's context, counting
// sessions more sessions and appending note: what a session ending leaves
// on its branch. Each list keeps its newest maxSessionList items.
func foldBranch(ctx context.Context, tx store.Tx, s memory.Session, sessions int, note string, now time.Time) error {
	if s.Branch == "" {
		return nil
	}
	b, _, err := store.BranchContext(ctx, tx, s.Branch)
	if err != nil {
		return err
	}
	b.Branch = s.Branch
	r := s.Record
	b = memory.Merge(b, memory.BranchContext{Notes: note, Decisions: reversed(r.Decisions()), Errors: reversed(r.ResolvedErrors()),
		FilesModified: reversed(r.Subjects(memory.EventFile)), TasksCompleted: reversed(r.Subjects(memory.EventTask)), Sessions: sessions})
	if s.TasksPending != nil {
		b.TasksPending = s.TasksPending
	}
	b.Decisions, b.Errors = lastN(b.Decisions, maxSessionList), lastN(b.Errors, maxSessionList)
	b.FilesModified, b.TasksCompleted = lastN(b.FilesModified, maxSessionList), lastN(b.TasksCompleted, maxSessionList)
	b.UpdatedAt = now
	return tx.SetBranchContext(ctx, b)
}

// reversed is l oldest first (a record lists newest first).
func reversed[T any](l []T) []T {
	out := slices.Clone(l)
	slices.Reverse(out)
	return out
}

// lastN is the last n items of l.
func lastN[T any](l []T, n int) []T { return l[max(0, len(l)-n):] }

// Session returns one session with its record: the newest events of each
// kind, as many as pg's limit (page.Record's rule), and how many there are.
func (m *Memory) Session(ctx context.Context, agent, ref string, pg page.Page) (memory.Session, error) {
	id, err := parseSessionID("session_id", ref)
	if err != nil {
		return memory.Session{}, err
	}
	if pg.Offset != 0 {
		return memory.Session{}, &problem.FieldError{Field: "offset", Problem: "is not taken by session get", Fix: "pass limit (up to " + strconv.Itoa(page.Record.Max) + ") to see more of each list"}
	}
	if pg, err = page.Record.Apply(pg); err != nil {
		return memory.Session{}, err
	}
	var s memory.Session
	err = m.store.View(ctx, func(tx store.Tx) (err error) {
		if s, err = m.resolveSession(ctx, tx, agent, id); err != nil {
			return err
		}
		s.Record, err = readRecord(ctx, tx, s.ID, pg.Limit)
		return err
	})
	return s, err
}

// SessionQuery selects sessions: one thread, one branch, the open ones; a
// page at a time (page.Session).
type SessionQuery struct {
	ThreadID string
	Branch   string
	OpenOnly bool
	page.Page
}

// SessionList is a page of sessions, newest first.
type SessionList struct {
	Sessions   []memory.Session
	Total      int
	Offset     int
	NextOffset int
}

// Sessions lists sessions, newest first.
func (m *Memory) Sessions(ctx context.Context, q SessionQuery) (SessionList, error) {
	p, err := page.Session.Apply(q.Page)
	if err != nil {
		return SessionList{}, err
	}
	thread, err := parseSessionID("thread_id", q.ThreadID)
	if err != nil {
		return SessionList{}, err
	}
	out := SessionList{Offset: p.Offset}
	err = m.store.View(ctx, func(tx store.Tx) (err error) {
		out.Sessions, out.Total, err = tx.Sessions(ctx, store.SessionQuery{ThreadID: thread, Branch: strings.TrimSpace(q.Branch),
			OpenOnly: q.OpenOnly, Offset: p.Offset, Limit: p.Limit})
		if err != nil || len(out.Sessions) == 0 {
			return err
		}
		// Each session's record, counted: one read for the page.
		ids := make([]memory.SessionID, len(out.Sessions))
		for i, s := range out.Sessions {
			ids[i] = s.ID
		}
		_, totals, err := tx.Events(ctx, store.EventQuery{Sessions: ids, TotalsOnly: true})
		for i := range out.Sessions {
			out.Sessions[i].Record.Totals = totals.Of(out.Sessions[i].ID)
		}
		return err
	})
	out.NextOffset = page.NextOffset(out.Offset, len(out.Sessions), out.Total)
	return out, err
}
