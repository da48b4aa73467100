package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/task"
)

const (
	qChild   = `SELECT ` + colsBody + ` FROM tasks WHERE project_id = $1 AND parent_id = $2 AND num = $3 AND removed_at IS NULL`
	qFocuses = `SELECT agent, task_id FROM focus WHERE project_id = $1 AND task_id IS NOT NULL`
	// qAllDeps leaves out edges with a removed end (removal drops the edges
	// into a subtree, but not those out of it).
	qAllDeps = `SELECT d.task_id, d.depends_on FROM task_deps d
		WHERE d.project_id = $1
		AND NOT EXISTS (SELECT 1 FROM tasks r WHERE r.project_id = $1 AND r.id = d.task_id AND r.removed_at IS NOT NULL)
		AND NOT EXISTS (SELECT 1 FROM tasks r WHERE r.project_id = $1 AND r.id = d.depends_on AND r.removed_at IS NOT NULL)
		ORDER BY d.task_id, d.depends_on`
	// qSetDeps replaces a task's edges in one statement: it deletes the
	// edges not in the new set and inserts the new set, keeping the edges
	// already there (the insert does not see the delete, so it must not
	// touch those).
	qSetDeps = `WITH cleared AS (DELETE FROM task_deps WHERE project_id = $1 AND task_id = $2 AND depends_on <> ALL($3::bigint[]))
		INSERT INTO task_deps (project_id, task_id, depends_on)
		SELECT DISTINCT $1::bigint, $2::bigint, d FROM unnest($3::bigint[]) AS d
		ON CONFLICT DO NOTHING`
)

func (x *txn) Focuses(ctx context.Context) (map[string]task.ID, error) {
	if m, ok, err := x.answeredFocuses(ctx); err != nil {
		return nil, fmt.Errorf("read focus: %w", err)
	} else if ok {
		return m, nil
	}
	return sqlq.ReadFocuses(ctx, conn{x})
}

func (x *txn) Child(ctx context.Context, parent task.ID, num int) ([]task.Task, error) {
	t, err := newTaskRow().scan(x.tx.QueryRow(ctx, qChild, x.p, int64(parent), int32(min(max(num, -1<<31), 1<<31-1))))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read subtask %s.%d: %w", parent, num, err)
	}
	return []task.Task{t}, nil
}

// Query answers from the store's read of the shape q takes (AnswerQuery).
func (x *txn) Query(ctx context.Context, q store.Query) ([]task.Task, int, error) {
	return store.AnswerQuery(ctx, q, x)
}

// List answers a Query of the plan's lists: an unpaged one (no Limit or
// Offset) runs no count, as the board's full read would pay it for
// nothing.
func (x *txn) List(ctx context.Context, q store.Query) ([]task.Task, int, error) {
	st, err := sqlq.Tasks(sq.Where("project_id = ?", x.p), q, taskCols(q.WithBody))
	if err != nil {
		return nil, 0, err
	}
	total := int64(-1)
	if q.Limit != 0 || q.Offset != 0 {
		if err := x.tx.QueryRow(ctx, st.Count, st.CountArgs...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("count tasks: %w", err)
		}
	}
	out, err := x.queryTasks(ctx, st.Page, st.PageArgs...)
	if err != nil {
		return nil, 0, fmt.Errorf("query tasks: %w", err)
	}
	if total < 0 {
		total = int64(len(out))
	}
	return out, int(total), nil
}

// sq is PostgreSQL's dialect, for the statements package sqlq builds.
var sq = sqlq.Dialect{Dollar: true, Time: func(t time.Time) any { return ts(t) }}

func taskCols(withBody bool) string {
	if withBody {
		return colsBody
	}
	return colsNoBody
}

func (x *txn) Deps(ctx context.Context, q store.DepQuery) (task.Deps, error) {
	return store.AnswerDeps(ctx, q, x.allDeps, x.depsOf, x.oneDeps)
}

func (x *txn) allDeps(ctx context.Context) (task.Deps, error) {
	rows, err := x.tx.Query(ctx, qAllDeps, x.p)
	if err != nil {
		return nil, fmt.Errorf("read dependencies: %w", err)
	}
	defer rows.Close()
	deps, err := sqlq.ScanEdges(rows)
	if err != nil {
		return nil, fmt.Errorf("read dependencies: %w", err)
	}
	return deps, nil
}

// oneDeps answers from the edges read ahead, if they were.
func (x *txn) oneDeps(ctx context.Context, id task.ID, dependents bool) ([]task.ID, error) {
	of := store.ReadTaskDeps
	if dependents {
		of = store.ReadDependents
	}
	if ds, ok, err := x.answeredIDs(ctx, store.Read{Of: of, ID: id}); err != nil {
		return nil, fmt.Errorf("read dependencies of %s: %w", id, err)
	} else if ok {
		return ds, nil
	}
	return sqlq.ReadOneDeps(ctx, conn{x}, id, dependents)
}

func (x *txn) depsOf(ctx context.Context, ids []task.ID) (task.Deps, error) {
	return sqlq.ReadDepsOf(ctx, conn{x}, ids)
}

// SetDeps is sent with the next statement (later).
func (x *txn) SetDeps(ctx context.Context, id task.ID, deps []task.ID) error {
	x.later(qSetDeps, []any{x.p, int64(id), sqlq.Int64s(deps)}, func(_ pgconn.CommandTag, err error) error {
		if err != nil {
			return fmt.Errorf("set dependencies of %s: %w", id, err)
		}
		return nil
	})
	return nil
}

func (x *txn) Imports(ctx context.Context, q store.ImportQuery) ([]store.Import, error) {
	return sqlq.ReadImports(ctx, conn{x}, q)
}

func (x *txn) SetImported(ctx context.Context, source, externalID string, id task.ID) error {
	return sqlq.SetImported(ctx, conn{x}, x.p, source, externalID, id)
}
