package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"

	_ "modernc.org/sqlite/vec" // vec_distance_cosine for the memory's embeddings

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/rank"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/store/table"
)

// memColumns are memory_entries' columns as the store reads and writes
// them: the one list that the select lists, the insert and update
// statements, their arguments and the scan destinations are all made from.
var memColumns = table.Columns[memory.Entry, memRow]{
	{Name: "id", Dest: func(r *memRow) any { return &r.e.ID }},
	{Name: "uid", Arg: func(e memory.Entry) any { return e.UID }, Dest: func(r *memRow) any { return &r.e.UID }},
	{Name: "type", Arg: func(e memory.Entry) any { return string(e.Type) }, Dest: func(r *memRow) any { return &r.typ }},
	{Name: "title", Arg: func(e memory.Entry) any { return e.Title }, Dest: func(r *memRow) any { return &r.e.Title }},
	{Name: "content", Arg: func(e memory.Entry) any { return e.Content }, Dest: func(r *memRow) any { return &r.e.Content }},
	{Name: "facts", Arg: func(e memory.Entry) any { return jsonList(e.Facts) }, Dest: func(r *memRow) any { return &r.facts }},
	{Name: "tags", Arg: func(e memory.Entry) any { return jsonList(e.Tags) }, Dest: func(r *memRow) any { return &r.tags }},
	{Name: "files", Arg: func(e memory.Entry) any { return jsonList(e.Files) }, Dest: func(r *memRow) any { return &r.files }},
	{Name: "session_id", Arg: func(e memory.Entry) any { return e.SessionID }, Dest: func(r *memRow) any { return &r.e.SessionID }},
	{Name: "branch", Arg: func(e memory.Entry) any { return e.Branch }, Dest: func(r *memRow) any { return &r.e.Branch }},
	{Name: "occurrences", Arg: func(e memory.Entry) any { return e.Occurrences }, Dest: func(r *memRow) any { return &r.e.Occurrences }},
	{Name: "details", Arg: func(e memory.Entry) any { return sqlq.NullText(e.Details()) }, Dest: func(r *memRow) any { return &r.details }},
	{Name: "file_hashes", Arg: func(e memory.Entry) any { return sqlq.JSONMap(e.FileHashes) }, Dest: func(r *memRow) any { return &r.hashes }},
	{Name: "superseded_by", Arg: func(e memory.Entry) any { return sqlq.NullID(e.SupersededBy) }, Dest: func(r *memRow) any { return &r.supersededBy }},
	{Name: "expires_at", Arg: func(e memory.Entry) any { return nullMicros(e.ExpiresAt) }, Dest: func(r *memRow) any { return &r.expires }},
	{Name: "fingerprint", Arg: fingerprint},
	{Name: "created_at", Arg: func(e memory.Entry) any { return micros(e.CreatedAt) }, Dest: func(r *memRow) any { return &r.created }},
	{Name: "updated_at", Arg: func(e memory.Entry) any { return micros(e.UpdatedAt) }, Dest: func(r *memRow) any { return &r.updated }},
}

// memRow is a row being read, before it becomes an entry.
type memRow struct {
	e                                   memory.Entry
	typ                                 string
	facts, tags, files, details, hashes sql.NullString
	supersededBy, expires               sql.NullInt64
	created, updated                    sql.NullInt64
}

var (
	// memCols are an entry's columns, as scanMemory reads them.
	memCols = memColumns.Select("e.")

	qAddMemory      = `INSERT INTO memory_entries (` + strings.Join(memColumns.Written(), ", ") + `) VALUES (` + placeholders(len(memColumns.Written())) + `) RETURNING id`
	qUpdateMemory   = `UPDATE memory_entries SET ` + strings.Join(memColumns.Written(), " = ?, ") + ` = ? WHERE id = ?`
	qIndexStats     = `SELECT docs, total_len, analyzer, rebuilt_to FROM memory_index WHERE id = 1`
	qIndexAdd       = `UPDATE memory_index SET docs = docs + ?, total_len = total_len + ? WHERE id = 1`
	qPostingsOf     = `SELECT term, dl FROM memory_postings WHERE entry_id = ?`
	qPostingsDelete = `DELETE FROM memory_postings WHERE entry_id = ?`
	qPostingInsert  = `INSERT INTO memory_postings (term, entry_id, tf, dl, impact) VALUES (?, ?, ?, ?, ?)`
	qTermAdd        = `INSERT INTO memory_terms (term, df) VALUES (?, 1) ON CONFLICT (term) DO UPDATE SET df = df + 1`
	qTermSet        = `INSERT INTO memory_terms (term, df) VALUES (?, ?)`
	qIndexSet       = `UPDATE memory_index SET docs = ?, total_len = ? WHERE id = 1`
	// qBefore is the entries a new entry's dialogue context comes from
	// (rank.Context); qAfter pages through the entries to re-index them.
	qBefore     = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id < ? ORDER BY e.id DESC LIMIT ` + strconv.Itoa(rank.ContextDepth)
	qAfter      = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id > ? ORDER BY e.id LIMIT ` + strconv.Itoa(rank.RebuildPage)
	qStepAfter  = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id > ? ORDER BY e.id LIMIT ` + strconv.Itoa(rank.StepPage)
	qRebuiltTo  = `UPDATE memory_index SET rebuilt_to = ? WHERE id = 1`
	qStepSet    = `UPDATE memory_index SET docs = ?, total_len = ?, rebuilt_to = ? WHERE id = 1`
	qTermsAdd   = `INSERT INTO memory_terms (term, df) SELECT key, value FROM json_each(?) WHERE true ON CONFLICT (term) DO UPDATE SET df = df + excluded.df`
	qNext       = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id > ? ORDER BY e.id LIMIT ` + strconv.Itoa(rank.ContextDepth)
	qTermRemove = `UPDATE memory_terms SET df = df - 1 WHERE term = ?`
	qTermsDF    = `SELECT term, df FROM memory_terms WHERE term IN (SELECT value FROM json_each(?)) AND df > 0`
	qTermTop    = `SELECT group_concat(entry_id || ' ' || tf || ' ' || dl, ' ') FROM
	(SELECT entry_id, tf, dl FROM memory_postings WHERE term = ? ORDER BY impact DESC LIMIT ?)`
	qTagsDelete  = `DELETE FROM memory_tags WHERE entry_id = ?`
	qTagInsert   = `INSERT OR IGNORE INTO memory_tags (tag, entry_id) VALUES (?, ?)`
	qMemDelete   = `DELETE FROM memory_entries WHERE id = ?`
	qUnsupersede = `UPDATE memory_entries SET superseded_by = NULL WHERE superseded_by = ?`
	qSetVector   = `INSERT INTO memory_vectors (model, entry_id, vec) VALUES (?, ?, ?) ON CONFLICT (model, entry_id) DO UPDATE SET vec = excluded.vec`
)

var (
	memoryReadQueries  = []string{qIndexStats, qTermTop, qTermsDF, qLookup, qSupersededIDs, qExpiredIDs}
	memoryWriteQueries = []string{qIndexStats, qIndexAdd, qIndexSet, qPostingsOf, qPostingsDelete, qPostingInsert, qTermAdd, qTermSet, qTermRemove, qBefore, qAfter, qStepAfter, qRebuiltTo, qStepSet, qTermsAdd, qNext, qAddMemory, qUpdateMemory, qTagsDelete, qTagInsert, qMemDelete, qUnsupersede, qSetVector}
)

func jsonList(l []string) any {
	if len(l) == 0 {
		return nil
	}
	b, _ := json.Marshal(l)
	return string(b)
}

func fingerprint(e memory.Entry) any {
	if e.Type != memory.Mistake {
		return nil
	}
	return memory.Fingerprint(e.Title)
}

// scanMemory reads one row of memCols.
func scanMemory(row scanner) (memory.Entry, error) {
	var r memRow
	if err := row.Scan(memColumns.Dests(&r)...); err != nil {
		return memory.Entry{}, err
	}
	e := r.e
	e.Type = memory.Type(r.typ)
	for _, l := range []struct {
		src sql.NullString
		dst any
	}{{r.facts, &e.Facts}, {r.tags, &e.Tags}, {r.files, &e.Files}, {r.hashes, &e.FileHashes}} {
		if l.src.Valid && l.src.String != "" {
			if err := json.Unmarshal([]byte(l.src.String), l.dst); err != nil {
				return memory.Entry{}, fmt.Errorf("entry %s: %w", e.ID, err)
			}
		}
	}
	if r.details.Valid {
		if err := e.SetDetails([]byte(r.details.String)); err != nil {
			return memory.Entry{}, err
		}
	}
	e.SupersededBy = memory.ID(r.supersededBy.Int64)
	e.ExpiresAt = fromMicros(r.expires)
	e.CreatedAt, e.UpdatedAt = fromMicros(r.created), fromMicros(r.updated)
	return e, nil
}

func (x *txn) scanMemories(ctx context.Context, q string, args ...any) ([]memory.Entry, error) {
	rows, err := x.query(ctx, q, args...)
	return collect(rows, err, scanMemory)
}

// each calls fn for every row a query returned (err: its error), and
// closes them.
func each(rows *sql.Rows, err error, fn func(scanner) error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// collect reads every row a query returned with scan, and closes them.
func collect[T any](rows *sql.Rows, err error, scan func(scanner) (T, error)) ([]T, error) {
	var out []T
	err = each(rows, err, func(r scanner) error {
		v, err := scan(r)
		out = append(out, v)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// index writes the entry's postings (see internal/store/rank) and tags,
// replacing any it had.
func (x *txn) index(ctx context.Context, e memory.Entry) error {
	if err := x.unindex(ctx, e.ID); err != nil {
		return err
	}
	if err := x.post(ctx, e); err != nil {
		return err
	}
	if _, err := x.exec(ctx, qTagsDelete, int64(e.ID)); err != nil {
		return err
	}
	for _, t := range e.Tags {
		if _, err := x.exec(ctx, qTagInsert, t, int64(e.ID)); err != nil {
			return err
		}
	}
	return nil
}

// post adds the entry's postings and counts its terms and length.
func (x *txn) post(ctx context.Context, e memory.Entry) error {
	prev, err := x.scanMemories(ctx, qBefore, int64(e.ID))
	if err != nil {
		return err
	}
	d := rank.AnalyzeEntry(e, prev...)
	if len(d.TF) == 0 {
		return nil
	}
	st, err := x.indexStats(ctx)
	if err != nil {
		return err
	}
	if st.rebuilding() && int64(e.ID) > st.through.Int64 {
		return nil // the re-index under way indexes it when it gets there
	}
	if err := x.postings(ctx, e.ID, d, st.docs, st.total); err != nil {
		return err
	}
	for t := range d.TF {
		if _, err := x.exec(ctx, qTermAdd, t); err != nil {
			return err
		}
	}
	_, err = x.exec(ctx, qIndexAdd, 1, d.Len)
	return err
}

// postings writes an entry's postings into an index of docs entries of
// total length (before this one): impacts are computed against the average
// length with the entry counted, as when it was added.
func (x *txn) postings(ctx context.Context, id memory.ID, d rank.Doc, docs int, total float64) error {
	avgdl := (total + d.Len) / float64(docs+1)
	for t, tf := range d.TF {
		if _, err := x.exec(ctx, qPostingInsert, t, int64(id), tf, d.Len, rank.Impact(tf, d.Len, avgdl)); err != nil {
			return err
		}
	}
	return nil
}

// unindex removes an entry's postings and uncounts them.
func (x *txn) unindex(ctx context.Context, id memory.ID) error {
	var dl float64
	rows, err := x.query(ctx, qPostingsOf, int64(id))
	terms, err := collect(rows, err, func(r scanner) (t string, err error) { return t, r.Scan(&t, &dl) })
	if err != nil || len(terms) == 0 {
		return err
	}
	for _, t := range terms {
		if _, err := x.exec(ctx, qTermRemove, t); err != nil {
			return err
		}
	}
	if _, err := x.exec(ctx, qPostingsDelete, int64(id)); err != nil {
		return err
	}
	_, err = x.exec(ctx, qIndexAdd, -1, -dl)
	return err
}

// reindex rebuilds the full-text index from the entries when it was built
// by another analyzer (or never: a database migrated from FTS5; see
// rank.Rebuild). It builds the same index as adding the entries one by one
// in id order would, but keeps the context turns, the counts and the
// document frequencies in memory instead of reading and updating them for
// every entry, and loads the postings in key order without their
// secondary indexes.
func (x *txn) reindex(ctx context.Context, log *slog.Logger) error {
	st, err := x.indexStats(ctx)
	if err != nil {
		return fmt.Errorf("read memory index: %w", err)
	}
	if st.analyzer == memory.AnalyzerVersion {
		return nil
	}
	var entries int
	if err := x.queryRow(ctx, `SELECT count(*) FROM memory_entries`).Scan(&entries); err != nil {
		return fmt.Errorf("read memory index: %w", err)
	}
	// The load touches pages all over the postings' B-tree: a page cache
	// large enough to hold it saves spilling and re-reading them.
	var cache int
	if err := x.queryRow(ctx, `PRAGMA cache_size`).Scan(&cache); err != nil {
		return fmt.Errorf("reindex memory: %w", err)
	}
	if _, err := x.exec(ctx, `PRAGMA cache_size = -262144`); err != nil { // KiB: 256 MiB at most
		return fmt.Errorf("reindex memory: %w", err)
	}
	defer x.exec(ctx, `PRAGMA cache_size = `+strconv.Itoa(cache))
	l := &indexLoad{x: x, df: map[string]int{}, load: postingLoader{x: x}}
	return rank.Rebuild{Entries: entries, Was: st.analyzer,
		Start: func() error { return l.start(ctx) },
		Next: func(after memory.ID) ([]memory.Entry, error) {
			return x.scanMemories(ctx, qAfter, int64(after))
		},
		Add:    func(e memory.Entry) error { return l.add(ctx, e) },
		Finish: func() error { return l.finish(ctx) },
	}.Run(log)
}

// indexStats is memory_index's row: the index's counts, the analyzer that
// built it, and how far a re-index under way has come.
type indexStats struct {
	docs     int
	total    float64
	analyzer int
	through  sql.NullInt64 // NULL: no re-index under way
}

func (st indexStats) rebuilding() bool { return st.through.Valid }

func (x *txn) indexStats(ctx context.Context) (indexStats, error) {
	var st indexStats
	err := x.queryRow(ctx, qIndexStats).Scan(&st.docs, &st.total, &st.analyzer, &st.through)
	return st, err
}

// startReindex begins a background re-index (rank.Resume) of an index
// another analyzer built: it empties the index and marks that nothing is
// indexed yet. Another process may have begun it already: then it does
// nothing. It runs on a connection of its own with foreign keys off, so
// that SQLite empties the postings as a whole (its truncate optimization)
// rather than row by row, which holds the write lock for a minute on a
// large memory; nothing else runs on the writer meanwhile.
func (s *Store) startReindex(ctx context.Context) error {
	c, err := s.w.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	if _, err := c.ExecContext(ctx, `PRAGMA foreign_keys = OFF`); err != nil {
		return err
	}
	defer c.ExecContext(context.WithoutCancel(ctx), `PRAGMA foreign_keys = ON`)
	tx, err := c.BeginTx(ctx, nil)
	if err != nil {
		return fault(fmt.Errorf("begin write: %w", busy(err)), s.name())
	}
	defer tx.Rollback()
	var analyzer int
	if err := tx.QueryRowContext(ctx, `SELECT analyzer FROM memory_index WHERE id = 1`).Scan(&analyzer); err != nil || analyzer == memory.AnalyzerVersion {
		return err
	}
	for _, q := range []string{`DELETE FROM memory_postings`, `DELETE FROM memory_terms`,
		`UPDATE memory_index SET docs = 0, total_len = 0, rebuilt_to = 0, analyzer = ` + fmt.Sprint(memory.AnalyzerVersion)} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("reset memory index: %w", err)
		}
	}
	return tx.Commit()
}

// reindexStep is a step of a background re-index (rank.Step): it writes
// the postings of the next entries after the mark as adding them would,
// counts them, and moves the mark past them; with none left it clears the
// mark.
func (x *txn) reindexStep(ctx context.Context) (memory.ID, bool, error) {
	st, err := x.indexStats(ctx)
	if err != nil || !st.rebuilding() {
		return 0, true, err
	}
	es, err := x.scanMemories(ctx, qStepAfter, st.through.Int64)
	if err != nil {
		return 0, false, err
	}
	if len(es) == 0 {
		_, err := x.exec(ctx, qRebuiltTo, nil)
		return memory.ID(st.through.Int64), err == nil, err
	}
	last := es[len(es)-1].ID
	prev, err := x.scanMemories(ctx, qBefore, int64(es[0].ID))
	if err != nil {
		return 0, false, err
	}
	df := map[string]int{}
	load := postingLoader{x: x}
	for _, e := range es {
		d := rank.AnalyzeEntry(e, prev...)
		prev = append([]memory.Entry{e}, prev[:min(len(prev), rank.ContextDepth-1)]...)
		if len(d.TF) == 0 {
			continue
		}
		avgdl := (st.total + d.Len) / float64(st.docs+1)
		for t, tf := range d.TF {
			load.rows = append(load.rows, posting{t, int64(e.ID), tf, d.Len, rank.Impact(tf, d.Len, avgdl)})
			df[t]++
		}
		st.docs++
		st.total += d.Len
	}
	if err := load.flush(ctx); err != nil {
		return 0, false, err
	}
	if len(df) > 0 {
		b, err := json.Marshal(df)
		if err != nil {
			return 0, false, err
		}
		if _, err := x.exec(ctx, qTermsAdd, string(b)); err != nil {
			return 0, false, err
		}
	}
	_, err = x.exec(ctx, qStepSet, st.docs, st.total, int64(last))
	return last, false, err
}

// indexLoad is a rebuild of the index in one pass: what it has counted so
// far, and the postings' secondary indexes it dropped.
type indexLoad struct {
	x       *txn
	docs    int
	total   float64
	df      map[string]int
	prev    []memory.Entry // newest first, as rank.Context takes them
	load    postingLoader
	indexes []string
}

// start empties the index and drops the postings' secondary indexes, to
// be made again after the load by their own definitions: one sort each
// instead of a B-tree insertion per posting.
func (l *indexLoad) start(ctx context.Context) error {
	rows, err := l.x.query(ctx, `SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memory_postings' AND sql IS NOT NULL ORDER BY name`)
	if l.indexes, err = collect(rows, err, func(r scanner) (q string, err error) { return q, r.Scan(&q) }); err != nil {
		return err
	}
	for _, q := range l.indexes {
		name := strings.Fields(q)[2] // CREATE INDEX name ON ...
		if _, err := l.x.exec(ctx, `DROP INDEX `+name); err != nil {
			return err
		}
	}
	for _, q := range []string{`DELETE FROM memory_postings`, `DELETE FROM memory_terms`,
		`UPDATE memory_index SET docs = 0, total_len = 0, rebuilt_to = NULL, analyzer = ` + fmt.Sprint(memory.AnalyzerVersion)} {
		if _, err := l.x.exec(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// add indexes e after the entries added before it.
func (l *indexLoad) add(ctx context.Context, e memory.Entry) error {
	d := rank.AnalyzeEntry(e, l.prev...)
	l.prev = append([]memory.Entry{e}, l.prev[:min(len(l.prev), rank.ContextDepth-1)]...)
	if len(d.TF) == 0 {
		return nil
	}
	avgdl := (l.total + d.Len) / float64(l.docs+1)
	for t, tf := range d.TF {
		if err := l.load.add(ctx, posting{t, int64(e.ID), tf, d.Len, rank.Impact(tf, d.Len, avgdl)}); err != nil {
			return err
		}
		l.df[t]++
	}
	l.docs++
	l.total += d.Len
	return nil
}

// finish writes the postings still held, makes the secondary indexes
// again, and writes the counts.
func (l *indexLoad) finish(ctx context.Context) error {
	if err := l.load.flush(ctx); err != nil {
		return err
	}
	for _, q := range l.indexes {
		if _, err := l.x.exec(ctx, q); err != nil {
			return err
		}
	}
	for t, n := range l.df {
		if _, err := l.x.exec(ctx, qTermSet, t, n); err != nil {
			return err
		}
	}
	_, err := l.x.exec(ctx, qIndexSet, l.docs, l.total)
	return err
}

// postingLoader inserts postings in runs sorted by key, many rows to a
// statement, so the load walks the B-tree in order instead of seeking.
type postingLoader struct {
	x    *txn
	rows []posting
	args []any
}

type posting struct {
	term           string
	id             int64
	tf, dl, impact float64
}

const (
	// loadRun is how many postings are sorted and inserted together.
	loadRun = 50_000
	// loadRows is how many postings one statement inserts (5 parameters
	// each, well under SQLite's 32,766).
	loadRows = 200
)

var qPostingsLoad = `INSERT INTO memory_postings (term, entry_id, tf, dl, impact) VALUES ` +
	strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?, ?), ", loadRows), ", ")

func (l *postingLoader) add(ctx context.Context, p posting) error {
	if l.rows = append(l.rows, p); len(l.rows) < loadRun {
		return nil
	}
	return l.flush(ctx)
}

func (l *postingLoader) flush(ctx context.Context) error {
	slices.SortFunc(l.rows, func(a, b posting) int {
		return cmp.Or(strings.Compare(a.term, b.term), cmp.Compare(a.id, b.id))
	})
	for len(l.rows) > 0 {
		n, q := min(len(l.rows), loadRows), qPostingsLoad
		if n < loadRows {
			n, q = 1, qPostingInsert
		}
		l.args = l.args[:0]
		for _, p := range l.rows[:n] {
			l.args = append(l.args, p.term, p.id, p.tf, p.dl, p.impact)
		}
		if _, err := l.x.exec(ctx, q, l.args...); err != nil {
			return err
		}
		l.rows = l.rows[n:]
	}
	l.rows = l.rows[:0:0]
	return nil
}

func isUnique(err error) bool { return sqliteCode(err) == constraintUnique }

func (x *txn) PutMemory(ctx context.Context, e memory.Entry, occ ...memory.Occurrence) (memory.Entry, error) {
	if e.ID == 0 {
		if e.UID == "" {
			e.UID = memory.NewUID()
		}
		if err := x.queryRow(ctx, qAddMemory, memColumns.Args(e)...).Scan(&e.ID); err != nil {
			if isUnique(err) {
				return memory.Entry{}, fmt.Errorf("add memory: %w", store.ErrDuplicate)
			}
			return memory.Entry{}, fmt.Errorf("add memory: %w", err)
		}
		if err := x.index(ctx, e); err != nil {
			return memory.Entry{}, fmt.Errorf("index memory %s: %w", e.ID, err)
		}
		return e, x.addOccurrences(ctx, e.ID, occ)
	}
	res, err := x.exec(ctx, qUpdateMemory, append(memColumns.Args(e), int64(e.ID))...)
	if err != nil {
		if isUnique(err) {
			return memory.Entry{}, fmt.Errorf("update memory %s: %w", e.ID, store.ErrDuplicate)
		}
		return memory.Entry{}, fmt.Errorf("update memory %s: %w", e.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return memory.Entry{}, memory.NotFound("entry", e.ID.String())
	}
	if err := x.index(ctx, e); err != nil {
		return memory.Entry{}, fmt.Errorf("index memory %s: %w", e.ID, err)
	}
	if err := x.repost(ctx, e.ID); err != nil {
		return memory.Entry{}, fmt.Errorf("index memory %s: %w", e.ID, err)
	}
	return e, x.addOccurrences(ctx, e.ID, occ)
}

func (x *txn) addOccurrences(ctx context.Context, id memory.ID, occ []memory.Occurrence) error {
	return sqlq.AddOccurrences(ctx, conn{x}, nil, id, occ)
}

// repost indexes again the entries whose dialogue context may hold the
// entries at ids (see rank.Following), after those changed or went.
func (x *txn) repost(ctx context.Context, ids ...memory.ID) error {
	es, err := rank.Following(ids, func(id memory.ID) ([]memory.Entry, error) { return x.scanMemories(ctx, qNext, int64(id)) })
	if err != nil {
		return err
	}
	for _, e := range es {
		if err := x.unindex(ctx, e.ID); err != nil {
			return err
		}
		if err := x.post(ctx, e); err != nil {
			return err
		}
	}
	return nil
}

func (x *txn) DeleteMemories(ctx context.Context, ids []memory.ID) (int, error) {
	n := 0
	for _, id := range ids {
		if err := x.unindex(ctx, id); err != nil {
			return 0, fmt.Errorf("delete memory %s: %w", id, err)
		}
		res, err := x.exec(ctx, qMemDelete, int64(id))
		if err != nil {
			return 0, fmt.Errorf("delete memory %s: %w", id, err)
		}
		k, _ := res.RowsAffected()
		if k == 0 {
			continue
		}
		n++
		// What it replaced is current again.
		if _, err := x.exec(ctx, qUnsupersede, int64(id)); err != nil {
			return 0, fmt.Errorf("delete memory %s: %w", id, err)
		}
	}
	if n > 0 {
		if err := x.repost(ctx, ids...); err != nil {
			return 0, fmt.Errorf("delete memory: %w", err)
		}
	}
	return n, nil
}

func (x *txn) SetMemoryVector(ctx context.Context, id memory.ID, model string, vec []float32) error {
	if _, err := x.exec(ctx, qSetVector, model, int64(id), memory.EncodeVector(vec)); err != nil {
		if sqliteCode(err) == constraintFK {
			return memory.NotFound("entry", id.String())
		}
		return fmt.Errorf("store vector of %s: %w", id, err)
	}
	return nil
}
