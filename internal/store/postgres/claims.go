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
	qClaim = `SELECT agent, claimed_at, expires_at FROM claims WHERE project_id = $1 AND task_id = $2`
	// qClaimCAS is the compare-and-set, in one statement: insert, or take
	// over a row that is the caller's own or has expired; a live claim of
	// another agent makes the update's WHERE false and nothing changes.
	// prev is the row as it was, for the answer (whose claim expired).
	qClaimCAS = `WITH prev AS (
			SELECT agent, claimed_at, expires_at FROM claims WHERE project_id = $1 AND task_id = $2
		), cas AS (
			INSERT INTO claims (project_id, task_id, agent, claimed_at, expires_at)
			SELECT project_id, id, $3, $4, $5 FROM tasks WHERE project_id = $1 AND id = $2 AND removed_at IS NULL AND status NOT IN ('done', 'cancelled')
			ON CONFLICT (project_id, task_id) DO UPDATE SET
				claimed_at = CASE WHEN claims.agent = excluded.agent AND claims.expires_at > excluded.claimed_at
					THEN claims.claimed_at ELSE excluded.claimed_at END,
				agent = excluded.agent, expires_at = excluded.expires_at
			WHERE claims.agent = excluded.agent OR claims.expires_at <= excluded.claimed_at
			RETURNING 1
		)
		SELECT (SELECT count(*) FROM cas), prev.agent, prev.claimed_at, prev.expires_at
		FROM (SELECT 1) one LEFT JOIN prev ON true`
	// qAllClaims is the claims at any time, for a read sent ahead, which
	// knows no time: LiveClaims keeps the live ones.
	qAllClaims = `SELECT c.task_id, c.agent, c.claimed_at, c.expires_at FROM claims c
		JOIN tasks t ON t.project_id = c.project_id AND t.id = c.task_id AND t.removed_at IS NULL
		WHERE c.project_id = $1`
	qReleaseAny = `DELETE FROM claims WHERE project_id = $1 AND task_id = $2`

	qAddLifecycle = `INSERT INTO lifecycles (project_id, id, task_id, definition, phase, status, started_at, phase_since, updated_at, state)
		SELECT $1, coalesce(max(id), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9 FROM lifecycles WHERE project_id = $1
		ON CONFLICT (project_id, task_id) WHERE status = 'open' DO NOTHING RETURNING id`
)

// TaskClaim reads the claim on id, live or expired, from the one read
// ahead if it was.
func (x *txn) TaskClaim(ctx context.Context, id task.ID) (task.Claim, bool, error) {
	if a, err := x.answer(ctx, store.Read{Of: store.ReadTaskClaim, ID: id}); err != nil {
		return task.Claim{}, false, fmt.Errorf("read claim on %s: %w", id, err)
	} else if a != nil {
		if a.claim == nil {
			return task.Claim{}, false, nil
		}
		return *a.claim, true, nil
	}
	return sqlq.ReadClaim(ctx, conn{x}, id)
}

func (x *txn) ClaimTask(ctx context.Context, c task.Claim) (task.Claim, error) {
	var (
		n         int
		agent     *string
		at, until *time.Time
	)
	err := x.tx.QueryRow(ctx, qClaimCAS, x.p, int64(c.TaskID), c.Agent, ts(c.ClaimedAt), ts(c.ExpiresAt)).Scan(&n, &agent, &at, &until)
	if err != nil {
		return task.Claim{}, fmt.Errorf("claim task %s: %w", c.TaskID, err)
	}
	var prev task.Claim
	if agent != nil {
		prev = task.Claim{TaskID: c.TaskID, Agent: *agent, ClaimedAt: fromTS(at), ExpiresAt: fromTS(until)}
	}
	if n == 0 {
		if agent == nil || !prev.Live(c.ClaimedAt) || prev.Agent == c.Agent {
			return task.Claim{}, task.NotFound(c.TaskID)
		}
		return task.Claim{}, task.Claimed(prev)
	}
	x.changed()
	return prev, nil
}

func (x *txn) Claims(ctx context.Context, q store.ClaimQuery) (map[task.ID]task.Claim, error) {
	return store.AnswerClaims(ctx, q, x)
}

// LiveClaims answers from the claims read ahead (ReadClaims), if they
// were, keeping those live at now.
func (x *txn) LiveClaims(ctx context.Context, now time.Time) (map[task.ID]task.Claim, error) {
	if a, err := x.answer(ctx, store.Read{Of: store.ReadClaims}); err != nil {
		return nil, fmt.Errorf("read claims: %w", err)
	} else if a != nil {
		out := make(map[task.ID]task.Claim, len(a.claims))
		for id, c := range a.claims {
			if c.Live(now) {
				out[id] = c
			}
		}
		return out, nil
	}
	return sqlq.ReadLiveClaims(ctx, conn{x}, now)
}

// DropClaim ends any claim on id without saying whether there was one: it is sent with the next statement
// (later).
//
// Of the answers read ahead, only the claim on id's is no longer true
// (alone, or among all the claims).
func (x *txn) DropClaim(ctx context.Context, id task.ID) error {
	x.dirty = true
	delete(x.ahead, store.Read{Of: store.ReadTaskClaim, ID: id})
	all := store.Read{Of: store.ReadClaims}
	if a := x.ahead[all]; a != nil && a.in {
		delete(a.claims, id)
	} else {
		delete(x.ahead, all)
	}
	x.tx.later(qReleaseAny, []any{x.p, int64(id)}, func(_ pgconn.CommandTag, err error) error {
		if err != nil {
			return fmt.Errorf("release claim on %s: %w", id, err)
		}
		return nil
	})
	return nil
}

func (x *txn) PutLifecycle(ctx context.Context, l store.Lifecycle) (int64, error) {
	if l.ID != 0 {
		return l.ID, sqlq.UpdateLifecycle(ctx, conn{x}, l)
	}
	return x.createLifecycle(ctx, l)
}

func (x *txn) createLifecycle(ctx context.Context, l store.Lifecycle) (int64, error) {
	if ts, err := x.TaskByID(ctx, l.TaskID); err != nil {
		return 0, err
	} else if len(ts) == 0 {
		return 0, task.NotFound(l.TaskID)
	}
	var id int64
	err := x.tx.QueryRow(ctx, qAddLifecycle, x.p, int64(l.TaskID), l.Definition, l.Phase, l.Status,
		ts(l.StartedAt), ts(l.PhaseSince), ts(l.UpdatedAt), string(l.State)).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("task %s has an open lifecycle: %w", l.TaskID, store.ErrDuplicate)
	}
	if err != nil {
		return 0, fmt.Errorf("add lifecycle: %w", err)
	}
	x.changed()
	return id, nil
}

func (x *txn) Lifecycles(ctx context.Context, q store.LifecycleQuery) ([]store.Lifecycle, int, error) {
	// The open ones of one task, unpaged, may have been read ahead.
	if q.ID == 0 && q.Limit <= 0 && q.Offset <= 0 && q.Phase == "" && q.Status == store.LifecycleOpen && len(q.Tasks) == 1 {
		if a, err := x.take(ctx, store.Read{Of: store.ReadOpenLifecycles, ID: q.Tasks[0]}); err != nil {
			return nil, 0, fmt.Errorf("read lifecycles: %w", err)
		} else if a != nil {
			return a.lifecycles, len(a.lifecycles), nil
		}
	}
	return sqlq.ReadLifecycles(ctx, conn{x}, q)
}
