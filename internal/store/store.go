// Package store defines the one interface every Cairn backend implements:
// transactions over the project's task tree, the per-agent focus pointers and
// the completion archive. Backends live in subpackages (sqlite, and later
// postgres) and all pass the contract suite in storetest.
package store

import (
	"context"
	"errors"
	"time"

	"github.com/cairn-dev/cairn/internal/task"
)

// ErrClosed is returned by a store that has been closed.
var ErrClosed = errors.New("store is closed")

// Store is one project's durable state.
type Store interface {
	// View runs fn in a read-only transaction that sees one consistent snapshot.
	View(ctx context.Context, fn func(Tx) error) error
	// Update runs fn in a write transaction that holds the write lock from its
	// start, so its reads and writes are serialised against every other writer,
	// in this process or another. An error from fn rolls everything back; when
	// Update returns nil the transaction is durable.
	Update(ctx context.Context, fn func(Tx) error) error
	// Close releases the store's resources.
	Close() error
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
type Tx interface {
	// Task returns a visible task with its body, or a *task.NotFoundError.
	Task(ctx context.Context, id task.ID) (task.Task, error)
	// Children returns the visible children of parent (zero: the roots) in
	// position order; bodies only when withBody is set.
	Children(ctx context.Context, parent task.ID, withBody bool) ([]task.Task, error)
	// Ancestors returns the visible ancestors of id, root first, without bodies.
	Ancestors(ctx context.Context, id task.ID) ([]task.Task, error)
	// Tasks returns every visible task without bodies, in no particular order.
	Tasks(ctx context.Context) ([]task.Task, error)
	// CountTasks returns how many tasks are visible.
	CountTasks(ctx context.Context) (int, error)

	// CreateTask stores t at place and returns it with its new ID and position.
	CreateTask(ctx context.Context, t task.Task, place Placement) (task.Task, error)
	// UpdateTask writes t's title, body, status, priority and timestamps.
	UpdateTask(ctx context.Context, t task.Task) error
	// RemoveSubtree hides id and all its descendants from the structure and
	// returns how many tasks were hidden. Archived completions are kept.
	RemoveSubtree(ctx context.Context, id task.ID, at time.Time) (int, error)

	// Focus returns the task the agent is focused on, zero for none.
	Focus(ctx context.Context, agent string) (task.ID, error)
	// SetFocus points the agent's focus at id; zero means zen.
	SetFocus(ctx context.Context, agent string, id task.ID, at time.Time) error

	// Archive records a completion.
	Archive(ctx context.Context, c task.Completion) error
	// Completions returns archived completions in the order they happened
	// (newestFirst reverses it), paged, and how many there are in all.
	Completions(ctx context.Context, newestFirst bool, offset, limit int) ([]task.Completion, int, error)
}
