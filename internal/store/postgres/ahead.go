package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/task"
)

// aheadRead is the answer to a read sent ahead (ReadAhead).
type aheadRead struct {
	in         bool        // the answer came
	tasks      []task.Task // ReadTask (none: not found), ReadChildren, ReadOpenChildren
	ids        []task.ID   // ReadTaskDeps, ReadDependents
	focuses    map[string]task.ID
	claim      *task.Claim            // ReadTaskClaim; nil: none
	claims     map[task.ID]task.Claim // ReadClaims: live or expired
	lifecycles []store.Lifecycle
}

// ReadAhead queues reads to go with a write's next statement, in one round
// trip, and the calls of those reads that follow take their answers from
// there, without a round trip of their own. A write's transaction holds
// the project's lock, so every round trip saved there is saved for each
// writer queued behind it. In a View it does nothing.
//
// A list read ahead answers the first call of its read (the call takes it),
// a task every call until a write.
//
// A read sent ahead answers as the data is where it was queued, after the
// writes queued before it; a write of this transaction after it (changed)
// drops every answer sent ahead, and the calls that follow read again.
func (x *txn) ReadAhead(ctx context.Context, reads ...store.Read) {
	if x.snapshot {
		// A View's reads are sent as they are made: read ahead, they
		// made get_next_task slower under load.sh's mix (p50 10.8 and
		// 12.3 ms against 7.0 and 8.1, alternated), for a round trip or
		// two saved where no lock is held.
		return
	}
	for _, r := range reads {
		switch r.Of {
		case store.ReadFocuses, store.ReadClaims:
			r.ID = 0
		case store.ReadChildren, store.ReadOpenChildren, store.ReadTaskDeps, store.ReadTask:
			if r.Agent != "" {
				r.ID = 0
			}
		}
		if r.ID != 0 || r.Of == store.ReadFocuses || r.Of == store.ReadClaims {
			r.Agent = ""
		}
		if r.Agent == "" {
			r.Up = 0
		}
		if x.ahead[r] != nil {
			continue // queued or in, and still true
		}
		a := &aheadRead{}
		sql, args, read := x.aheadSQL(r, a)
		if sql == "" {
			continue
		}
		if x.ahead == nil {
			x.ahead = map[store.Read]*aheadRead{}
		}
		x.ahead[r] = a
		x.tx.read("read ahead", sql, args, func(rows pgx.Rows) error {
			if err := read(rows); err != nil {
				return err
			}
			if rows.Err() == nil { // else no answer: readRows fails the transaction
				a.in = true
			}
			return nil
		})
	}
}

// changed marks the transaction as having changed something (Update bumps
// the version) and drops the answers read ahead, which it may have changed.
func (x *txn) changed() {
	x.dirty = true
	clear(x.ahead)
}

// updated keeps the answers read ahead true once t's own fields are
// written as UpdateTask writes them: t in a task list read ahead gets
// them in place (its body only where the list holds bodies), and leaves a
// list of open children once closed; the plan's changes, which the write
// adds to, are dropped, as is every answer not in yet (it will come as of
// before the write), and a list of t's parent's open children that t,
// open now, is not in. The write changes no task's place, dependency,
// claim, lifecycle or focus.
func (x *txn) updated(t task.Task) {
	x.dirty = true
	for r, a := range x.ahead {
		if !a.in {
			delete(x.ahead, r)
			continue
		}
		if r.Of == store.ReadOpenChildren {
			i := slices.IndexFunc(a.tasks, func(u task.Task) bool { return u.ID == t.ID })
			switch {
			case i >= 0 && !t.Status.Open():
				a.tasks = slices.Delete(a.tasks, i, i+1)
				continue
			case i < 0 && t.Status.Open() && (r.Agent != "" || r.ID == t.ParentID):
				// Reopened (or an answer by agent, whose parent is
				// not known): read again.
				delete(x.ahead, r)
				continue
			}
		} else if r.Of != store.ReadTask && r.Of != store.ReadChildren {
			continue
		}
		for i := range a.tasks {
			u := &a.tasks[i]
			if u.ID != t.ID {
				continue
			}
			u.Title, u.Status, u.Priority = t.Title, t.Status, t.Priority
			u.UpdatedAt, u.CompletedAt = ts(t.UpdatedAt), fromTS(nullTS(t.CompletedAt))
			if r.Of == store.ReadTask {
				u.Body = t.Body
			}
		}
	}
}

// answer returns the answer to r when r was read ahead, sending it first if
// it is still queued; nil when it was not read ahead, or a write since may
// have changed it.
func (x *txn) answer(ctx context.Context, r store.Read) (*aheadRead, error) {
	a := x.ahead[r]
	if a == nil {
		return nil, nil
	}
	if !a.in {
		if err := x.tx.flush(ctx); err != nil {
			return nil, err
		}
		if !a.in {
			return nil, nil
		}
	}
	return a, nil
}

// aheadSQL returns r's statement, its arguments and the function that
// takes its rows into a; an empty statement for a read it does not know.
func (x *txn) aheadSQL(r store.Read, a *aheadRead) (string, []any, func(pgx.Rows) error) {
	id := int64(r.ID)
	tasks := func(rows pgx.Rows) error {
		tr := newTaskRow()
		for rows.Next() {
			t, err := tr.scan(rows)
			if err != nil {
				return err
			}
			a.tasks = append(a.tasks, t)
		}
		return nil
	}
	ids := func(rows pgx.Rows) error {
		for rows.Next() {
			var v int64
			if err := rows.Scan(&v); err != nil {
				return err
			}
			a.ids = append(a.ids, task.ID(v))
		}
		return nil
	}
	if r.Agent != "" {
		return x.focusedSQL(r, a)
	}
	switch r.Of {
	case store.ReadTask:
		return qTask, []any{x.p, id}, tasks
	case store.ReadChildren:
		return qChildren, []any{x.p, id}, tasks
	case store.ReadOpenChildren:
		return qOpenChildren, []any{x.p, id}, tasks
	case store.ReadTaskDeps, store.ReadDependents:
		w := sq.Where("d.project_id = ?", x.p)
		return sqlq.OneDeps(w, r.ID, r.Of == store.ReadDependents), w.Args, ids
	case store.ReadFocuses:
		return qFocuses, []any{x.p}, func(rows pgx.Rows) error {
			var err error
			a.focuses, err = sqlq.ScanFocuses(rows)
			return err
		}
	case store.ReadTaskClaim:
		return qClaim, []any{x.p, id}, func(rows pgx.Rows) error {
			for rows.Next() {
				c := task.Claim{TaskID: r.ID}
				if err := rows.Scan(&c.Agent, &c.ClaimedAt, &c.ExpiresAt); err != nil {
					return err
				}
				c.ClaimedAt, c.ExpiresAt = c.ClaimedAt.UTC(), c.ExpiresAt.UTC()
				a.claim = &c
			}
			return nil
		}
	case store.ReadClaims:
		return qAllClaims, []any{x.p}, func(rows pgx.Rows) error {
			var err error
			a.claims, err = sqlq.ScanClaims(rows)
			return err
		}
	case store.ReadOpenLifecycles:
		st := sqlq.Lifecycles(sq.Where("l.project_id = ?", x.p), store.LifecycleQuery{Status: store.LifecycleOpen, Tasks: []task.ID{r.ID}})
		return st.Page, st.PageArgs, func(rows pgx.Rows) error {
			var err error
			a.lifecycles, err = sqlq.ScanLifecycles(rows)
			return err
		}
	}
	return "", nil, nil
}

// Reads of the task an agent's focus is on, or of its parent: that task's
// id first, then its children, dependencies or row; one row with a zero
// for none, none for no focus (or, for the parent, a focus on a task that
// is not visible).
const (
	focusedCols = `coalesce(t.id, 0), coalesce(t.parent_id, 0), coalesce(t.position, 0), coalesce(t.num, 0),
		coalesce(t.title, ''), %s, coalesce(t.status, ''), coalesce(t.priority, ''),
		coalesce(t.created_at, 'epoch'), coalesce(t.updated_at, 'epoch'), t.completed_at`
	// of: the focused task's id, or its parent's.
	focusedOf = `FROM focus f JOIN tasks c ON c.project_id = f.project_id AND c.id = f.task_id AND c.removed_at IS NULL
		CROSS JOIN LATERAL (SELECT %s AS id) o`
)

var (
	qFocusedChildren = fmt.Sprintf(`SELECT o.id, `+focusedCols+` `+focusedOf+`
		LEFT JOIN tasks t ON t.project_id = f.project_id AND t.parent_id = o.id AND t.removed_at IS NULL
		WHERE f.project_id = $1 AND f.agent = $2 ORDER BY t.position, t.id`, "''", "c.id")
	qFocusedSiblings = fmt.Sprintf(`SELECT o.id, `+focusedCols+` `+focusedOf+`
		LEFT JOIN tasks t ON t.project_id = f.project_id AND t.parent_id = o.id AND t.removed_at IS NULL
		WHERE f.project_id = $1 AND f.agent = $2 ORDER BY t.position, t.id`, "''", "c.parent_id")
	// The open ones (openChildrenWhere) of the focused task's children,
	// and of its siblings.
	qFocusedOpenChildren = fmt.Sprintf(`SELECT o.id, `+focusedCols+` `+focusedOf+`
		LEFT JOIN tasks t ON t.project_id = f.project_id AND t.parent_id = o.id AND t.removed_at IS NULL
			AND t.status NOT IN ('done', 'cancelled')
		WHERE f.project_id = $1 AND f.agent = $2 ORDER BY t.position, t.id`, "''", "c.id")
	qFocusedOpenSiblings = fmt.Sprintf(`SELECT o.id, `+focusedCols+` `+focusedOf+`
		LEFT JOIN tasks t ON t.project_id = f.project_id AND t.parent_id = o.id AND t.removed_at IS NULL
			AND t.status NOT IN ('done', 'cancelled')
		WHERE f.project_id = $1 AND f.agent = $2 ORDER BY t.position, t.id`, "''", "c.parent_id")
	qFocusedParent = fmt.Sprintf(`SELECT o.id, `+focusedCols+` `+focusedOf+`
		LEFT JOIN tasks t ON t.project_id = f.project_id AND t.id = o.id AND t.removed_at IS NULL
		WHERE f.project_id = $1 AND f.agent = $2 AND o.id <> 0`, "coalesce(t.body, '')", "c.parent_id")
	qFocusedDeps = `SELECT c.id, coalesce(d.depends_on, 0)
		FROM focus f JOIN tasks c ON c.project_id = f.project_id AND c.id = f.task_id AND c.removed_at IS NULL
		LEFT JOIN (task_deps d JOIN tasks b ON b.project_id = d.project_id AND b.id = d.depends_on AND b.removed_at IS NULL)
			ON d.project_id = f.project_id AND d.task_id = c.id
		WHERE f.project_id = $1 AND f.agent = $2 ORDER BY d.depends_on`
)

// focusedSQL is aheadSQL for a read of the task r.Agent's focus is on, or
// of its parent (r.Up). Its answer, once in, answers the same read of that
// task by id, unless a write dropped it meanwhile. The transaction holds
// the project's lock, so the focus is the one the write's FocusedTask
// reads in the same round trip.
func (x *txn) focusedSQL(r store.Read, a *aheadRead) (string, []any, func(pgx.Rows) error) {
	var (
		of    int64
		found bool // of is known
	)
	learn := func() {
		if found && x.ahead[r] == a {
			delete(x.ahead, r)
			x.ahead[store.Read{Of: r.Of, ID: task.ID(of)}] = a
		}
	}
	tasks := func(rows pgx.Rows) error {
		tr := newTaskRow()
		dest := append([]any{&of}, tr.dest[:]...)
		for rows.Next() {
			tr.completed = nil
			if err := rows.Scan(dest...); err != nil {
				return err
			}
			found = true
			if tr.id != 0 {
				a.tasks = append(a.tasks, tr.task())
			}
		}
		learn()
		return nil
	}
	switch {
	case r.Of == store.ReadChildren && r.Up == 0:
		return qFocusedChildren, []any{x.p, r.Agent}, tasks
	case r.Of == store.ReadChildren && r.Up == 1:
		return qFocusedSiblings, []any{x.p, r.Agent}, tasks
	case r.Of == store.ReadOpenChildren && r.Up == 0:
		return qFocusedOpenChildren, []any{x.p, r.Agent}, tasks
	case r.Of == store.ReadOpenChildren && r.Up == 1:
		return qFocusedOpenSiblings, []any{x.p, r.Agent}, tasks
	case r.Of == store.ReadTask && r.Up == 1:
		return qFocusedParent, []any{x.p, r.Agent}, tasks
	case r.Of == store.ReadTaskDeps && r.Up == 0:
		return qFocusedDeps, []any{x.p, r.Agent}, func(rows pgx.Rows) error {
			var dep int64
			for rows.Next() {
				if err := rows.Scan(&of, &dep); err != nil {
					return err
				}
				found = true
				if dep != 0 {
					a.ids = append(a.ids, task.ID(dep))
				}
			}
			learn()
			return nil
		}
	}
	return "", nil, nil
}

// take is answer for a read whose answer is a list: the first call of the
// read takes it (no copy to make), a later one reads again.
func (x *txn) take(ctx context.Context, r store.Read) (*aheadRead, error) {
	a, err := x.answer(ctx, r)
	if a != nil {
		delete(x.ahead, r)
	}
	return a, err
}

// answeredTasks is take for the reads whose answer is a list of tasks; a
// task read ahead (ReadTask) answers every call until a write, each
// caller getting its own copy of the task.
func (x *txn) answeredTasks(ctx context.Context, r store.Read) ([]task.Task, bool, error) {
	get := x.take
	if r.Of == store.ReadTask {
		get = x.answer
	}
	a, err := get(ctx, r)
	if err != nil || a == nil {
		return nil, false, err
	}
	return a.tasks, true, nil
}

// answeredIDs is take for the reads whose answer is a list of ids.
func (x *txn) answeredIDs(ctx context.Context, r store.Read) ([]task.ID, bool, error) {
	a, err := x.take(ctx, r)
	if err != nil || a == nil {
		return nil, false, err
	}
	return a.ids, true, nil
}

// answeredFocuses is take for ReadFocuses.
func (x *txn) answeredFocuses(ctx context.Context) (map[string]task.ID, bool, error) {
	a, err := x.take(ctx, store.Read{Of: store.ReadFocuses})
	if err != nil || a == nil {
		return nil, false, err
	}
	return a.focuses, true, nil
}
