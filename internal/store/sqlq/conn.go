package sqlq

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/usage"
)

// Conn is a store's transaction as the reads and writes written here, once
// for both stores, run on it.
type Conn interface {
	// Where starts a statement's conditions with the store's own
	// (PostgreSQL: the project's rows).
	Where() *Where
	// Query runs a statement that returns rows.
	Query(ctx context.Context, q string, args ...any) (RowSet, error)
	// Exec runs a statement and returns how many rows it changed.
	Exec(ctx context.Context, q string, args ...any) (int64, error)
	// Changed says a write changed what a cache or a board shows (usage
	// rows do not): the store's version moves when it commits.
	Changed()
}

// RowSet is Rows that the reader closes.
type RowSet interface {
	Rows
	Close()
}

// read runs q and reads its rows with scan.
func read[T any](ctx context.Context, c Conn, q string, args []any, scan func(RowSet) (T, error)) (T, error) {
	rows, err := c.Query(ctx, q, args...)
	if err != nil {
		var zero T
		return zero, err
	}
	defer rows.Close()
	return scan(rows)
}

// scanOne reads the one row of a statement into dest; found is false when
// it has none.
func scanOne(ctx context.Context, c Conn, q string, args []any, dest ...any) (found bool, err error) {
	return read(ctx, c, q, args, func(rows RowSet) (bool, error) {
		if !rows.Next() {
			return false, rows.Err()
		}
		return true, rows.Scan(dest...)
	})
}

// ReadMemories is store.Tx.SelectMemories on c; cols are an entry's
// columns on e, which scan reads.
func ReadMemories(ctx context.Context, c Conn, s store.MemorySelector, cols string, scan func(Rows) (memory.Entry, error)) ([]memory.Entry, int, error) {
	st := SelectMemories(c.Where(), s, cols)
	var out []memory.Entry
	if !s.CountOnly {
		var err error
		out, err = read(ctx, c, st.Page, st.PageArgs, func(rows RowSet) ([]memory.Entry, error) { return Collect(Rows(rows), scan) })
		if err == nil {
			err = fill(ctx, c, out, s)
		}
		if err != nil {
			return nil, 0, fmt.Errorf("select memory: %w", err)
		}
	}
	if total, ok := s.PageTotal(len(out)); ok {
		return out, total, nil
	}
	var total int
	if _, err := scanOne(ctx, c, st.Count, st.CountArgs, &total); err != nil {
		return nil, 0, fmt.Errorf("count memory: %w", err)
	}
	return out, total, nil
}

// ReadSessions is store.Tx.Sessions on c.
func ReadSessions(ctx context.Context, c Conn, q store.SessionQuery) ([]memory.Session, int, error) {
	ss, n, err := readSessions(ctx, c, q)
	if err != nil {
		return nil, 0, fmt.Errorf("list sessions: %w", err)
	}
	return ss, n, nil
}

func readSessions(ctx context.Context, c Conn, q store.SessionQuery) ([]memory.Session, int, error) {
	if q.ID != 0 {
		w := c.Where()
		w.And("id = ?", int64(q.ID))
		ss, err := read(ctx, c, `SELECT id, doc FROM sessions WHERE `+w.String(), w.Args, ScanSessions[RowSet])
		return ss, len(ss), err
	}
	st := Sessions(c.Where(), q)
	var total int
	if _, err := scanOne(ctx, c, st.Count, st.CountArgs, &total); err != nil || total == 0 || q.Offset >= total {
		return nil, total, err
	}
	ss, err := read(ctx, c, st.Page, st.PageArgs, ScanSessions[RowSet])
	return ss, total, err
}

// ReadEvents is store.Tx.Events on c.
func ReadEvents(ctx context.Context, c Conn, q store.EventQuery) ([]memory.Event, store.EventTotals, error) {
	st := Events(c.Where(), q)
	totals, err := read(ctx, c, st.Count, st.CountArgs, ScanEventTotals[RowSet])
	if err != nil {
		return nil, nil, fmt.Errorf("count session events: %w", err)
	}
	if len(totals) == 0 || q.TotalsOnly {
		return nil, totals, nil
	}
	es, err := read(ctx, c, st.Page, st.PageArgs, ScanEvents[RowSet])
	if err != nil {
		return nil, nil, fmt.Errorf("read session events: %w", err)
	}
	return es, totals, nil
}

// ReadBranches is store.Tx.BranchContexts on c.
func ReadBranches(ctx context.Context, c Conn, branches ...string) ([]memory.BranchContext, error) {
	if len(branches) > 1 {
		return store.EachBranch(ctx, func(ctx context.Context, b ...string) ([]memory.BranchContext, error) {
			return ReadBranches(ctx, c, b...)
		}, branches)
	}
	w := c.Where()
	if len(branches) == 1 {
		w.And("branch = ?", branches[0])
	}
	bs, err := read(ctx, c, `SELECT doc FROM branch_contexts WHERE `+w.String()+` ORDER BY updated_at DESC, branch`, w.Args, ScanBranches[RowSet])
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	return bs, nil
}

// ReadUsage is store.Tx.Usage on c.
func ReadUsage(ctx context.Context, c Conn, q store.UsageQuery) ([]usage.Event, []usage.Day, error) {
	w := c.Where()
	rows, err := c.Query(ctx, Usage(w, q), w.Args...)
	if err != nil {
		return nil, nil, fmt.Errorf("read usage: %w", err)
	}
	defer rows.Close()
	es, ds, err := ScanUsage(rows, q.Days)
	if err != nil {
		return nil, nil, fmt.Errorf("read usage: %w", err)
	}
	return es, ds, nil
}

// WriteUsage is store.Tx.WriteUsage on c, project (nil: none) keying its
// rows; add appends events (each store has its fastest way).
func WriteUsage(ctx context.Context, c Conn, project any, w store.UsageWrite, add func([]usage.Event) error) (int, error) {
	var deleted int64
	if !w.DeleteBefore.IsZero() {
		q := c.Where()
		q.Time("at < ?", w.DeleteBefore)
		var err error
		if deleted, err = c.Exec(ctx, `DELETE FROM usage_events WHERE `+q.String(), q.Args...); err != nil {
			return 0, fmt.Errorf("delete usage: %w", err)
		}
	}
	for _, d := range w.Days {
		var (
			n         int
			us, bytes int64
			hist      string
		)
		q := c.Where()
		found, err := scanOne(ctx, c, UsageDay(q, d), q.Args, &n, &us, &bytes, &hist)
		if err != nil {
			return 0, fmt.Errorf("read usage day: %w", err)
		}
		if found {
			d = AddUsageDay(d, n, us, bytes, hist)
		}
		up, args := UpsertUsageDay(q.d, project, d)
		if _, err := c.Exec(ctx, up, args...); err != nil {
			return 0, fmt.Errorf("save usage day: %w", err)
		}
	}
	if len(w.Events) > 0 {
		if err := add(w.Events); err != nil {
			return 0, err
		}
	}
	return int(deleted), nil
}

// WriteSession is store.Tx.PutSession on c; add inserts a new session's
// row and returns its id (each store numbers them its own way).
func WriteSession(ctx context.Context, c Conn, s memory.Session, add func() (int64, error)) (memory.Session, error) {
	if s.ID == 0 {
		id, err := add()
		if err != nil {
			return memory.Session{}, fmt.Errorf("start session: %w", err)
		}
		s.ID = memory.SessionID(id)
		if s.ThreadID == 0 {
			s.ThreadID = s.ID
		}
	}
	doc, err := store.EncodeSession(s)
	if err != nil {
		return memory.Session{}, err
	}
	w := c.Where()
	set := []string{w.Arg(int64(s.ThreadID)), w.Arg(s.Agent), w.Arg(s.Branch), w.Arg(w.d.Time(s.StartedAt)), w.Arg(nullTime(w.d, s.EndedAt)),
		w.Arg(s.Client.Key()), w.Arg(s.Client.Proc.PID), w.Arg(int64(s.Client.Proc.Start)), w.Arg(string(doc))}
	w.And("id = ?", int64(s.ID))
	n, err := c.Exec(ctx, `UPDATE sessions SET thread_id = `+set[0]+`, agent = `+set[1]+`, branch = `+set[2]+`, started_at = `+set[3]+
		`, ended_at = `+set[4]+`, client_key = `+set[5]+`, pid = `+set[6]+`, pstart = `+set[7]+`, doc = `+set[8]+` WHERE `+w.String(), w.Args...)
	if err != nil {
		return memory.Session{}, fmt.Errorf("save session %s: %w", s.ID, err)
	}
	if n == 0 {
		return memory.Session{}, memory.NotFound("session", s.ID.String())
	}
	c.Changed()
	return s, nil
}

func nullTime(d Dialect, t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return d.Time(t)
}

// WriteBranch is store.Tx.SetBranchContext on c, project (nil: none)
// keying its row.
func WriteBranch(ctx context.Context, c Conn, project any, b memory.BranchContext) error {
	doc, err := store.EncodeBranch(b)
	if err != nil {
		return err
	}
	w := c.Where()
	q, args := Insert(w.d, project, "branch_contexts", "branch", "updated_at, doc", "updated_at = excluded.updated_at, doc = excluded.doc",
		b.Branch, w.d.Time(b.UpdatedAt), string(doc))
	if _, err := c.Exec(ctx, q, args...); err != nil {
		return fmt.Errorf("save branch %s: %w", b.Branch, err)
	}
	c.Changed()
	return nil
}

// ResolveEvents is store.Tx.ResolveEvents on c.
func ResolveEvents(ctx context.Context, c Conn, session memory.SessionID, kind memory.EventKind, subject string, at time.Time) (int, error) {
	w := c.Where()
	set := w.Arg(w.d.Time(at))
	w.And("session_id = ? AND kind = ? AND subject = ? AND resolved_at IS NULL", int64(session), string(kind), subject)
	n, err := c.Exec(ctx, `UPDATE session_events SET resolved_at = `+set+` WHERE `+w.String(), w.Args...)
	if err != nil {
		return 0, fmt.Errorf("resolve %s events of session %s: %w", kind, session, err)
	}
	c.Changed()
	return int(n), nil
}

// AddOccurrences records occ as occurrences of the entry id on c, project
// (nil: none) keying their rows.
func AddOccurrences(ctx context.Context, c Conn, project any, id memory.ID, occ []memory.Occurrence) error {
	d := c.Where().d
	for _, o := range occ {
		q, args := Insert(d, project, "memory_occurrences", "entry_id, n", "at, session_id, branch, title, content, extra", "",
			int64(id), o.N, d.Time(o.At), o.SessionID, o.Branch, o.Title, o.Content, NullText(o.Extra()))
		if _, err := c.Exec(ctx, q, args...); err != nil {
			return fmt.Errorf("record occurrence %d of %s: %w", o.N, id, err)
		}
	}
	return nil
}

// NullText is b as a text column: NULL when it is nil.
func NullText(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

// JSONMap is m as a JSON text column: NULL when it is empty.
func JSONMap(m map[string]string) any {
	if len(m) == 0 {
		return nil
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// NullID is id as a column: NULL when it is zero.
func NullID(id memory.ID) any {
	if id == 0 {
		return nil
	}
	return int64(id)
}
