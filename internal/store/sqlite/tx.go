package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/task"
)

type txn struct {
	tx    *sql.Tx
	stmts statements      // the pool's prepared statements; see stmts.go
	lazy  *lazyStatements // where stmts come from, told of built queries to prepare
	n     *counters       // the store's; nil in a transaction of Open's
	// created is the task this transaction created last: it has no
	// dependencies to clear (ids are never reused), so SetDeps skips the
	// DELETE for it.
	created task.ID
	// failed is the error of a call that returns none (ReadPlanLater):
	// the transaction fails with it.
	failed error
}

// fail fails the transaction with err, unless it failed already.
func (x *txn) fail(err error) {
	if x.failed == nil {
		x.failed = err
	}
}

func micros(t time.Time) int64 { return t.UTC().UnixMicro() }

func fromMicros(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMicro(v.Int64).UTC()
}

func nullMicros(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: micros(t), Valid: true}
}

func nullID(id task.ID) sql.NullInt64 {
	if id == 0 {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(id), Valid: true}
}

const (
	colsNoBody = `id, parent_id, position, num, title, '', status, priority, created_at, updated_at, completed_at`
	colsBody   = `id, parent_id, position, num, title, body, status, priority, created_at, updated_at, completed_at`
)

// The statements, by the methods that run them. Each is prepared once per
// connection (stmts.go); readQueries and writeQueries list them all.
const (
	qTask            = `SELECT ` + colsBody + ` FROM tasks WHERE id = ? AND removed_at IS NULL`
	qChildren        = `SELECT ` + colsNoBody + ` FROM tasks WHERE parent_id IS ? AND removed_at IS NULL ORDER BY position, id`
	qChildrenBody    = `SELECT ` + colsBody + ` FROM tasks WHERE parent_id IS ? AND removed_at IS NULL ORDER BY position, id`
	qCountCompletion = `SELECT count(*) FROM completions`
	qCompletionsAsc  = `SELECT seq, task_id, parent_id, title, body, created_at, completed_at
		FROM completions ORDER BY seq ASC LIMIT ? OFFSET ?`
	qCompletionsDesc = `SELECT seq, task_id, parent_id, title, body, created_at, completed_at
		FROM completions ORDER BY seq DESC LIMIT ? OFFSET ?`
	qAncestors = `
		WITH RECURSIVE up(id, depth) AS (
			SELECT parent_id, 1 FROM tasks WHERE id = ? AND parent_id IS NOT NULL
			UNION ALL
			SELECT t.parent_id, up.depth + 1 FROM tasks t JOIN up ON t.id = up.id
			WHERE t.parent_id IS NOT NULL
		)
		SELECT ` + colsNoBody + ` FROM tasks JOIN up USING (id)
		WHERE removed_at IS NULL ORDER BY up.depth DESC`

	qPlaceAfter = `SELECT parent_id, position FROM tasks WHERE id = ? AND removed_at IS NULL`
	qShiftRight = `UPDATE tasks SET position = position + 1 WHERE parent_id IS ? AND position > ?`
	// A new task is numbered, and placed last unless its position is given,
	// by subqueries of its INSERT: one statement, not three. Each subquery
	// takes its maximum from an index (tasks_by_parent, tasks_by_num).
	qInsertTaskLast = `INSERT INTO tasks
		(parent_id, position, num, title, body, status, priority, created_at, updated_at, completed_at)
		VALUES (?1, (SELECT coalesce(max(position), 0) + 1 FROM tasks WHERE parent_id IS ?1),
			(SELECT coalesce(max(num), 0) + 1 FROM tasks WHERE parent_id IS ?1), ?2, ?3, ?4, ?5, ?6, ?7, ?8)
		RETURNING id, position, num`
	qInsertTaskAt = `INSERT INTO tasks
		(parent_id, position, num, title, body, status, priority, created_at, updated_at, completed_at)
		VALUES (?1, ?2, (SELECT coalesce(max(num), 0) + 1 FROM tasks WHERE parent_id IS ?1), ?3, ?4, ?5, ?6, ?7, ?8, ?9)
		RETURNING id, num`
	qUpdateTask = `UPDATE tasks SET title = ?, body = ?, status = ?, priority = ?,
		updated_at = ?, completed_at = ? WHERE id = ? AND removed_at IS NULL`
	qRemoveSubtree = `
		WITH RECURSIVE sub(id) AS (
			SELECT id FROM tasks WHERE id = ? AND removed_at IS NULL
			UNION ALL
			SELECT t.id FROM tasks t JOIN sub ON t.parent_id = sub.id WHERE t.removed_at IS NULL
		)
		UPDATE tasks SET removed_at = ? WHERE id IN (SELECT id FROM sub)`
	qSetFocus = `INSERT INTO focus (agent, task_id, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (agent) DO UPDATE SET task_id = excluded.task_id, updated_at = excluded.updated_at`
	qArchive = `INSERT INTO completions (task_id, parent_id, title, body, created_at, completed_at)
		VALUES (?, ?, ?, ?, ?, ?)`
)

// qOpenChildren is OpenChildren's statement: its WHERE is
// tasks_open_children's (migration 0011), and INDEXED BY holds the planner
// to that index (without statistics it could take tasks_by_parent, which
// reads the closed children too; SQLite refuses the statement if the index
// could not serve it). The statuses are task.Status.Open's closed ones,
// written as constants: a parameter there would tie the statement's plan
// to its bindings.
const qOpenChildren = `SELECT ` + colsNoBody + ` FROM tasks INDEXED BY tasks_open_children
	WHERE parent_id IS ? AND removed_at IS NULL AND status NOT IN ('done', 'cancelled') ORDER BY position, id`

// qLeftSibling and qLeftSiblingBody are LeftSibling's: the nearest
// sibling before (position, id), found by a backward range of
// tasks_by_parent that stops at the first visible one.
const (
	qLeftSibling = `SELECT ` + colsNoBody + ` FROM tasks WHERE parent_id IS ?1 AND removed_at IS NULL
		AND position <= ?2 AND (position < ?2 OR id < ?3) ORDER BY position DESC, id DESC LIMIT 1`
	qLeftSiblingBody = `SELECT ` + colsBody + ` FROM tasks WHERE parent_id IS ?1 AND removed_at IS NULL
		AND position <= ?2 AND (position < ?2 OR id < ?3) ORDER BY position DESC, id DESC LIMIT 1`
)

type scanner interface{ Scan(...any) error }

func scanTask(row scanner) (task.Task, error) { return newTaskRow().scan(row) }

// taskRow receives one row of colsBody or colsNoBody; queryTasks reuses one
// for all its rows. It scans into *any, database/sql's fast path, and
// converts here: scanning into typed fields went through reflection (and
// for int fields a round trip through strings), which cost more than
// SQLite's reading of the rows (a third of a 10,000-task Tasks call).
type taskRow struct {
	vals [11]any
	dest [11]any
}

func newTaskRow() *taskRow {
	r := &taskRow{}
	for i := range r.vals {
		r.dest[i] = &r.vals[i]
	}
	return r
}

func (r *taskRow) scan(row scanner) (task.Task, error) {
	if err := row.Scan(r.dest[:]...); err != nil {
		return task.Task{}, err
	}
	return taskOf(r.vals[:])
}

// taskOf converts the values of one row of colsBody or colsNoBody.
func taskOf(vals []any) (task.Task, error) {
	var c columns
	t := task.Task{
		ID:          task.ID(c.int(vals[0], "id", false)),
		ParentID:    task.ID(c.int(vals[1], "parent_id", true)),
		Position:    int(c.int(vals[2], "position", false)),
		Num:         int(c.int(vals[3], "num", false)),
		Title:       c.text(vals[4], "title"),
		Body:        c.text(vals[5], "body"),
		Status:      task.Status(c.text(vals[6], "status")),
		Priority:    task.Priority(c.text(vals[7], "priority")),
		CreatedAt:   c.time(vals[8], "created_at"),
		UpdatedAt:   c.time(vals[9], "updated_at"),
		CompletedAt: c.time(vals[10], "completed_at"),
	}
	if c.err != nil {
		return task.Task{}, c.err
	}
	return t, nil
}

// columns converts driver values, keeping the first error.
type columns struct{ err error }

func (c *columns) fail(col string, v any, want string) {
	if c.err == nil {
		c.err = fmt.Errorf("column %s holds %T, not %s", col, v, want)
	}
}

func (c *columns) int(v any, col string, nullable bool) int64 {
	switch x := v.(type) {
	case int64:
		return x
	case nil:
		if nullable {
			return 0
		}
	}
	c.fail(col, v, "an integer")
	return 0
}

func (c *columns) text(v any, col string) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	c.fail(col, v, "text")
	return ""
}

// time reads Unix microseconds; NULL is the zero time.
func (c *columns) time(v any, col string) time.Time {
	if v == nil {
		return time.Time{}
	}
	return time.UnixMicro(c.int(v, col, false)).UTC()
}

func (x *txn) queryTasks(ctx context.Context, query string, args ...any) ([]task.Task, error) {
	rows, err := x.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	r := newTaskRow()
	return sqlq.Collect(rows, func(rows *sql.Rows) (task.Task, error) { return r.scan(rows) })
}

// TaskByID answers a Query of one task by id: none when it is not visible.
func (x *txn) TaskByID(ctx context.Context, id task.ID) ([]task.Task, error) {
	t, err := scanTask(x.queryRow(ctx, qTask, int64(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read task %s: %w", id, err)
	}
	return []task.Task{t}, nil
}

func (x *txn) Children(ctx context.Context, parent task.ID, withBody bool) ([]task.Task, error) {
	query := qChildren
	if withBody {
		query = qChildrenBody
	}
	ts, err := x.queryTasks(ctx, query, nullID(parent))
	if err != nil {
		return nil, fmt.Errorf("read children of %s: %w", parent, err)
	}
	return ts, nil
}

func (x *txn) OpenChildren(ctx context.Context, parent task.ID) ([]task.Task, error) {
	ts, err := x.queryTasks(ctx, qOpenChildren, nullID(parent))
	if err != nil {
		return nil, fmt.Errorf("read open children of %s: %w", parent, err)
	}
	return ts, nil
}

func (x *txn) LeftSibling(ctx context.Context, of task.Task, withBody bool) (task.Task, bool, error) {
	query := qLeftSibling
	if withBody {
		query = qLeftSiblingBody
	}
	t, err := scanTask(x.queryRow(ctx, query, nullID(of.ParentID), of.Position, int64(of.ID)))
	if errors.Is(err, sql.ErrNoRows) {
		return task.Task{}, false, nil
	}
	if err != nil {
		return task.Task{}, false, fmt.Errorf("read the sibling left of %s: %w", of.ID, err)
	}
	return t, true, nil
}

func (x *txn) Ancestors(ctx context.Context, id task.ID) ([]task.Task, error) {
	ts, err := x.queryTasks(ctx, qAncestors, int64(id))
	if err != nil {
		return nil, fmt.Errorf("read ancestors of %s: %w", id, err)
	}
	return ts, nil
}

func (x *txn) CreateTask(ctx context.Context, t task.Task, place store.Placement) (task.Task, error) {
	t.ParentID = place.Parent
	if place.After != 0 {
		var (
			parent sql.NullInt64
			pos    int
		)
		err := x.queryRow(ctx, qPlaceAfter, int64(place.After)).Scan(&parent, &pos)
		if errors.Is(err, sql.ErrNoRows) {
			return task.Task{}, task.NotFound(place.After)
		}
		if err != nil {
			return task.Task{}, fmt.Errorf("read task %s: %w", place.After, err)
		}
		t.ParentID = task.ID(parent.Int64)
		if _, err := x.exec(ctx, qShiftRight, parent, pos); err != nil {
			return task.Task{}, fmt.Errorf("make room after %s: %w", place.After, err)
		}
		t.Position = pos + 1
	}
	var err error
	if place.After != 0 {
		err = x.queryRow(ctx, qInsertTaskAt,
			nullID(t.ParentID), t.Position, t.Title, t.Body, string(t.Status), string(t.Priority),
			micros(t.CreatedAt), micros(t.UpdatedAt), nullMicros(t.CompletedAt)).Scan(&t.ID, &t.Num)
	} else {
		err = x.queryRow(ctx, qInsertTaskLast,
			nullID(t.ParentID), t.Title, t.Body, string(t.Status), string(t.Priority),
			micros(t.CreatedAt), micros(t.UpdatedAt), nullMicros(t.CompletedAt)).Scan(&t.ID, &t.Position, &t.Num)
	}
	if err != nil {
		return task.Task{}, fmt.Errorf("insert task: %w", err)
	}
	x.created = t.ID
	return t, nil
}

func (x *txn) UpdateTask(ctx context.Context, t task.Task) error {
	res, err := x.exec(ctx, qUpdateTask,
		t.Title, t.Body, string(t.Status), string(t.Priority), micros(t.UpdatedAt), nullMicros(t.CompletedAt), int64(t.ID))
	if err != nil {
		return fmt.Errorf("update task %s: %w", t.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return task.NotFound(t.ID)
	}
	return nil
}

func (x *txn) RemoveSubtree(ctx context.Context, id task.ID, at time.Time) (int, error) {
	res, err := x.exec(ctx, qRemoveSubtree, int64(id), micros(at))
	if err != nil {
		return 0, fmt.Errorf("remove task %s: %w", id, err)
	}
	n, _ := res.RowsAffected()
	if n == 0 {
		return 0, task.NotFound(id)
	}
	if _, err := x.exec(ctx, qDropDepsOn, micros(at)); err != nil {
		return 0, fmt.Errorf("remove task %s from dependencies: %w", id, err)
	}
	return int(n), nil
}

func (x *txn) SetFocus(ctx context.Context, agent string, id task.ID, at time.Time) error {
	_, err := x.exec(ctx, qSetFocus, agent, nullID(id), micros(at))
	if err != nil {
		return fmt.Errorf("set focus: %w", err)
	}
	return nil
}

func (x *txn) Archive(ctx context.Context, c task.Completion) error {
	_, err := x.exec(ctx, qArchive, int64(c.TaskID), nullID(c.ParentID), c.Title, c.Body, micros(c.CreatedAt), micros(c.CompletedAt))
	if err != nil {
		return fmt.Errorf("archive task %s: %w", c.TaskID, err)
	}
	return nil
}

func (x *txn) Completions(ctx context.Context, newestFirst bool, offset, limit int) ([]task.Completion, int, error) {
	var total int
	if err := x.queryRow(ctx, qCountCompletion).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count completions: %w", err)
	}
	query := qCompletionsAsc
	if newestFirst {
		query = qCompletionsDesc
	}
	rows, err := x.query(ctx, query, limit, offset)
	if err != nil {
		return nil, 0, fmt.Errorf("read completions: %w", err)
	}
	defer rows.Close()
	var out []task.Completion
	for rows.Next() {
		var (
			c                  task.Completion
			parent             sql.NullInt64
			created, completed sql.NullInt64
		)
		if err := rows.Scan(&c.Seq, &c.TaskID, &parent, &c.Title, &c.Body, &created, &completed); err != nil {
			return nil, 0, fmt.Errorf("read completions: %w", err)
		}
		c.ParentID = task.ID(parent.Int64)
		c.CreatedAt = fromMicros(created)
		c.CompletedAt = fromMicros(completed)
		out = append(out, c)
	}
	return out, total, rows.Err()
}
