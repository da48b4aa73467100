package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

const (
	qClaim = `SELECT agent, claimed_at, expires_at FROM claims WHERE task_id = ?`
	// qClaimCAS is the compare-and-set: insert, or take over a row that is
	// the caller's own or has expired; a live claim of another agent makes
	// the update's WHERE false, and nothing changes.
	qClaimCAS = `INSERT INTO claims (task_id, agent, claimed_at, expires_at)
		SELECT id, ?2, ?3, ?4 FROM tasks WHERE id = ?1 AND removed_at IS NULL AND status NOT IN ('done', 'cancelled')
		ON CONFLICT (task_id) DO UPDATE SET
			claimed_at = CASE WHEN claims.agent = excluded.agent AND claims.expires_at > excluded.claimed_at
				THEN claims.claimed_at ELSE excluded.claimed_at END,
			agent = excluded.agent, expires_at = excluded.expires_at
		WHERE claims.agent = excluded.agent OR claims.expires_at <= excluded.claimed_at`
	// qClaims walks the claims and looks each task up: CROSS JOIN keeps
	// that order, which the planner (without statistics) turned around
	// into a scan of every task for each get_tasks and get_next_task.
	qClaims = `SELECT c.task_id, c.agent, c.claimed_at, c.expires_at FROM claims c
		CROSS JOIN tasks t ON t.id = c.task_id AND t.removed_at IS NULL WHERE c.expires_at > ?`
	qReleaseAny = `DELETE FROM claims WHERE task_id = ?`

	lifecycleCols    = `id, task_id, definition, phase, status, started_at, phase_since, updated_at, state`
	qLifecycle       = `SELECT ` + lifecycleCols + ` FROM lifecycles WHERE id = ?`
	qAddLifecycle    = `INSERT INTO lifecycles (task_id, definition, phase, status, started_at, phase_since, updated_at, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
	qSetLifecycle    = `UPDATE lifecycles SET phase = ?, status = ?, phase_since = ?, updated_at = ?, state = ? WHERE id = ?`
	qOpenLifecycleOf = `SELECT id FROM lifecycles WHERE task_id = ? AND status = 'open'`
)

var (
	claimReadQueries  = []string{qClaim, qClaims, qLifecycle, qOpenLifecycleOf, qOpenLifecycles, qOpenLifecyclesOfTask, qOpenLifecyclesOfTasks}
	claimWriteQueries = []string{qClaimCAS, qReleaseAny, qAddLifecycle, qSetLifecycle}
)

// TaskClaim reads the claim on id, live or expired.
func (x *txn) TaskClaim(ctx context.Context, id task.ID) (task.Claim, bool, error) {
	c := task.Claim{TaskID: id}
	var at, until int64
	err := x.queryRow(ctx, qClaim, int64(id)).Scan(&c.Agent, &at, &until)
	if errors.Is(err, sql.ErrNoRows) {
		return task.Claim{}, false, nil
	}
	if err != nil {
		return task.Claim{}, false, fmt.Errorf("read claim on %s: %w", id, err)
	}
	c.ClaimedAt, c.ExpiresAt = time.UnixMicro(at).UTC(), time.UnixMicro(until).UTC()
	return c, true, nil
}

func (x *txn) ClaimTask(ctx context.Context, c task.Claim) (task.Claim, error) {
	// The write transaction holds the database's lock, so the claim read
	// here is the one the compare-and-set compares with.
	prev, _, err := x.TaskClaim(ctx, c.TaskID)
	if err != nil {
		return task.Claim{}, err
	}
	res, err := x.exec(ctx, qClaimCAS, int64(c.TaskID), c.Agent, micros(c.ClaimedAt), micros(c.ExpiresAt))
	if err != nil {
		return task.Claim{}, fmt.Errorf("claim task %s: %w", c.TaskID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		if prev.Agent == "" || !prev.Live(c.ClaimedAt) || prev.Agent == c.Agent {
			return task.Claim{}, task.NotFound(c.TaskID)
		}
		return task.Claim{}, task.Claimed(prev)
	}
	return prev, nil
}

func (x *txn) Claims(ctx context.Context, q store.ClaimQuery) (map[task.ID]task.Claim, error) {
	return store.AnswerClaims(ctx, q, x)
}

// LiveClaims reads the claims on visible tasks that are live at now.
func (x *txn) LiveClaims(ctx context.Context, now time.Time) (map[task.ID]task.Claim, error) {
	rows, err := x.query(ctx, qClaims, micros(now))
	if err != nil {
		return nil, fmt.Errorf("read claims: %w", err)
	}
	defer rows.Close()
	out := map[task.ID]task.Claim{}
	for rows.Next() {
		var (
			c         task.Claim
			at, until int64
		)
		if err := rows.Scan(&c.TaskID, &c.Agent, &at, &until); err != nil {
			return nil, fmt.Errorf("read claims: %w", err)
		}
		c.ClaimedAt, c.ExpiresAt = time.UnixMicro(at).UTC(), time.UnixMicro(until).UTC()
		out[c.TaskID] = c
	}
	return out, rows.Err()
}

func scanLifecycle(row scanner) (store.Lifecycle, error) {
	var (
		l                 store.Lifecycle
		start, since, upd int64
		state             string
	)
	if err := row.Scan(&l.ID, &l.TaskID, &l.Definition, &l.Phase, &l.Status, &start, &since, &upd, &state); err != nil {
		return store.Lifecycle{}, err
	}
	l.StartedAt, l.PhaseSince, l.UpdatedAt = time.UnixMicro(start).UTC(), time.UnixMicro(since).UTC(), time.UnixMicro(upd).UTC()
	l.State = []byte(state)
	return l, nil
}

func (x *txn) PutLifecycle(ctx context.Context, l store.Lifecycle) (int64, error) {
	if l.ID != 0 {
		return l.ID, x.updateLifecycle(ctx, l)
	}
	return x.createLifecycle(ctx, l)
}

func (x *txn) createLifecycle(ctx context.Context, l store.Lifecycle) (int64, error) {
	if l.Status == store.LifecycleOpen {
		var id int64
		err := x.queryRow(ctx, qOpenLifecycleOf, int64(l.TaskID)).Scan(&id)
		if err == nil {
			return 0, fmt.Errorf("task %s has open lifecycle %d: %w", l.TaskID, id, store.ErrDuplicate)
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, fmt.Errorf("read lifecycles of %s: %w", l.TaskID, err)
		}
	}
	var id int64
	err := x.queryRow(ctx, qAddLifecycle, int64(l.TaskID), l.Definition, l.Phase, l.Status,
		micros(l.StartedAt), micros(l.PhaseSince), micros(l.UpdatedAt), string(l.State)).Scan(&id)
	if err != nil {
		if sqliteCode(err) == constraintFK {
			return 0, task.NotFound(l.TaskID)
		}
		return 0, fmt.Errorf("add lifecycle: %w", err)
	}
	return id, nil
}

func (x *txn) lifecycle(ctx context.Context, id int64) (store.Lifecycle, bool, error) {
	l, err := scanLifecycle(x.queryRow(ctx, qLifecycle, id))
	if errors.Is(err, sql.ErrNoRows) {
		return store.Lifecycle{}, false, nil
	}
	if err != nil {
		return store.Lifecycle{}, false, fmt.Errorf("read lifecycle %d: %w", id, err)
	}
	return l, true, nil
}

func (x *txn) updateLifecycle(ctx context.Context, l store.Lifecycle) error {
	res, err := x.exec(ctx, qSetLifecycle, l.Phase, l.Status, micros(l.PhaseSince), micros(l.UpdatedAt), string(l.State), l.ID)
	if err != nil {
		return fmt.Errorf("update lifecycle %d: %w", l.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("update lifecycle %d: no such lifecycle", l.ID)
	}
	return nil
}

func (x *txn) Lifecycles(ctx context.Context, q store.LifecycleQuery) ([]store.Lifecycle, int, error) {
	if q.ID != 0 {
		l, ok, err := x.lifecycle(ctx, q.ID)
		if !ok {
			return nil, 0, err
		}
		return []store.Lifecycle{l}, 1, nil
	}
	var (
		where []string
		args  []any
	)
	switch q.Status {
	case "":
	case store.LifecycleOpen, store.LifecycleDone:
		// A literal: compared to the open-lifecycle index's WHERE (status =
		// 'open'), a parameter ties the plan to its value, and SQLite then
		// prepares the statement anew each time it runs with a new binding.
		where = append(where, "l.status = '"+q.Status+"'")
	default:
		where, args = append(where, "l.status = ?"), append(args, q.Status)
	}
	if q.Phase != "" {
		where, args = append(where, "l.phase = ?"), append(args, q.Phase)
	}
	switch len(q.Tasks) {
	case 0:
	case 1:
		where, args = append(where, "l.task_id IN (?)"), append(args, int64(q.Tasks[0]))
	default:
		// One statement for any number of tasks, so it is prepared once.
		where, args = append(where, "l.task_id IN (SELECT value FROM json_each(?))"), append(args, idsJSON(q.Tasks))
	}
	limit := q.Limit
	if limit <= 0 {
		limit = -1
	}
	rows, err := x.queryBuilt(ctx, lifecyclesQuery(where...), append(args, limit, q.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("read lifecycles: %w", err)
	}
	defer rows.Close()
	var out []store.Lifecycle
	for rows.Next() {
		l, err := scanLifecycle(rows)
		if err != nil {
			return nil, 0, fmt.Errorf("read lifecycles: %w", err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("read lifecycles: %w", err)
	}
	if q.Limit <= 0 && q.Offset == 0 {
		return out, len(out), nil // every match is in out: no need to count
	}
	var total int
	if err := x.queryRowBuilt(ctx, `SELECT count(*)`+lifecyclesFrom(where...), args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count lifecycles: %w", err)
	}
	return out, total, nil
}

// lifecyclesFrom is the FROM and WHERE of Lifecycles' queries: visible
// tasks' lifecycles that meet every condition in where.
func lifecyclesFrom(where ...string) string {
	return ` FROM lifecycles l JOIN tasks t ON t.id = l.task_id WHERE ` + strings.Join(append([]string{"t.removed_at IS NULL"}, where...), " AND ")
}

// lifecyclesQuery is the query Lifecycles runs for the conditions in where.
func lifecyclesQuery(where ...string) string {
	return `SELECT l.id, l.task_id, l.definition, l.phase, l.status, l.started_at, l.phase_since, l.updated_at, l.state` +
		lifecyclesFrom(where...) + ` ORDER BY l.id LIMIT ? OFFSET ?`
}

// The lifecycle lists the services read on most calls (the open ones of one
// task for a task's detail, of a page of tasks, and of every task for the
// outline) are prepared: parsing them was a tenth of a call's CPU.
var (
	qOpenLifecycles        = lifecyclesQuery("l.status = 'open'")
	qOpenLifecyclesOfTask  = lifecyclesQuery("l.status = 'open'", "l.task_id IN (?)")
	qOpenLifecyclesOfTasks = lifecyclesQuery("l.status = 'open'", "l.task_id IN (SELECT value FROM json_each(?))")
)
