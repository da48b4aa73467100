package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
)

// The documents a store keeps as JSON, written once here for both stores:
// a session's head and a branch's context. Each is a storage struct of its
// own, versioned, so that renaming a field of the domain's types never
// breaks a stored row. Version 1 is what stores wrote before there was a
// version: the domain's own field names of the time.

const (
	sessionDocV = 2
	branchDocV  = 2
)

// sessionDoc is a session's head as stored. Its record lives in events.
type sessionDoc struct {
	V            int         `json:"v"`
	ID           int64       `json:"id"`
	ThreadID     int64       `json:"thread"`
	ParentID     int64       `json:"parent,omitempty"`
	Agent        string      `json:"agent,omitempty"`
	Client       string      `json:"client,omitempty"`
	ClientID     string      `json:"client_session,omitempty"`
	PID          int         `json:"pid,omitempty"`
	PStart       uint64      `json:"pstart,omitempty"`
	Branch       string      `json:"branch,omitempty"`
	Goal         string      `json:"goal,omitempty"`
	AI           providerDoc `json:"ai,omitzero"`
	StartedAt    time.Time   `json:"started"`
	EndedAt      time.Time   `json:"ended,omitzero"`
	TasksPending []string    `json:"pending,omitempty"`
	Outcome      string      `json:"outcome,omitempty"`
	OutcomeWhy   string      `json:"outcome_why,omitempty"`
	Summary      string      `json:"summary,omitempty"`
}

type providerDoc struct {
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	Client   string `json:"client,omitempty"`
	Version  string `json:"version,omitempty"`
}

// sessionDocV1 is the head of a session as version 1 wrote it (the whole
// session, lists and all; the lists became events in the migration that
// made version 2).
type sessionDocV1 struct {
	ID           memory.SessionID `json:"id"` // "s4"
	ThreadID     memory.SessionID `json:"threadId"`
	ParentID     memory.SessionID `json:"parentId"`
	Agent        string           `json:"agent"`
	Branch       string           `json:"branch"`
	Goal         string           `json:"goal"`
	AI           providerDoc      `json:"ai"`
	StartedAt    time.Time        `json:"startedAt"`
	EndedAt      time.Time        `json:"endedAt"`
	TasksPending []string         `json:"tasksPending"`
	Outcome      string           `json:"outcome"`
	Summary      string           `json:"summary"`
}

// EncodeSession is a session's head as a store keeps it.
func EncodeSession(s memory.Session) ([]byte, error) {
	d := sessionDoc{V: sessionDocV, ID: int64(s.ID), ThreadID: int64(s.ThreadID), ParentID: int64(s.ParentID), Agent: s.Agent,
		Client: s.Client.Name, ClientID: s.Client.SessionID, PID: s.Client.Proc.PID, PStart: s.Client.Proc.Start,
		Branch: s.Branch, Goal: s.Goal, AI: providerDoc(s.AI), StartedAt: s.StartedAt, EndedAt: s.EndedAt,
		TasksPending: s.TasksPending, Outcome: s.Outcome, OutcomeWhy: s.OutcomeWhy, Summary: s.Summary}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encode session %s: %w", s.ID, err)
	}
	return b, nil
}

// DecodeSession reads a session's head as any version stored it.
func DecodeSession(b []byte) (memory.Session, error) {
	var v struct {
		V int `json:"v"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return memory.Session{}, fmt.Errorf("decode session: %w", err)
	}
	switch v.V {
	case 0, 1:
		var d sessionDocV1
		if err := json.Unmarshal(b, &d); err != nil {
			return memory.Session{}, fmt.Errorf("decode session (version 1): %w", err)
		}
		return memory.Session{ID: d.ID, ThreadID: d.ThreadID, ParentID: d.ParentID,
			Agent: d.Agent, Branch: d.Branch, Goal: d.Goal, AI: memory.Provider(d.AI), StartedAt: d.StartedAt, EndedAt: d.EndedAt,
			TasksPending: d.TasksPending, Outcome: d.Outcome, Summary: d.Summary}, nil
	case sessionDocV:
		var d sessionDoc
		if err := json.Unmarshal(b, &d); err != nil {
			return memory.Session{}, fmt.Errorf("decode session: %w", err)
		}
		return memory.Session{ID: memory.SessionID(d.ID), ThreadID: memory.SessionID(d.ThreadID), ParentID: memory.SessionID(d.ParentID),
			Agent: d.Agent, Client: memory.Client{Name: d.Client, SessionID: d.ClientID, Proc: memory.Proc{PID: d.PID, Start: d.PStart}},
			Branch: d.Branch, Goal: d.Goal, AI: memory.Provider(d.AI), StartedAt: d.StartedAt, EndedAt: d.EndedAt,
			TasksPending: d.TasksPending, Outcome: d.Outcome, OutcomeWhy: d.OutcomeWhy, Summary: d.Summary}, nil
	}
	return memory.Session{}, fmt.Errorf("decode session: version %d is newer than this Cairn reads; upgrade Cairn", v.V)
}

// eventDoc is the part of an event a store keeps as JSON: what only some
// kinds have.
type eventDoc struct {
	Note string   `json:"note,omitempty"`
	Tail []string `json:"tail,omitempty"`
	Type string   `json:"type,omitempty"`
	Test *testDoc `json:"test,omitempty"`
}

type testDoc struct {
	Runner  string   `json:"runner,omitempty"`
	OK      bool     `json:"ok"`
	None    bool     `json:"none,omitempty"`
	Passed  int      `json:"passed,omitempty"`
	Failed  int      `json:"failed,omitempty"`
	Skipped int      `json:"skipped,omitempty"`
	Counted bool     `json:"counted,omitempty"`
	Summary string   `json:"summary,omitempty"`
	Failing []string `json:"failing,omitempty"`
}

// EncodeEventData is what of e a store keeps as JSON ("" when nothing).
func EncodeEventData(e memory.Event) (string, error) {
	d := eventDoc{Note: e.Note, Tail: e.Tail, Type: e.Type}
	if t := e.Test; t != nil {
		d.Test = &testDoc{Runner: t.Runner, OK: t.OK, None: t.None, Passed: t.Passed, Failed: t.Failed, Skipped: t.Skipped, Counted: t.Counted,
			Summary: t.Summary, Failing: t.Failing}
	}
	if d.Note == "" && d.Tail == nil && d.Type == "" && d.Test == nil {
		return "", nil
	}
	b, err := json.Marshal(d)
	if err != nil {
		return "", fmt.Errorf("encode event: %w", err)
	}
	return string(b), nil
}

// DecodeEventData fills in e what EncodeEventData kept.
func DecodeEventData(s string, e *memory.Event) error {
	if s == "" {
		return nil
	}
	var d eventDoc
	if err := json.Unmarshal([]byte(s), &d); err != nil {
		return fmt.Errorf("decode event: %w", err)
	}
	e.Note, e.Tail, e.Type = d.Note, d.Tail, d.Type
	if t := d.Test; t != nil {
		e.Test = &memory.TestResult{Runner: t.Runner, OK: t.OK, None: t.None, Passed: t.Passed, Failed: t.Failed, Skipped: t.Skipped, Counted: t.Counted,
			Summary: t.Summary, Failing: t.Failing}
	}
	return nil
}

// branchDoc is a branch's context as stored.
type branchDoc struct {
	V              int           `json:"v"`
	Branch         string        `json:"branch"`
	Feature        string        `json:"feature,omitempty"`
	Phase          string        `json:"phase,omitempty"`
	Notes          string        `json:"notes,omitempty"`
	Decisions      []noteDoc     `json:"decisions,omitempty"`
	Errors         []resolvedDoc `json:"errors,omitempty"`
	FilesModified  []string      `json:"files,omitempty"`
	TasksCompleted []string      `json:"done,omitempty"`
	TasksPending   []string      `json:"pending,omitempty"`
	Sessions       int           `json:"sessions,omitempty"`
	MergedInto     string        `json:"merged_into,omitempty"`
	PromotedAt     time.Time     `json:"promoted,omitzero"`
	UpdatedAt      time.Time     `json:"updated"`
}

type noteDoc struct {
	Decision  string    `json:"decision"`
	Reasoning string    `json:"reasoning,omitempty"`
	SessionID int64     `json:"session,omitempty"`
	At        time.Time `json:"at,omitzero"`
}

type resolvedDoc struct {
	Error     string    `json:"error"`
	Fix       string    `json:"fix,omitempty"`
	SessionID int64     `json:"session,omitempty"`
	At        time.Time `json:"at,omitzero"`
}

// branchDocV1 is a branch's context as version 1 wrote it.
type branchDocV1 struct {
	Branch    string `json:"branch"`
	Feature   string `json:"feature"`
	Phase     string `json:"phase"`
	Notes     string `json:"notes"`
	Decisions []struct {
		Decision  string    `json:"decision"`
		Reasoning string    `json:"reasoning"`
		SessionID string    `json:"sessionId"`
		At        time.Time `json:"at"`
	} `json:"decisions"`
	Errors []struct {
		Error     string    `json:"error"`
		Fix       string    `json:"fix"`
		SessionID string    `json:"sessionId"`
		At        time.Time `json:"at"`
	} `json:"errors"`
	FilesModified  []string  `json:"filesModified"`
	TasksCompleted []string  `json:"tasksCompleted"`
	TasksPending   []string  `json:"tasksPending"`
	Sessions       int       `json:"sessions"`
	MergedInto     string    `json:"mergedInto"`
	PromotedAt     time.Time `json:"promotedAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

// EncodeBranch is a branch's context as a store keeps it.
func EncodeBranch(b memory.BranchContext) ([]byte, error) {
	d := branchDoc{V: branchDocV, Branch: b.Branch, Feature: b.Feature, Phase: b.Phase, Notes: b.Notes,
		FilesModified: b.FilesModified, TasksCompleted: b.TasksCompleted, TasksPending: b.TasksPending, Sessions: b.Sessions,
		MergedInto: b.MergedInto, PromotedAt: b.PromotedAt, UpdatedAt: b.UpdatedAt}
	for _, n := range b.Decisions {
		d.Decisions = append(d.Decisions, noteDoc{n.Decision, n.Reasoning, int64(n.SessionID), n.At})
	}
	for _, r := range b.Errors {
		d.Errors = append(d.Errors, resolvedDoc{r.Error, r.Fix, int64(r.SessionID), r.At})
	}
	out, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("encode branch %s: %w", b.Branch, err)
	}
	return out, nil
}

// DecodeBranch reads a branch's context as any version stored it.
func DecodeBranch(raw []byte) (memory.BranchContext, error) {
	var v struct {
		V int `json:"v"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return memory.BranchContext{}, fmt.Errorf("decode branch: %w", err)
	}
	switch v.V {
	case 0, 1:
		var d branchDocV1
		if err := json.Unmarshal(raw, &d); err != nil {
			return memory.BranchContext{}, fmt.Errorf("decode branch (version 1): %w", err)
		}
		b := memory.BranchContext{Branch: d.Branch, Feature: d.Feature, Phase: d.Phase, Notes: d.Notes, FilesModified: d.FilesModified,
			TasksCompleted: d.TasksCompleted, TasksPending: d.TasksPending, Sessions: d.Sessions, MergedInto: d.MergedInto,
			PromotedAt: d.PromotedAt, UpdatedAt: d.UpdatedAt}
		for _, n := range d.Decisions {
			sid, _ := memory.ParseSessionID(n.SessionID)
			b.Decisions = append(b.Decisions, memory.Note{Decision: n.Decision, Reasoning: n.Reasoning, SessionID: sid, At: n.At})
		}
		for _, r := range d.Errors {
			sid, _ := memory.ParseSessionID(r.SessionID)
			b.Errors = append(b.Errors, memory.Resolved{Error: r.Error, Fix: r.Fix, SessionID: sid, At: r.At})
		}
		return b, nil
	case branchDocV:
		var d branchDoc
		if err := json.Unmarshal(raw, &d); err != nil {
			return memory.BranchContext{}, fmt.Errorf("decode branch: %w", err)
		}
		b := memory.BranchContext{Branch: d.Branch, Feature: d.Feature, Phase: d.Phase, Notes: d.Notes, FilesModified: d.FilesModified,
			TasksCompleted: d.TasksCompleted, TasksPending: d.TasksPending, Sessions: d.Sessions, MergedInto: d.MergedInto,
			PromotedAt: d.PromotedAt, UpdatedAt: d.UpdatedAt}
		for _, n := range d.Decisions {
			b.Decisions = append(b.Decisions, memory.Note{Decision: n.Decision, Reasoning: n.Reasoning, SessionID: memory.SessionID(n.SessionID), At: n.At})
		}
		for _, r := range d.Errors {
			b.Errors = append(b.Errors, memory.Resolved{Error: r.Error, Fix: r.Fix, SessionID: memory.SessionID(r.SessionID), At: r.At})
		}
		return b, nil
	}
	return memory.BranchContext{}, fmt.Errorf("decode branch: version %d is newer than this Cairn reads; upgrade Cairn", v.V)
}

// DecodeSessionRow reads the document of the session row with this id; a
// version 1 document's id is the row's.
func DecodeSessionRow(id memory.SessionID, doc string) (memory.Session, error) {
	s, err := DecodeSession([]byte(doc))
	if err != nil {
		return memory.Session{}, fmt.Errorf("session %s: %w", id, err)
	}
	s.ID = id
	if s.ThreadID == 0 {
		s.ThreadID = id
	}
	return s, nil
}
