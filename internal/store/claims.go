package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn/internal/task"
)

// ClaimTx holds the claims agents take on tasks.
type ClaimTx interface {
	// ClaimTask is one compare-and-set: it gives c.Agent the claim on the
	// visible open task c.TaskID until c.ExpiresAt, unless another agent
	// holds a claim still live at c.ClaimedAt; then nothing changes and it
	// returns a task.Claimed refusal naming that claim. A task that is not
	// there, or is done or cancelled, is a task.NotFound one. It returns the claim it
	// replaced: zero when there was none, else the caller's own (a renewal,
	// which keeps its ClaimedAt) or another agent's expired one.
	ClaimTask(ctx context.Context, c task.Claim) (prev task.Claim, err error)
	// Claims returns the claims q selects, by task.
	Claims(ctx context.Context, q ClaimQuery) (map[task.ID]task.Claim, error)
	// DropClaim ends any claim on id without saying whether there was one
	// (the PostgreSQL store sends it with the next statement): a task that
	// closes is nobody's work any more.
	DropClaim(ctx context.Context, id task.ID) error
}

// ClaimQuery selects claims: the one on a task, or every live one.
type ClaimQuery struct {
	// Task selects the claim on this task, live or expired, whatever the
	// task's state (see store.TaskClaim); zero: the claims on visible
	// tasks that are live at Now.
	Task task.ID
	Now  time.Time
}

// Lifecycle is a task walking the phases of a lifecycle definition. State is
// the service's (evidence and history), stored as given.
type Lifecycle struct {
	ID         int64
	TaskID     task.ID
	Definition string
	Phase      string
	Status     string // LifecycleOpen or LifecycleDone
	StartedAt  time.Time
	PhaseSince time.Time
	UpdatedAt  time.Time
	State      []byte
}

// Lifecycle statuses.
const (
	LifecycleOpen = "open"
	LifecycleDone = "done"
)

// LifecycleQuery selects lifecycles, by id, paged.
type LifecycleQuery struct {
	ID     int64     // that one lifecycle, whatever its task; the other fields do not apply
	Status string    // empty: any
	Phase  string    // empty: any
	Tasks  []task.ID // empty: any
	Offset int
	Limit  int // zero: no limit
}

// LifecycleTx stores lifecycles.
type LifecycleTx interface {
	// PutLifecycle stores l and returns its id: with a zero ID a new one
	// (which fails with ErrDuplicate when l is open and l.TaskID already
	// has an open one), else it writes l's phase, status, times and state
	// over the lifecycle with l's ID.
	PutLifecycle(ctx context.Context, l Lifecycle) (int64, error)
	// Lifecycles returns a page of the lifecycles of visible tasks that q
	// selects, by id, and how many it selects in all.
	Lifecycles(ctx context.Context, q LifecycleQuery) ([]Lifecycle, int, error)
}
