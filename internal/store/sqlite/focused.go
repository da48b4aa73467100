package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/task"
)

// qFocusedTask is the agent's focus and its task in one statement: the task the agent's
// focus is on, if it has one and that task is visible.
const qFocusedTask = `SELECT t.id, t.parent_id, t.position, t.num, t.title, t.body, t.status, t.priority,
	t.created_at, t.updated_at, t.completed_at
	FROM focus f JOIN tasks t ON t.id = f.task_id WHERE f.agent = ? AND t.removed_at IS NULL`

// TaskOfFocus answers a Query.FocusOf: the focus and its task in one
// statement. Every focus tool begins with it, the writes too, under the
// project's lock. None when the agent has no focus or its task is not
// visible.
func (x *txn) TaskOfFocus(ctx context.Context, agent string) ([]task.Task, error) {
	t, err := scanTask(x.queryRow(ctx, qFocusedTask, agent))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read focus: %w", err)
	}
	return []task.Task{t}, nil
}

// qInsertUnderFocus is qFocusedTask and qInsertTaskLast in one statement:
// a new task, last under the agent's current task (?1; its focus, when
// that task is visible and its status one of the JSON array ?9), or last
// among the roots when it has none.
const qInsertUnderFocus = `WITH cur(id) AS (
		SELECT t.id FROM focus f JOIN tasks t ON t.id = f.task_id
		WHERE f.agent = ?1 AND t.removed_at IS NULL AND t.status IN (SELECT value FROM json_each(?9))
	)
	INSERT INTO tasks (parent_id, position, num, title, body, status, priority, created_at, updated_at, completed_at)
	SELECT p.id, (SELECT coalesce(max(position), 0) + 1 FROM tasks WHERE parent_id IS p.id),
		(SELECT coalesce(max(num), 0) + 1 FROM tasks WHERE parent_id IS p.id), ?2, ?3, ?4, ?5, ?6, ?7, ?8
	FROM (SELECT (SELECT id FROM cur) AS id) p
	RETURNING id, parent_id, position, num`

// CreateUnderCurrent creates t as the last child of the agent's current
// task (its focus, when that task is visible and its status one of open),
// or as a root task when it has none, in one statement, and moves the
// agent's focus onto it (as of at): what the focus service's
// create_new_task does with store.FocusedTask, CreateTask and SetFocus, one
// statement less under the write lock. *into is the task as created.
func (x *txn) CreateUnderCurrent(ctx context.Context, agent string, t task.Task, open []task.Status, at time.Time, into *task.Task) error {
	t, err := x.createUnderCurrent(ctx, agent, t, open)
	if err != nil {
		return err
	}
	if err := x.SetFocus(ctx, agent, t.ID, at); err != nil {
		return err
	}
	*into = t
	return nil
}

func (x *txn) createUnderCurrent(ctx context.Context, agent string, t task.Task, open []task.Status) (task.Task, error) {
	statuses, err := json.Marshal(open)
	if err != nil {
		return task.Task{}, fmt.Errorf("insert task: %w", err)
	}
	var vals [4]any
	err = x.queryRow(ctx, qInsertUnderFocus, agent, t.Title, t.Body, string(t.Status), string(t.Priority),
		micros(t.CreatedAt), micros(t.UpdatedAt), nullMicros(t.CompletedAt), string(statuses)).Scan(&vals[0], &vals[1], &vals[2], &vals[3])
	if err != nil {
		return task.Task{}, fmt.Errorf("insert task: %w", err)
	}
	var c columns
	t.ID, t.ParentID = task.ID(c.int(vals[0], "id", false)), task.ID(c.int(vals[1], "parent_id", true))
	t.Position, t.Num = int(c.int(vals[2], "position", false)), int(c.int(vals[3], "num", false))
	if c.err != nil {
		return task.Task{}, fmt.Errorf("insert task: %w", c.err)
	}
	x.created = t.ID
	return t, nil
}
