package sqlq

import (
	"context"

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
			return nil, 0, err
		}
	}
	if total, ok := s.PageTotal(len(out)); ok {
		return out, total, nil
	}
	var total int
	_, err := scanOne(ctx, c, st.Count, st.CountArgs, &total)
	return out, total, err
}

// ReadSessions is store.Tx.Sessions on c.
func ReadSessions(ctx context.Context, c Conn, q store.SessionQuery) ([]memory.Session, int, error) {
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
	if err != nil || len(totals) == 0 || q.TotalsOnly {
		return nil, totals, err
	}
	es, err := read(ctx, c, st.Page, st.PageArgs, ScanEvents[RowSet])
	return es, totals, err
}

// ReadBranches is store.Tx.BranchContexts on c.
func ReadBranches(ctx context.Context, c Conn, branches ...string) ([]memory.BranchContext, error) {
	if len(branches) > 1 {
		return store.EachBranch(ctx, func(ctx context.Context, b ...string) ([]memory.BranchContext, error) { return ReadBranches(ctx, c, b...) }, branches)
	}
	w := c.Where()
	if len(branches) == 1 {
		w.And("branch = ?", branches[0])
	}
	return read(ctx, c, `SELECT doc FROM branch_contexts WHERE `+w.String()+` ORDER BY updated_at DESC, branch`, w.Args, ScanBranches[RowSet])
}

// ReadUsage is store.Tx.Usage on c.
func ReadUsage(ctx context.Context, c Conn, q store.UsageQuery) ([]usage.Event, []usage.Day, error) {
	w := c.Where()
	rows, err := c.Query(ctx, Usage(w, q), w.Args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	return ScanUsage(rows, q.Days)
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
			return 0, err
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
			return 0, err
		}
		if found {
			d = AddUsageDay(d, n, us, bytes, hist)
		}
		up, args := UpsertUsageDay(q.d, project, d)
		if _, err := c.Exec(ctx, up, args...); err != nil {
			return 0, err
		}
	}
	if len(w.Events) > 0 {
		if err := add(w.Events); err != nil {
			return 0, err
		}
	}
	return int(deleted), nil
}
