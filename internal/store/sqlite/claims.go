package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/task"
)

const (
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
	qReleaseAny = `DELETE FROM claims WHERE task_id = ?`

	qAddLifecycle    = `INSERT INTO lifecycles (task_id, definition, phase, status, started_at, phase_since, updated_at, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
	qOpenLifecycleOf = `SELECT id FROM lifecycles WHERE task_id = ? AND status = 'open'`
)

var (
	claimReadQueries  = []string{qClaims, qOpenLifecycleOf, qOpenLifecycles, qOpenLifecyclesOfTask, qOpenLifecyclesOfTasks}
	claimWriteQueries = []string{qClaimCAS, qReleaseAny, qAddLifecycle}
)

// TaskClaim reads the claim on id, live or expired.
func (x *txn) TaskClaim(ctx context.Context, id task.ID) (task.Claim, bool, error) {
	return sqlq.ReadClaim(ctx, conn{x}, id)
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
	return sqlq.ReadLiveClaims(ctx, conn{x}, now)
}

func (x *txn) PutLifecycle(ctx context.Context, l store.Lifecycle) (int64, error) {
	if l.ID != 0 {
		return l.ID, sqlq.UpdateLifecycle(ctx, conn{x}, l)
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

func (x *txn) Lifecycles(ctx context.Context, q store.LifecycleQuery) ([]store.Lifecycle, int, error) {
	return sqlq.ReadLifecycles(ctx, conn{x}, q)
}

// The lifecycle lists the services read on most calls (the open ones of one
// task for a task's detail, of a page of tasks, and of every task for the
// outline) are prepared: parsing them was a tenth of a call's CPU.
var (
	qClaims                = sqlq.LiveClaims(sq.Where(""), time.Time{})
	qOpenLifecycles        = openLifecycles()
	qOpenLifecyclesOfTask  = openLifecycles(1)
	qOpenLifecyclesOfTasks = openLifecycles(1, 2)
)

func openLifecycles(tasks ...task.ID) string {
	return sqlq.Lifecycles(sq.Where(""), store.LifecycleQuery{Status: store.LifecycleOpen, Tasks: tasks}).Page
}
