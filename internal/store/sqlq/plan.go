package sqlq

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// on is c's own conditions (PostgreSQL: the project) on the table alias
// names, for a statement that joins another keyed the same way: each of
// them starts with the column it tests.
func on(c Conn, alias string) *Where {
	w := c.Where()
	for i, cond := range w.conds {
		w.conds[i] = alias + "." + cond
	}
	return w
}

// sameProject is the join condition that keeps two tables' rows of one
// project together (SQLite: none).
func sameProject(d Dialect, a, b string) string {
	if d.Dollar {
		return a + ".project_id = " + b + ".project_id AND "
	}
	return ""
}

const lifecycleCols = `l.id, l.task_id, l.definition, l.phase, l.status, l.started_at, l.phase_since, l.updated_at, l.state`

// Lifecycles builds a store.LifecycleQuery's (not an ID one's) statements
// on w, whose conditions are on lifecycles l: visible tasks' lifecycles,
// in the order they began.
func Lifecycles(w *Where, q store.LifecycleQuery) Statements {
	w.And("t.removed_at IS NULL")
	switch {
	case q.Status == "":
	case !w.d.Dollar && (q.Status == store.LifecycleOpen || q.Status == store.LifecycleDone):
		// A literal for SQLite: compared to the open-lifecycle index's
		// WHERE (status = 'open'), a parameter ties the plan to its value,
		// and SQLite then prepares the statement anew for each binding.
		w.And("l.status = '" + q.Status + "'")
	default:
		w.And("l.status = ?", q.Status)
	}
	if q.Phase != "" {
		w.And("l.phase = ?", q.Phase)
	}
	if len(q.Tasks) == 1 && !w.d.Dollar {
		w.And("l.task_id IN (?)", int64(q.Tasks[0]))
	} else {
		w.IDs("l.task_id", Int64s(q.Tasks))
	}
	from := ` FROM lifecycles l JOIN tasks t ON ` + sameProject(w.d, "t", "l") + `t.id = l.task_id WHERE ` + w.String()
	s := Statements{Count: `SELECT count(*)` + from, CountArgs: w.Args[:len(w.Args):len(w.Args)]}
	s.Page = `SELECT ` + lifecycleCols + from + ` ORDER BY l.id` + w.Page(q.Limit, q.Offset)
	s.PageArgs = w.Args
	return s
}

// ScanLifecycles reads rows of lifecycleCols.
func ScanLifecycles[R Rows](rows R) ([]store.Lifecycle, error) {
	return Collect(rows, func(rows R) (store.Lifecycle, error) {
		var (
			l     store.Lifecycle
			state string
		)
		err := rows.Scan(&l.ID, &l.TaskID, &l.Definition, &l.Phase, &l.Status,
			TimeDest(&l.StartedAt), TimeDest(&l.PhaseSince), TimeDest(&l.UpdatedAt), &state)
		l.State = []byte(state)
		return l, err
	})
}

// ReadLifecycles is store.Tx.Lifecycles on c: an unpaged read (the plan's
// marks, on most reads of a task) counts its rows, not by a statement.
func ReadLifecycles(ctx context.Context, c Conn, q store.LifecycleQuery) ([]store.Lifecycle, int, error) {
	if q.ID != 0 {
		w := on(c, "l")
		w.And("l.id = ?", q.ID)
		ls, err := read(ctx, c, `SELECT `+lifecycleCols+` FROM lifecycles l WHERE `+w.String(), w.Args, ScanLifecycles[RowSet])
		if err != nil {
			return nil, 0, fmt.Errorf("read lifecycle %d: %w", q.ID, err)
		}
		return ls, len(ls), nil
	}
	st := Lifecycles(on(c, "l"), q)
	out, err := read(ctx, c, st.Page, st.PageArgs, ScanLifecycles[RowSet])
	if err != nil {
		return nil, 0, fmt.Errorf("read lifecycles: %w", err)
	}
	if q.Limit <= 0 && q.Offset <= 0 {
		return out, len(out), nil
	}
	var total int
	if _, err := scanOne(ctx, c, st.Count, st.CountArgs, &total); err != nil {
		return nil, 0, fmt.Errorf("count lifecycles: %w", err)
	}
	return out, total, nil
}

// UpdateLifecycle saves a lifecycle's phase, status and state on c.
func UpdateLifecycle(ctx context.Context, c Conn, l store.Lifecycle) error {
	w := c.Where()
	set := []string{w.Arg(l.Phase), w.Arg(l.Status), w.Arg(w.d.Time(l.PhaseSince)), w.Arg(w.d.Time(l.UpdatedAt)), w.Arg(string(l.State))}
	w.And("id = ?", l.ID)
	n, err := c.Exec(ctx, `UPDATE lifecycles SET phase = `+set[0]+`, status = `+set[1]+`, phase_since = `+set[2]+
		`, updated_at = `+set[3]+`, state = `+set[4]+` WHERE `+w.String(), w.Args...)
	if err != nil {
		return fmt.Errorf("update lifecycle %d: %w", l.ID, err)
	}
	if n == 0 {
		return fmt.Errorf("update lifecycle %d: no such lifecycle", l.ID)
	}
	c.Changed()
	return nil
}

// ReadCheckpoints is store.Tx.Checkpoints on c.
func ReadCheckpoints(ctx context.Context, c Conn, id task.ID) ([]store.Checkpoint, error) {
	w := c.Where()
	w.And("task_id = ?", int64(id))
	out, err := read(ctx, c, `SELECT id, task_id, note, state, created_at FROM loop_checkpoints WHERE `+w.String()+` ORDER BY id`, w.Args,
		func(rows RowSet) ([]store.Checkpoint, error) {
			return Collect(rows, func(rows RowSet) (store.Checkpoint, error) {
				var (
					ck    store.Checkpoint
					state string
				)
				err := rows.Scan(&ck.ID, &ck.TaskID, &ck.Note, &state, TimeDest(&ck.CreatedAt))
				ck.State = []byte(state)
				return ck, err
			})
		})
	if err != nil {
		return nil, fmt.Errorf("read checkpoints of loop %s: %w", id, err)
	}
	return out, nil
}

// ScanClaims reads rows of task_id, agent, claimed_at, expires_at.
func ScanClaims[R Rows](rows R) (map[task.ID]task.Claim, error) {
	out := map[task.ID]task.Claim{}
	for rows.Next() {
		var c task.Claim
		if err := rows.Scan(&c.TaskID, &c.Agent, TimeDest(&c.ClaimedAt), TimeDest(&c.ExpiresAt)); err != nil {
			return nil, err
		}
		out[c.TaskID] = c
	}
	return out, rows.Err()
}

// ScanFocuses reads rows of agent, task_id.
func ScanFocuses[R Rows](rows R) (map[string]task.ID, error) {
	out := map[string]task.ID{}
	for rows.Next() {
		var (
			agent string
			id    int64
		)
		if err := rows.Scan(&agent, &id); err != nil {
			return nil, err
		}
		out[agent] = task.ID(id)
	}
	return out, rows.Err()
}

// ReadImports is store.Tx.Imports on c.
func ReadImports(ctx context.Context, c Conn, q store.ImportQuery) ([]store.Import, error) {
	if q.Task == 0 {
		w := on(c, "i")
		w.And("i.source = ? AND i.external_id = ? AND t.removed_at IS NULL", q.Source, q.ExternalID)
		var id int64
		found, err := scanOne(ctx, c, `SELECT i.task_id FROM imports i JOIN tasks t ON `+sameProject(w.d, "t", "i")+`t.id = i.task_id WHERE `+w.String(), w.Args, &id)
		if err != nil || !found {
			return nil, wrap("read import mapping", err)
		}
		return []store.Import{{Source: q.Source, ExternalID: q.ExternalID, TaskID: task.ID(id)}}, nil
	}
	st, args := ImportsOf(c.Where(), q.Task)
	out, err := read(ctx, c, st, args,
		func(rows RowSet) ([]store.Import, error) {
			return Collect(rows, func(rows RowSet) (store.Import, error) {
				m := store.Import{TaskID: q.Task}
				err := rows.Scan(&m.Source, &m.ExternalID)
				return m, err
			})
		})
	return out, wrap("read import mappings of "+q.Task.String(), err)
}

// ImportsOf is the statement, on w, of the import mappings that point at
// task id, by source and external id (a store's query-plan test reads it).
func ImportsOf(w *Where, id task.ID) (string, []any) {
	w.And("task_id = ?", int64(id))
	return `SELECT source, external_id FROM imports WHERE ` + w.String() + ` ORDER BY source, external_id`, w.Args
}

// wrap is err with what failed (nil: nil).
func wrap(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}

// ReadFocuses is store.Tx.Focuses on c: the task each agent's focus is on.
func ReadFocuses(ctx context.Context, c Conn) (map[string]task.ID, error) {
	w := c.Where()
	w.And("task_id IS NOT NULL")
	out, err := read(ctx, c, `SELECT agent, task_id FROM focus WHERE `+w.String(), w.Args, ScanFocuses[RowSet])
	return out, wrap("read focus", err)
}

// SetImported is store.Tx.SetImported on c, project (nil: none) keying
// the row.
func SetImported(ctx context.Context, c Conn, project any, source, externalID string, id task.ID) error {
	q, args := Insert(c.Where().d, project, "imports", "source, external_id", "task_id", "task_id = excluded.task_id", source, externalID, int64(id))
	if _, err := c.Exec(ctx, q, args...); err != nil {
		return fmt.Errorf("record import mapping: %w", err)
	}
	c.Changed()
	return nil
}

// ReadClaim reads the claim on id, live or expired, on c.
func ReadClaim(ctx context.Context, c Conn, id task.ID) (task.Claim, bool, error) {
	w := c.Where()
	w.And("task_id = ?", int64(id))
	cl := task.Claim{TaskID: id}
	found, err := scanOne(ctx, c, `SELECT agent, claimed_at, expires_at FROM claims WHERE `+w.String(), w.Args, &cl.Agent, TimeDest(&cl.ClaimedAt), TimeDest(&cl.ExpiresAt))
	if err != nil || !found {
		return task.Claim{}, false, wrap("read claim on "+id.String(), err)
	}
	return cl, true, nil
}

// LiveClaims is the statement of the claims on visible tasks live at now,
// on w, whose conditions are on claims c (ScanClaims reads its rows).
func LiveClaims(w *Where, now time.Time) string {
	// SQLite walks the claims and looks each task up: CROSS JOIN keeps
	// that order, which its planner (without statistics) turned around
	// into a scan of every task for each get_tasks and get_next_task.
	join := "CROSS JOIN"
	if w.d.Dollar {
		join = "JOIN"
	}
	w.And("c.expires_at > ?", w.d.Time(now))
	return `SELECT c.task_id, c.agent, c.claimed_at, c.expires_at FROM claims c ` + join + ` tasks t ON ` + sameProject(w.d, "t", "c") +
		`t.id = c.task_id AND t.removed_at IS NULL WHERE ` + w.String()
}

// ReadLiveClaims reads the claims on visible tasks live at now on c.
func ReadLiveClaims(ctx context.Context, c Conn, now time.Time) (map[task.ID]task.Claim, error) {
	w := on(c, "c")
	out, err := read(ctx, c, LiveClaims(w, now), w.Args, ScanClaims[RowSet])
	return out, wrap("read claims", err)
}

// ReadLoopEvents is store.Tx.LoopEvents on c (limit below zero: no
// limit): the page and the total in one statement, the total counted on
// its own only when the page is empty.
func ReadLoopEvents(ctx context.Context, c Conn, id task.ID, offset, limit int) ([]store.LoopEvent, int, error) {
	w := c.Where()
	w.And("task_id = ?", int64(id))
	cond, countArgs := w.String(), w.Args[:len(w.Args):len(w.Args)]
	var lim any = limit
	if limit < 0 {
		lim = w.d.NoLimit
	}
	var total int64
	out, err := read(ctx, c, `SELECT seq, task_id, kind, detail, at, count(*) OVER () FROM loop_events WHERE `+cond+
		` ORDER BY seq LIMIT `+w.Arg(lim)+` OFFSET `+w.Arg(max(offset, 0)), w.Args, func(rows RowSet) ([]store.LoopEvent, error) {
		return Collect(rows, func(rows RowSet) (store.LoopEvent, error) {
			var (
				e   store.LoopEvent
				tid int64
			)
			err := rows.Scan(&e.Seq, &tid, &e.Kind, &e.Detail, TimeDest(&e.At), &total)
			e.TaskID = task.ID(tid)
			return e, err
		})
	})
	if err != nil {
		return nil, 0, fmt.Errorf("read loop history: %w", err)
	}
	if len(out) == 0 {
		if _, err := scanOne(ctx, c, `SELECT count(*) FROM loop_events WHERE `+cond, countArgs, &total); err != nil {
			return nil, 0, fmt.Errorf("count loop history: %w", err)
		}
	}
	return out, int(total), nil
}

// ScanEdges reads rows of task_id, depends_on.
func ScanEdges[R Rows](rows R) (task.Deps, error) {
	deps := task.Deps{}
	var a, b int64
	for rows.Next() {
		if err := rows.Scan(&a, &b); err != nil {
			return nil, err
		}
		deps[task.ID(a)] = append(deps[task.ID(a)], task.ID(b))
	}
	return deps, rows.Err()
}

// DepsOf is the statement of the edges out of the tasks ids to visible
// tasks, on w, whose conditions are on task_deps d (ScanEdges reads its
// rows).
func DepsOf(w *Where, ids []task.ID) string {
	w.IDs("d.task_id", Int64s(ids))
	return `SELECT d.task_id, d.depends_on FROM task_deps d JOIN tasks b ON ` + sameProject(w.d, "b", "d") + `b.id = d.depends_on
		WHERE ` + w.String() + ` AND b.removed_at IS NULL ORDER BY d.task_id, d.depends_on`
}

// ReadDepsOf reads the edges out of the tasks ids to visible tasks on c.
func ReadDepsOf(ctx context.Context, c Conn, ids []task.ID) (task.Deps, error) {
	if len(ids) == 0 {
		return task.Deps{}, nil
	}
	w := on(c, "d")
	deps, err := read(ctx, c, DepsOf(w, ids), w.Args, ScanEdges[RowSet])
	return deps, wrap("read dependencies", err)
}

// OneDeps is the statement of one task's edges to visible tasks, on w,
// whose conditions are on task_deps d: the tasks id depends on, or
// (dependents) those that depend on it, in order of id.
func OneDeps(w *Where, id task.ID, dependents bool) string {
	near, far := "task_id", "depends_on"
	if dependents {
		near, far = far, near
	}
	w.And("d."+near+" = ?", int64(id))
	return `SELECT d.` + far + ` FROM task_deps d JOIN tasks o ON ` + sameProject(w.d, "o", "d") + `o.id = d.` + far +
		` WHERE ` + w.String() + ` AND o.removed_at IS NULL ORDER BY d.` + far
}

// ReadOneDeps reads OneDeps's ids on c.
func ReadOneDeps(ctx context.Context, c Conn, id task.ID, dependents bool) ([]task.ID, error) {
	w := on(c, "d")
	ds, err := read(ctx, c, OneDeps(w, id, dependents), w.Args, func(rows RowSet) ([]task.ID, error) {
		return Collect(rows, func(rows RowSet) (task.ID, error) {
			var v int64
			err := rows.Scan(&v)
			return task.ID(v), err
		})
	})
	what := "dependencies"
	if dependents {
		what = "dependents"
	}
	return ds, wrap("read "+what+" of "+id.String(), err)
}
