// Package store defines the one interface every Cairn backend implements:
// transactions over the project's task tree, the per-agent focus pointers and
// the completion archive. Backends live in subpackages (sqlite and postgres)
// and all pass the contract suite in storetest.
package store

import (
	"cmp"
	"context"
	"errors"
	"iter"
	"slices"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/task"
)

// ErrBusy means another writer held the database past the store's busy
// timeout; nothing was changed, and the call may be retried.
var ErrBusy = &problem.Error{Kind: problem.Unavailable, Problem: "the project's database is busy with another writer",
	Fix: "nothing was changed; retry in a moment"}

// ErrClosed is returned by a store that has been closed.
var ErrClosed = errors.New("store is closed")

// ErrNoCurrentTask is returned by a write of the agent's current task (a
// method of the services' own interfaces) when the agent has none: its
// focus is on no open, visible task. Nothing was changed.
var ErrNoCurrentTask = errors.New("the agent has no current task")

// ErrDuplicate is returned when a write would break a uniqueness rule the
// method documents.
var ErrDuplicate = errors.New("duplicate")

// Fault is a failure of the storage under the store (a full disk, a
// read-only file system, a corrupt database) that a person must act on: a
// problem.Error of kind Storage saying what is wrong and what to do, with
// the driver's error for the logs. Stores report them; surfaces render
// them without importing a store.
func Fault(what, fix string, err error) error { return problem.Fault(what, fix, err) }

// Store is one project's durable state.
type Store interface {
	// View runs fn in a read-only transaction that sees one consistent snapshot.
	View(ctx context.Context, fn func(Tx) error) error
	// Update runs fn in a write transaction that holds the write lock from its
	// start (PostgreSQL: from fn's first statement, which carries it), so its
	// reads and writes are serialised against every other writer, in this
	// process or another. An error from fn rolls everything back; when
	// Update returns nil the transaction is durable.
	Update(ctx context.Context, fn func(Tx) error) error
	// Version returns a number that changes whenever a change to the store
	// is committed, by this process or another. Caches key on it.
	Version(ctx context.Context) (uint64, error)
	// Watch returns a channel that receives a value after a change to the
	// store is committed, by this instance or another (as soon as the store
	// can tell: PostgreSQL is told through LISTEN/NOTIFY, SQLite notices
	// another process's commit when it next looks). Values are coalesced:
	// one receive may stand for many changes, so re-read (or compare
	// Version) rather than count. It also receives one when the store may
	// have missed notifications (after reconnecting its listener). The
	// channel stops receiving when ctx ends.
	Watch(ctx context.Context) <-chan struct{}
	// ReadPlan answers r in one statement, outside any transaction, from
	// one snapshot: the plan's revision, its changes since r.Since, and
	// the rows r names. A read of the cached board costs that statement.
	// With r.Whole it reads the whole plan instead, in one snapshot (a
	// read transaction: PostgreSQL sends its reads in one round trip), to
	// load the board.
	ReadPlan(ctx context.Context, r PlanRead) (PlanReadResult, error)
	// Close releases the store's resources.
	Close() error
}

// Query selects, orders and pages visible tasks for the plan's lists; or
// one task (ID), the task of an agent's focus (FocusOf), a task's
// ancestors (PathTo) or one level of the tree (Level): the first of these
// set, in that order, is the read. It is the one read of tasks.
type Query struct {
	Statuses      []task.Status   // any of these; empty: all
	Priorities    []task.Priority // any of these; empty: all
	CreatedAfter  time.Time       // zero: unbounded
	CreatedBefore time.Time
	UpdatedAfter  time.Time
	UpdatedBefore time.Time
	// Sort is one of SortID (default), SortPriority (by importance: low
	// first, critical first with Desc), SortCreated, SortUpdated and
	// SortStatus (in task.Statuses order).
	Sort     string
	Desc     bool // see DefaultDesc for the order a surface takes when none is asked for
	Offset   int
	Limit    int // zero: no limit
	WithBody bool

	// Level reads one level of the tree instead: the children of Parent
	// (zero: the roots) in position order; of the fields above only
	// WithBody applies. It reads that level alone (an index), however
	// large the plan.
	Level  bool
	Parent task.ID
	// Open, with Level, keeps only the open children (task.Status.Open),
	// without bodies, and reads those alone, whatever the closed ones
	// number: the focus rules and a completion's check look at no other.
	Open bool
	// Num, with Level, selects the one child whose subtask number is Num
	// (with its body); none when there is no such child. Numbers are
	// assigned at creation, one more than any sibling's ever was, and
	// never reused.
	Num int
	// LeftOf, with Level, selects the one visible sibling immediately to
	// the left of this task (the children of its parent in position
	// order, then id; its ParentID, Position and ID place it, and Parent
	// does not apply), with its body when WithBody is set. It reads that
	// one sibling, not the level.
	LeftOf *task.Task

	// ID selects that one visible task, with its body (store.Task refuses
	// one that is not); of the fields above none applies.
	ID task.ID
	// FocusOf selects the visible task this agent's focus is on, with its
	// body, read with the focus in one statement (every focus tool begins
	// with it; see store.FocusedTask); none when the agent has no focus or
	// its task is not visible. Of the fields above none applies.
	FocusOf string
	// PathTo selects the visible ancestors of this task, root first,
	// without bodies, in one statement; of the fields above none applies.
	PathTo task.ID
}

// DepQuery selects dependencies between visible tasks.
type DepQuery struct {
	// All selects every task's dependencies; else Of selects those of
	// these tasks (a task without any has no entry; none: an empty
	// answer).
	All bool
	Of  []task.ID
	// Dependents turns the answer round: for each task selected, the
	// visible tasks that depend on it.
	Dependents bool
}

// Sort orders for Query.
const (
	SortID       = "id"
	SortPriority = "priority"
	SortCreated  = "created"
	SortUpdated  = "updated"
	SortStatus   = "status"
)

// DefaultDesc is the order a sort takes when the caller asks for none:
// priority most important first (Desc), the others ascending.
func DefaultDesc(sort string) bool { return sort == SortPriority }

// Counts are the plan's aggregate numbers over the visible tasks.
type Counts struct {
	ByStatus   map[task.Status]int
	ByPriority map[task.Priority]int
	// AvgCompletionDays is the mean time from creation to completion of the
	// done tasks, in days; zero when none is done.
	AvgCompletionDays float64
}

// CountsOf returns the aggregates of the visible tasks ts (a board's, or
// an unpaged Query's, without bodies): written once here, not in each
// store's SQL.
func CountsOf(ts iter.Seq[task.Task]) Counts {
	c := Counts{ByStatus: map[task.Status]int{}, ByPriority: map[task.Priority]int{}}
	var (
		days float64
		done int
	)
	for t := range ts {
		c.ByStatus[t.Status]++
		c.ByPriority[t.Priority]++
		if t.Status == task.StatusDone && !t.CompletedAt.IsZero() {
			days += float64(t.CompletedAt.Sub(t.CreatedAt).Microseconds()) / 86400e6
			done++
		}
	}
	if done > 0 {
		c.AvgCompletionDays = days / float64(done)
	}
	return c
}

// Placement says where a new task goes in the tree.
type Placement struct {
	// Parent is the new task's parent; zero makes it a root task. The new
	// task becomes the parent's last child unless After is set.
	Parent task.ID
	// After, when set, puts the new task immediately to the right of this
	// sibling (which must have the same parent); later siblings shift right.
	After task.ID
}

// Tx is what a transaction can read and write. Removed tasks are invisible to
// every method except the completion archive.
//
// A store may send a write that returns nothing but its error (UpdateTask,
// SetFocus, Archive, SetDeps) with the transaction's next statement, as the
// PostgreSQL store does: its failure then shows in a later call, and Update
// returns it whatever fn made of that call. Either way the transaction
// writes nothing.
type Tx interface {
	// CreateTask stores t at place and returns it with its new ID and position.
	CreateTask(ctx context.Context, t task.Task, place Placement) (task.Task, error)
	// UpdateTask writes t's title, body, status, priority and timestamps.
	UpdateTask(ctx context.Context, t task.Task) error
	// RemoveSubtree hides id and all its descendants from the structure and
	// returns how many tasks were hidden. Other tasks stop depending on them;
	// archived completions are kept.
	RemoveSubtree(ctx context.Context, id task.ID, at time.Time) (int, error)

	// SetFocus points the agent's focus at id; zero means zen.
	SetFocus(ctx context.Context, agent string, id task.ID, at time.Time) error

	// Archive records a completion.
	Archive(ctx context.Context, c task.Completion) error
	// Focuses returns every agent's focus pointer that names a task.
	Focuses(ctx context.Context) (map[string]task.ID, error)

	// Query returns a page of the visible tasks q selects, and how many it
	// selects in all. Unpaged (no Limit or Offset), and with q.ID,
	// q.FocusOf, q.PathTo or q.Level (see Query), the count is the
	// answer's length: no statement counts them.
	Query(ctx context.Context, q Query) ([]task.Task, int, error)

	// Deps returns the dependencies between visible tasks that q selects.
	Deps(ctx context.Context, q DepQuery) (task.Deps, error)
	// SetDeps replaces the dependencies of id.
	SetDeps(ctx context.Context, id task.ID, deps []task.ID) error

	// Imports returns the import mappings q selects, by source and
	// external id.
	Imports(ctx context.Context, q ImportQuery) ([]Import, error)
	// SetImported records that an external id became task id.
	SetImported(ctx context.Context, source, externalID string, id task.ID) error

	// SetLoop stores the loop state of task e.TaskID and appends e, the
	// event that brought the loop there, to its history: a loop's state
	// changes only with an event.
	SetLoop(ctx context.Context, state []byte, e LoopEvent) error
	// Loops returns every visible loop's task and state, by id; with of
	// set, the visible task of alone (State nil when it is not a loop),
	// none when it is not visible.
	Loops(ctx context.Context, of task.ID) ([]LoopRow, error)
	// AddCheckpoint stores an immutable snapshot of a loop and returns its id.
	AddCheckpoint(ctx context.Context, c Checkpoint) (int64, error)
	// Checkpoints returns a loop's checkpoints, oldest first.
	Checkpoints(ctx context.Context, id task.ID) ([]Checkpoint, error)
	// LoopEvents returns a page of a loop's history, oldest first, and the total.
	LoopEvents(ctx context.Context, id task.ID, offset, limit int) ([]LoopEvent, int, error)

	// CreateUnderCurrent creates t as the last child of the agent's
	// current task (its focus, when that task is visible and its status is
	// one of open), or as a root task when it has none, and moves the
	// agent's focus onto it as of at: create_new_task's whole write.
	// *into is the task as created once Update returns (the PostgreSQL
	// store sends the statement with COMMIT).
	CreateUnderCurrent(ctx context.Context, agent string, t task.Task, open []task.Status, at time.Time, into *task.Task) error
	// UpdateCurrentBody writes body (as of at) into the agent's current
	// task (as CreateUnderCurrent finds it): update_current_task's whole
	// write. *into is the task as written once Update returns; with no
	// current task the transaction fails with ErrNoCurrentTask and
	// changes nothing.
	UpdateCurrentBody(ctx context.Context, agent, body string, open []task.Status, at time.Time, into *task.Task) error
	// CreateTaskLater is CreateTask last under parent and SetDeps in one
	// statement; *into is the task as created once Update returns (the
	// PostgreSQL store sends it with the next statement or COMMIT).
	CreateTaskLater(ctx context.Context, t task.Task, parent task.ID, deps []task.ID, into *task.Task) error
	// ReadPlanLater answers r as ReadPlan does, seeing the transaction's
	// writes; *into is the answer once Update returns (the PostgreSQL store
	// sends it with COMMIT, one round trip less under the project's lock).
	ReadPlanLater(ctx context.Context, r PlanRead, into *PlanReadResult)
	// ReadAhead names reads the caller is about to make in the transaction:
	// a store that can send them together (PostgreSQL, with its next
	// statement: one round trip for all) does; another ignores it. The
	// calls that follow return the same answers either way.
	ReadAhead(ctx context.Context, reads ...Read)

	MemoryTx
	ClaimTx
	LifecycleTx
	UsageTx

	// Completions returns archived completions in the order they happened
	// (newestFirst reverses it), paged, and how many there are in all.
	Completions(ctx context.Context, newestFirst bool, offset, limit int) ([]task.Completion, int, error)
}

// LoopRow is a loop as Loops lists it.
type LoopRow struct {
	Task  task.Task
	State []byte
}

// Checkpoint is an immutable snapshot of a loop's state.
type Checkpoint struct {
	ID        int64
	TaskID    task.ID
	Note      string
	State     []byte
	CreatedAt time.Time
}

// LoopEvent is one entry of a loop's history.
type LoopEvent struct {
	Seq    int64
	TaskID task.ID
	Kind   string
	Detail string
	At     time.Time
}

// Import is one import mapping: the external id a task had in its source.
type Import struct {
	Source     string
	ExternalID string
	TaskID     task.ID
}

// ImportQuery selects import mappings: those of one task, or the one of an
// external id.
type ImportQuery struct {
	// Task selects the mappings that point at this task, visible or not;
	// zero: the mapping of Source's ExternalID, if its task is visible
	// (see store.ImportedTask).
	Task       task.ID
	Source     string
	ExternalID string
}

// PlanRead asks a store (Store.ReadPlan, Tx.ReadPlanLater) for what one
// read of the plan needs beside a cached board, in one statement and so one snapshot: the plan's revision, what
// changed since the reader's board, and the rows named here.
type PlanRead struct {
	Since      uint64    // the reader's board revision: changes after it come back
	Whole      bool      // read the whole plan instead (Changes.Full: every visible task and dependency); Since and the fields below do not apply
	Agent      string    // read this agent's focus; empty: none
	Task       task.ID   // read this task's body, claim, imports and open lifecycle; zero: none
	Claims     bool      // read every live claim on a visible task, as of Now
	Now        time.Time // with Claims
	Lifecycles bool      // read every open lifecycle of a visible task
}

// PlanReadResult is a PlanRead's answer, all of it as of one snapshot.
type PlanReadResult struct {
	Rev uint64 // the plan revision of the snapshot
	// Changes are the plan's changes after Since, which bring a board at
	// Since to Rev; Reload says that Since cannot be followed (the changes
	// were not read): the board must be read whole.
	Changes task.Changes
	Reload  bool

	Focus     task.ID // the agent's focus pointer; zero: none
	FocusBody string  // the body of the task Focus names, if it is visible

	Found   bool        // the Task asked for is visible
	Body    string      // its body
	Claim   *task.Claim // the claim on it, live or not; nil: none
	Imports []Import    // its import mappings, by source then external id

	Claims     map[task.ID]task.Claim // with Claims: the live claims
	Lifecycles []Lifecycle            // the open lifecycles asked for, by id: ID, TaskID, Definition and Phase only
}

// SettlePlanRead finishes a PlanRead's answer as every store gives it:
// the revision the snapshot holds (rev; reset, the latest only a reload can
// follow), Reload when the changes since r.Since cannot bring a board there
// (no board, a change only a reload follows, or a revision behind the
// reader's, which means another database took this one's place; with
// r.Whole, never: the changes are the whole plan, Full), and the
// import mappings (with their task) and lifecycles in the order the
// store's other reads give.
func SettlePlanRead(res *PlanReadResult, r PlanRead, rev, reset uint64) {
	res.Rev = rev
	if r.Whole {
		res.Changes.Full, res.Changes.Removed = true, nil
		if res.Changes.Deps == nil {
			res.Changes.Deps = task.Deps{}
		}
	} else if r.Since == 0 || reset > r.Since || rev < r.Since {
		res.Reload, res.Changes = true, task.Changes{}
	}
	for i := range res.Imports {
		res.Imports[i].TaskID = r.Task
	}
	slices.SortFunc(res.Imports, func(a, b Import) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.ExternalID, b.ExternalID))
	})
	slices.SortFunc(res.Lifecycles, func(a, b Lifecycle) int { return cmp.Compare(a.ID, b.ID) })
}
