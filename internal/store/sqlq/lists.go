package sqlq

import "github.com/cairn-dev/cairn/internal/store"

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

// UsageEvents is the statement of store.Tx.UsageEvents on w: the newest
// events q selects, oldest first, listing at, kind, name, toolset, agent,
// session_id, client, client_version, model, duration_us, outcome, bytes,
// subject.
func UsageEvents(w *Where, q store.UsageQuery) string {
	usageFilters(w, q, "at")
	return `SELECT at, kind, name, toolset, agent, session_id, client, client_version, model, duration_us, outcome, bytes, subject FROM (
		SELECT * FROM usage_events WHERE ` + w.String() + ` ORDER BY at DESC, id DESC` + w.Limit(q.Limit) + `) u ORDER BY at, id`
}

// UsageDays is the statement of store.Tx.UsageDays on w: the days q
// selects, by day then key, listing day, kind, name, toolset, agent,
// client, model, outcome, count, duration_us, bytes, hist.
func UsageDays(w *Where, q store.UsageQuery) string {
	usageFilters(w, q, "day")
	return `SELECT day, kind, name, toolset, agent, client, model, outcome, count, duration_us, bytes, hist FROM (
		SELECT * FROM usage_days WHERE ` + w.String() + ` ORDER BY day DESC` + w.Limit(q.Limit) + `) u
		ORDER BY day, kind, name, toolset, agent, client, model, outcome`
}
