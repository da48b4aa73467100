package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store/rank"
)

// MemoryTx is what a transaction can read and write of the project's memory:
// typed entries with their full-text index and vectors, sessions and branch
// contexts. It holds primitives: searching and timelines are written once,
// above every store, on them (SearchMemory, MemoryTimeline).
type MemoryTx interface {
	// PutMemory stores e and returns it: with a zero ID as a new entry
	// with a new ID (and a new UID unless e has one), else over every field
	// of the entry with e's ID (but Supersedes, which is read from the
	// other entries' SupersededBy). A mistake's fingerprint is unique among
	// mistakes: adding one that is already there fails with ErrDuplicate;
	// the caller counts an occurrence instead. It records occ as
	// occurrences of the entry; counting them in its Occurrences is the
	// caller's.
	PutMemory(ctx context.Context, e memory.Entry, occ ...memory.Occurrence) (memory.Entry, error)
	// SelectMemories returns the entries s selects, in id order (newest
	// first with s.Newest), from s.Offset on and at most s.Limit of them
	// (zero: all), and how many it selects in all: the page's
	// MemorySelector.PageTotal, or else counted.
	SelectMemories(ctx context.Context, s MemorySelector) ([]memory.Entry, int, error)
	// DeleteMemories deletes entries with their index rows, vectors and
	// occurrences, and returns how many there were. Entries they had
	// superseded are current again.
	DeleteMemories(ctx context.Context, ids []memory.ID) (int, error)

	// MemoryIndex returns the index as a search over the entries s selects
	// sees it: the full-text index (see package rank: its postings, term
	// counts and statistics) and the entries' vectors. s's order and page
	// do not matter. Searching is SearchMemory's, above every store.
	MemoryIndex(ctx context.Context, s MemorySelector) (MemoryIndex, error)

	// SetMemoryVector stores an entry's embedding under a model's name.
	SetMemoryVector(ctx context.Context, id memory.ID, model string, vec []float32) error

	// PutSession stores s's head and returns it: with a zero ID as a new
	// session with a new ID (a zero ThreadID makes it the start of its own
	// thread), else over the head of the session with s's ID. Its record
	// is its events (RecordEvent).
	PutSession(ctx context.Context, s memory.Session) (memory.Session, error)
	// Sessions returns a page of session heads (their Record empty),
	// newest first, and the total.
	Sessions(ctx context.Context, q SessionQuery) ([]memory.Session, int, error)
	// RecordEvent adds e to its session: a new event, or, for one of the
	// same kind and key already there, one more (Count), with e's subject,
	// detail, data and time. Nothing else of the session is rewritten, so
	// a long session costs each event the same.
	RecordEvent(ctx context.Context, e memory.Event) error
	// Events returns the events q selects, newest first, and how many of
	// each kind it selects in all, by session.
	Events(ctx context.Context, q EventQuery) ([]memory.Event, EventTotals, error)
	// ResolveEvents marks the unresolved events of a session with this kind
	// and subject resolved as of at, and returns how many there were.
	ResolveEvents(ctx context.Context, session memory.SessionID, kind memory.EventKind, subject string, at time.Time) (int, error)

	// SetBranchContext stores a branch's context.
	SetBranchContext(ctx context.Context, b memory.BranchContext) error
	// BranchContexts returns the contexts saved for these branches (a
	// branch without one has none), or with none named every branch's,
	// most recently updated first.
	BranchContexts(ctx context.Context, branches ...string) ([]memory.BranchContext, error)
}

// MemoryQuery selects and pages memory entries.
type MemoryQuery struct {
	Text      string        // full-text query in plain words; empty: newest first
	Types     []memory.Type // any of these; empty: all
	Tags      []string      // having any of these tags
	SessionID string
	Branch    string
	After     time.Time // created at or after; zero: unbounded
	Before    time.Time // created before
	// IncludeSuperseded keeps entries another one replaced; by default
	// they are left out.
	IncludeSuperseded bool
	// Now, when set, leaves out entries that had expired by then.
	Now    time.Time
	Offset int
	Limit  int // zero: DefaultMemoryLimit
}

// Selector is q's filters (not its text, order or page) as a selector.
func (q MemoryQuery) Selector() MemorySelector {
	return MemorySelector{Types: q.Types, Tags: q.Tags, SessionID: q.SessionID, Branch: q.Branch,
		After: q.After, Before: q.Before, HideSuperseded: !q.IncludeSuperseded, Now: q.Now}
}

// MemoryResult is a page of a memory search.
type MemoryResult struct {
	Hits []MemoryHit
	// Total is how many entries the search selects; with AtLeast set it
	// is a lower bound (counting further would cost more than it says).
	Total   int
	AtLeast bool
	// Unindexed is how many entries an upgrade's re-index, under way in
	// the background, has not indexed yet: a text search cannot find them.
	Unindexed int
}

// MemoryIndex is the full-text index as one search sees it.
type MemoryIndex interface {
	rank.Source
	// Unindexed counts the entries a re-index under way (rank.Resume) has
	// not indexed yet; zero when none is under way.
	Unindexed(ctx context.Context) (int, error)
	// Hidden returns up to limit entries that the selector's HideSuperseded
	// and Now leave out (superseded, or expired by then), in no order,
	// whatever its other fields.
	Hidden(ctx context.Context, limit int) ([]memory.ID, error)
	// Nearest returns up to limit entries that the selector selects (its
	// order and page aside) and that have a vector for model, nearest to
	// vec by cosine distance first.
	Nearest(ctx context.Context, model string, vec []float32, limit int) ([]ScoredID, error)
}

// MemoryHit is an entry as a search lists it: no content, a snippet instead.
type MemoryHit struct {
	Entry   memory.Entry // without Content and the type-specific text
	Snippet string
	Score   float64 // higher is better; BM25 for a text search, else zero
}

// ScoredID is an entry's id and its similarity (higher is better).
type ScoredID struct {
	ID    memory.ID
	Score float64
}

// MemorySelector selects, orders and pages memory entries: the filters of
// a search (MemoryQuery.Selector) and of every list not ranked by
// relevance (a search without words, a timeline, pruning and export, the
// entries still to embed). Set fields combine with AND; pruning sets at
// least one of IDs, Types and Before.
type MemorySelector struct {
	IDs []memory.ID
	// UID selects the entry with this UID; Fingerprint, the mistake whose
	// title has this memory.Fingerprint.
	UID, Fingerprint string
	Types            []memory.Type // any of these
	Tags             []string      // having any of these tags
	SessionID        string
	Branch           string
	After            time.Time // created at or after; zero: unbounded
	Before           time.Time // created before
	// Below and Above bound the ids: entries recorded before (after) the
	// entry with this id; zero: unbounded.
	Below, Above memory.ID
	// HideSuperseded leaves out entries another one replaced; Now, when
	// set, leaves out entries that had expired by then.
	HideSuperseded bool
	Now            time.Time
	// WithoutVector keeps only the entries with no vector for this model.
	WithoutVector string

	Newest    bool // newest (highest id) first; else oldest first
	Offset    int
	Limit     int  // zero: all
	SkipCount bool // SelectMemories need not count the entries selected
	CountOnly bool // SelectMemories lists none: it counts the entries selected

	// Supersedes fills each entry's Supersedes; Recent fills each
	// mistake's Recent with up to so many of its recorded occurrences,
	// newest first.
	Supersedes bool
	Recent     int
}

// Filtered reports whether s leaves out any entry: whether any of its
// filters is set.
func (s MemorySelector) Filtered() bool {
	return len(s.IDs) > 0 || s.UID != "" || s.Fingerprint != "" || len(s.Types) > 0 || len(s.Tags) > 0 || s.SessionID != "" || s.Branch != "" ||
		!s.After.IsZero() || !s.Before.IsZero() || s.Below != 0 || s.Above != 0 ||
		s.HideSuperseded || !s.Now.IsZero() || s.WithoutVector != ""
}

// PageTotal returns the total SelectMemories returns with a page of n
// entries that s selected, with ok false when the page does not show it
// and the entries must be counted: a page shorter than its limit ends the
// list (Offset plus n), unless it is empty past the start (the offset may
// be beyond the end). With SkipCount the total is zero.
func (s MemorySelector) PageTotal(n int) (total int, ok bool) {
	switch {
	case s.CountOnly:
		return 0, false
	case s.SkipCount:
		return 0, true
	case s.Limit > 0 && n == s.Limit, n == 0 && s.Offset > 0:
		return 0, false
	}
	return s.Offset + n, true
}

// SessionQuery filters the session list.
type SessionQuery struct {
	// ID selects that one session; the other fields do not apply.
	ID       memory.SessionID
	ThreadID memory.SessionID
	Agent    string
	Branch   string
	// ClientKey selects the session a client names (memory.Client.Key).
	ClientKey string
	// Procs selects the sessions whose client process is one of these.
	Procs    []memory.Proc
	OpenOnly bool
	Offset   int
	Limit    int // zero: no limit
}

// EventQuery selects session events.
type EventQuery struct {
	Sessions []memory.SessionID // any of these; empty: every session's
	Kinds    []memory.EventKind // any of these; empty: all
	// Unresolved keeps only events not resolved.
	Unresolved bool
	// PerKind caps the events of each kind returned (the newest); zero: no
	// cap. Limit caps them all; zero: no cap.
	PerKind int
	Limit   int
	// TotalsOnly counts the events and returns none.
	TotalsOnly bool
}

// EventTotals counts events by session and kind.
type EventTotals map[memory.SessionID]map[memory.EventKind]int

// Of is the counts of one session's events, by kind (nil: none).
func (t EventTotals) Of(id memory.SessionID) map[memory.EventKind]int { return t[id] }

// AddTotal sets the count of a session's events of kind k (stores fill t
// with it).
func (t EventTotals) AddTotal(id memory.SessionID, k memory.EventKind, n int) {
	if t[id] == nil {
		t[id] = map[memory.EventKind]int{}
	}
	t[id][k] = n
}
