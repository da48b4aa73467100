package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/rank"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
)

// The memory's read primitives: selecting entries, and the full-text
// index a search reads. What a search or a timeline does with them is
// store.SearchMemory's and store.MemoryTimeline's.

// filters renders s's filters as AND clauses on e ("" when none).
func filters(s store.MemorySelector) (string, []any) {
	w := sq.Where("")
	sqlq.MemoryFilters(w, s)
	if w.Empty() {
		return "", nil
	}
	return " AND " + w.String(), w.Args
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

func (x *txn) SelectMemories(ctx context.Context, s store.MemorySelector) ([]memory.Entry, int, error) {
	return sqlq.ReadMemories(ctx, conn{x}, s, memCols, func(r sqlq.Rows) (memory.Entry, error) { return scanMemory(r) })
}

// qHidden are the entries a search's superseded and expiry rules leave
// out: two queries, not a UNION, which SQLite would merge in id order by
// scanning the table instead of reading the two partial indexes.
const (
	qSupersededIDs = `SELECT id FROM memory_entries WHERE superseded_by IS NOT NULL LIMIT ?`
	qExpiredIDs    = `SELECT id FROM memory_entries WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?`
)

func (s *source) Hidden(ctx context.Context, limit int) ([]memory.ID, error) {
	seen := map[memory.ID]bool{}
	var out []memory.ID
	read := func(q string, args ...any) error {
		rows, err := s.x.query(ctx, q, append(args, limit)...)
		return each(rows, err, func(r scanner) error {
			var id memory.ID
			if err := r.Scan(&id); err != nil || seen[id] || len(out) == limit {
				return err
			}
			seen[id] = true
			out = append(out, id)
			return nil
		})
	}
	if s.s.HideSuperseded {
		if err := read(qSupersededIDs); err != nil {
			return nil, fmt.Errorf("read hidden memory: %w", err)
		}
	}
	if !s.s.Now.IsZero() && len(out) < limit {
		if err := read(qExpiredIDs, micros(s.s.Now)); err != nil {
			return nil, fmt.Errorf("read hidden memory: %w", err)
		}
	}
	return out, nil
}

func (x *txn) MemoryIndex(_ context.Context, s store.MemorySelector) (store.MemoryIndex, error) {
	where, args := filters(s)
	return &source{x: x, s: s, where: where, args: args}, nil
}

// source is the full-text index as one search sees it: rank.Source with
// the search's filters applied to the postings it reads.
type source struct {
	x     *txn
	s     store.MemorySelector
	where string
	args  []any
	st    *indexStats // once read
}

func (s *source) stats(ctx context.Context) (indexStats, error) {
	if s.st == nil {
		st, err := s.x.indexStats(ctx)
		if err != nil {
			return st, err
		}
		s.st = &st
	}
	return *s.st, nil
}

func (s *source) Stats(ctx context.Context) (int, float64, error) {
	st, err := s.stats(ctx)
	return st.docs, st.total, err
}

// Unindexed counts the entries a re-index under way has not indexed yet.
func (s *source) Unindexed(ctx context.Context) (int, error) {
	st, err := s.stats(ctx)
	if err != nil || !st.rebuilding() {
		return 0, err
	}
	var n int
	err = s.x.queryRow(ctx, `SELECT count(*) FROM memory_entries WHERE id > ?`, st.through.Int64).Scan(&n)
	return n, err
}

func (s *source) DF(ctx context.Context, terms []string) (map[string]int, error) {
	out := make(map[string]int, len(terms))
	rows, err := s.x.query(ctx, qTermsDF, jsonList(terms))
	err = each(rows, err, func(r scanner) error {
		var (
			t  string
			df int
		)
		err := r.Scan(&t, &df)
		out[t] = df
		return err
	})
	return out, err
}

// packed reads postings packed into one text value by the query, "entry
// tf dl" triples separated by spaces: one row instead of hundreds, which
// is most of what reading postings costs through database/sql.
func packed(row *sql.Row) ([]rank.Posting, error) {
	var s sql.NullString
	if err := row.Scan(&s); err != nil {
		return nil, err
	}
	f := strings.Fields(s.String)
	out := make([]rank.Posting, 0, len(f)/3)
	for i := 0; i+2 < len(f); i += 3 {
		e, err1 := strconv.ParseInt(f[i], 10, 64)
		tf, err2 := strconv.ParseFloat(f[i+1], 64)
		dl, err3 := strconv.ParseFloat(f[i+2], 64)
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("read postings: %w", err)
		}
		out = append(out, rank.Posting{Entry: e, TF: tf, Len: dl})
	}
	return out, nil
}

func (s *source) Top(ctx context.Context, terms []string, limits []int) ([][]rank.Posting, error) {
	out := make([][]rank.Posting, len(terms))
	for i, t := range terms {
		var err error
		if s.where == "" {
			out[i], err = packed(s.x.queryRow(ctx, qTermTop, t, limits[i]))
		} else {
			// CROSS JOIN keeps the postings in impact order as the outer loop.
			q := `SELECT group_concat(id || ' ' || tf || ' ' || dl, ' ') FROM (SELECT p.entry_id AS id, p.tf, p.dl
			FROM memory_postings p CROSS JOIN memory_entries e ON e.id = p.entry_id
			WHERE p.term = ?` + s.where + ` ORDER BY p.impact DESC LIMIT ?)`
			out[i], err = packed(s.x.queryRow(ctx, q, append(append([]any{t}, s.args...), limits[i])...))
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// qLookup reads the postings of some terms in some entries: by term (the
// CROSS JOIN keeps the terms the outer loop), each the primary key's
// lookups of the entries.
const qLookup = `SELECT p.term, p.entry_id, p.tf, p.dl FROM json_each(?) t CROSS JOIN memory_postings p ON p.term = t.value
	WHERE p.entry_id IN (SELECT value FROM json_each(?))`

func (s *source) Lookup(ctx context.Context, terms []string, entries []int64) (map[string][]rank.Posting, error) {
	ids, _ := json.Marshal(entries)
	out := make(map[string][]rank.Posting, len(terms))
	rows, err := s.x.query(ctx, qLookup, jsonList(terms), string(ids))
	err = each(rows, err, func(r scanner) error {
		var (
			t string
			p rank.Posting
		)
		err := r.Scan(&t, &p.Entry, &p.TF, &p.Len)
		out[t] = append(out[t], p)
		return err
	})
	return out, err
}

func (s *source) Nearest(ctx context.Context, model string, vec []float32, limit int) ([]store.ScoredID, error) {
	x, where, args := s.x, s.where, s.args
	query := `SELECT v.entry_id, vec_distance_cosine(v.vec, ?) AS d FROM memory_vectors v JOIN memory_entries e ON e.id = v.entry_id
	WHERE v.model = ?` + where + ` ORDER BY d, v.entry_id LIMIT ?`
	var out []store.ScoredID
	rows, err := x.query(ctx, query, append(append([]any{memory.EncodeVector(vec), model}, args...), limit)...)
	err = each(rows, err, func(r scanner) error {
		var (
			id memory.ID
			d  sql.NullFloat64
		)
		if err := r.Scan(&id, &d); err != nil || !d.Valid { // a zero vector has no direction: similar to nothing
			return err
		}
		out = append(out, store.ScoredID{ID: id, Score: 1 - d.Float64})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("nearest memory: %w", err)
	}
	return out, nil
}
