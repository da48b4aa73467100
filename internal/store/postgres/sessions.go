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
	qUpdateSession = `UPDATE sessions SET thread_id = $3, agent = $4, branch = $5, started_at = $6, ended_at = $7,
	client_key = $8, pid = $9, pstart = $10, doc = $11 WHERE project_id = $1 AND id = $2`
	qRecordEvent = `INSERT INTO session_events (project_id, session_id, kind, key, subject, detail, data, count, first_at, at)
	VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $8)
	ON CONFLICT (project_id, session_id, kind, key) DO UPDATE SET subject = excluded.subject, detail = excluded.detail, data = excluded.data,
		count = session_events.count + 1, at = excluded.at, resolved_at = NULL`
	qResolveEvents = `UPDATE session_events SET resolved_at = $5
	WHERE project_id = $1 AND session_id = $2 AND kind = $3 AND subject = $4 AND resolved_at IS NULL`
	qSetBranch = `INSERT INTO branch_contexts (project_id, branch, updated_at, doc) VALUES ($1, $2, $3, $4)
	ON CONFLICT (project_id, branch) DO UPDATE SET updated_at = excluded.updated_at, doc = excluded.doc`
)

func (x *txn) PutSession(ctx context.Context, s memory.Session) (memory.Session, error) {
	if s.ID != 0 {
		return s, x.updateSession(ctx, s)
	}
	return x.createSession(ctx, s)
}

func (x *txn) createSession(ctx context.Context, s memory.Session) (memory.Session, error) {
	var id int64
	if err := x.tx.QueryRow(ctx, qAddSession, x.p, int64(s.ThreadID), s.Agent, s.Branch, ts(s.StartedAt), nullTS(s.EndedAt),
		s.Client.Key(), s.Client.Proc.PID, int64(s.Client.Proc.Start)).Scan(&id); err != nil {
		return memory.Session{}, fmt.Errorf("start session: %w", err)
	}
	x.changed()
	s.ID = memory.SessionID(id)
	if s.ThreadID == 0 {
		s.ThreadID = s.ID
	}
	if err := x.updateSession(ctx, s); err != nil {
		return memory.Session{}, err
	}
	return s, nil
}

func (x *txn) updateSession(ctx context.Context, s memory.Session) error {
	doc, err := store.EncodeSession(s)
	if err != nil {
		return err
	}
	tag, err := x.tx.Exec(ctx, qUpdateSession, x.p, int64(s.ID), int64(s.ThreadID), s.Agent, s.Branch, ts(s.StartedAt), nullTS(s.EndedAt),
		s.Client.Key(), s.Client.Proc.PID, int64(s.Client.Proc.Start), string(doc))
	if err != nil {
		return fmt.Errorf("save session %s: %w", s.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return memory.NotFound("session", s.ID.String())
	}
	x.changed()
	return nil
}

func (x *txn) Sessions(ctx context.Context, q store.SessionQuery) ([]memory.Session, int, error) {
	ss, n, err := sqlq.ReadSessions(ctx, conn{x}, q)
	if err != nil {
		return nil, 0, fmt.Errorf("list sessions: %w", err)
	}
	return ss, n, nil
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
	tag, err := x.tx.Exec(ctx, qResolveEvents, x.p, int64(session), string(kind), subject, ts(at))
	if err != nil {
		return 0, fmt.Errorf("resolve %s events of session %s: %w", kind, session, err)
	}
	x.changed()
	return int(tag.RowsAffected()), nil
}

func (x *txn) Events(ctx context.Context, q store.EventQuery) ([]memory.Event, store.EventTotals, error) {
	es, totals, err := sqlq.ReadEvents(ctx, conn{x}, q)
	if err != nil {
		return nil, nil, fmt.Errorf("read session events: %w", err)
	}
	return es, totals, nil
}

func (x *txn) SetBranchContext(ctx context.Context, b memory.BranchContext) error {
	doc, err := store.EncodeBranch(b)
	if err != nil {
		return err
	}
	if _, err := x.tx.Exec(ctx, qSetBranch, x.p, b.Branch, ts(b.UpdatedAt), string(doc)); err != nil {
		return fmt.Errorf("save branch %s: %w", b.Branch, err)
	}
	x.changed()
	return nil
}

func (x *txn) BranchContexts(ctx context.Context, branches ...string) ([]memory.BranchContext, error) {
	bs, err := sqlq.ReadBranches(ctx, conn{x}, branches...)
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	return bs, nil
}
