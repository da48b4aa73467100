package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/rank"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
)

// The memory's read primitives: selecting entries, and the full-text
// index a search reads. What a search or a timeline does with them is
// store.SearchMemory's and store.MemoryTimeline's.

// params numbers a statement's arguments as they are added.
type params struct{ args []any }

func (p *params) add(v any) string {
	p.args = append(p.args, v)
	return "$" + strconv.Itoa(len(p.args))
}

// memFilters renders s's filters as AND clauses on e, numbering their
// arguments after p's.
func memFilters(s store.MemorySelector, p *params) string {
	w := sq.Where("")
	w.Args = p.args
	sqlq.MemoryFilters(w, s)
	p.args = w.Args
	if w.Empty() {
		return ""
	}
	return " AND " + w.String()
}

func (x *txn) SelectMemories(ctx context.Context, s store.MemorySelector) ([]memory.Entry, int, error) {
	return sqlq.ReadMemories(ctx, conn{x}, s, memCols, func(r sqlq.Rows) (memory.Entry, error) { return scanMemory(r) })
}

func (s *source) Hidden(ctx context.Context, limit int) ([]memory.ID, error) {
	p := &params{args: []any{s.x.p}}
	var parts []string
	if s.s.HideSuperseded {
		parts = append(parts, `SELECT id FROM memory_entries WHERE project_id = $1 AND superseded_by IS NOT NULL`)
	}
	if !s.s.Now.IsZero() {
		parts = append(parts, `SELECT id FROM memory_entries WHERE project_id = $1 AND expires_at IS NOT NULL AND expires_at <= `+p.add(ts(s.s.Now)))
	}
	if len(parts) == 0 {
		return nil, nil
	}
	rows, err := s.x.tx.Query(ctx, strings.Join(parts, " UNION ")+` LIMIT `+p.add(int64(limit)), p.args...)
	if err != nil {
		return nil, fmt.Errorf("read hidden memory: %w", err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, fmt.Errorf("read hidden memory: %w", err)
	}
	out := make([]memory.ID, len(ids))
	for i, id := range ids {
		out[i] = memory.ID(id)
	}
	return out, nil
}

// MemoryIndex counts the transaction's own new entries first, so its
// search finds them.
func (x *txn) MemoryIndex(ctx context.Context, s store.MemorySelector) (store.MemoryIndex, error) {
	if err := x.flushTerms(ctx); err != nil {
		return nil, fmt.Errorf("count memory terms: %w", err)
	}
	return &source{x: x, s: s}, nil
}

// plan readies the transaction for the postings' statements, before the
// first. They take arrays of terms and entries; for some of them
// PostgreSQL's custom plan (plan_cache_mode auto, the default, and Cairn's
// until the tasks table has statistics; see genericPlans) reads the
// project's every posting: a p99 of 0.6 s at 10,000 entries, against 7 ms
// with the generic plan.
func (s *source) plan(ctx context.Context) error {
	if !s.x.genericSearch {
		return nil
	}
	s.x.genericSearch = false // SET LOCAL lasts the transaction: once is enough
	if _, err := s.x.tx.Exec(ctx, `SET LOCAL plan_cache_mode = force_generic_plan`); err != nil {
		return fmt.Errorf("plan memory search: %w", err)
	}
	return nil
}

// source is the full-text index as one search sees it: rank.Source with
// the search's filters applied to the postings it reads.
type source struct {
	x       *txn
	s       store.MemorySelector
	stats   bool // docs, len and through are read
	docs    int64
	len     float64
	through *int64 // how far a re-index under way has come; nil: none
}

func (s *source) Stats(ctx context.Context) (int, float64, error) {
	if !s.stats {
		if err := s.x.tx.QueryRow(ctx, `SELECT memory_docs, memory_len, memory_rebuilt_to FROM projects WHERE id = $1`, s.x.p).Scan(&s.docs, &s.len, &s.through); err != nil {
			return 0, 0, err
		}
		s.stats = true
	}
	return int(s.docs), s.len, nil
}

// indexed is a condition on postings p that leaves out those of entries a
// re-index under way has not reached (the old analyzer's); empty when none
// is under way. The project's counts have been read (Stats or DF).
func (s *source) indexed(p *params) string {
	if s.through == nil {
		return ""
	}
	return " AND p.entry_id <= " + p.add(*s.through)
}

// Unindexed counts the entries a re-index under way has not indexed yet.
func (s *source) Unindexed(ctx context.Context) (int, error) {
	if _, _, err := s.Stats(ctx); err != nil || s.through == nil {
		return 0, err
	}
	var n int
	err := s.x.tx.QueryRow(ctx, `SELECT count(*) FROM memory_entries WHERE project_id = $1 AND id > $2`, s.x.p, *s.through).Scan(&n)
	return n, err
}

// DF reads the project's counts with the terms', in one round trip.
func (s *source) DF(ctx context.Context, terms []string) (map[string]int, error) {
	if err := s.plan(ctx); err != nil {
		return nil, err
	}
	rows, err := s.x.tx.Query(ctx, `SELECT '', memory_docs, memory_len, memory_rebuilt_to FROM projects WHERE id = $1
	UNION ALL SELECT term, df, 0, NULL FROM memory_terms WHERE project_id = $1 AND term = ANY($2) AND df > 0`, s.x.p, terms)
	if err != nil {
		return nil, err
	}
	out := make(map[string]int, len(terms))
	var (
		t       string
		n       int64
		length  float64
		through *int64
	)
	_, err = pgx.ForEachRow(rows, []any{&t, &n, &length, &through}, func() error {
		if t == "" { // the project's counts
			s.docs, s.len, s.through, s.stats = n, length, through, true
		} else {
			out[t] = int(n)
		}
		return nil
	})
	return out, err
}

func (s *source) Top(ctx context.Context, terms []string, limits []int) ([][]rank.Posting, error) {
	if err := s.plan(ctx); err != nil {
		return nil, err
	}
	lims := make([]int32, len(limits))
	for i, l := range limits {
		lims[i] = int32(l)
	}
	p := &params{args: []any{s.x.p, terms, lims}}
	where := memFilters(s.s, p)
	from := `memory_postings p`
	if where != "" {
		from += ` JOIN memory_entries e ON e.project_id = p.project_id AND e.id = p.entry_id`
	}
	where += s.indexed(p)
	rows, err := s.x.tx.Query(ctx, `SELECT t.i, l.entry_id, l.tf, l.dl FROM unnest($2::text[], $3::int[]) WITH ORDINALITY AS t(term, lim, i)
	CROSS JOIN LATERAL (SELECT p.entry_id, p.tf, p.dl, p.impact FROM `+from+` WHERE p.project_id = $1 AND p.term = t.term`+where+`
		ORDER BY p.impact DESC, p.entry_id LIMIT t.lim) l ORDER BY t.i, l.impact DESC, l.entry_id`, p.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([][]rank.Posting, len(terms))
	for rows.Next() {
		var (
			i      int64
			p      rank.Posting
			tf, dl float32
		)
		if err := rows.Scan(&i, &p.Entry, &tf, &dl); err != nil {
			return nil, err
		}
		p.TF, p.Len = float64(tf), float64(dl)
		out[i-1] = append(out[i-1], p)
	}
	return out, rows.Err()
}

func (s *source) Lookup(ctx context.Context, terms []string, entries []int64) (map[string][]rank.Posting, error) {
	if err := s.plan(ctx); err != nil {
		return nil, err
	}
	p := &params{args: []any{s.x.p, terms, entries}}
	rows, err := s.x.tx.Query(ctx, `SELECT term, entry_id, tf, dl FROM memory_postings p WHERE project_id = $1 AND term = ANY($2)
	AND entry_id = ANY($3)`+s.indexed(p), p.args...)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]rank.Posting, len(terms))
	var (
		t      string
		e      int64
		tf, dl float32
	)
	_, err = pgx.ForEachRow(rows, []any{&t, &e, &tf, &dl}, func() error {
		out[t] = append(out[t], rank.Posting{Entry: e, TF: float64(tf), Len: float64(dl)})
		return nil
	})
	return out, err
}

// Nearest reads the candidates' vectors and ranks them here by
// cosine similarity (no extension needed on the server).
func (s *source) Nearest(ctx context.Context, model string, vec []float32, limit int) ([]store.ScoredID, error) {
	x := s.x
	p := &params{args: []any{x.p}}
	m := p.add(model)
	where := memFilters(s.s, p)
	rows, err := x.tx.Query(ctx, `SELECT v.entry_id, v.vec FROM memory_vectors v JOIN memory_entries e ON e.project_id = v.project_id AND e.id = v.entry_id
		WHERE v.project_id = $1 AND v.model = `+m+where, p.args...)
	if err != nil {
		return nil, fmt.Errorf("nearest memory: %w", err)
	}
	var (
		out []store.ScoredID
		id  int64
		v   []float32
	)
	if _, err := pgx.ForEachRow(rows, []any{&id, &v}, func() error {
		c, _ := memory.Cosine(vec, v) // 0 for vectors of another dimension
		out = append(out, store.ScoredID{ID: memory.ID(id), Score: c})
		return nil
	}); err != nil {
		return nil, fmt.Errorf("nearest memory: %w", err)
	}
	slices.SortFunc(out, func(a, b store.ScoredID) int { return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID)) })
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}
