package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/task"
)

const (
	qChild      = `SELECT ` + colsBody + ` FROM tasks WHERE parent_id IS ? AND num = ? AND removed_at IS NULL`
	qAllDeps    = `SELECT task_id, depends_on FROM task_deps ORDER BY task_id, depends_on` // the primary key's order: no sort
	qRemovedIDs = `SELECT id FROM tasks WHERE removed_at IS NOT NULL`
	qClearDeps  = `DELETE FROM task_deps WHERE task_id = ?`
	qAddDep     = `INSERT OR IGNORE INTO task_deps (task_id, depends_on) VALUES (?, ?)`
	qDropDepsOn = `DELETE FROM task_deps WHERE depends_on IN (SELECT id FROM tasks WHERE removed_at = ?)`
)

// planReadQueries and planWriteQueries are prepared like the focus ones.
var (
	qDepsOf          = sqlq.DepsOf(sq.Where(""), []task.ID{1, 2})
	qTaskDeps        = sqlq.OneDeps(sq.Where(""), 1, false)
	qDependents      = sqlq.OneDeps(sq.Where(""), 1, true)
	planReadQueries  = []string{qChild, qAllDeps, qRemovedIDs, qTaskDeps, qDepsOf, qDependents, qPlanRev, qTasks}
	planWriteQueries = []string{qClearDeps, qAddDep, qDropDepsOn}
)

func (x *txn) Focuses(ctx context.Context) (map[string]task.ID, error) {
	return sqlq.ReadFocuses(ctx, conn{x})
}

func (x *txn) Child(ctx context.Context, parent task.ID, num int) ([]task.Task, error) {
	t, err := scanTask(x.queryRow(ctx, qChild, nullID(parent), num))
	if errors.Is(err, sql.ErrNoRows) {
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
	st, err := sqlq.Tasks(sq.Where(""), q, taskCols(q.WithBody))
	if err != nil {
		return nil, 0, err
	}
	total := -1
	if q.Limit != 0 || q.Offset != 0 {
		if err := x.queryRowBuilt(ctx, st.Count, st.CountArgs...).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("count tasks: %w", err)
		}
	}
	x.wantBuilt(st.Page)
	ts, err := x.queryTasks(ctx, st.Page, st.PageArgs...)
	if err != nil {
		return nil, 0, fmt.Errorf("query tasks: %w", err)
	}
	if total < 0 {
		total = len(ts)
	}
	return ts, total, nil
}

// sq is SQLite's dialect, for the statements package sqlq builds.
var sq = sqlq.Dialect{Time: func(t time.Time) any { return micros(t) }, NoLimit: -1}

func taskCols(withBody bool) string {
	if withBody {
		return colsBody
	}
	return colsNoBody
}

func (x *txn) ids(ctx context.Context, query string, args ...any) ([]task.ID, error) {
	rows, err := x.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []task.ID
	for rows.Next() {
		var id task.ID
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// Deps reads every edge and drops those with a removed end here: two plain
// scans cost a third of joining each edge to both its tasks (a primary-key
// search per end, 30,000 of them for a 10,000-task plan).
func (x *txn) Deps(ctx context.Context, q store.DepQuery) (task.Deps, error) {
	return store.AnswerDeps(ctx, q, x.allDeps, x.depsOf, x.oneDeps)
}

func (x *txn) allDeps(ctx context.Context) (task.Deps, error) {
	gone, err := x.ids(ctx, qRemovedIDs)
	if err != nil {
		return nil, fmt.Errorf("read dependencies: %w", err)
	}
	removed := make(map[task.ID]bool, len(gone))
	for _, id := range gone {
		removed[id] = true
	}
	rows, err := x.query(ctx, qAllDeps)
	if err != nil {
		return nil, fmt.Errorf("read dependencies: %w", err)
	}
	defer rows.Close()
	deps := task.Deps{}
	var (
		vals [2]any
		c    columns
	)
	for rows.Next() {
		if err := rows.Scan(&vals[0], &vals[1]); err != nil {
			return nil, fmt.Errorf("read dependencies: %w", err)
		}
		a, b := task.ID(c.int(vals[0], "task_id", false)), task.ID(c.int(vals[1], "depends_on", false))
		if c.err != nil {
			return nil, fmt.Errorf("read dependencies: %w", c.err)
		}
		if !removed[a] && !removed[b] {
			deps[a] = append(deps[a], b)
		}
	}
	return deps, rows.Err()
}

func (x *txn) oneDeps(ctx context.Context, id task.ID, dependents bool) ([]task.ID, error) {
	return sqlq.ReadOneDeps(ctx, conn{x}, id, dependents)
}

func (x *txn) depsOf(ctx context.Context, ids []task.ID) (task.Deps, error) {
	return sqlq.ReadDepsOf(ctx, conn{x}, ids)
}

func (x *txn) SetDeps(ctx context.Context, id task.ID, deps []task.ID) error {
	if id != x.created { // a task created in this transaction has none
		if _, err := x.exec(ctx, qClearDeps, int64(id)); err != nil {
			return fmt.Errorf("set dependencies of %s: %w", id, err)
		}
	}
	for _, d := range deps {
		if _, err := x.exec(ctx, qAddDep, int64(id), int64(d)); err != nil {
			return fmt.Errorf("set dependencies of %s: %w", id, err)
		}
	}
	return nil
}

func (x *txn) Imports(ctx context.Context, q store.ImportQuery) ([]store.Import, error) {
	return sqlq.ReadImports(ctx, conn{x}, q)
}

func (x *txn) SetImported(ctx context.Context, source, externalID string, id task.ID) error {
	return sqlq.SetImported(ctx, conn{x}, nil, source, externalID, id)
}

// versioner reads PRAGMA data_version on a connection of its own: the value
// changes whenever another connection (this process's writer, or another
// process) commits. The connection's generation is folded in, so a
// reconnect can never repeat an old value.
type versioner struct {
	db   *sql.DB
	mu   sync.Mutex
	conn *sql.Conn
	stmt *sql.Stmt // PRAGMA data_version, prepared on conn
	gen  uint64
	n    *counters
}

func (v *versioner) version(ctx context.Context) (uint64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.conn == nil {
		c, err := v.db.Conn(ctx)
		if err != nil {
			return 0, fmt.Errorf("read data version: %w", err)
		}
		// Prepared once: every read of the cached board asks for the version.
		st, err := c.PrepareContext(ctx, "PRAGMA data_version")
		if err != nil {
			c.Close()
			return 0, fmt.Errorf("read data version: %w", err)
		}
		v.conn, v.stmt, v.gen = c, st, v.gen+1
	}
	var dv uint64
	v.n.stmts.Add(1)
	if err := v.stmt.QueryRowContext(detach(ctx)).Scan(&dv); err != nil {
		v.closeLocked()
		return 0, fmt.Errorf("read data version: %w", err)
	}
	return v.gen<<40 | dv, nil
}

func (v *versioner) closeLocked() error {
	if v.conn == nil {
		return nil
	}
	err := errors.Join(v.stmt.Close(), v.conn.Close())
	v.conn, v.stmt = nil, nil
	return err
}

func (v *versioner) close() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.closeLocked()
}
