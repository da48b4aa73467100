package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
)

// Sessions keep their head as a document (store.EncodeSession) and their
// record as events, a row each (session_events): a hook appends one, or
// counts one again, and never rewrites the session.
const (
	qAddSession = `WITH nid AS (UPDATE projects SET next_session_id = next_session_id + 1 WHERE id = $1 RETURNING next_session_id - 1 AS id)
	INSERT INTO sessions (project_id, id, thread_id, agent, branch, started_at, ended_at, client_key, pid, pstart, doc)
	SELECT $1, nid.id, $2, $3, $4, $5, $6, $7, $8, $9, '{}' FROM nid RETURNING id`
	qRecordEvent = `INSERT INTO session_events (project_id, session_id, kind, key, subject, detail, data, count, first_at, at)
	VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $8)
	ON CONFLICT (project_id, session_id, kind, key) DO UPDATE SET subject = excluded.subject, detail = excluded.detail, data = excluded.data,
		count = session_events.count + 1, at = excluded.at, resolved_at = NULL`
)

func (x *txn) PutSession(ctx context.Context, s memory.Session) (memory.Session, error) {
	return sqlq.WriteSession(ctx, conn{x}, s, func() (id int64, err error) {
		err = x.tx.QueryRow(ctx, qAddSession, x.p, int64(s.ThreadID), s.Agent, s.Branch, ts(s.StartedAt), nullTS(s.EndedAt),
			s.Client.Key(), s.Client.Proc.PID, int64(s.Client.Proc.Start)).Scan(&id)
		return id, err
	})
}

func (x *txn) Sessions(ctx context.Context, q store.SessionQuery) ([]memory.Session, int, error) {
	return sqlq.ReadSessions(ctx, conn{x}, q)
}

// RecordEvent is sent with the transaction's next statement (later): an
// event needs no answer.
func (x *txn) RecordEvent(ctx context.Context, e memory.Event) error {
	data, err := store.EncodeEventData(e)
	if err != nil {
		return err
	}
	x.dirty = true
	x.tx.later(qRecordEvent, []any{x.p, int64(e.Session), string(e.Kind), e.Key, e.Subject, e.Detail, data, ts(e.At)},
		func(_ pgconn.CommandTag, err error) error {
			if err != nil {
				return fmt.Errorf("record %s event of session %s: %w", e.Kind, e.Session, err)
			}
			return nil
		})
	return nil
}

func (x *txn) ResolveEvents(ctx context.Context, session memory.SessionID, kind memory.EventKind, subject string, at time.Time) (int, error) {
	return sqlq.ResolveEvents(ctx, conn{x}, session, kind, subject, at)
}

func (x *txn) Events(ctx context.Context, q store.EventQuery) ([]memory.Event, store.EventTotals, error) {
	return sqlq.ReadEvents(ctx, conn{x}, q)
}

func (x *txn) SetBranchContext(ctx context.Context, b memory.BranchContext) error {
	return sqlq.WriteBranch(ctx, conn{x}, x.p, b)
}

func (x *txn) BranchContexts(ctx context.Context, branches ...string) ([]memory.BranchContext, error) {
	return sqlq.ReadBranches(ctx, conn{x}, branches...)
}
