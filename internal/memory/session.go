package memory

import (
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
	Client   string `json:"client,omitempty"` // claude-code, cursor, …
}

// Outcomes a session can end with.
var Outcomes = []string{"success", "partial", "failed", "abandoned"}

// Session is one working session of an agent. Sessions thread: a session
// started from a parent joins the parent's thread, so memory carries across
// reconnects.
type Session struct {
	ID        SessionID `json:"id"`
	ThreadID  SessionID `json:"threadId"`
	ParentID  SessionID `json:"parentId,omitempty"`
	Agent     string    `json:"agent,omitempty"`
	Branch    string    `json:"branch,omitempty"`
	Goal      string    `json:"goal,omitempty"`
	AI        Provider  `json:"ai,omitzero"`
	StartedAt time.Time `json:"startedAt"`
	EndedAt   time.Time `json:"endedAt,omitzero"`

	Decisions      []Note     `json:"decisions,omitempty"`
	ErrorsResolved []Resolved `json:"errorsResolved,omitempty"`
	FilesModified  []string   `json:"filesModified,omitempty"`
	TasksCompleted []string   `json:"tasksCompleted,omitempty"`
	TasksPending   []string   `json:"tasksPending,omitempty"`
	// TestsRun and CommandsFailed are what the agent's hooks saw it run:
	// test commands, and commands that failed (with their first error line).
	TestsRun       []string `json:"testsRun,omitempty"`
	CommandsFailed []string `json:"commandsFailed,omitempty"`

	Outcome string `json:"outcome,omitempty"` // one of Outcomes, once ended
	Summary string `json:"summary,omitempty"`
}

// Open reports whether the session has not ended.
func (s Session) Open() bool { return s.EndedAt.IsZero() }

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
