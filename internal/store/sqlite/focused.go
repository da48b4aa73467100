package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/internal/task"
)

// qFocusedTask is qFocus and qTask in one statement: the task the agent's
// focus is on, if it has one and that task is visible.
const qFocusedTask = `SELECT t.id, t.parent_id, t.position, t.num, t.title, t.body, t.status, t.priority,
	t.created_at, t.updated_at, t.completed_at
	FROM focus f JOIN tasks t ON t.id = f.task_id WHERE f.agent = ? AND t.removed_at IS NULL`

// FocusedTask is Focus and then Task in one statement (the service's
// focusedTask): every focus tool begins with it, the writes too, under the
// project's lock. found is false when the agent has no focus or its task is
// not visible.
func (x *txn) FocusedTask(ctx context.Context, agent string) (t task.Task, found bool, err error) {
	t, err = scanTask(x.queryRow(ctx, qFocusedTask, agent))
	if errors.Is(err, sql.ErrNoRows) {
		return task.Task{}, false, nil
	}
	if err != nil {
		return task.Task{}, false, fmt.Errorf("read focus: %w", err)
	}
	return t, true, nil
}
