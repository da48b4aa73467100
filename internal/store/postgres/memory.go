package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/rank"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/store/table"
)

// memColumns are memory_entries' columns as the store reads and writes
// them (project_id and the full-text columns aside): the one list that the
// select lists, the insert and update statements, their arguments and the
// scan destinations are all made from.
var memColumns = table.Columns[memory.Entry, memRow]{
	{Name: "id", Dest: func(r *memRow) any { return &r.id }},
	{Name: "uid", Arg: func(e memory.Entry) any { return e.UID }, Dest: func(r *memRow) any { return &r.e.UID }},
	{Name: "type", Arg: func(e memory.Entry) any { return string(e.Type) }, Dest: func(r *memRow) any { return &r.typ }},
	{Name: "title", Arg: func(e memory.Entry) any { return e.Title }, Dest: func(r *memRow) any { return &r.e.Title }},
	{Name: "content", Arg: func(e memory.Entry) any { return e.Content }, Dest: func(r *memRow) any { return &r.e.Content }},
	{Name: "facts", Arg: func(e memory.Entry) any { return list(e.Facts) }, Dest: func(r *memRow) any { return &r.facts }},
	{Name: "tags", Arg: func(e memory.Entry) any { return list(e.Tags) }, Dest: func(r *memRow) any { return &r.tags }},
	{Name: "files", Arg: func(e memory.Entry) any { return list(e.Files) }, Dest: func(r *memRow) any { return &r.files }},
	{Name: "session_id", Arg: func(e memory.Entry) any { return e.SessionID }, Dest: func(r *memRow) any { return &r.e.SessionID }},
	{Name: "branch", Arg: func(e memory.Entry) any { return e.Branch }, Dest: func(r *memRow) any { return &r.e.Branch }},
	{Name: "occurrences", Arg: func(e memory.Entry) any { return int32(e.Occurrences) }, Dest: func(r *memRow) any { return &r.occ }},
	{Name: "details", Arg: func(e memory.Entry) any { return sqlq.NullText(e.Details()) }, Dest: func(r *memRow) any { return &r.details }},
	{Name: "file_hashes", Arg: func(e memory.Entry) any { return sqlq.JSONMap(e.FileHashes) }, Dest: func(r *memRow) any { return &r.hashes }},
	{Name: "superseded_by", Arg: func(e memory.Entry) any { return sqlq.NullID(e.SupersededBy) }, Dest: func(r *memRow) any { return &r.supersededBy }},
	{Name: "expires_at", Arg: func(e memory.Entry) any { return nullTS(e.ExpiresAt) }, Dest: func(r *memRow) any { return &r.expires }},
	{Name: "fingerprint", Arg: func(e memory.Entry) any { return fingerprint(e) }},
	{Name: "search_body", Arg: func(e memory.Entry) any { return e.SearchText() }},
	{Name: "created_at", Arg: func(e memory.Entry) any { return ts(e.CreatedAt) }, Dest: func(r *memRow) any { return &r.created }},
	{Name: "updated_at", Arg: func(e memory.Entry) any { return ts(e.UpdatedAt) }, Dest: func(r *memRow) any { return &r.updated }},
}

// memRow is a row being read, before it becomes an entry.
type memRow struct {
	e                  memory.Entry
	id                 int64
	typ                string
	occ                int32
	facts, tags, files []string
	details, hashes    []byte
	supersededBy       *int64
	expires            *time.Time
	created, updated   time.Time
}

var (
	// memCols are an entry's columns, as scanMemory reads them.
	memCols = memColumns.Select("e.")
)

const (
	qMemDelete   = `DELETE FROM memory_entries WHERE project_id = $1 AND id = ANY($2)`
	qUnsupersede = `UPDATE memory_entries SET superseded_by = NULL WHERE project_id = $1 AND superseded_by = ANY($2)`
	qSetVector   = `INSERT INTO memory_vectors (project_id, entry_id, model, vec) SELECT $1, id, $3, $4 FROM memory_entries WHERE project_id = $1 AND id = $2
	ON CONFLICT (project_id, entry_id, model) DO UPDATE SET vec = excluded.vec`
)

// writeMemory renders the insert (id 0) or update of e: the written
// columns, each a parameter.
func (x *txn) writeMemory(e memory.Entry, id memory.ID) (string, []any) {
	p := &params{args: []any{x.p}}
	names := memColumns.Written()
	var vals []string
	for _, v := range memColumns.Args(e) {
		vals = append(vals, p.add(v))
	}
	if id == 0 {
		return `WITH nid AS (UPDATE projects SET next_memory_id = next_memory_id + 1 WHERE id = $1 RETURNING next_memory_id - 1 AS id)
		INSERT INTO memory_entries (project_id, id, ` + strings.Join(names, ", ") + `)
		SELECT $1, nid.id, ` + strings.Join(vals, ", ") + ` FROM nid ON CONFLICT DO NOTHING RETURNING id`, p.args
	}
	set := make([]string, len(names))
	for i := range names {
		set[i] = names[i] + " = " + vals[i]
	}
	return `UPDATE memory_entries SET ` + strings.Join(set, ", ") +
		` WHERE project_id = $1 AND id = ` + p.add(int64(id)), p.args
}

// list stores an empty list as NULL, so it reads back as nil.
func list(l []string) []string {
	if len(l) == 0 {
		return nil
	}
	return l
}

func fingerprint(e memory.Entry) *string {
	if e.Type != memory.Mistake {
		return nil
	}
	fp := memory.Fingerprint(e.Title)
	return &fp
}

// scanMemory reads one row of memCols.
func scanMemory(row pgx.Row) (memory.Entry, error) {
	var r memRow
	if err := row.Scan(memColumns.Dests(&r)...); err != nil {
		return memory.Entry{}, err
	}
	e := r.e
	e.ID, e.Type = memory.ID(r.id), memory.Type(r.typ)
	e.Facts, e.Tags, e.Files = list(r.facts), list(r.tags), list(r.files)
	e.Occurrences = int(r.occ)
	if err := e.SetDetails(r.details); err != nil {
		return memory.Entry{}, err
	}
	if len(r.hashes) > 0 {
		if err := json.Unmarshal(r.hashes, &e.FileHashes); err != nil {
			return memory.Entry{}, fmt.Errorf("entry %s: %w", e.ID, err)
		}
	}
	if r.supersededBy != nil {
		e.SupersededBy = memory.ID(*r.supersededBy)
	}
	if r.expires != nil {
		e.ExpiresAt = r.expires.UTC()
	}
	e.CreatedAt, e.UpdatedAt = r.created.UTC(), r.updated.UTC()
	return e, nil
}

func (x *txn) scanMemories(ctx context.Context, q string, args ...any) ([]memory.Entry, error) {
	rows, err := x.tx.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return pgx.AppendRows([]memory.Entry(nil), rows, func(row pgx.CollectableRow) (memory.Entry, error) { return scanMemory(row) })
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
)

func (x *txn) PutMemory(ctx context.Context, e memory.Entry, occ ...memory.Occurrence) (memory.Entry, error) {
	if e.ID == 0 {
		if e.UID == "" {
			e.UID = memory.NewUID()
		}
		// ON CONFLICT DO NOTHING: a duplicate (uid, or a mistake's
		// fingerprint) inserts no row instead of failing, so the
		// transaction stays usable and the caller can count an occurrence
		// in it.
		var id int64
		q, args := x.writeMemory(e, 0)
		err := x.tx.QueryRow(ctx, q, args...).Scan(&id)
		if errors.Is(err, pgx.ErrNoRows) {
			return memory.Entry{}, fmt.Errorf("add memory: %w", store.ErrDuplicate)
		}
		if err != nil {
			return memory.Entry{}, fmt.Errorf("add memory: %w", err)
		}
		x.changed()
		e.ID = memory.ID(id)
		if err := x.post(ctx, e); err != nil { // a new entry: nothing to unindex
			return memory.Entry{}, fmt.Errorf("index memory %s: %w", e.ID, err)
		}
		return e, x.addOccurrences(ctx, e.ID, occ)
	}
	q, args := x.writeMemory(e, e.ID)
	tag, err := x.tx.Exec(ctx, q, args...)
	if err != nil {
		if pgCode(err) == uniqueViolation {
			return memory.Entry{}, fmt.Errorf("update memory %s: %w", e.ID, store.ErrDuplicate)
		}
		return memory.Entry{}, fmt.Errorf("update memory %s: %w", e.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return memory.Entry{}, memory.NotFound("entry", e.ID.String())
	}
	x.changed()
	if err := x.index(ctx, e); err != nil {
		return memory.Entry{}, fmt.Errorf("index memory %s: %w", e.ID, err)
	}
	if err := x.repost(ctx, e.ID); err != nil {
		return memory.Entry{}, fmt.Errorf("index memory %s: %w", e.ID, err)
	}
	return e, x.addOccurrences(ctx, e.ID, occ)
}

func (x *txn) addOccurrences(ctx context.Context, id memory.ID, occ []memory.Occurrence) error {
	return sqlq.AddOccurrences(ctx, conn{x}, x.p, id, occ)
}

// qBefore is the entries a new entry's dialogue context comes from
// (rank.Context); qNext, those whose context holds an entry; qAfter pages
// through the entries to re-index them.
var (
	qBefore = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.id < $2 ORDER BY e.id DESC LIMIT ` + strconv.Itoa(rank.ContextDepth)
	qNext   = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.id > $2 ORDER BY e.id LIMIT ` + strconv.Itoa(rank.ContextDepth)
	qAfter  = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.id > $2 ORDER BY e.id LIMIT ` + strconv.Itoa(rank.RebuildPage)
	// qStepAfter pages through them for a background re-index's step.
	qStepAfter = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.id > $2 ORDER BY e.id LIMIT ` + strconv.Itoa(rank.StepPage)
)

// repost indexes again the entries whose dialogue context may hold the
// entries at ids (see rank.Following), after those changed or went.
func (x *txn) repost(ctx context.Context, ids ...memory.ID) error {
	es, err := rank.Following(ids, func(id memory.ID) ([]memory.Entry, error) { return x.scanMemories(ctx, qNext, x.p, int64(id)) })
	if err != nil {
		return err
	}
	for _, e := range es {
		if err := x.index(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

func memIDs(ids []memory.ID) []int64 {
	out := make([]int64, len(ids))
	for i, id := range ids {
		out[i] = int64(id)
	}
	return out
}

// Index upkeep: see migrations/0004_memory_postings.sql.
const (
	// qUnindex leaves the postings of entries a re-index under way has not
	// reached: they are the old analyzer's, not counted, and the re-index
	// replaces them when it gets there.
	qUnindex = `WITH d AS (DELETE FROM memory_postings WHERE project_id = $1 AND entry_id = ANY($2)
		AND entry_id <= coalesce((SELECT memory_rebuilt_to FROM projects WHERE id = $1), entry_id) RETURNING term, entry_id, dl),
	t AS (UPDATE memory_terms m SET df = m.df - c.n FROM (SELECT term, count(*) AS n FROM d GROUP BY term) c
		WHERE m.project_id = $1 AND m.term = c.term)
	UPDATE projects SET memory_docs = memory_docs - e.n, memory_len = memory_len - e.len
	FROM (SELECT count(*) AS n, coalesce(sum(dl), 0) AS len FROM (SELECT DISTINCT entry_id, dl FROM d) x) e WHERE id = $1`
	qPost = `INSERT INTO memory_postings (project_id, term, entry_id, tf, dl, impact)
	SELECT $1, t, $3, tf, $5, imp FROM unnest($2::text[], $4::real[], $6::real[]) AS u(t, tf, imp)`
)

// termCounts are the index statistics a transaction's new entries add,
// written once at its end: updating a term's row once per entry would make
// PostgreSQL walk that row's ever longer chain of versions within the
// transaction (an import of 2,000 entries took 50 ms an entry).
type termCounts struct {
	df       map[string]int
	docs     int64
	len      float64
	baseDocs int64 // the project's counts when first read
	baseLen  float64
	through  *int64 // how far a re-index under way has come; nil: none
}

func (x *txn) counts(ctx context.Context) (*termCounts, error) {
	if x.terms != nil {
		return x.terms, nil
	}
	c := &termCounts{df: map[string]int{}}
	if err := x.tx.QueryRow(ctx, `SELECT memory_docs, memory_len, memory_rebuilt_to FROM projects WHERE id = $1`, x.p).Scan(&c.baseDocs, &c.baseLen, &c.through); err != nil {
		return nil, err
	}
	x.terms = c
	return c, nil
}

// flushTerms writes the counts the transaction's new entries added.
func (x *txn) flushTerms(ctx context.Context) error {
	c := x.terms
	if c == nil || c.docs == 0 {
		return nil
	}
	terms := make([]string, 0, len(c.df))
	dfs := make([]int32, 0, len(c.df))
	for t, n := range c.df {
		terms = append(terms, t)
		dfs = append(dfs, int32(n))
	}
	if _, err := x.tx.Exec(ctx, `INSERT INTO memory_terms (project_id, term, df) SELECT $1, t, n FROM unnest($2::text[], $3::int[]) AS u(t, n)
	ON CONFLICT (project_id, term) DO UPDATE SET df = memory_terms.df + excluded.df`, x.p, terms, dfs); err != nil {
		return err
	}
	if _, err := x.tx.Exec(ctx, `UPDATE projects SET memory_docs = memory_docs + $2, memory_len = memory_len + $3 WHERE id = $1`,
		x.p, c.docs, c.len); err != nil {
		return err
	}
	x.terms = nil
	return nil
}

// index replaces the entry's postings.
func (x *txn) index(ctx context.Context, e memory.Entry) error {
	if err := x.flushTerms(ctx); err != nil {
		return err
	}
	if _, err := x.tx.Exec(ctx, qUnindex, x.p, []int64{int64(e.ID)}); err != nil {
		return err
	}
	return x.post(ctx, e)
}

func (x *txn) post(ctx context.Context, e memory.Entry) error {
	prev, err := x.scanMemories(ctx, qBefore, x.p, int64(e.ID))
	if err != nil {
		return err
	}
	d := rank.AnalyzeEntry(e, prev...)
	if len(d.TF) == 0 {
		return nil
	}
	c, err := x.counts(ctx)
	if err != nil {
		return err
	}
	if c.through != nil && int64(e.ID) > *c.through {
		return nil // the re-index under way indexes it when it gets there
	}
	c.docs++
	c.len += d.Len
	avgdl := (c.baseLen + c.len) / float64(c.baseDocs+c.docs)
	terms := make([]string, 0, len(d.TF))
	tfs := make([]float32, 0, len(d.TF))
	imps := make([]float32, 0, len(d.TF))
	for t, tf := range d.TF {
		terms = append(terms, t)
		tfs = append(tfs, float32(tf))
		imps = append(imps, float32(rank.Impact(tf, d.Len, avgdl)))
	}
	for _, t := range terms {
		c.df[t]++
	}
	_, err = x.tx.Exec(ctx, qPost, x.p, terms, int64(e.ID), tfs, float32(d.Len), imps)
	return err
}

// reindex rebuilds the project's full-text index when another analyzer
// built it (or none: a project migrated from tsvector search; see
// rank.Rebuild).
func (x *txn) reindex(ctx context.Context, log *slog.Logger) error {
	var analyzer int32
	if err := x.tx.QueryRow(ctx, `SELECT memory_analyzer FROM projects WHERE id = $1`, x.p).Scan(&analyzer); err != nil {
		return fmt.Errorf("read memory index: %w", err)
	}
	if int(analyzer) == memory.AnalyzerVersion {
		return nil
	}
	var entries int
	if err := x.tx.QueryRow(ctx, `SELECT count(*) FROM memory_entries WHERE project_id = $1`, x.p).Scan(&entries); err != nil {
		return fmt.Errorf("read memory index: %w", err)
	}
	return rank.Rebuild{Entries: entries, Was: int(analyzer),
		Start: func() error { return x.resetIndex(ctx) },
		Next: func(after memory.ID) ([]memory.Entry, error) {
			return x.scanMemories(ctx, qAfter, x.p, int64(after))
		},
		Add: func(e memory.Entry) error { return x.post(ctx, e) },
	}.Run(log)
}

// resetIndex empties the project's full-text index.
func (x *txn) resetIndex(ctx context.Context) error {
	for _, q := range []string{`DELETE FROM memory_postings WHERE project_id = $1`, `DELETE FROM memory_terms WHERE project_id = $1`,
		`UPDATE projects SET memory_docs = 0, memory_len = 0, memory_rebuilt_to = NULL, memory_analyzer = ` + strconv.Itoa(memory.AnalyzerVersion) + ` WHERE id = $1`} {
		if _, err := x.tx.Exec(ctx, q, x.p); err != nil {
			return err
		}
	}
	x.changed()
	return nil
}

// startReindex begins a background re-index (rank.Resume) of an index
// another analyzer built: it empties the counts and marks that nothing is
// indexed yet. The old postings stay until each step replaces those of its
// entries (deleting a large project's at once would hold its lock for
// seconds); searches and unindexing ignore those beyond the mark. Another
// process may have begun it already: then it does nothing.
func (x *txn) startReindex(ctx context.Context) error {
	var analyzer int32
	if err := x.tx.QueryRow(ctx, `SELECT memory_analyzer FROM projects WHERE id = $1`, x.p).Scan(&analyzer); err != nil {
		return fmt.Errorf("read memory index: %w", err)
	}
	if int(analyzer) == memory.AnalyzerVersion {
		return nil
	}
	for _, q := range []string{`DELETE FROM memory_terms WHERE project_id = $1`,
		`UPDATE projects SET memory_docs = 0, memory_len = 0, memory_rebuilt_to = 0, memory_analyzer = ` + strconv.Itoa(memory.AnalyzerVersion) + ` WHERE id = $1`} {
		if _, err := x.tx.Exec(ctx, q, x.p); err != nil {
			return fmt.Errorf("reset memory index: %w", err)
		}
	}
	x.changed()
	return nil
}

// reindexStep is a step of a background re-index (rank.Step): it replaces
// the old postings of the next entries after the mark with those adding
// them would write, and moves the mark past them; with none left it
// clears the mark.
func (x *txn) reindexStep(ctx context.Context) (memory.ID, bool, error) {
	c, err := x.counts(ctx)
	if err != nil || c.through == nil {
		return 0, true, err
	}
	es, err := x.scanMemories(ctx, qStepAfter, x.p, *c.through)
	if err != nil {
		return 0, false, err
	}
	if len(es) == 0 {
		_, err := x.tx.Exec(ctx, `UPDATE projects SET memory_rebuilt_to = NULL WHERE id = $1`, x.p)
		x.changed()
		return memory.ID(*c.through), err == nil, err
	}
	last := int64(es[len(es)-1].ID)
	if _, err := x.tx.Exec(ctx, `DELETE FROM memory_postings WHERE project_id = $1 AND entry_id > $2 AND entry_id <= $3`, x.p, *c.through, last); err != nil {
		return 0, false, err
	}
	if _, err := x.tx.Exec(ctx, `UPDATE projects SET memory_rebuilt_to = $2 WHERE id = $1`, x.p, last); err != nil {
		return 0, false, err
	}
	c.through = &last
	for _, e := range es {
		if err := x.post(ctx, e); err != nil {
			return 0, false, fmt.Errorf("index memory %s: %w", e.ID, err)
		}
	}
	x.changed()
	return memory.ID(last), false, nil
}

func (x *txn) DeleteMemories(ctx context.Context, ids []memory.ID) (int, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	if err := x.flushTerms(ctx); err != nil {
		return 0, fmt.Errorf("delete memory: %w", err)
	}
	if _, err := x.tx.Exec(ctx, qUnindex, x.p, memIDs(ids)); err != nil {
		return 0, fmt.Errorf("delete memory: %w", err)
	}
	tag, err := x.tx.Exec(ctx, qMemDelete, x.p, memIDs(ids))
	if err != nil {
		return 0, fmt.Errorf("delete memory: %w", err)
	}
	// What they replaced is current again.
	if _, err := x.tx.Exec(ctx, qUnsupersede, x.p, memIDs(ids)); err != nil {
		return 0, fmt.Errorf("delete memory: %w", err)
	}
	if tag.RowsAffected() > 0 {
		x.changed()
		if err := x.repost(ctx, ids...); err != nil {
			return 0, fmt.Errorf("delete memory: %w", err)
		}
	}
	return int(tag.RowsAffected()), nil
}

func (x *txn) SetMemoryVector(ctx context.Context, id memory.ID, model string, vec []float32) error {
	tag, err := x.tx.Exec(ctx, qSetVector, x.p, int64(id), model, vec)
	if err != nil {
		return fmt.Errorf("store vector of %s: %w", id, err)
	}
	if tag.RowsAffected() == 0 {
		return memory.NotFound("entry", id.String())
	}
	x.changed()
	return nil
}
