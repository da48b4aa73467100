package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/task"
)

// ReadPlan answers a store.PlanRead in one statement, outside any
// transaction: the plan's revision, its changes since r.Since and the rows
// r names, each part a branch of one UNION ALL. One statement reads one
// snapshot under any isolation level, so the answer is the plan as some
// moment held it, whoever wrote it. A read of the cached board costs this
// one round trip where a View cost four (BEGIN with the revision, the
// changes, the claims, COMMIT), each a wait on a busy server.
func (s *Store) ReadPlan(ctx context.Context, r store.PlanRead) (store.PlanReadResult, error) {
	if s.isClosed() {
		return store.PlanReadResult{}, store.ErrClosed
	}
	if r.Whole {
		return s.readWhole(ctx, r)
	}
	q, args := planReadQuery(s.project, r)
	rows, err := s.db.pool.Query(ctx, q, args...)
	if err != nil {
		return store.PlanReadResult{}, fault(fmt.Errorf("read plan: %w", err))
	}
	res, err := planReadRows(rows, r)
	if err == nil && s.db.log.Enabled(ctx, slog.LevelDebug) {
		s.db.log.LogAttrs(ctx, slog.LevelDebug, "postgres read", slog.Int("round_trips", 1))
	}
	return res, fault(err)
}

// The whole plan's reads (PlanRead.Whole): the revision, every visible
// task, and every edge between two of them (removal drops the edges into
// a subtree, but not those out of it).
const (
	qPlanRev = `SELECT plan_rev, plan_reset FROM projects WHERE id = $1`
	qTasks   = `SELECT ` + colsNoBody + ` FROM tasks WHERE project_id = $1 AND removed_at IS NULL`
)

// readWhole answers a PlanRead of the whole plan in a View (readWhole).
func (s *Store) readWhole(ctx context.Context, r store.PlanRead) (store.PlanReadResult, error) {
	var res store.PlanReadResult
	err := s.View(ctx, func(tx store.Tx) error {
		x := tx.(*txn)
		x.readWhole(r, &res)
		return x.tx.flush(ctx)
	})
	if err != nil {
		return store.PlanReadResult{}, fault(fmt.Errorf("read plan: %w", err))
	}
	return res, nil
}

// readWhole queues the reads of a PlanRead of the whole plan, three in one
// snapshot sent together in one round trip, and *into is their answer once
// they have gone: the same rows in one statement, a union with the other
// reads' columns, cost a quarter more (each task's edges looked up on
// their own, twice). The rows r names beside it are not read: the board's
// load asks for none.
func (x *txn) readWhole(r store.PlanRead, into *store.PlanReadResult) {
	var res store.PlanReadResult
	x.tx.read("read the plan's tasks", qTasks, []any{x.p}, func(rows pgx.Rows) error {
		tr := newTaskRow()
		var err error
		res.Changes.Tasks, err = sqlq.Collect(rows, func(rows pgx.Rows) (task.Task, error) { return tr.scan(rows) })
		return err
	})
	x.tx.read("read the plan's dependencies", qAllDeps, []any{x.p}, func(rows pgx.Rows) error {
		var err error
		res.Changes.Deps, err = sqlq.ScanEdges(rows)
		return err
	})
	x.tx.read("read the plan revision", qPlanRev, []any{x.p}, func(rows pgx.Rows) error {
		var rev, reset int64
		if !rows.Next() {
			return cmp.Or(rows.Err(), errors.New("the project is gone"))
		}
		if err := rows.Scan(&rev, &reset); err != nil {
			return err
		}
		store.SettlePlanRead(&res, r, uint64(rev), uint64(reset))
		*into = res
		return nil
	})
}

// ReadPlan is Store.ReadPlan in a transaction (its snapshot, in a View).
func (x *txn) ReadPlan(ctx context.Context, r store.PlanRead) (store.PlanReadResult, error) {
	if r.Whole {
		var res store.PlanReadResult
		x.readWhole(r, &res)
		return res, x.tx.flush(ctx)
	}
	q, args := planReadQuery(x.p, r)
	rows, err := x.tx.Query(ctx, q, args...)
	if err != nil {
		return store.PlanReadResult{}, fmt.Errorf("read plan: %w", err)
	}
	return planReadRows(rows, r)
}

// ReadPlanLater is ReadPlan in the transaction, sent late: with its next
// statement or with COMMIT, after the writes queued before it, which it
// sees; *into is its answer once it has gone (at the latest when Update
// returns). A write's answer read this way costs no round trip of its own
// under the project's lock. A failure fails the transaction.
func (x *txn) ReadPlanLater(ctx context.Context, r store.PlanRead, into *store.PlanReadResult) {
	if r.Whole {
		x.readWhole(r, into)
		return
	}
	q, args := planReadQuery(x.p, r)
	x.tx.read("read the task back", q, args, func(rows pgx.Rows) error {
		res, err := planReadRows(rows, r)
		if err != nil {
			return err
		}
		*into = res
		return nil
	})
}

// A plan read's rows: every branch has the columns of a changed task
// (planReadCols), its kind first; the branches that are not tasks put
// their values in the columns of the same type and pad the rest.
var planReadCols = [...]struct{ name, pad string }{
	{"kind", ""},
	{"id", "0::int8"},
	{"parent_id", "0::int8"},
	{"position", "0::int4"},
	{"num", "0::int4"},
	{"title", "''::text"},
	{"body", "''::text"},
	{"status", "''::text"},
	{"priority", "''::text"},
	{"created_at", "'epoch'::timestamptz"},
	{"updated_at", "'epoch'::timestamptz"},
	{"completed_at", "NULL::timestamptz"},
	{"removed", "false"},
	{"deps", "NULL::int8[]"},
}

// The kinds of a plan read's rows.
const (
	readRev = iota
	readTask
	readFocus
	readBody
	readClaim
	readImport
	readLiveClaim
	readLifecycle
)

// branch is one SELECT of a plan read: kind, the values of the columns
// named in vals, and the padding of the others.
func branch(kind int, vals map[string]string, rest string) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	b.WriteString(strconv.Itoa(kind))
	for _, c := range planReadCols[1:] {
		b.WriteString(", ")
		if v, ok := vals[c.name]; ok {
			b.WriteString(v)
		} else {
			b.WriteString(c.pad)
		}
	}
	b.WriteString(" ")
	b.WriteString(rest)
	return b.String()
}

// planReadShapes are the texts of every shape of plan read, by the
// parameters it uses (planReadQuery): built on the first read, not at
// start (a stdio server on SQLite never uses them). $1 is the project, $2
// the revision since; the agent, the task and the time claims must
// outlive follow, numbered in that order, when the shape reads them.
var planReadShapes = sync.OnceValue(func() (qs [16]string) {
	for shape := range qs {
		n := 2
		// The changes after $2 up to the revision this statement's
		// snapshot holds, bounded by it so that a generic plan walks
		// tasks_by_rev; none when only a reload can follow them (the
		// reader asks again, whole).
		changes := `SELECT 1, ` + colsNoBody + `, removed_at IS NOT NULL, ` + visibleDepsOf + `
			FROM tasks t WHERE project_id = $1 AND rev > $2
				AND rev <= (SELECT plan_rev FROM projects WHERE id = $1 AND plan_reset <= $2)`

		param := func() string { n++; return "$" + strconv.Itoa(n) }
		parts := []string{
			branch(readRev, map[string]string{"id": "plan_rev", "parent_id": "plan_reset"}, `FROM projects WHERE id = $1`),
			changes,
		}
		if shape&1 != 0 {
			parts = append(parts, branch(readFocus, map[string]string{"id": "coalesce(f.task_id, 0)", "body": "coalesce(t.body, '')", "removed": "t.id IS NULL"},
				`FROM focus f LEFT JOIN tasks t ON t.project_id = f.project_id AND t.id = f.task_id AND t.removed_at IS NULL
				WHERE f.project_id = $1 AND f.agent = `+param()))
		}
		var id string
		if shape&2 != 0 {
			id = param()
			parts = append(parts,
				branch(readBody, map[string]string{"body": "body"}, `FROM tasks WHERE project_id = $1 AND id = `+id+` AND removed_at IS NULL`),
				branch(readClaim, map[string]string{"title": "agent", "created_at": "claimed_at", "updated_at": "expires_at"},
					`FROM claims WHERE project_id = $1 AND task_id = `+id),
				branch(readImport, map[string]string{"title": "source", "body": "external_id"}, `FROM imports WHERE project_id = $1 AND task_id = `+id))
		}
		if shape&4 != 0 {
			parts = append(parts, branch(readLiveClaim, map[string]string{"id": "c.task_id", "title": "c.agent", "created_at": "c.claimed_at", "updated_at": "c.expires_at"},
				`FROM claims c JOIN tasks t ON t.project_id = c.project_id AND t.id = c.task_id AND t.removed_at IS NULL
				WHERE c.project_id = $1 AND c.expires_at > `+param()))
		}
		lifecycles := `FROM lifecycles l JOIN tasks t ON t.project_id = l.project_id AND t.id = l.task_id
			WHERE l.project_id = $1 AND t.removed_at IS NULL AND l.status = 'open'`
		switch {
		case shape&8 != 0:
		case shape&2 != 0:
			lifecycles += ` AND l.task_id = ` + id
		default:
			lifecycles = ""
		}
		if lifecycles != "" {
			parts = append(parts, branch(readLifecycle, map[string]string{"id": "l.id", "parent_id": "l.task_id", "title": "l.definition", "body": "l.phase"}, lifecycles))
		}
		qs[shape] = strings.Join(parts, "\nUNION ALL ")
	}
	return qs
})

// visibleDepsOf is a plan read's task row's dependencies: those of task t
// on visible tasks, in id order, each task's looked up by its key (a join
// from the tasks read to task_deps got a generic plan that read every
// edge).
const visibleDepsOf = `ARRAY(SELECT d.depends_on FROM task_deps d JOIN tasks b ON b.project_id = d.project_id AND b.id = d.depends_on
	WHERE d.project_id = $1 AND d.task_id = t.id AND b.removed_at IS NULL ORDER BY d.depends_on)`

// planReadQuery returns r's statement and its arguments.
func planReadQuery(project int64, r store.PlanRead) (string, []any) {
	shape := 0
	args := []any{project, int64(r.Since)}
	if r.Agent != "" {
		shape |= 1
		args = append(args, r.Agent)
	}
	if r.Task != 0 {
		shape |= 2
		args = append(args, int64(r.Task))
	}
	if r.Claims {
		shape |= 4
		args = append(args, ts(r.Now))
	}
	if r.Lifecycles {
		shape |= 8
	}
	return planReadShapes()[shape], args
}

// planReadRows reads a plan read's rows and closes them.
func planReadRows(rows pgx.Rows, r store.PlanRead) (store.PlanReadResult, error) {
	defer rows.Close()
	var (
		res        store.PlanReadResult
		kind       int32
		removed    bool
		deps       []int64
		rev, reset int64
		gotRev     bool
	)
	t := newTaskRow()
	dest := append([]any{&kind}, t.dest[:]...)
	dest = append(dest, &removed, &deps)
	if r.Claims {
		res.Claims = map[task.ID]task.Claim{}
	}
	for rows.Next() {
		t.completed, deps = nil, nil
		if err := rows.Scan(dest...); err != nil {
			return res, fmt.Errorf("read plan: %w", err)
		}
		switch kind {
		case readRev:
			rev, reset, gotRev = t.id, t.parent, true
		case readTask:
			if removed {
				res.Changes.Removed = append(res.Changes.Removed, task.ID(t.id))
				continue
			}
			res.Changes.Tasks = append(res.Changes.Tasks, t.task())
			if len(deps) > 0 {
				if res.Changes.Deps == nil {
					res.Changes.Deps = task.Deps{}
				}
				ds := make([]task.ID, len(deps))
				for i, d := range deps {
					ds[i] = task.ID(d)
				}
				res.Changes.Deps[task.ID(t.id)] = ds
			}
		case readFocus:
			res.Focus = task.ID(t.id)
			if !removed {
				res.FocusBody = t.body
			}
		case readBody:
			res.Found, res.Body = true, t.body
		case readClaim:
			res.Claim = &task.Claim{TaskID: r.Task, Agent: t.title, ClaimedAt: t.created.UTC(), ExpiresAt: t.updated.UTC()}
		case readImport:
			res.Imports = append(res.Imports, store.Import{Source: t.title, ExternalID: t.body})
		case readLiveClaim:
			res.Claims[task.ID(t.id)] = task.Claim{TaskID: task.ID(t.id), Agent: t.title, ClaimedAt: t.created.UTC(), ExpiresAt: t.updated.UTC()}
		case readLifecycle:
			res.Lifecycles = append(res.Lifecycles, store.Lifecycle{ID: t.id, TaskID: task.ID(t.parent), Definition: t.title, Phase: t.body})

		default:
			return res, fmt.Errorf("read plan: a row of kind %d", kind)
		}
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("read plan: %w", err)
	}
	if !gotRev {
		return res, fmt.Errorf("read plan: the project is gone")
	}

	store.SettlePlanRead(&res, r, uint64(rev), uint64(reset))
	return res, nil
}
