package sqlq

import (
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/usage"
)

// Statements are a paged read's: the count of what it selects, and its
// page.
type Statements struct {
	Count     string
	CountArgs []any
	Page      string
	PageArgs  []any
}

// Sessions builds a store.SessionQuery's (not an ID one's) statements on
// w; the page lists id and doc, newest first.
func Sessions(w *Where, q store.SessionQuery) Statements {
	if q.ThreadID != 0 {
		w.And("thread_id = ?", int64(q.ThreadID))
	}
	if q.Agent != "" {
		w.And("agent = ?", q.Agent)
	}
	if q.Branch != "" {
		w.And("branch = ?", q.Branch)
	}
	if q.ClientKey != "" {
		w.And("client_key = ?", q.ClientKey)
	}
	if len(q.Procs) > 0 {
		ors := ""
		var args []any
		for i, p := range q.Procs {
			if i > 0 {
				ors += " OR "
			}
			ors += "(pid = ? AND pstart = ?)"
			args = append(args, p.PID, int64(p.Start))
		}
		w.And("pid <> 0 AND ("+ors+")", args...)
	}
	if q.OpenOnly {
		w.And("ended_at IS NULL")
	}
	cond := w.String()
	s := Statements{Count: `SELECT count(*) FROM sessions WHERE ` + cond, CountArgs: w.Args[:len(w.Args):len(w.Args)]}
	s.Page = `SELECT id, doc FROM sessions WHERE ` + cond + ` ORDER BY id DESC` + w.Page(q.Limit, q.Offset)
	s.PageArgs = w.Args
	return s
}

// usageFilters adds q's bounds on the column col and its kinds to w.
func usageFilters(w *Where, q store.UsageQuery, col string) {
	w.Time(col+" >= ?", q.Since)
	w.Time(col+" < ?", q.Before)
	w.In("kind", Strs(q.Kinds))
}

// Usage is the statement of store.Tx.Usage on w: the newest events q
// selects, oldest first (ScanUsage reads them), or with q.Days the days
// it selects, by day then key.
func Usage(w *Where, q store.UsageQuery) string {
	if q.Days {
		usageFilters(w, q, "day")
		return `SELECT day, kind, name, toolset, agent, client, model, outcome, count, duration_us, bytes, hist FROM (
		SELECT * FROM usage_days WHERE ` + w.String() + ` ORDER BY day DESC` + w.Limit(q.Limit) + `) u
		ORDER BY day, kind, name, toolset, agent, client, model, outcome`
	}
	usageFilters(w, q, "at")
	return `SELECT at, kind, name, toolset, agent, session_id, client, client_version, model, duration_us, outcome, bytes, subject FROM (
		SELECT * FROM usage_events WHERE ` + w.String() + ` ORDER BY at DESC, id DESC` + w.Limit(q.Limit) + `) u ORDER BY at, id`
}

// ScanUsage reads the rows of a Usage statement (of days, with days).
func ScanUsage[R Rows](rows R, days bool) (es []usage.Event, ds []usage.Day, err error) {
	var (
		us   int64
		kind string
	)
	if days {
		ds, err = Collect(rows, func(r R) (d usage.Day, err error) {
			var hist string
			err = r.Scan(TimeDest(&d.Day), &kind, &d.Name, &d.Toolset, &d.Agent, &d.Client, &d.Model, &d.Outcome, &d.Count, &us, &d.Bytes, &hist)
			d.Kind, d.Duration, d.Hist = usage.Kind(kind), time.Duration(us)*time.Microsecond, usage.ParseHist(hist)
			return d, err
		})
		return nil, ds, err
	}
	es, err = Collect(rows, func(r R) (e usage.Event, err error) {
		err = r.Scan(TimeDest(&e.At), &kind, &e.Name, &e.Toolset, &e.Agent, &e.Session, &e.Client, &e.ClientVersion, &e.Model, &us, &e.Outcome, &e.Bytes, &e.Subject)
		e.Kind, e.Duration = usage.Kind(kind), time.Duration(us)*time.Microsecond
		return e, err
	})
	return es, nil, err
}

// UsageDay is the statement of one stored day's row, on w: count,
// duration_us, bytes and hist of d's day and key. AddUsageDay merges d
// into what it reads; the caller upserts the sum with UpsertUsageDay.
func UsageDay(w *Where, d usage.Day) string {
	k := d.Key
	w.And("day = ? AND kind = ? AND name = ? AND toolset = ? AND agent = ? AND client = ? AND model = ? AND outcome = ?",
		w.d.Time(d.Day), string(k.Kind), k.Name, k.Toolset, k.Agent, k.Client, k.Model, k.Outcome)
	return `SELECT count, duration_us, bytes, hist FROM usage_days WHERE ` + w.String()
}

// AddUsageDay is d with the stored row of its day and key (a UsageDay
// row: count, duration_us, bytes, hist) added to it.
func AddUsageDay(d usage.Day, n int, us, bytes int64, hist string) usage.Day {
	h := usage.ParseHist(hist)
	h.Merge(d.Hist)
	d.Count, d.Duration, d.Bytes, d.Hist = d.Count+n, d.Duration+time.Duration(us)*time.Microsecond, d.Bytes+bytes, h
	return d
}

// UpsertUsageDay is the statement that writes d's day and key, with
// project (nil: SQLite, whose tables have no project) and its arguments.
func UpsertUsageDay(d Dialect, project any, day usage.Day) (string, []any) {
	k := day.Key
	return Insert(d, project, "usage_days", "day, kind, name, toolset, agent, client, model, outcome", "count, duration_us, bytes, hist",
		`count = excluded.count, duration_us = excluded.duration_us, bytes = excluded.bytes, hist = excluded.hist`,
		d.Time(day.Day), string(k.Kind), k.Name, k.Toolset, k.Agent, k.Client, k.Model, k.Outcome,
		int64(day.Count), day.Duration.Microseconds(), day.Bytes, day.Hist.String())
}

// Insert is the statement that inserts vals as a row of table's key
// columns then its other columns (with project first, unless it is nil:
// SQLite's tables have none), and with set, on a row of the same key
// already there, updates that row instead.
func Insert(d Dialect, project any, table, key, cols, set string, vals ...any) (string, []any) {
	w := d.Where("")
	if project != nil {
		key = "project_id, " + key
		vals = append([]any{project}, vals...)
	}
	marks := make([]string, len(vals))
	for i, a := range vals {
		marks[i] = w.Arg(a)
	}
	q := `INSERT INTO ` + table + ` (` + key + `, ` + cols + `) VALUES (` + strings.Join(marks, ", ") + `)`
	if set != "" {
		q += ` ON CONFLICT (` + key + `) DO UPDATE SET ` + set
	}
	return q, w.Args
}

// Events builds a store.EventQuery's statements on w: Count counts the
// events it selects by session and kind (ScanEventTotals), Page lists
// them, newest first (ScanEvents).
func Events(w *Where, q store.EventQuery) Statements {
	w.IDs("session_id", Int64s(q.Sessions))
	w.In("kind", Strs(q.Kinds))
	if q.Unresolved {
		w.And("resolved_at IS NULL")
	}
	cond := w.String()
	st := Statements{Count: `SELECT session_id, kind, count(*) FROM session_events WHERE ` + cond + ` GROUP BY session_id, kind`,
		CountArgs: w.Args[:len(w.Args):len(w.Args)]}
	st.Page = `SELECT session_id, kind, key, subject, detail, data, count, first_at, at, resolved_at FROM (
		SELECT e.*, row_number() OVER (PARTITION BY kind ORDER BY at DESC, id DESC) AS rn FROM session_events e WHERE ` + cond + `) ev`
	if q.PerKind > 0 {
		st.Page += ` WHERE rn <= ` + w.Arg(q.PerKind)
	}
	st.Page += ` ORDER BY at DESC, id DESC` + w.Limit(q.Limit)
	st.PageArgs = w.Args
	return st
}

// ScanEventTotals reads the rows of an Events count.
func ScanEventTotals[R Rows](rows R) (store.EventTotals, error) {
	totals := store.EventTotals{}
	_, err := Collect(rows, func(r R) (struct{}, error) {
		var (
			sid int64
			k   string
			n   int
		)
		err := r.Scan(&sid, &k, &n)
		totals.AddTotal(memory.SessionID(sid), memory.EventKind(k), n)
		return struct{}{}, err
	})
	return totals, err
}

// ScanEvents reads the rows of an Events page.
func ScanEvents[R Rows](rows R) ([]memory.Event, error) {
	return Collect(rows, func(r R) (memory.Event, error) {
		var (
			e          memory.Event
			sid        int64
			kind, data string
		)
		if err := r.Scan(&sid, &kind, &e.Key, &e.Subject, &e.Detail, &data, &e.Count, TimeDest(&e.FirstAt), TimeDest(&e.At), TimeDest(&e.ResolvedAt)); err != nil {
			return e, err
		}
		e.Session, e.Kind = memory.SessionID(sid), memory.EventKind(kind)
		return e, store.DecodeEventData(data, &e)
	})
}
