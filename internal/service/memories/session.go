package memories

import (
	"context"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
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
		out, r := memory.Redact(*s)
		*s, n = strings.TrimSpace(out), n+r.Total
	}
	red(&p.Goal)
	red(&p.Summary)
	n += memory.Scrub(&p.FilesModified, &p.TasksCompleted, &p.TasksPending, &p.AI)
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

func (p SessionPatch) apply(s *memory.Session, now time.Time) {
	if p.Goal != "" {
		s.Goal = p.Goal
	}
	if p.AI != (memory.Provider{}) {
		s.AI = p.AI
	}
	if p.Summary != "" {
		s.Summary = p.Summary
	}
	if p.Outcome != "" {
		s.Outcome = p.Outcome
	}
	for _, d := range p.Decisions {
		d.SessionID, d.At = s.ID, now
		s.Decisions = append(s.Decisions, d)
	}
	for _, r := range p.ErrorsResolved {
		r.SessionID, r.At = s.ID, now
		s.ErrorsResolved = append(s.ErrorsResolved, r)
	}
	s.FilesModified = memory.Union(s.FilesModified, p.FilesModified)
	s.TasksCompleted = memory.Union(s.TasksCompleted, p.TasksCompleted)
	if p.TasksPending != nil {
		s.TasksPending = memory.Union(nil, p.TasksPending)
	}
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
		branch = m.opts.Branch()
	}
	now := m.now()
	res := SessionResult{Redacted: red}
	err = m.store.Update(ctx, func(tx store.Tx) error {
		s := memory.Session{Agent: agent, Branch: branch, StartedAt: now}
		open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 1})
		if err != nil {
			return err
		}
		if parent == 0 && len(open) > 0 {
			parent = open[0].ID
		}
		if parent != 0 {
			ps, err := tx.Session(ctx, parent)
			if err != nil {
				return withField(err, "parent_session_id")
			}
			s.ParentID, s.ThreadID = ps.ID, ps.ThreadID
		}
		// The agent's open sessions end here: one agent works in one session.
		for _, o := range open {
			o.EndedAt = now
			if o.Outcome == "" {
				o.Outcome = "abandoned"
				if o.ID == parent {
					o.Outcome = "partial"
				}
			}
			res.Previous = o.ID
			if err := tx.UpdateSession(ctx, o); err != nil {
				return err
			}
			if err := m.foldIntoBranch(ctx, tx, o); err != nil {
				return err
			}
		}
		if s, err = tx.CreateSession(ctx, s); err != nil {
			return err
		}
		p.apply(&s, now)
		res.Session = s
		return tx.UpdateSession(ctx, s)
	})
	if err != nil {
		return SessionResult{}, fmt.Errorf("start session: %w", err)
	}
	return res, nil
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
	if nf, ok := errors.AsType[*memory.NotFoundError](err); ok {
		return &problem.FieldError{Field: field, Problem: fmt.Sprintf("names %s %s, which does not exist", nf.Kind, nf.ID),
			Fix: "pass an existing id", Hint: problem.ListSessions}
	}
	return err
}

// resolveSession is the session an update or end applies to: id, else the
// agent's open session.
func (m *Memory) resolveSession(ctx context.Context, tx store.Tx, agent string, id memory.SessionID) (memory.Session, error) {
	if id != 0 {
		return tx.Session(ctx, id)
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
			return problem.New(memory.ErrEnded, fmt.Sprintf("session %s ended at %s", s.ID, s.EndedAt.Format("2006-01-02 15:04")), problem.StartSession)
		}
		now := m.now()
		p.apply(&s, now)
		if end {
			s.EndedAt = now
			if err := m.foldIntoBranch(ctx, tx, s); err != nil {
				return err
			}
		}
		res.Session = s
		return tx.UpdateSession(ctx, s)
	})
	if err != nil {
		return SessionResult{}, fmt.Errorf("session: %w", err)
	}
	return res, nil
}

// foldIntoBranch adds an ended session's record to its branch's context.
func (m *Memory) foldIntoBranch(ctx context.Context, tx store.Tx, s memory.Session) error {
	return foldBranch(ctx, tx, s, 1, "", m.now())
}

// foldBranch adds a session's record to its branch's context, counting
// sessions more sessions (zero while the session goes on: folding it again
// adds only what is new) and appending note.
func foldBranch(ctx context.Context, tx store.Tx, s memory.Session, sessions int, note string, now time.Time) error {
	if s.Branch == "" {
		return nil
	}
	b, _, err := tx.BranchContext(ctx, s.Branch)
	if err != nil {
		return err
	}
	b.Branch = s.Branch
	b = memory.Merge(b, memory.BranchContext{Notes: note, Decisions: s.Decisions, Errors: s.ErrorsResolved, FilesModified: s.FilesModified,
		TasksCompleted: s.TasksCompleted, Sessions: sessions})
	b.TasksPending = s.TasksPending
	b.UpdatedAt = now
	return tx.SetBranchContext(ctx, b)
}

// Session returns one session.
func (m *Memory) Session(ctx context.Context, agent, ref string) (memory.Session, error) {
	id, err := parseSessionID("session_id", ref)
	if err != nil {
		return memory.Session{}, err
	}
	var s memory.Session
	err = m.store.View(ctx, func(tx store.Tx) (err error) {
		s, err = m.resolveSession(ctx, tx, agent, id)
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
		return err
	})
	out.NextOffset = page.NextOffset(out.Offset, len(out.Sessions), out.Total)
	return out, err
}

// BranchPatch is what a branch save adds.
type BranchPatch struct {
	Feature, Phase, Notes string
	Decisions             []memory.Note
	Errors                []memory.Resolved
	FilesModified         []string
	TasksCompleted        []string
	TasksPending          []string
}

// branchName is the branch a call names, else the current one.
func (m *Memory) branchName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		name = m.opts.Branch()
	}
	if name == "" {
		return "", &problem.FieldError{Field: "branch", Problem: "is missing and the project is not in a git work tree",
			Fix: "pass the branch name"}
	}
	if len(name) > 255 || strings.ContainsAny(name, " \t\n~^:?*[\\") {
		return "", &problem.FieldError{Field: "branch", Problem: fmt.Sprintf("is %q, not a git branch name", problem.Clip(name, 40)), Fix: "use the name git shows, such as feat/login"}
	}
	return name, nil
}

// GetBranch returns a branch's context (the current branch's by default);
// a branch nothing was saved for has an empty one.
func (m *Memory) GetBranch(ctx context.Context, name string) (memory.BranchContext, error) {
	name, err := m.branchName(name)
	if err != nil {
		return memory.BranchContext{}, err
	}
	var b memory.BranchContext
	err = m.store.View(ctx, func(tx store.Tx) error {
		var err error
		b, _, err = tx.BranchContext(ctx, name)
		return err
	})
	b.Branch = name
	return b, err
}

// BranchPage is a branch context with a page of each of its lists: the
// newest Limit after skipping the newest Offset, in the order recorded.
// Every session that ends on a branch adds its record to the context, so a
// long-lived branch's lists grow without end.
type BranchPage struct {
	memory.BranchContext
	// Totals are the lists' whole lengths.
	Decisions, Errors, FilesModified, TasksCompleted, TasksPending int
	Offset                                                         int
	NextOffset                                                     int // zero: no list has older items
}

// GetBranchPage returns a branch's context with a page of each of its
// lists (page.Record's rule), newest first.
func (m *Memory) GetBranchPage(ctx context.Context, name string, pg page.Page) (BranchPage, error) {
	p, err := page.Record.Apply(pg)
	if err != nil {
		return BranchPage{}, err
	}
	b, err := m.GetBranch(ctx, name)
	if err != nil {
		return BranchPage{}, err
	}
	out := BranchPage{Decisions: len(b.Decisions), Errors: len(b.Errors), FilesModified: len(b.FilesModified),
		TasksCompleted: len(b.TasksCompleted), TasksPending: len(b.TasksPending), Offset: p.Offset}
	longest := max(out.Decisions, out.Errors, out.FilesModified, out.TasksCompleted, out.TasksPending)
	out.NextOffset = page.NextOffset(p.Offset, p.Limit, longest)
	b.Decisions = newest(b.Decisions, p)
	b.Errors = newest(b.Errors, p)
	b.FilesModified = newest(b.FilesModified, p)
	b.TasksCompleted = newest(b.TasksCompleted, p)
	b.TasksPending = newest(b.TasksPending, p)
	out.BranchContext = b
	return out, nil
}

// newest is the page p of l counted from its end: the newest p.Limit items
// after skipping the newest p.Offset, in l's order.
func newest[T any](l []T, p page.Page) []T {
	hi := max(0, len(l)-p.Offset)
	return l[max(0, hi-p.Limit):hi]
}

// SaveBranch adds to a branch's context.
func (m *Memory) SaveBranch(ctx context.Context, name string, p BranchPatch) (memory.BranchContext, int, error) {
	name, err := m.branchName(name)
	if err != nil {
		return memory.BranchContext{}, 0, err
	}
	sp := SessionPatch{Goal: p.Feature, Summary: p.Notes, Decisions: p.Decisions, ErrorsResolved: p.Errors,
		FilesModified: p.FilesModified, TasksCompleted: p.TasksCompleted, TasksPending: p.TasksPending}
	red, err := sp.clean()
	if err != nil {
		return memory.BranchContext{}, red, err
	}
	phase, r := memory.Redact(p.Phase)
	red += r.Total
	var b memory.BranchContext
	err = m.store.Update(ctx, func(tx store.Tx) error {
		var err error
		if b, _, err = tx.BranchContext(ctx, name); err != nil {
			return err
		}
		b.Branch = name
		if sp.Goal != "" {
			b.Feature = sp.Goal
		}
		if phase = strings.TrimSpace(phase); phase != "" {
			b.Phase = phase
		}
		b = memory.Merge(b, memory.BranchContext{Notes: sp.Summary, Decisions: sp.Decisions, Errors: sp.ErrorsResolved,
			FilesModified: sp.FilesModified, TasksCompleted: sp.TasksCompleted})
		if sp.TasksPending != nil {
			b.TasksPending = memory.Union(nil, sp.TasksPending)
		}
		b.UpdatedAt = m.now()
		return tx.SetBranchContext(ctx, b)
	})
	if err != nil {
		return memory.BranchContext{}, red, fmt.Errorf("save branch %s: %w", name, err)
	}
	return b, red, nil
}

// Branches lists every branch's context, most recently updated first.
func (m *Memory) Branches(ctx context.Context) ([]memory.BranchContext, error) {
	var out []memory.BranchContext
	err := m.store.View(ctx, func(tx store.Tx) (err error) {
		out, err = tx.BranchContexts(ctx)
		return err
	})
	return out, err
}

// Promoted is what a promotion made permanent.
type Promoted struct {
	Branch  string
	Added   []memory.Entry // new decisions and mistakes
	Already int            // promoted before, left as they were
}

// promotedUID is the uid of a branch decision's permanent entry, the same
// every time, so promoting twice adds nothing.
func promotedUID(branch, decision string) string {
	sum := sha256.Sum256([]byte(branch + "\x00" + decision))
	return "p" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:10]))
}

// PromoteBranch moves a branch's decisions into permanent memory as
// decision entries (and its resolved errors as mistakes), once each.
func (m *Memory) PromoteBranch(ctx context.Context, name string) (Promoted, error) {
	name, err := m.branchName(name)
	if err != nil {
		return Promoted{}, err
	}
	pr := Promoted{Branch: name}
	now := m.now()
	var added []memory.Entry
	err = m.store.Update(ctx, func(tx store.Tx) error {
		b, ok, err := tx.BranchContext(ctx, name)
		if err != nil {
			return err
		}
		if !ok {
			return &memory.NotFoundError{Kind: "branch context", ID: name}
		}
		for _, d := range b.Decisions {
			uid := promotedUID(name, d.Decision)
			if _, ok, err := tx.MemoryByUID(ctx, uid); err != nil {
				return err
			} else if ok {
				pr.Already++
				continue
			}
			e := memory.Entry{UID: uid, Type: memory.Decision, Title: problem.Clip(d.Decision, memory.MaxTitle), Content: d.Decision,
				Rationale: d.Reasoning, Branch: name, SessionID: d.SessionID.String(), Tags: []string{"promoted"}, CreatedAt: now, UpdatedAt: now}
			e.Normalize()
			if err := memory.Validate(e); err != nil {
				return err
			}
			if e, err = tx.AddMemory(ctx, e); err != nil {
				return err
			}
			added = append(added, e)
		}
		for _, r := range b.Errors {
			uid := promotedUID(name, "error\x00"+r.Error)
			if _, ok, err := tx.MemoryByUID(ctx, uid); err != nil {
				return err
			} else if ok {
				pr.Already++
				continue
			}
			e := memory.Entry{UID: uid, Type: memory.Mistake, Title: problem.Clip(r.Error, memory.MaxTitle), Content: r.Error, Fix: r.Fix,
				Branch: name, SessionID: r.SessionID.String(), Tags: []string{"promoted"}, Occurrences: 1, CreatedAt: now, UpdatedAt: now}
			e.Normalize()
			// A mistake already in memory is not counted again: promoting
			// twice must change nothing.
			if _, ok, err := tx.MistakeByFingerprint(ctx, memory.Fingerprint(e.Title)); err != nil {
				return err
			} else if ok {
				pr.Already++
				continue
			}
			if e, err = tx.AddMemory(ctx, e); err != nil {
				return err
			}
			// Its first recording, as Record keeps for every mistake.
			if err := tx.AddOccurrence(ctx, e.ID, memory.OccurrenceOf(e, 1)); err != nil {
				return err
			}
			added = append(added, e)
		}
		b.PromotedAt, b.UpdatedAt = now, now
		return tx.SetBranchContext(ctx, b)
	})
	if err != nil {
		return Promoted{}, fmt.Errorf("promote branch %s: %w", name, err)
	}
	pr.Added = added
	m.embedEntries(ctx, added...)
	return pr, nil
}

// MergeBranch folds one branch's context into another's, as the branch
// itself is merged; the source remembers where it went.
func (m *Memory) MergeBranch(ctx context.Context, from, into string) (memory.BranchContext, error) {
	if strings.TrimSpace(into) == "" {
		return memory.BranchContext{}, &problem.FieldError{Field: "into", Problem: "is required to merge", Fix: "pass the branch it merges into, such as main"}
	}
	from, err := m.branchName(from)
	if err != nil {
		return memory.BranchContext{}, withFieldName(err, "from")
	}
	if into, err = m.branchName(into); err != nil {
		return memory.BranchContext{}, withFieldName(err, "into")
	}
	if from == into {
		return memory.BranchContext{}, &problem.FieldError{Field: "into", Problem: "is the branch being merged", Fix: "pass into: the branch it is merged into, such as main"}
	}
	var out memory.BranchContext
	err = m.store.Update(ctx, func(tx store.Tx) error {
		src, ok, err := tx.BranchContext(ctx, from)
		if err != nil {
			return err
		}
		if !ok {
			return &memory.NotFoundError{Kind: "branch context", ID: from}
		}
		dst, _, err := tx.BranchContext(ctx, into)
		if err != nil {
			return err
		}
		dst.Branch = into
		dst = memory.Merge(dst, src)
		now := m.now()
		dst.UpdatedAt, src.MergedInto, src.UpdatedAt = now, into, now
		out = dst
		if err := tx.SetBranchContext(ctx, src); err != nil {
			return err
		}
		return tx.SetBranchContext(ctx, dst)
	})
	if err != nil {
		return memory.BranchContext{}, fmt.Errorf("merge branch %s into %s: %w", from, into, err)
	}
	return out, nil
}

func withFieldName(err error, field string) error {
	if fe, ok := err.(*problem.FieldError); ok {
		c := *fe
		c.Field = field
		return &c
	}
	return err
}
