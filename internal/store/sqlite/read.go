package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// ReadPlan answers a store.PlanRead in one statement, with no transaction:
// the plan's revision, its changes since r.Since and the rows r names,
// each part a branch of one UNION ALL, so all of them come from the one
// snapshot the statement reads. A read of the cached board costs this one
// statement (tens of microseconds in the pure-Go SQLite) where it cost a
// BEGIN, three to six statements and a COMMIT, plus a PRAGMA data_version
// on the version's connection.
func (s *Store) ReadPlan(ctx context.Context, r store.PlanRead) (store.PlanReadResult, error) {
	if r.Whole {
		var res store.PlanReadResult
		err := s.View(ctx, func(tx store.Tx) (err error) {
			res, err = tx.(*txn).readWhole(ctx, r)
			return err
		})
		return res, err
	}
	q, args := planReadQuery(r)
	stmts := s.rs.get(ctx)
	ctx = detach(ctx)
	s.n.stmts.Add(1)
	var (
		rows *sql.Rows
		err  error
	)
	if st := stmts[q]; st != nil {
		rows, err = st.QueryContext(ctx, args...)
	} else {
		if stmts != nil {
			s.rs.want(q)
		}
		rows, err = s.r.QueryContext(ctx, q, args...)
	}
	if err != nil {
		return store.PlanReadResult{}, fault(fmt.Errorf("read plan: %w", err), s.name())
	}
	res, err := planReadRows(rows, r)
	return res, fault(err, s.name())
}

// ReadPlan is Store.ReadPlan in a transaction.
func (x *txn) ReadPlan(ctx context.Context, r store.PlanRead) (store.PlanReadResult, error) {
	if r.Whole {
		return x.readWhole(ctx, r)
	}
	q, args := planReadQuery(r)
	rows, err := x.queryBuilt(ctx, q, args...)
	if err != nil {
		return store.PlanReadResult{}, fmt.Errorf("read plan: %w", err)
	}
	return planReadRows(rows, r)
}

// The branches of a plan read. Every branch has planReadCols columns: its
// kind, then its own values, padded with NULLs. The parameters are ?1 the
// revision since, ?2 the agent, ?3 the task, ?4 the time claims must
// outlive.
const planReadCols = 12

// The kinds of a plan read's rows.
const (
	readRev = iota
	readTask
	readRemoved
	readDep
	readFocus
	readBody
	readClaim
	readImport
	readLiveClaim
	readLifecycle
)

var planReadBranches = struct {
	changes, focus, task, claims, taskLifecycle, lifecycles string
}{
	changes: `SELECT 0, n, reset, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM plan_rev WHERE id = 1
		UNION ALL SELECT 1, ` + colsNoBody + ` FROM tasks WHERE rev > ?1 AND removed_at IS NULL
		UNION ALL SELECT 2, id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM tasks WHERE rev > ?1 AND removed_at IS NOT NULL
		UNION ALL SELECT 3, d.task_id, d.depends_on, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
			FROM tasks t CROSS JOIN task_deps d ON d.task_id = t.id WHERE t.rev > ?1 AND t.removed_at IS NULL`,
	focus: `
		UNION ALL SELECT 4, f.task_id, t.body, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
			FROM focus f LEFT JOIN tasks t ON t.id = f.task_id AND t.removed_at IS NULL WHERE f.agent = ?2`,
	task: `
		UNION ALL SELECT 5, body, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM tasks WHERE id = ?3 AND removed_at IS NULL
		UNION ALL SELECT 6, agent, claimed_at, expires_at, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM claims WHERE task_id = ?3
		UNION ALL SELECT 7, source, external_id, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM imports WHERE task_id = ?3`,
	claims: `
		UNION ALL SELECT 8, c.task_id, c.agent, c.claimed_at, c.expires_at, NULL, NULL, NULL, NULL, NULL, NULL, NULL FROM claims c
			CROSS JOIN tasks t ON t.id = c.task_id AND t.removed_at IS NULL WHERE c.expires_at > ?4`,
	taskLifecycle: `
		UNION ALL SELECT 9, l.id, l.task_id, l.definition, l.phase, NULL, NULL, NULL, NULL, NULL, NULL, NULL
			FROM lifecycles l JOIN tasks t ON t.id = l.task_id WHERE t.removed_at IS NULL AND l.status = 'open' AND l.task_id IN (?3)`,
	lifecycles: `
		UNION ALL SELECT 9, l.id, l.task_id, l.definition, l.phase, NULL, NULL, NULL, NULL, NULL, NULL, NULL
			FROM lifecycles l JOIN tasks t ON t.id = l.task_id WHERE t.removed_at IS NULL AND l.status = 'open'`,
}

// planReadShapes are the texts of every shape of plan read, by
// planReadShape: built once, when a store opens (not at every process
// start), and prepared on first use (queryBuilt).
var planReadShapes = sync.OnceValue(func() (qs [16]string) {
	b := planReadBranches
	for shape := range qs {
		var sb strings.Builder
		sb.WriteString(b.changes)
		if shape&1 != 0 {
			sb.WriteString(b.focus)
		}
		if shape&2 != 0 {
			sb.WriteString(b.task)
		}
		if shape&4 != 0 {
			sb.WriteString(b.claims)
		}
		switch {
		case shape&8 != 0:
			sb.WriteString(b.lifecycles)
		case shape&2 != 0:
			sb.WriteString(b.taskLifecycle)
		}
		qs[shape] = sb.String()
	}
	return qs
})

// readPlanQueries are the shapes the services use, prepared with the
// pool's other statements: Board and Next without and with an agent's
// claims, Current, Get, List, and BigPicture.
func readPlanQueries() []string {
	qs := planReadShapes()
	return []string{qs[0], qs[4], qs[1], qs[2], qs[4|8], qs[1|8]}
}

// writePlanQueries are the shapes writes read in their transactions,
// prepared on the writer's connection: a task's detail after a change.
func writePlanQueries() []string { return []string{planReadShapes()[2]} }

func planReadQuery(r store.PlanRead) (string, []any) {
	shape := 0
	if r.Agent != "" {
		shape |= 1
	}
	if r.Task != 0 {
		shape |= 2
	}
	if r.Claims {
		shape |= 4
	}
	if r.Lifecycles {
		shape |= 8
	}
	// Every query binds four parameters; one that uses fewer ignores the rest.
	return planReadShapes()[shape], []any{int64(r.Since), r.Agent, int64(r.Task), micros(r.Now)}
}

// planReadRows reads a plan read's rows and closes them.
func planReadRows(rows *sql.Rows, r store.PlanRead) (store.PlanReadResult, error) {
	defer rows.Close()
	var (
		res        store.PlanReadResult
		vals, dest [planReadCols]any
		c          columns
		rev, reset int64
		gotRev     bool
	)
	for i := range vals {
		dest[i] = &vals[i]
	}
	if r.Claims {
		res.Claims = map[task.ID]task.Claim{}
	}
	for rows.Next() {
		if err := rows.Scan(dest[:]...); err != nil {
			return res, fmt.Errorf("read plan: %w", err)
		}
		v := vals[1:]
		switch kind := c.int(vals[0], "kind", false); kind {
		case readRev:
			rev, reset, gotRev = c.int(v[0], "n", false), c.int(v[1], "reset", false), true
		case readTask:
			t, err := taskOf(v)
			if err != nil {
				return res, fmt.Errorf("read changed tasks: %w", err)
			}
			res.Changes.Tasks = append(res.Changes.Tasks, t)
		case readRemoved:
			res.Changes.Removed = append(res.Changes.Removed, task.ID(c.int(v[0], "id", false)))
		case readDep:
			if res.Changes.Deps == nil {
				res.Changes.Deps = task.Deps{}
			}
			a, b := task.ID(c.int(v[0], "task_id", false)), task.ID(c.int(v[1], "depends_on", false))
			res.Changes.Deps[a] = append(res.Changes.Deps[a], b)
		case readFocus:
			res.Focus = task.ID(c.int(v[0], "task_id", true))
			if v[1] != nil {
				res.FocusBody = c.text(v[1], "body")
			}
		case readBody:
			res.Found, res.Body = true, c.text(v[0], "body")
		case readClaim:
			res.Claim = &task.Claim{TaskID: r.Task, Agent: c.text(v[0], "agent"),
				ClaimedAt: c.time(v[1], "claimed_at"), ExpiresAt: c.time(v[2], "expires_at")}
		case readImport:
			res.Imports = append(res.Imports, store.Import{Source: c.text(v[0], "source"), ExternalID: c.text(v[1], "external_id")})
		case readLiveClaim:
			cl := task.Claim{TaskID: task.ID(c.int(v[0], "task_id", false)), Agent: c.text(v[1], "agent"),
				ClaimedAt: c.time(v[2], "claimed_at"), ExpiresAt: c.time(v[3], "expires_at")}
			res.Claims[cl.TaskID] = cl
		case readLifecycle:
			res.Lifecycles = append(res.Lifecycles, store.Lifecycle{ID: c.int(v[0], "id", false),
				TaskID: task.ID(c.int(v[1], "task_id", false)), Definition: c.text(v[2], "definition"), Phase: c.text(v[3], "phase")})
		default:
			return res, fmt.Errorf("read plan: a row of kind %d", kind)
		}
		if c.err != nil {
			return res, fmt.Errorf("read plan: %w", c.err)
		}
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("read plan: %w", err)
	}
	if !gotRev {
		return res, fmt.Errorf("read plan: no plan revision")
	}
	// A revision behind the reader's means another database file took
	// this one's place.
	store.SettlePlanRead(&res, r, uint64(rev), uint64(reset))
	return res, nil
}

// The whole plan's reads (PlanRead.Whole): its revision and every visible
// task; the edges are allDeps's.
const (
	qPlanRev = `SELECT n, reset FROM plan_rev WHERE id = 1`
	qTasks   = `SELECT ` + colsNoBody + ` FROM tasks WHERE removed_at IS NULL`
)

// readWhole answers a PlanRead of the whole plan in the transaction's
// snapshot with three plain scans (the revision, the tasks, the edges): in
// one statement, a union with the other reads' columns, they cost a fifth
// more memory. The rows r names beside it are not read: the board's load
// asks for none.
func (x *txn) readWhole(ctx context.Context, r store.PlanRead) (store.PlanReadResult, error) {
	var rev, reset int64
	if err := x.queryRow(ctx, qPlanRev).Scan(&rev, &reset); err != nil {
		return store.PlanReadResult{}, fmt.Errorf("read plan revision: %w", err)
	}
	ts, err := x.queryTasks(ctx, qTasks)
	if err != nil {
		return store.PlanReadResult{}, fmt.Errorf("read tasks: %w", err)
	}
	deps, err := x.allDeps(ctx)
	if err != nil {
		return store.PlanReadResult{}, err
	}
	res := store.PlanReadResult{Changes: task.Changes{Tasks: ts, Deps: deps}}
	store.SettlePlanRead(&res, r, uint64(rev), uint64(reset))
	return res, nil
}
