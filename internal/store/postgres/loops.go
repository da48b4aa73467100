package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/task"
)

const (
	qLoop = `SELECT ` + colsBody + `, loop FROM tasks WHERE project_id = $1 AND id = $2 AND removed_at IS NULL`
	// qSetLoop stores the state and appends the event to the loop's
	// history in one statement (one round trip), when the task is there.
	qSetLoop = `WITH u AS (UPDATE tasks SET loop = $3 WHERE project_id = $1 AND id = $2 AND removed_at IS NULL RETURNING id),
		ev AS (INSERT INTO loop_events (project_id, task_id, kind, detail, at) SELECT $1, id, $4, $5, $6 FROM u)
		SELECT count(*) FROM u`
	qLoops = `SELECT ` + colsNoBody + `, loop FROM tasks WHERE project_id = $1 AND loop IS NOT NULL AND removed_at IS NULL ORDER BY id`
	// qAddCkpt numbers the checkpoint within its project (migration 0010):
	// the write holds the project's lock, so no other takes the number.
	qAddCkpt = `INSERT INTO loop_checkpoints (project_id, id, task_id, note, state, created_at)
		SELECT $1, coalesce(max(id), 0) + 1, $2, $3, $4, $5 FROM loop_checkpoints WHERE project_id = $1 RETURNING id`
)

// loopRow is a task row followed by its loop column.
type loopRow struct {
	*taskRow
	state *string
	all   [12]any
}

func newLoopRow() *loopRow {
	r := &loopRow{taskRow: newTaskRow()}
	copy(r.all[:], r.dest[:])
	r.all[11] = &r.state
	return r
}

func (r *loopRow) scan(row pgx.Row) (task.Task, []byte, error) {
	r.completed, r.state = nil, nil
	if err := row.Scan(r.all[:]...); err != nil {
		return task.Task{}, nil, err
	}
	var state []byte
	if r.state != nil {
		state = []byte(*r.state)
	}
	return r.task(), state, nil
}

func (x *txn) loop(ctx context.Context, id task.ID) ([]store.LoopRow, error) {
	t, state, err := newLoopRow().scan(x.tx.QueryRow(ctx, qLoop, x.p, int64(id)))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read loop %s: %w", id, err)
	}
	return []store.LoopRow{{Task: t, State: state}}, nil
}

func (x *txn) SetLoop(ctx context.Context, state []byte, e store.LoopEvent) error {
	var n int64
	err := x.tx.QueryRow(ctx, qSetLoop, x.p, int64(e.TaskID), string(state), e.Kind, e.Detail, ts(e.At)).Scan(&n)
	if err != nil {
		return fmt.Errorf("save loop %s: %w", e.TaskID, err)
	}
	if n == 0 {
		return task.NotFound(e.TaskID)
	}
	x.changed()
	return nil
}

func (x *txn) Loops(ctx context.Context, of task.ID) ([]store.LoopRow, error) {
	if of != 0 {
		return x.loop(ctx, of)
	}
	rows, err := x.tx.Query(ctx, qLoops, x.p)
	if err != nil {
		return nil, fmt.Errorf("read loops: %w", err)
	}
	defer rows.Close()
	var out []store.LoopRow
	r := newLoopRow()
	for rows.Next() {
		t, state, err := r.scan(rows)
		if err != nil {
			return nil, fmt.Errorf("read loops: %w", err)
		}
		out = append(out, store.LoopRow{Task: t, State: state})
	}
	return out, rows.Err()
}

func (x *txn) AddCheckpoint(ctx context.Context, c store.Checkpoint) (int64, error) {
	var id int64
	if err := x.tx.QueryRow(ctx, qAddCkpt, x.p, int64(c.TaskID), c.Note, string(c.State), ts(c.CreatedAt)).Scan(&id); err != nil {
		return 0, fmt.Errorf("save checkpoint of loop %s: %w", c.TaskID, err)
	}
	x.changed()
	return id, nil
}

func (x *txn) Checkpoints(ctx context.Context, id task.ID) ([]store.Checkpoint, error) {
	return sqlq.ReadCheckpoints(ctx, conn{x}, id)
}

func (x *txn) LoopEvents(ctx context.Context, id task.ID, offset, limit int) ([]store.LoopEvent, int, error) {
	return sqlq.ReadLoopEvents(ctx, conn{x}, id, offset, limit)
}
