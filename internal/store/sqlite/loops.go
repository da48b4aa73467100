package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/task"
)

const (
	qLoop     = `SELECT ` + colsBody + `, loop FROM tasks WHERE id = ? AND removed_at IS NULL`
	qSetLoop  = `UPDATE tasks SET loop = ? WHERE id = ? AND removed_at IS NULL`
	qLoops    = `SELECT ` + colsNoBody + `, loop FROM tasks WHERE loop IS NOT NULL AND removed_at IS NULL ORDER BY id`
	qAddCkpt  = `INSERT INTO loop_checkpoints (task_id, note, state, created_at) VALUES (?, ?, ?, ?) RETURNING id`
	qAddEvent = `INSERT INTO loop_events (task_id, kind, detail, at) VALUES (?, ?, ?, ?)`
)

var (
	loopReadQueries  = []string{qLoop, qLoops}
	loopWriteQueries = []string{qSetLoop, qAddCkpt, qAddEvent}
)

// scanLoop reads a task row followed by its loop column.
func scanLoop(row scanner) (task.Task, []byte, error) {
	var (
		t                task.Task
		parent           sql.NullInt64
		created, updated sql.NullInt64
		completed        sql.NullInt64
		status, priority string
		state            []byte
	)
	if err := row.Scan(&t.ID, &parent, &t.Position, &t.Num, &t.Title, &t.Body, &status, &priority, &created, &updated, &completed, &state); err != nil {
		return task.Task{}, nil, err
	}
	t.ParentID = task.ID(parent.Int64)
	t.Status, t.Priority = task.Status(status), task.Priority(priority)
	t.CreatedAt, t.UpdatedAt, t.CompletedAt = fromMicros(created), fromMicros(updated), fromMicros(completed)
	return t, state, nil
}

func (x *txn) loop(ctx context.Context, id task.ID) ([]store.LoopRow, error) {
	t, state, err := scanLoop(x.queryRow(ctx, qLoop, int64(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read loop %s: %w", id, err)
	}
	return []store.LoopRow{{Task: t, State: state}}, nil
}

func (x *txn) SetLoop(ctx context.Context, state []byte, e store.LoopEvent) error {
	res, err := x.exec(ctx, qSetLoop, string(state), int64(e.TaskID))
	if err != nil {
		return fmt.Errorf("save loop %s: %w", e.TaskID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return task.NotFound(e.TaskID)
	}
	if _, err := x.exec(ctx, qAddEvent, int64(e.TaskID), e.Kind, e.Detail, micros(e.At)); err != nil {
		return fmt.Errorf("record loop event: %w", err)
	}
	return nil
}

func (x *txn) Loops(ctx context.Context, of task.ID) ([]store.LoopRow, error) {
	if of != 0 {
		return x.loop(ctx, of)
	}
	rows, err := x.query(ctx, qLoops)
	if err != nil {
		return nil, fmt.Errorf("read loops: %w", err)
	}
	defer rows.Close()
	var out []store.LoopRow
	for rows.Next() {
		t, state, err := scanLoop(rows)
		if err != nil {
			return nil, fmt.Errorf("read loops: %w", err)
		}
		out = append(out, store.LoopRow{Task: t, State: state})
	}
	return out, rows.Err()
}

func (x *txn) AddCheckpoint(ctx context.Context, c store.Checkpoint) (int64, error) {
	var id int64
	if err := x.queryRow(ctx, qAddCkpt, int64(c.TaskID), c.Note, string(c.State), micros(c.CreatedAt)).Scan(&id); err != nil {
		return 0, fmt.Errorf("save checkpoint of loop %s: %w", c.TaskID, err)
	}
	return id, nil
}

func (x *txn) Checkpoints(ctx context.Context, id task.ID) ([]store.Checkpoint, error) {
	return sqlq.ReadCheckpoints(ctx, conn{x}, id)
}

func (x *txn) LoopEvents(ctx context.Context, id task.ID, offset, limit int) ([]store.LoopEvent, int, error) {
	return sqlq.ReadLoopEvents(ctx, conn{x}, id, offset, limit)
}
