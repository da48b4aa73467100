package sqlite

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// The methods below are the store.Tx capabilities a PostgreSQL transaction
// pipelines (it sends them with its next statement or with COMMIT, and fills
// *into then). SQLite's statements cost no round trip: each runs when it is
// called, and *into is filled at once.

// UpdateCurrentBody writes body into the agent's current task: its focused
// task (Query.FocusOf) and UpdateTask.
func (x *txn) UpdateCurrentBody(ctx context.Context, agent, body string, open []task.Status, at time.Time, into *task.Task) error {
	ts, err := x.TaskOfFocus(ctx, agent)
	if err != nil {
		return err
	}
	if len(ts) == 0 || !slices.Contains(open, ts[0].Status) {
		return store.ErrNoCurrentTask
	}
	t := ts[0]
	t.Body, t.UpdatedAt = body, at
	if err := x.UpdateTask(ctx, t); err != nil {
		return err
	}
	*into = t
	return nil
}

// CreateTaskLater is CreateTask and SetDeps.
func (x *txn) CreateTaskLater(ctx context.Context, t task.Task, parent task.ID, deps []task.ID, into *task.Task) error {
	t, err := x.CreateTask(ctx, t, store.Placement{Parent: parent})
	if err != nil {
		return err
	}
	if err := x.SetDeps(ctx, t.ID, deps); err != nil {
		return err
	}
	*into = t
	return nil
}

// ReadPlanLater is ReadPlan in the transaction.
func (x *txn) ReadPlanLater(ctx context.Context, r store.PlanRead, into *store.PlanReadResult) {
	res, err := x.ReadPlan(ctx, r)
	if err != nil {
		x.fail(fmt.Errorf("read plan: %w", err))
		return
	}
	*into = res
}

// ReadAhead does nothing: every read runs when it is called.
func (x *txn) ReadAhead(context.Context, ...store.Read) {}

// DropClaim ends any claim on id.
func (x *txn) DropClaim(ctx context.Context, id task.ID) error {
	if _, err := x.exec(ctx, qReleaseAny, int64(id)); err != nil {
		return fmt.Errorf("release claim on %s: %w", id, err)
	}
	return nil
}
