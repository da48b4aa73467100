package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
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
	qSession     = `SELECT id, doc FROM sessions WHERE id = ?`
	qRecordEvent = `INSERT INTO session_events (session_id, kind, key, subject, detail, data, count, first_at, at)
		VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)
		ON CONFLICT (session_id, kind, key) DO UPDATE SET subject = excluded.subject, detail = excluded.detail, data = excluded.data,
			count = count + 1, at = excluded.at, resolved_at = NULL`
	qResolveEvents = `UPDATE session_events SET resolved_at = ? WHERE session_id = ? AND kind = ? AND subject = ? AND resolved_at IS NULL`
	qBranch        = `SELECT doc FROM branch_contexts WHERE branch = ?`
	qSetBranch     = `INSERT INTO branch_contexts (branch, updated_at, doc) VALUES (?, ?, ?) ON CONFLICT (branch) DO UPDATE SET updated_at = excluded.updated_at, doc = excluded.doc`
	qBranches      = `SELECT doc FROM branch_contexts ORDER BY updated_at DESC, branch`
)

// The session statements, prepared with the pool's others.
var (
	sessionReadQueries  = []string{qSession, qBranch, qBranches}
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

func (x *txn) session(ctx context.Context, id memory.SessionID) ([]memory.Session, int, error) {
	rows, err := x.query(ctx, qSession, int64(id))
	if err != nil {
		return nil, 0, fmt.Errorf("read session %s: %w", id, err)
	}
	defer rows.Close()
	ss, err := sqlq.ScanSessions(rows)
	if err != nil {
		return nil, 0, fmt.Errorf("read session %s: %w", id, err)
	}
	return ss, len(ss), nil
}

func (x *txn) Sessions(ctx context.Context, q store.SessionQuery) ([]memory.Session, int, error) {
	if q.ID != 0 {
		return x.session(ctx, q.ID)
	}
	st := sqlq.Sessions(sq.Where(""), q)
	var total int
	if err := x.queryRowBuilt(ctx, st.Count, st.CountArgs...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count sessions: %w", err)
	}
	if total == 0 || q.Offset >= total {
		return nil, total, nil
	}
	rows, err := x.queryBuilt(ctx, st.Page, st.PageArgs...)
	if err != nil {
		return nil, 0, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	out, err := sqlq.ScanSessions(rows)
	if err != nil {
		return nil, 0, fmt.Errorf("list sessions: %w", err)
	}
	return out, total, nil
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

// eventFilters renders q's filters (but its caps) as conditions.
func eventFilters(q store.EventQuery) (string, []any) {
	var (
		where strings.Builder
		args  []any
	)
	if len(q.Sessions) > 0 {
		where.WriteString(" AND session_id IN (" + placeholders(len(q.Sessions)) + ")")
		for _, id := range q.Sessions {
			args = append(args, int64(id))
		}
	}
	if len(q.Kinds) > 0 {
		where.WriteString(" AND kind IN (" + placeholders(len(q.Kinds)) + ")")
		for _, k := range q.Kinds {
			args = append(args, string(k))
		}
	}
	if q.Unresolved {
		where.WriteString(" AND resolved_at IS NULL")
	}
	return where.String(), args
}

func (x *txn) Events(ctx context.Context, q store.EventQuery) ([]memory.Event, store.EventTotals, error) {
	where, args := eventFilters(q)
	totals := store.EventTotals{}
	rows, err := x.queryBuilt(ctx, `SELECT session_id, kind, count(*) FROM session_events WHERE 1`+where+` GROUP BY session_id, kind`, args...)
	if err != nil {
		return nil, nil, fmt.Errorf("count session events: %w", err)
	}
	for rows.Next() {
		var (
			sid int64
			k   string
			n   int
		)
		if err := rows.Scan(&sid, &k, &n); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("count session events: %w", err)
		}
		totals.AddTotal(memory.SessionID(sid), memory.EventKind(k), n)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(totals) == 0 || q.TotalsOnly {
		return nil, totals, err
	}
	perKind, limit := q.PerKind, q.Limit
	if perKind <= 0 {
		perKind = -1
	}
	if limit <= 0 {
		limit = -1
	}
	rows, err = x.queryBuilt(ctx, `SELECT session_id, kind, key, subject, detail, data, count, first_at, at, resolved_at FROM (
		SELECT e.*, row_number() OVER (PARTITION BY kind ORDER BY at DESC, id DESC) AS rn FROM session_events e WHERE 1`+where+`)
		WHERE ? < 0 OR rn <= ? ORDER BY at DESC, id DESC LIMIT ?`, append(args, perKind, perKind, limit)...)
	if err != nil {
		return nil, nil, fmt.Errorf("read session events: %w", err)
	}
	defer rows.Close()
	var out []memory.Event
	for rows.Next() {
		var (
			e              memory.Event
			sid, first, at int64
			kind, data     string
			resolved       sql.NullInt64
		)
		if err := rows.Scan(&sid, &kind, &e.Key, &e.Subject, &e.Detail, &data, &e.Count, &first, &at, &resolved); err != nil {
			return nil, nil, fmt.Errorf("read session events: %w", err)
		}
		e.Session, e.Kind = memory.SessionID(sid), memory.EventKind(kind)
		e.FirstAt, e.At, e.ResolvedAt = time.UnixMicro(first).UTC(), time.UnixMicro(at).UTC(), fromMicros(resolved)
		if err := store.DecodeEventData(data, &e); err != nil {
			return nil, nil, err
		}
		out = append(out, e)
	}
	return out, totals, rows.Err()
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
	if len(branches) > 1 {
		return store.EachBranch(ctx, x.BranchContexts, branches)
	}
	var (
		rows *sql.Rows
		err  error
	)
	if len(branches) == 1 {
		rows, err = x.query(ctx, qBranch, branches[0])
	} else {
		rows, err = x.query(ctx, qBranches)
	}
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	defer rows.Close()
	out, err := sqlq.ScanBranches(rows)
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	return out, nil
}
