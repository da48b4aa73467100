package sqlq

import (
	"context"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

// MemoryFilters adds s's filters on the entries e (memory_entries) to w:
// everything but its order, page and what it fills in.
func MemoryFilters(w *Where, s store.MemorySelector) {
	w.IDs("e.id", Int64s(s.IDs))
	if s.UID != "" {
		w.And("e.uid = ?", s.UID)
	}
	if s.Fingerprint != "" {
		w.And("e.fingerprint = ?", s.Fingerprint)
	}
	w.In("e.type", Strs(s.Types))
	switch {
	case len(s.Tags) == 0:
	case w.d.Dollar: // an array column
		w.And("e.tags && ?::text[]", s.Tags)
	default: // a table of its own
		w.conds = append(w.conds, "e.id IN (SELECT entry_id FROM memory_tags WHERE "+w.in("tag", s.Tags)+")")
	}
	if s.SessionID != "" {
		w.And("e.session_id = ?", s.SessionID)
	}
	if s.Branch != "" {
		w.And("e.branch = ?", s.Branch)
	}
	w.Time("e.created_at >= ?", s.After)
	w.Time("e.created_at < ?", s.Before)
	if s.Below != 0 {
		w.And("e.id < ?", int64(s.Below))
	}
	if s.Above != 0 {
		w.And("e.id > ?", int64(s.Above))
	}
	if s.HideSuperseded {
		w.And("e.superseded_by IS NULL")
	}
	w.Time("(e.expires_at IS NULL OR e.expires_at > ?)", s.Now)
	if s.WithoutVector != "" {
		project := ""
		if w.d.Dollar {
			project = "v.project_id = e.project_id AND "
		}
		w.And("NOT EXISTS (SELECT 1 FROM memory_vectors v WHERE "+project+"v.entry_id = e.id AND v.model = ?)", s.WithoutVector)
	}
}

// SelectMemories builds a store.MemorySelector's statements on w (which
// holds the store's own conditions: PostgreSQL's project): the count of
// the entries it selects, and its page of cols (an entry's columns, on e).
func SelectMemories(w *Where, s store.MemorySelector, cols string) Statements {
	MemoryFilters(w, s)
	cond := w.String()
	st := Statements{Count: `SELECT count(*) FROM memory_entries e WHERE ` + cond, CountArgs: w.Args[:len(w.Args):len(w.Args)]}
	st.Page = `SELECT ` + cols + ` FROM memory_entries e WHERE ` + cond + ` ORDER BY e.id`
	if s.Newest {
		st.Page += ` DESC`
	}
	if s.Limit > 0 || s.Offset > 0 {
		st.Page += w.Page(s.Limit, s.Offset)
	}
	st.PageArgs = w.Args
	return st
}

// Supersedes is the statement of the entries that the entries ids
// superseded, on w: superseded_by and id, by id.
func Supersedes(w *Where, ids []memory.ID) string {
	w.IDs("superseded_by", Int64s(ids))
	return `SELECT superseded_by, id FROM memory_entries WHERE ` + w.String() + ` ORDER BY id`
}

// RecentOccurrences is the statement of the newest n recorded
// occurrences of each of the entries ids, on w: entry_id, n, at,
// session_id, branch, title, content, extra, newest first.
func RecentOccurrences(w *Where, ids []memory.ID, n int) string {
	w.IDs("entry_id", Int64s(ids))
	return `SELECT entry_id, n, at, session_id, branch, title, content, extra FROM (
		SELECT *, row_number() OVER (PARTITION BY entry_id ORDER BY n DESC) AS r FROM memory_occurrences WHERE ` + w.String() + `) o
		WHERE r <= ` + w.Arg(n) + ` ORDER BY entry_id, n DESC`
}

// fill fills the entries es as s asks (Supersedes, Recent), reading each
// statement once whatever their number.
func fill(ctx context.Context, c Conn, es []memory.Entry, s store.MemorySelector) error {
	if len(es) == 0 || !s.Supersedes && s.Recent <= 0 {
		return nil
	}
	at := make(map[memory.ID]int, len(es))
	var ids, mistakes []memory.ID
	for i, e := range es {
		at[e.ID] = i
		ids = append(ids, e.ID)
		if e.Type == memory.Mistake {
			mistakes = append(mistakes, e.ID)
		}
	}
	if s.Supersedes {
		w := c.Where()
		if _, err := read(ctx, c, Supersedes(w, ids), w.Args, func(rows RowSet) (struct{}, error) {
			return struct{}{}, each(rows, func() error {
				var by, old int64
				if err := rows.Scan(&by, &old); err != nil {
					return err
				}
				e := &es[at[memory.ID(by)]]
				e.Supersedes = append(e.Supersedes, memory.ID(old))
				return nil
			})
		}); err != nil {
			return err
		}
	}
	if s.Recent <= 0 || len(mistakes) == 0 {
		return nil
	}
	w := c.Where()
	_, err := read(ctx, c, RecentOccurrences(w, mistakes, s.Recent), w.Args, func(rows RowSet) (struct{}, error) {
		return struct{}{}, each(rows, func() error {
			var (
				id    int64
				o     memory.Occurrence
				extra *string
			)
			if err := rows.Scan(&id, &o.N, TimeDest(&o.At), &o.SessionID, &o.Branch, &o.Title, &o.Content, &extra); err != nil {
				return err
			}
			if extra != nil {
				if err := o.SetExtra([]byte(*extra)); err != nil {
					return err
				}
			}
			e := &es[at[memory.ID(id)]]
			e.Recent = append(e.Recent, o)
			return nil
		})
	})
	return err
}

// each calls fn for each row.
func each(rows Rows, fn func() error) error {
	for rows.Next() {
		if err := fn(); err != nil {
			return err
		}
	}
	return rows.Err()
}
