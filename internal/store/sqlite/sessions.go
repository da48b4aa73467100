package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
)

// Sessions keep their head as a document (store.EncodeSession) and their
// record as events, a row each (session_events): a hook appends one, or
// counts one again, and never rewrites the session.
const (
	qAddSession = `INSERT INTO sessions (thread_id, agent, branch, started_at, ended_at, client_key, pid, pstart, doc)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, '{}') RETURNING id`
	qUpdateSession = `UPDATE sessions SET thread_id = ?, agent = ?, branch = ?, started_at = ?, ended_at = ?, client_key = ?, pid = ?, pstart = ?, doc = ?
		WHERE id = ?`
	qRecordEvent = `INSERT INTO session_events (session_id, kind, key, subject, detail, data, count, first_at, at)
		VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)
		ON CONFLICT (session_id, kind, key) DO UPDATE SET subject = excluded.subject, detail = excluded.detail, data = excluded.data,
			count = count + 1, at = excluded.at, resolved_at = NULL`
	qResolveEvents = `UPDATE session_events SET resolved_at = ? WHERE session_id = ? AND kind = ? AND subject = ? AND resolved_at IS NULL`
	qSetBranch     = `INSERT INTO branch_contexts (branch, updated_at, doc) VALUES (?, ?, ?) ON CONFLICT (branch) DO UPDATE SET updated_at = excluded.updated_at, doc = excluded.doc`
)

// The session statements, prepared with the pool's others.
var (
	sessionWriteQueries = []string{qAddSession, qUpdateSession, qRecordEvent, qResolveEvents, qSetBranch}
)

func (x *txn) PutSession(ctx context.Context, s memory.Session) (memory.Session, error) {
	if s.ID != 0 {
		return s, x.updateSession(ctx, s)
	}
	return x.createSession(ctx, s)
}

func (x *txn) createSession(ctx context.Context, s memory.Session) (memory.Session, error) {
	var id int64
	if err := x.queryRow(ctx, qAddSession, int64(s.ThreadID), s.Agent, s.Branch, micros(s.StartedAt), nullMicros(s.EndedAt),
		s.Client.Key(), s.Client.Proc.PID, int64(s.Client.Proc.Start)).Scan(&id); err != nil {
		return memory.Session{}, fmt.Errorf("start session: %w", err)
	}
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
	res, err := x.exec(ctx, qUpdateSession, int64(s.ThreadID), s.Agent, s.Branch, micros(s.StartedAt), nullMicros(s.EndedAt),
		s.Client.Key(), s.Client.Proc.PID, int64(s.Client.Proc.Start), string(doc), int64(s.ID))
	if err != nil {
		return fmt.Errorf("save session %s: %w", s.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return memory.NotFound("session", s.ID.String())
	}
	return nil
}

func (x *txn) Sessions(ctx context.Context, q store.SessionQuery) ([]memory.Session, int, error) {
	ss, n, err := sqlq.ReadSessions(ctx, conn{x}, q)
	if err != nil {
		return nil, 0, fmt.Errorf("list sessions: %w", err)
	}
	return ss, n, nil
}

func (x *txn) RecordEvent(ctx context.Context, e memory.Event) error {
	data, err := store.EncodeEventData(e)
	if err != nil {
		return err
	}
	if _, err := x.exec(ctx, qRecordEvent, int64(e.Session), string(e.Kind), e.Key, e.Subject, e.Detail, data, micros(e.At), micros(e.At)); err != nil {
		return fmt.Errorf("record %s event of session %s: %w", e.Kind, e.Session, err)
	}
	return nil
}

func (x *txn) ResolveEvents(ctx context.Context, session memory.SessionID, kind memory.EventKind, subject string, at time.Time) (int, error) {
	res, err := x.exec(ctx, qResolveEvents, micros(at), int64(session), string(kind), subject)
	if err != nil {
		return 0, fmt.Errorf("resolve %s events of session %s: %w", kind, session, err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
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
	if _, err := x.exec(ctx, qSetBranch, b.Branch, micros(b.UpdatedAt), string(doc)); err != nil {
		return fmt.Errorf("save branch %s: %w", b.Branch, err)
	}
	return nil
}

func (x *txn) BranchContexts(ctx context.Context, branches ...string) ([]memory.BranchContext, error) {
	bs, err := sqlq.ReadBranches(ctx, conn{x}, branches...)
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	return bs, nil
}
