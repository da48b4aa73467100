package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/task"
)

// txn is one transaction on one project: $1 of every statement is the
// project's id.
type txn struct {
	tx *txConn
	p  int64
	// genericSearch: see DB.genericSearch.
	genericSearch bool
	dirty         bool // a write changed something: Update bumps the version
	// bumped: a statement sent took the plan's revision and so bumped the
	// version and notified (takeRev, nextID): COMMIT need not.
	bumped bool
	terms  *termCounts
	// snapshot: one snapshot for the whole transaction (a View).
	snapshot bool
	// ahead holds the reads sent ahead (ReadAhead) and, once in, their
	// answers, until the transaction's next write.
	ahead map[store.Read]*aheadRead
}

var _ store.Tx = (*txn)(nil)

// later queues a write that returns nothing but success to go with the
// transaction's next statement, or its COMMIT (see txConn): one round trip
// less under the project's lock. done says what failed, which the
// transaction then returns (Update's error); it may only fail a write that
// PostgreSQL failed.
func (x *txn) later(sql string, args []any, done func(pgconn.CommandTag, error) error) {
	x.tx.later(sql, args, done)
	x.changed()
}

// ts converts a time for a timestamptz column: UTC, microseconds (the
// column's precision, so what is read back equals what was written).
func ts(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// nullTS is ts with the zero time as NULL.
func nullTS(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	v := ts(t)
	return &v
}

func fromTS(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// limitOf maps a negative limit (none) to NULL, which LIMIT reads as none.
func limitOf(limit int) *int64 {
	if limit < 0 {
		return nil
	}
	v := int64(limit)
	return &v
}

const (
	colsNoBody = `id, parent_id, position, num, title, '', status, priority, created_at, updated_at, completed_at`
	colsBody   = `id, parent_id, position, num, title, body, status, priority, created_at, updated_at, completed_at`
)

// A statement that writes tasks takes the plan's revision itself, stamps
// its rows with it, so that the triggers of migration 0006 skip them (0011),
// and in the same UPDATE of the project's row bumps the version and
// notifies (which a write otherwise does with COMMIT, in a statement of
// its own: Store.bump): one statement and a PL/pgSQL call fewer per write,
// about a sixth of PostgreSQL's work in update_task's transaction. It
// takes the revision as cairn_plan_rev does: the project's next on the
// transaction's first take, recorded in cairn.plan_rev, and on a later one
// the same (the setting then names the project's current revision, which
// only this transaction, holding the row's lock until it ends, can have
// taken), so that a transaction has one revision, whoever took it first, a
// statement or a trigger. $1 is the project.
const (
	// revTaken: this transaction has taken the current revision.
	revTaken = `current_setting('cairn.plan_rev', true) IS NOT DISTINCT FROM $1::bigint::text || ':' || plan_rev`
	// revBump is the SET list that takes the revision and bumps the
	// version; revDone, its RETURNING list, records the revision and
	// notifies (PostgreSQL sends one notification per transaction).
	revBump = `plan_rev = plan_rev + CASE WHEN ` + revTaken + ` THEN 0 ELSE 1 END, version = version + 1`
	revDone = `set_config('cairn.plan_rev', $1::bigint::text || ':' || plan_rev, true), pg_notify('` + notifyChannel + `', $1::bigint::text)`
	// takeRev is a CTE (taken) that does it; revValue is the revision.
	takeRev  = `taken AS (UPDATE projects SET ` + revBump + ` WHERE id = $1 RETURNING plan_rev, ` + revDone + `)`
	revValue = `(SELECT plan_rev FROM taken)`
	// nextID also takes the project's next task id, in the same UPDATE
	// (a CTE, nid: id, rev, and what else the statement returns).
	nextID = `nid AS (UPDATE projects SET next_task_id = next_task_id + 1, ` + revBump + `
		WHERE id = $1 RETURNING next_task_id - 1 AS id, plan_rev AS rev, ` + revDone
)

const (
	qTask          = `SELECT ` + colsBody + ` FROM tasks WHERE project_id = $1 AND id = $2 AND removed_at IS NULL`
	qChildren      = `SELECT ` + colsNoBody + ` FROM tasks WHERE project_id = $1 AND parent_id = $2 AND removed_at IS NULL ORDER BY position, id`
	qChildrenBody  = `SELECT ` + colsBody + ` FROM tasks WHERE project_id = $1 AND parent_id = $2 AND removed_at IS NULL ORDER BY position, id`
	qCompletionsBy = `SELECT seq, task_id, parent_id, title, body, created_at, completed_at, count(*) OVER ()
		FROM completions WHERE project_id = $1 ORDER BY seq `
	qCountCompletions = `SELECT count(*) FROM completions WHERE project_id = $1`
	// qAncestors walks up the parent chain from the task itself (depth 0,
	// not returned), each step one primary-key lookup: a LATERAL ... LIMIT 1
	// that its generic plan keeps to the index whatever the statistics (a
	// join of the task to its parent got a generic plan that read the
	// project's every task by the primary key, 1.6 ms a call at 2,500
	// tasks, not 0.14; a join of the chain back to tasks, on statistics of a
	// few hundred tasks, a hash of all of them). Removed tasks pass the walk
	// on but are not returned.
	qAncestors = `
		WITH RECURSIVE up AS (
			SELECT id, parent_id, position, num, title, status, priority,
				created_at, updated_at, completed_at, removed_at, 0 AS depth
			FROM tasks WHERE project_id = $1 AND id = $2
			UNION ALL
			SELECT p.id, p.parent_id, p.position, p.num, p.title, p.status, p.priority,
				p.created_at, p.updated_at, p.completed_at, p.removed_at, up.depth + 1
			FROM up CROSS JOIN LATERAL (SELECT * FROM tasks p WHERE p.project_id = $1 AND p.id = up.parent_id LIMIT 1) p
			WHERE up.parent_id <> 0
		)
		SELECT ` + colsNoBody + ` FROM up WHERE depth > 0 AND removed_at IS NULL ORDER BY depth DESC`

	qPlaceAfter = `SELECT parent_id, position FROM tasks WHERE project_id = $1 AND id = $2 AND removed_at IS NULL`
	qShiftRight = `WITH ` + takeRev + `
		UPDATE tasks SET position = position + 1, rev = ` + revValue + ` WHERE project_id = $1 AND parent_id = $2 AND position > $3`
	// qInsertTask takes the project's next id, the parent's next subtask
	// number and (when $3 is NULL) the next position in one statement.
	qInsertTask = `
		WITH ` + nextID + `)
		INSERT INTO tasks (project_id, id, parent_id, position, num, title, body, status, priority, created_at, updated_at, completed_at, rev)
		SELECT $1, nid.id, $2,
			coalesce($3::integer, (SELECT coalesce(max(position), 0) + 1 FROM tasks WHERE project_id = $1 AND parent_id = $2)),
			(SELECT coalesce(max(num), 0) + 1 FROM tasks WHERE project_id = $1 AND parent_id = $2),
			$4, $5, $6, $7, $8, $9, $10, nid.rev
		FROM nid
		RETURNING id, position, num`
	// qUpdateTask fails (no_data_found, cairn_found) when the task is
	// not there, so that it may go in one batch with COMMIT (later).
	qUpdateTask = `WITH ` + takeRev + `,
		u AS (UPDATE tasks SET title = $3, body = $4, status = $5, priority = $6, updated_at = $7, completed_at = $8, rev = ` + revValue + `
		WHERE project_id = $1 AND id = $2 AND removed_at IS NULL RETURNING 1)
		SELECT cairn_found(count(*)) FROM u`
	// qRemoveSubtree hides the subtree and drops the edges that point into
	// it, in one statement, and counts what it hid.
	qRemoveSubtree = `
		WITH RECURSIVE ` + takeRev + `, sub(id) AS (
			SELECT id FROM tasks WHERE project_id = $1 AND id = $2 AND removed_at IS NULL
			UNION ALL
			SELECT t.id FROM tasks t JOIN sub ON t.project_id = $1 AND t.parent_id = sub.id WHERE t.removed_at IS NULL
		), hidden AS (
			UPDATE tasks SET removed_at = $3, rev = ` + revValue + ` WHERE project_id = $1 AND id IN (SELECT id FROM sub) RETURNING id
		), dropped AS (
			DELETE FROM task_deps WHERE project_id = $1 AND depends_on IN (SELECT id FROM hidden)
		)
		SELECT count(*) FROM hidden`
	qSetFocus = `INSERT INTO focus (project_id, agent, task_id, updated_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (project_id, agent) DO UPDATE SET task_id = excluded.task_id, updated_at = excluded.updated_at`
	qArchive = `INSERT INTO completions (project_id, task_id, parent_id, title, body, created_at, completed_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`
)

// taskRow receives one row of colsBody or colsNoBody.
type taskRow struct {
	id, parent                int64
	position, num             int32
	title, body, status, prio string
	created, updated          time.Time
	completed                 *time.Time
	dest                      [11]any
}

func newTaskRow() *taskRow {
	r := &taskRow{}
	r.dest = [11]any{&r.id, &r.parent, &r.position, &r.num, &r.title, &r.body, &r.status, &r.prio, &r.created, &r.updated, &r.completed}
	return r
}

func (r *taskRow) task() task.Task {
	return task.Task{
		ID: task.ID(r.id), ParentID: task.ID(r.parent), Position: int(r.position), Num: int(r.num),
		Title: r.title, Body: r.body, Status: task.Status(r.status), Priority: task.Priority(r.prio),
		CreatedAt: r.created.UTC(), UpdatedAt: r.updated.UTC(), CompletedAt: fromTS(r.completed),
	}
}

func (r *taskRow) scan(row pgx.Row) (task.Task, error) {
	r.completed = nil
	if err := row.Scan(r.dest[:]...); err != nil {
		return task.Task{}, err
	}
	return r.task(), nil
}

func (x *txn) queryTasks(ctx context.Context, query string, args ...any) ([]task.Task, error) {
	rows, err := x.tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	r := newTaskRow()
	return sqlq.Collect(rows, func(rows pgx.Rows) (task.Task, error) { return r.scan(rows) })
}

// TaskByID answers a Query of one task by id: none when it is not visible.
// A task read ahead answers every call until a write, each caller getting
// its own copy.
func (x *txn) TaskByID(ctx context.Context, id task.ID) ([]task.Task, error) {
	if ts, ok, err := x.answeredTasks(ctx, store.Read{Of: store.ReadTask, ID: id}); err != nil {
		return nil, fmt.Errorf("read task %s: %w", id, err)
	} else if ok {
		return slices.Clone(ts), nil
	}
	t, err := newTaskRow().scan(x.tx.QueryRow(ctx, qTask, x.p, int64(id)))
	if errors.Is(err, pgx.ErrNoRows) {
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
	} else if ts, ok, err := x.answeredTasks(ctx, store.Read{Of: store.ReadChildren, ID: parent}); err != nil {
		return nil, fmt.Errorf("read children of %s: %w", parent, err)
	} else if ok {
		return ts, nil
	}
	ts, err := x.queryTasks(ctx, query, x.p, int64(parent))
	if err != nil {
		return nil, fmt.Errorf("read children of %s: %w", parent, err)
	}
	return ts, nil
}

// openChildrenWhere is what makes a child open (task.Status.Open), as
// tasks_open_children (migration 0012) has it: the closed statuses as
// constants, so that every plan of a statement with it may use the index.
const openChildrenWhere = `removed_at IS NULL AND status NOT IN ('done', 'cancelled')`

const qOpenChildren = `SELECT ` + colsNoBody + ` FROM tasks WHERE project_id = $1 AND parent_id = $2 AND ` +
	openChildrenWhere + ` ORDER BY position, id`

func (x *txn) OpenChildren(ctx context.Context, parent task.ID) ([]task.Task, error) {
	if ts, ok, err := x.answeredTasks(ctx, store.Read{Of: store.ReadOpenChildren, ID: parent}); err != nil {
		return nil, fmt.Errorf("read open children of %s: %w", parent, err)
	} else if ok {
		return ts, nil
	}
	ts, err := x.queryTasks(ctx, qOpenChildren, x.p, int64(parent))
	if err != nil {
		return nil, fmt.Errorf("read open children of %s: %w", parent, err)
	}
	return ts, nil
}

// qLeftSibling and qLeftSiblingBody are LeftSibling's: the nearest
// sibling before (position, id), by a backward scan of tasks_by_parent.
const (
	qLeftSibling = `SELECT ` + colsNoBody + ` FROM tasks WHERE project_id = $1 AND parent_id = $2 AND removed_at IS NULL
		AND position <= $3 AND (position < $3 OR id < $4) ORDER BY position DESC, id DESC LIMIT 1`
	qLeftSiblingBody = `SELECT ` + colsBody + ` FROM tasks WHERE project_id = $1 AND parent_id = $2 AND removed_at IS NULL
		AND position <= $3 AND (position < $3 OR id < $4) ORDER BY position DESC, id DESC LIMIT 1`
)

func (x *txn) LeftSibling(ctx context.Context, of task.Task, withBody bool) (task.Task, bool, error) {
	query := qLeftSibling
	if withBody {
		query = qLeftSiblingBody
	}
	t, err := newTaskRow().scan(x.tx.QueryRow(ctx, query, x.p, int64(of.ParentID), of.Position, int64(of.ID)))
	if errors.Is(err, pgx.ErrNoRows) {
		return task.Task{}, false, nil
	}
	if err != nil {
		return task.Task{}, false, fmt.Errorf("read the sibling left of %s: %w", of.ID, err)
	}
	return t, true, nil
}

func (x *txn) Ancestors(ctx context.Context, id task.ID) ([]task.Task, error) {
	ts, err := x.queryTasks(ctx, qAncestors, x.p, int64(id))
	if err != nil {
		return nil, fmt.Errorf("read ancestors of %s: %w", id, err)
	}
	return ts, nil
}

func (x *txn) CreateTask(ctx context.Context, t task.Task, place store.Placement) (task.Task, error) {
	t.ParentID = place.Parent
	var pos *int32
	if place.After != 0 {
		var parent int64
		var after int32
		err := x.tx.QueryRow(ctx, qPlaceAfter, x.p, int64(place.After)).Scan(&parent, &after)
		if errors.Is(err, pgx.ErrNoRows) {
			return task.Task{}, task.NotFound(place.After)
		}
		if err != nil {
			return task.Task{}, fmt.Errorf("read task %s: %w", place.After, err)
		}
		t.ParentID = task.ID(parent)
		if _, err := x.tx.Exec(ctx, qShiftRight, x.p, parent, after); err != nil {
			return task.Task{}, fmt.Errorf("make room after %s: %w", place.After, err)
		}
		x.changed()
		x.bumped = true
		p := after + 1
		pos = &p
	}
	var (
		id       int64
		position int32
		num      int32
	)
	err := x.tx.QueryRow(ctx, qInsertTask, x.p, int64(t.ParentID), pos, t.Title, t.Body, string(t.Status), string(t.Priority),
		ts(t.CreatedAt), ts(t.UpdatedAt), nullTS(t.CompletedAt)).Scan(&id, &position, &num)
	if err != nil {
		return task.Task{}, fmt.Errorf("insert task: %w", err)
	}
	x.changed()
	x.bumped = true
	t.ID, t.Position, t.Num = task.ID(id), int(position), int(num)
	return t, nil
}

// qInsertWithDeps is qInsertTask, last under its parent, with its
// dependencies ($10) in the same statement.
const qInsertWithDeps = `
	WITH ` + nextID + `),
	ins AS (INSERT INTO tasks (project_id, id, parent_id, position, num, title, body, status, priority, created_at, updated_at, completed_at, rev)
		SELECT $1, nid.id, $2,
			(SELECT coalesce(max(position), 0) + 1 FROM tasks WHERE project_id = $1 AND parent_id = $2),
			(SELECT coalesce(max(num), 0) + 1 FROM tasks WHERE project_id = $1 AND parent_id = $2),
			$3, $4, $5, $6, $7, $8, $9, nid.rev
		FROM nid
		RETURNING id, position, num),
	deps AS (INSERT INTO task_deps (project_id, task_id, depends_on)
		SELECT DISTINCT $1::bigint, ins.id, d FROM ins, unnest($10::bigint[]) AS d)
	SELECT id, position, num FROM ins`

// CreateTaskLater creates t last under parent, with its dependencies deps,
// as CreateTask and SetDeps do, in one statement sent late, with the
// transaction's next statement or with COMMIT; *into is the task as
// created once it has gone. A failure fails the transaction.
func (x *txn) CreateTaskLater(ctx context.Context, t task.Task, parent task.ID, deps []task.ID, into *task.Task) error {
	t.ParentID = parent
	// Its rows are read as a read's; it fails only where PostgreSQL did,
	// or where it wrote nothing (the project is gone).
	x.tx.read("insert task", qInsertWithDeps, []any{x.p, int64(parent), t.Title, t.Body, string(t.Status), string(t.Priority),
		ts(t.CreatedAt), ts(t.UpdatedAt), nullTS(t.CompletedAt), sqlq.Int64s(deps)}, func(rows pgx.Rows) error {
		var id int64
		var position, num int32
		if !rows.Next() {
			return cmp.Or(rows.Err(), errors.New("the project is gone"))
		}
		if err := rows.Scan(&id, &position, &num); err != nil {
			return err
		}
		*into = t
		into.ID, into.Position, into.Num = task.ID(id), int(position), int(num)
		return nil
	})
	x.changed()
	x.bumped = true
	return nil
}

// qCreateFocused is qInsertTask whose parent is the agent's ($2) current
// task (the task its focus is on when that is visible and its status one of
// $10, else none: a root task, in zen), and that moves the agent's focus onto
// the task it creates ($11: when). The parent is looked up once, with the id
// (a CTE that writes is evaluated once).
const qCreateFocused = `
	WITH ` + nextID + `,
		coalesce((SELECT t.id FROM focus f JOIN tasks t ON t.project_id = f.project_id AND t.id = f.task_id
			WHERE f.project_id = $1 AND f.agent = $2 AND t.removed_at IS NULL AND t.status = ANY($10::text[])), 0) AS parent),
	ins AS (INSERT INTO tasks (project_id, id, parent_id, position, num, title, body, status, priority, created_at, updated_at, completed_at, rev)
		SELECT $1, nid.id, nid.parent,
			(SELECT coalesce(max(position), 0) + 1 FROM tasks WHERE project_id = $1 AND parent_id = nid.parent),
			(SELECT coalesce(max(num), 0) + 1 FROM tasks WHERE project_id = $1 AND parent_id = nid.parent),
			$3, $4, $5, $6, $7, $8, $9, nid.rev
		FROM nid
		RETURNING id, parent_id, position, num),
	focused AS (INSERT INTO focus (project_id, agent, task_id, updated_at) SELECT $1, $2, id, $11 FROM ins
		ON CONFLICT (project_id, agent) DO UPDATE SET task_id = excluded.task_id, updated_at = excluded.updated_at)
	SELECT id, parent_id, position, num FROM ins`

// CreateUnderCurrent creates t as the last child of the agent's current
// task (its focus, when that task is visible and its status one of open),
// or as a root task when it has none, and moves the agent's focus onto it
// (as of at), in one statement: what the focus service's create_new_task
// does with store.FocusedTask, CreateTask and SetFocus. The statement is sent
// late, with the transaction's next one or with COMMIT, so that
// create_new_task's transaction takes one round trip, during which alone
// it holds the project's lock; *into is the task as created once it has
// gone (at the latest when Update returns). A failure fails the
// transaction.
func (x *txn) CreateUnderCurrent(ctx context.Context, agent string, t task.Task, open []task.Status, at time.Time, into *task.Task) error {
	// Its rows are read as a read's; it fails only where PostgreSQL did,
	// or where it wrote nothing (the project is gone).
	x.tx.read("insert task", qCreateFocused, []any{x.p, agent, t.Title, t.Body, string(t.Status), string(t.Priority),
		ts(t.CreatedAt), ts(t.UpdatedAt), nullTS(t.CompletedAt), sqlq.Strs(open), ts(at)}, func(rows pgx.Rows) error {
		var id, parent int64
		var position, num int32
		if !rows.Next() {
			if err := rows.Err(); err != nil {
				return err
			}
			return errors.New("the project is gone")
		}
		if err := rows.Scan(&id, &parent, &position, &num); err != nil {
			return err
		}
		*into = t
		into.ID, into.ParentID, into.Position, into.Num = task.ID(id), task.ID(parent), int(position), int(num)
		return nil
	})
	x.changed()
	x.bumped = true
	return nil
}

// qUpdateCurrentBody writes the body of the agent's current task (its
// focus, when that task is visible and its status one of $5) and returns
// the task; with none it fails (cairn_found), changing nothing. The count
// is the outer side of the join, so it is evaluated however empty u is (a
// plain join of an empty u need not evaluate it, and the transaction
// would commit).
const qUpdateCurrentBody = `
	WITH ` + takeRev + `,
	u AS (UPDATE tasks t SET body = $3, updated_at = $4, rev = ` + revValue + ` FROM focus f
		WHERE f.project_id = $1 AND f.agent = $2 AND t.project_id = $1 AND t.id = f.task_id
			AND t.removed_at IS NULL AND t.status = ANY($5::text[])
		RETURNING t.id, t.parent_id, t.position, t.num, t.title, t.body, t.status, t.priority, t.created_at, t.updated_at, t.completed_at)
	SELECT u.* FROM (SELECT cairn_found(count(*)) FROM u) found LEFT JOIN u ON true`

// UpdateCurrentBody writes body (as of at) into the agent's current task,
// as the focus service's update_current_task does with store.FocusedTask and
// UpdateTask, in one statement sent late, with the transaction's next one
// or with COMMIT: the write's one round trip. *into is the task as written
// once it has gone; with no current task the transaction fails with
// store.ErrNoCurrentTask and changes nothing.
func (x *txn) UpdateCurrentBody(ctx context.Context, agent, body string, open []task.Status, at time.Time, into *task.Task) error {
	x.tx.read("write the current task's body", qUpdateCurrentBody, []any{x.p, agent, body, ts(at), sqlq.Strs(open)}, func(rows pgx.Rows) error {
		r := newTaskRow()
		if !rows.Next() {
			err := rows.Err()
			if pgCode(err) == "P0002" { // no_data_found: cairn_found
				return store.ErrNoCurrentTask
			}
			return cmp.Or(err, error(store.ErrNoCurrentTask))
		}
		t, err := r.scan(rows)
		if err != nil {
			return err
		}
		*into = t
		return nil
	})
	x.changed()
	x.bumped = true
	return nil
}

// UpdateTask is sent with the next statement (later): a task not there
// fails the transaction with a task.NotFound refusal then.
//
// The answers read ahead stay true (updated): a write of one task's own
// fields need not cost the reads of its neighbours a round trip again.
func (x *txn) UpdateTask(ctx context.Context, t task.Task) error {
	id := t.ID
	defer x.updated(t)
	x.tx.later(qUpdateTask, []any{x.p, int64(id),
		t.Title, t.Body, string(t.Status), string(t.Priority), ts(t.UpdatedAt), nullTS(t.CompletedAt)},
		func(_ pgconn.CommandTag, err error) error {
			if pgCode(err) == "P0002" { // no_data_found: cairn_found
				return task.NotFound(id)
			}
			if err != nil {
				return fmt.Errorf("update task %s: %w", id, err)
			}
			return nil
		})
	x.bumped = true
	return nil
}

func (x *txn) RemoveSubtree(ctx context.Context, id task.ID, at time.Time) (int, error) {
	var n int64
	if err := x.tx.QueryRow(ctx, qRemoveSubtree, x.p, int64(id), ts(at)).Scan(&n); err != nil {
		return 0, fmt.Errorf("remove task %s: %w", id, err)
	}
	x.bumped = true
	if n == 0 {
		return 0, task.NotFound(id)
	}
	x.changed()
	return int(n), nil
}

// qFocusedTask is the agent's focus and qTask in one statement: its focus
// row, and the task it is on when that is visible (its id is then not 0).
const qFocusedTask = `SELECT coalesce(t.id, 0), coalesce(t.parent_id, 0), coalesce(t.position, 0), coalesce(t.num, 0),
	coalesce(t.title, ''), coalesce(t.body, ''), coalesce(t.status, ''), coalesce(t.priority, ''),
	coalesce(t.created_at, 'epoch'), coalesce(t.updated_at, 'epoch'), t.completed_at
	FROM focus f LEFT JOIN tasks t ON t.project_id = f.project_id AND t.id = f.task_id AND t.removed_at IS NULL
	WHERE f.project_id = $1 AND f.agent = $2`

// TaskOfFocus answers a Query.FocusOf: the task the agent's focus is on,
// read with the focus in one round trip; none when the agent has no focus
// or its task is not visible.
func (x *txn) TaskOfFocus(ctx context.Context, agent string) ([]task.Task, error) {
	t, err := newTaskRow().scan(x.tx.QueryRow(ctx, qFocusedTask, x.p, agent))
	if errors.Is(err, pgx.ErrNoRows) || (err == nil && t.ID == 0) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read focus: %w", err)
	}
	return []task.Task{t}, nil
}

// SetFocus is sent with the next statement (later).
func (x *txn) SetFocus(ctx context.Context, agent string, id task.ID, at time.Time) error {
	var tid *int64
	if id != 0 {
		v := int64(id)
		tid = &v
	}
	x.tx.later(qSetFocus, []any{x.p, agent, tid, ts(at)}, func(_ pgconn.CommandTag, err error) error {
		if err != nil {
			return fmt.Errorf("set focus: %w", err)
		}
		return nil
	})
	// It changes no task: only the focuses read ahead are stale now.
	x.dirty = true
	delete(x.ahead, store.Read{Of: store.ReadFocuses})
	return nil
}

// Archive is sent with the next statement (later).
//
// It changes nothing a read ahead answers (no read ahead reads the archive).
func (x *txn) Archive(ctx context.Context, c task.Completion) error {
	x.dirty = true
	x.tx.later(qArchive, []any{x.p, int64(c.TaskID), int64(c.ParentID), c.Title, c.Body, ts(c.CreatedAt), ts(c.CompletedAt)},
		func(_ pgconn.CommandTag, err error) error {
			if err != nil {
				return fmt.Errorf("archive task %s: %w", c.TaskID, err)
			}
			return nil
		})
	return nil
}

// Completions reads the page and the total in one statement (a window
// count); a page past the end has no rows to carry it, so only then is the
// total counted on its own.
func (x *txn) Completions(ctx context.Context, newestFirst bool, offset, limit int) ([]task.Completion, int, error) {
	query := qCompletionsBy + "ASC LIMIT $2 OFFSET $3"
	if newestFirst {
		query = qCompletionsBy + "DESC LIMIT $2 OFFSET $3"
	}
	rows, err := x.tx.Query(ctx, query, x.p, limitOf(limit), int64(max(offset, 0)))
	if err != nil {
		return nil, 0, fmt.Errorf("read completions: %w", err)
	}
	defer rows.Close()
	var (
		out   []task.Completion
		total int64
	)
	for rows.Next() {
		var (
			c                  task.Completion
			seq, tid, parent   int64
			created, completed time.Time
		)
		if err := rows.Scan(&seq, &tid, &parent, &c.Title, &c.Body, &created, &completed, &total); err != nil {
			return nil, 0, fmt.Errorf("read completions: %w", err)
		}
		c.Seq, c.TaskID, c.ParentID = seq, task.ID(tid), task.ID(parent)
		c.CreatedAt, c.CompletedAt = created.UTC(), completed.UTC()
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read completions: %w", err)
	}
	if len(out) == 0 {
		if err := x.tx.QueryRow(ctx, qCountCompletions, x.p).Scan(&total); err != nil {
			return nil, 0, fmt.Errorf("count completions: %w", err)
		}
	}
	return out, int(total), nil
}
