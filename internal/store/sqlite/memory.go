package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite/vec" // vec_distance_cosine for the memory's embeddings

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/rank"
)

// memColumns are memory_entries' columns as the store reads and writes
// them: the one list that the select lists, the insert and update
// statements, their arguments and the scan destinations are all made from.
var memColumns = []memColumn{
	{name: "id", dest: func(r *memRow) any { return &r.e.ID }},
	{name: "uid", arg: func(e memory.Entry) any { return e.UID }, dest: func(r *memRow) any { return &r.e.UID }},
	{name: "type", arg: func(e memory.Entry) any { return string(e.Type) }, dest: func(r *memRow) any { return &r.typ }},
	{name: "title", arg: func(e memory.Entry) any { return e.Title }, dest: func(r *memRow) any { return &r.e.Title }},
	{name: "content", hit: "''", arg: func(e memory.Entry) any { return e.Content }, dest: func(r *memRow) any { return &r.e.Content }},
	{name: "facts", hit: "NULL", arg: func(e memory.Entry) any { return jsonList(e.Facts) }, dest: func(r *memRow) any { return &r.facts }},
	{name: "tags", arg: func(e memory.Entry) any { return jsonList(e.Tags) }, dest: func(r *memRow) any { return &r.tags }},
	{name: "files", hit: "NULL", arg: func(e memory.Entry) any { return jsonList(e.Files) }, dest: func(r *memRow) any { return &r.files }},
	{name: "session_id", arg: func(e memory.Entry) any { return e.SessionID }, dest: func(r *memRow) any { return &r.e.SessionID }},
	{name: "branch", arg: func(e memory.Entry) any { return e.Branch }, dest: func(r *memRow) any { return &r.e.Branch }},
	{name: "occurrences", arg: func(e memory.Entry) any { return e.Occurrences }, dest: func(r *memRow) any { return &r.e.Occurrences }},
	{name: "details", hit: "NULL", arg: func(e memory.Entry) any { return nullBytes(e.Details()) }, dest: func(r *memRow) any { return &r.details }},
	{name: "file_hashes", arg: func(e memory.Entry) any { return jsonMap(e.FileHashes) }, dest: func(r *memRow) any { return &r.hashes }},
	{name: "superseded_by", arg: func(e memory.Entry) any { return nullMemID(e.SupersededBy) }, dest: func(r *memRow) any { return &r.supersededBy }},
	{name: "expires_at", arg: func(e memory.Entry) any { return nullMicros(e.ExpiresAt) }, dest: func(r *memRow) any { return &r.expires }},
	{name: "fingerprint", arg: fingerprint},
	{name: "created_at", arg: func(e memory.Entry) any { return micros(e.CreatedAt) }, dest: func(r *memRow) any { return &r.created }},
	{name: "updated_at", arg: func(e memory.Entry) any { return micros(e.UpdatedAt) }, dest: func(r *memRow) any { return &r.updated }},
}

// memColumn is one column: hit is what a search lists instead of it ("":
// the column itself), arg its value for an entry (nil: never written), dest
// where a read puts it (nil: never read).
type memColumn struct {
	name, hit string
	arg       func(memory.Entry) any
	dest      func(*memRow) any
}

// memRow is a row being read, before it becomes an entry.
type memRow struct {
	e                                   memory.Entry
	typ                                 string
	facts, tags, files, details, hashes sql.NullString
	supersededBy, expires               sql.NullInt64
	created, updated                    sql.NullInt64
}

// selectList renders the columns a read lists; hit lists a search's.
func selectList(hit bool) string {
	var cols []string
	for _, c := range memColumns {
		switch {
		case c.dest == nil:
		case hit && c.hit != "":
			cols = append(cols, c.hit)
		default:
			cols = append(cols, "e."+c.name)
		}
	}
	return strings.Join(cols, ", ")
}

// written are the columns a write sets, in memArgs' order.
func written() []string {
	var out []string
	for _, c := range memColumns {
		if c.arg != nil {
			out = append(out, c.name)
		}
	}
	return out
}

var (
	// memCols are an entry's columns, memHitCols the same with no text
	// beyond the title (what a search lists); scanMemory reads either.
	memCols    = selectList(false)
	memHitCols = selectList(true)

	qAddMemory      = `INSERT INTO memory_entries (` + strings.Join(written(), ", ") + `) VALUES (` + placeholders(len(written())) + `) RETURNING id`
	qUpdateMemory   = `UPDATE memory_entries SET ` + strings.Join(written(), " = ?, ") + ` = ? WHERE id = ?`
	qMemory         = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id = ?`
	qMemoriesIn     = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id IN (SELECT value FROM json_each(?))`
	qMemoryByUID    = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.uid = ?`
	qMistakeByFP    = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.fingerprint = ?`
	qSupersedes     = `SELECT id FROM memory_entries WHERE superseded_by = ? ORDER BY id`
	qIndexStats     = `SELECT docs, total_len, analyzer FROM memory_index WHERE id = 1`
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
	qAfter      = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id > ? ORDER BY e.id LIMIT 500`
	qNext       = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id > ? ORDER BY e.id LIMIT ` + strconv.Itoa(rank.ContextDepth)
	qTermRemove = `UPDATE memory_terms SET df = df - 1 WHERE term = ?`
	qTermsDF    = `SELECT term, df FROM memory_terms WHERE term IN (SELECT value FROM json_each(?)) AND df > 0`
	qTermLookup = `SELECT entry_id, tf, dl FROM memory_postings WHERE term = ? AND entry_id IN (SELECT value FROM json_each(?))`
	qTermTop    = `SELECT group_concat(entry_id || ' ' || tf || ' ' || dl, ' ') FROM
	(SELECT entry_id, tf, dl FROM memory_postings WHERE term = ? ORDER BY impact DESC LIMIT ?)`
	qTagsDelete     = `DELETE FROM memory_tags WHERE entry_id = ?`
	qTagInsert      = `INSERT OR IGNORE INTO memory_tags (tag, entry_id) VALUES (?, ?)`
	qMemDelete      = `DELETE FROM memory_entries WHERE id = ?`
	qUnsupersede    = `UPDATE memory_entries SET superseded_by = NULL WHERE superseded_by = ?`
	qAddOccurrence  = `INSERT INTO memory_occurrences (entry_id, n, at, session_id, branch, title, content, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
	qOccurrences    = `SELECT n, at, session_id, branch, title, content, extra FROM memory_occurrences WHERE entry_id = ? ORDER BY n DESC LIMIT ?`
	qOlder          = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id < ? AND e.superseded_by IS NULL ORDER BY e.id DESC LIMIT ?`
	qNewer          = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id > ? AND e.superseded_by IS NULL ORDER BY e.id LIMIT ?`
	qOlderSession   = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.session_id = ? AND e.id < ? AND e.superseded_by IS NULL ORDER BY e.id DESC LIMIT ?`
	qNewerSession   = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.session_id = ? AND e.id > ? AND e.superseded_by IS NULL ORDER BY e.id LIMIT ?`
	qSetVector      = `INSERT INTO memory_vectors (model, entry_id, vec) VALUES (?, ?, ?) ON CONFLICT (model, entry_id) DO UPDATE SET vec = excluded.vec`
	qMissingVectors = `SELECT ` + memCols + ` FROM memory_entries e WHERE NOT EXISTS
	(SELECT 1 FROM memory_vectors v WHERE v.model = ? AND v.entry_id = e.id) ORDER BY e.id LIMIT ?`
)

const (
	qCountVectors = `SELECT (SELECT count(*) FROM memory_vectors WHERE model = ?), (SELECT count(*) FROM memory_entries)`
)

var (
	memoryReadQueries  = []string{qMemoriesIn, qIndexStats, qTermTop, qTermsDF, qTermLookup, qMemory, qMemoryByUID, qMistakeByFP, qSupersedes, qOccurrences, qOlder, qNewer, qOlderSession, qNewerSession, qMissingVectors, qCountVectors}
	memoryWriteQueries = []string{qIndexStats, qIndexAdd, qIndexSet, qPostingsOf, qPostingsDelete, qPostingInsert, qTermAdd, qTermSet, qTermRemove, qBefore, qAfter, qNext, qAddMemory, qUpdateMemory, qTagsDelete, qTagInsert, qMemDelete, qUnsupersede, qAddOccurrence, qSetVector}
)

func jsonList(l []string) any {
	if len(l) == 0 {
		return nil
	}
	b, _ := json.Marshal(l)
	return string(b)
}

func jsonMap(m map[string]string) any {
	if len(m) == 0 {
		return nil
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func nullBytes(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

func nullMemID(id memory.ID) any {
	if id == 0 {
		return nil
	}
	return int64(id)
}

func fingerprint(e memory.Entry) any {
	if e.Type != memory.Mistake {
		return nil
	}
	return memory.Fingerprint(e.Title)
}

// memArgs are an entry's values for the written columns.
func memArgs(e memory.Entry) []any {
	var out []any
	for _, c := range memColumns {
		if c.arg != nil {
			out = append(out, c.arg(e))
		}
	}
	return out
}

// scanMemory reads one row of memCols or memHitCols, plus any extra
// destinations after them.
func scanMemory(row scanner, extra ...any) (memory.Entry, error) {
	var r memRow
	var content sql.NullString
	dest := make([]any, 0, len(memColumns)+len(extra))
	for _, c := range memColumns {
		if c.dest == nil {
			continue
		}
		if c.name == "content" { // a search lists none
			dest = append(dest, &content)
			continue
		}
		dest = append(dest, c.dest(&r))
	}
	if err := row.Scan(append(dest, extra...)...); err != nil {
		return memory.Entry{}, err
	}
	e := r.e
	e.Content = content.String
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
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []memory.Entry
	for rows.Next() {
		e, err := scanMemory(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
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
	d := rank.Analyze(e.Title, e.SearchText(), e.Tags, rank.Context(e, prev...)...)
	if len(d.TF) == 0 {
		return nil
	}
	var (
		docs     int
		total    float64
		analyzer int
	)
	if err := x.queryRow(ctx, qIndexStats).Scan(&docs, &total, &analyzer); err != nil {
		return err
	}
	if err := x.postings(ctx, e.ID, d, docs, total); err != nil {
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
	rows, err := x.query(ctx, qPostingsOf, int64(id))
	if err != nil {
		return err
	}
	var (
		terms []string
		dl    float64
	)
	for rows.Next() {
		var t string
		if err := rows.Scan(&t, &dl); err != nil {
			rows.Close()
			return err
		}
		terms = append(terms, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(terms) == 0 {
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
// by another analyzer (or never: a database migrated from FTS5). It builds
// the same index as adding the entries one by one in id order would, but
// keeps the context turns, the counts and the document frequencies in
// memory instead of reading and updating them for every entry, and logs
// its progress: a large memory takes a while.
func (x *txn) reindex(ctx context.Context, log *slog.Logger) error {
	var (
		docs, analyzer int
		total          float64
	)
	if err := x.queryRow(ctx, qIndexStats).Scan(&docs, &total, &analyzer); err != nil {
		return fmt.Errorf("read memory index: %w", err)
	}
	if analyzer == memory.AnalyzerVersion {
		return nil
	}
	var entries int
	if err := x.queryRow(ctx, `SELECT count(*) FROM memory_entries`).Scan(&entries); err != nil {
		return fmt.Errorf("read memory index: %w", err)
	}
	start := time.Now()
	if entries == 0 { // a new store
		log = slog.New(slog.DiscardHandler)
	}
	log.Warn("rebuilding the memory search index for this version of Cairn; searches and writes wait until it is done",
		"entries", entries, "analyzer", memory.AnalyzerVersion, "was", analyzer)
	// The postings' secondary indexes are dropped for the load and made
	// again after it, by their own definitions: one sort each instead of
	// a B-tree insertion per posting.
	var indexes []string
	rows, err := x.query(ctx, `SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memory_postings' AND sql IS NOT NULL ORDER BY name`)
	if err != nil {
		return fmt.Errorf("reindex memory: %w", err)
	}
	for rows.Next() {
		var q string
		if err := rows.Scan(&q); err != nil {
			rows.Close()
			return fmt.Errorf("reindex memory: %w", err)
		}
		indexes = append(indexes, q)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reindex memory: %w", err)
	}
	for _, q := range indexes {
		name := strings.Fields(q)[2] // CREATE INDEX name ON ...
		if _, err := x.exec(ctx, `DROP INDEX `+name); err != nil {
			return fmt.Errorf("reindex memory: %w", err)
		}
	}
	for _, q := range []string{`DELETE FROM memory_postings`, `DELETE FROM memory_terms`,
		`UPDATE memory_index SET docs = 0, total_len = 0, analyzer = ` + fmt.Sprint(memory.AnalyzerVersion)} {
		if _, err := x.exec(ctx, q); err != nil {
			return fmt.Errorf("reset memory index: %w", err)
		}
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
	docs, total = 0, 0
	var (
		df       = map[string]int{}
		prev     []memory.Entry // newest first, as rank.Context takes them
		done     int
		reported = start
		load     = postingLoader{x: x}
	)
	for after := int64(0); ; {
		es, err := x.scanMemories(ctx, qAfter, after)
		if err != nil {
			return fmt.Errorf("reindex memory: %w", err)
		}
		if len(es) == 0 {
			break
		}
		for _, e := range es {
			d := rank.Analyze(e.Title, e.SearchText(), e.Tags, rank.Context(e, prev...)...)
			prev = append([]memory.Entry{e}, prev[:min(len(prev), rank.ContextDepth-1)]...)
			if len(d.TF) == 0 {
				continue
			}
			avgdl := (total + d.Len) / float64(docs+1)
			for t, tf := range d.TF {
				if err := load.add(ctx, posting{t, int64(e.ID), tf, d.Len, rank.Impact(tf, d.Len, avgdl)}); err != nil {
					return fmt.Errorf("reindex memory %s: %w", e.ID, err)
				}
				df[t]++
			}
			docs++
			total += d.Len
		}
		after = int64(es[len(es)-1].ID)
		if done += len(es); time.Since(reported) >= 5*time.Second {
			reported = time.Now()
			log.Info("rebuilding the memory search index", "done", done, "entries", entries)
		}
	}
	if err := load.flush(ctx); err != nil {
		return fmt.Errorf("reindex memory: %w", err)
	}
	for _, q := range indexes {
		if _, err := x.exec(ctx, q); err != nil {
			return fmt.Errorf("reindex memory: %w", err)
		}
	}
	for t, n := range df {
		if _, err := x.exec(ctx, qTermSet, t, n); err != nil {
			return fmt.Errorf("reindex memory: %w", err)
		}
	}
	if _, err := x.exec(ctx, qIndexSet, docs, total); err != nil {
		return fmt.Errorf("reindex memory: %w", err)
	}
	log.Warn("rebuilt the memory search index", "entries", done, "took", time.Since(start).Round(time.Millisecond))
	return nil
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

func (x *txn) AddMemory(ctx context.Context, e memory.Entry) (memory.Entry, error) {
	if e.UID == "" {
		e.UID = memory.NewUID()
	}
	if err := x.queryRow(ctx, qAddMemory, memArgs(e)...).Scan(&e.ID); err != nil {
		if isUnique(err) {
			return memory.Entry{}, fmt.Errorf("add memory: %w", store.ErrDuplicate)
		}
		return memory.Entry{}, fmt.Errorf("add memory: %w", err)
	}
	if err := x.index(ctx, e); err != nil {
		return memory.Entry{}, fmt.Errorf("index memory %s: %w", e.ID, err)
	}
	return e, nil
}

func (x *txn) UpdateMemory(ctx context.Context, e memory.Entry) error {
	res, err := x.exec(ctx, qUpdateMemory, append(memArgs(e), int64(e.ID))...)
	if err != nil {
		if isUnique(err) {
			return fmt.Errorf("update memory %s: %w", e.ID, store.ErrDuplicate)
		}
		return fmt.Errorf("update memory %s: %w", e.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return &memory.NotFoundError{Kind: "entry", ID: e.ID.String()}
	}
	if err := x.index(ctx, e); err != nil {
		return fmt.Errorf("index memory %s: %w", e.ID, err)
	}
	if err := x.repost(ctx, e.ID); err != nil {
		return fmt.Errorf("index memory %s: %w", e.ID, err)
	}
	return nil
}

// repost indexes again the entries whose dialogue context (rank.Context)
// holds the entries at ids, after those changed or went, so the index stays
// the one adding the entries as they are now would build.
func (x *txn) repost(ctx context.Context, ids ...memory.ID) error {
	done := map[memory.ID]bool{}
	for _, id := range ids {
		next, err := x.scanMemories(ctx, qNext, int64(id))
		if err != nil {
			return err
		}
		for _, f := range next {
			if done[f.ID] || slices.Contains(ids, f.ID) {
				continue
			}
			done[f.ID] = true
			if err := x.unindex(ctx, f.ID); err != nil {
				return err
			}
			if err := x.post(ctx, f); err != nil {
				return err
			}
		}
	}
	return nil
}

func (x *txn) Memories(ctx context.Context, ids []memory.ID) ([]memory.Entry, error) {
	out := make([]memory.Entry, 0, len(ids))
	for _, id := range ids {
		e, err := scanMemory(x.queryRow(ctx, qMemory, int64(id)))
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("read memory %s: %w", id, err)
		}
		if e.Supersedes, err = x.supersedes(ctx, id); err != nil {
			return nil, fmt.Errorf("read memory %s: %w", id, err)
		}
		out = append(out, e)
	}
	return out, nil
}

func (x *txn) supersedes(ctx context.Context, id memory.ID) ([]memory.ID, error) {
	rows, err := x.query(ctx, qSupersedes, int64(id))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []memory.ID
	for rows.Next() {
		var old int64
		if err := rows.Scan(&old); err != nil {
			return nil, err
		}
		out = append(out, memory.ID(old))
	}
	return out, rows.Err()
}

func (x *txn) AddOccurrence(ctx context.Context, id memory.ID, o memory.Occurrence) error {
	if _, err := x.exec(ctx, qAddOccurrence, int64(id), o.N, micros(o.At), o.SessionID, o.Branch, o.Title, o.Content, nullBytes(o.Extra())); err != nil {
		if sqliteCode(err) == constraintFK {
			return &memory.NotFoundError{Kind: "entry", ID: id.String()}
		}
		return fmt.Errorf("record occurrence %d of %s: %w", o.N, id, err)
	}
	return nil
}

func (x *txn) Occurrences(ctx context.Context, id memory.ID, limit int) ([]memory.Occurrence, error) {
	rows, err := x.query(ctx, qOccurrences, int64(id), limit)
	if err != nil {
		return nil, fmt.Errorf("read occurrences of %s: %w", id, err)
	}
	defer rows.Close()
	var out []memory.Occurrence
	for rows.Next() {
		var (
			o     memory.Occurrence
			at    sql.NullInt64
			extra sql.NullString
		)
		if err := rows.Scan(&o.N, &at, &o.SessionID, &o.Branch, &o.Title, &o.Content, &extra); err != nil {
			return nil, fmt.Errorf("read occurrences of %s: %w", id, err)
		}
		o.At = fromMicros(at)
		if err := o.SetExtra([]byte(extra.String)); err != nil {
			return nil, fmt.Errorf("read occurrences of %s: %w", id, err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

func (x *txn) one(ctx context.Context, q string, arg any) (memory.Entry, bool, error) {
	e, err := scanMemory(x.queryRow(ctx, q, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return memory.Entry{}, false, nil
	}
	if err != nil {
		return memory.Entry{}, false, fmt.Errorf("read memory: %w", err)
	}
	return e, true, nil
}

func (x *txn) MemoryByUID(ctx context.Context, uid string) (memory.Entry, bool, error) {
	return x.one(ctx, qMemoryByUID, uid)
}

func (x *txn) MistakeByFingerprint(ctx context.Context, fp string) (memory.Entry, bool, error) {
	return x.one(ctx, qMistakeByFP, fp)
}

// filters renders q's filters as AND clauses on e.
func filters(q store.MemoryQuery) (string, []any) {
	var (
		b    strings.Builder
		args []any
	)
	if len(q.Types) > 0 {
		b.WriteString(" AND e.type IN (" + placeholders(len(q.Types)) + ")")
		for _, t := range q.Types {
			args = append(args, string(t))
		}
	}
	if len(q.Tags) > 0 {
		b.WriteString(" AND e.id IN (SELECT entry_id FROM memory_tags WHERE tag IN (" + placeholders(len(q.Tags)) + "))")
		for _, t := range q.Tags {
			args = append(args, t)
		}
	}
	if q.SessionID != "" {
		b.WriteString(" AND e.session_id = ?")
		args = append(args, q.SessionID)
	}
	if q.Branch != "" {
		b.WriteString(" AND e.branch = ?")
		args = append(args, q.Branch)
	}
	if !q.After.IsZero() {
		b.WriteString(" AND e.created_at >= ?")
		args = append(args, micros(q.After))
	}
	if !q.Before.IsZero() {
		b.WriteString(" AND e.created_at < ?")
		args = append(args, micros(q.Before))
	}
	if !q.IncludeSuperseded {
		b.WriteString(" AND e.superseded_by IS NULL")
	}
	if !q.Now.IsZero() {
		b.WriteString(" AND (e.expires_at IS NULL OR e.expires_at > ?)")
		args = append(args, micros(q.Now))
	}
	return b.String(), args
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// source is the full-text index as one search sees it: rank.Source with
// the query's filters applied to the postings it reads.
type source struct {
	x     *txn
	where string
	args  []any
}

func (s source) Stats(ctx context.Context) (int, float64, error) {
	var (
		docs, analyzer int
		total          float64
	)
	err := s.x.queryRow(ctx, qIndexStats).Scan(&docs, &total, &analyzer)
	return docs, total, err
}

func (s source) DF(ctx context.Context, terms []string) (map[string]int, error) {
	rows, err := s.x.query(ctx, qTermsDF, jsonList(terms))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]int, len(terms))
	for rows.Next() {
		var (
			t  string
			df int
		)
		if err := rows.Scan(&t, &df); err != nil {
			return nil, err
		}
		out[t] = df
	}
	return out, rows.Err()
}

func scanPostings(rows *sql.Rows, err error) ([]rank.Posting, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []rank.Posting
	for rows.Next() {
		var p rank.Posting
		if err := rows.Scan(&p.Entry, &p.TF, &p.Len); err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
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

func (s source) Top(ctx context.Context, terms []string, limits []int) ([][]rank.Posting, error) {
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

func (s source) Lookup(ctx context.Context, terms []string, entries []int64) (map[string][]rank.Posting, error) {
	ids, _ := json.Marshal(entries)
	out := make(map[string][]rank.Posting, len(terms))
	for _, t := range terms {
		ps, err := scanPostings(s.x.query(ctx, qTermLookup, t, string(ids)))
		if err != nil {
			return nil, err
		}
		out[t] = ps
	}
	return out, nil
}

// snippetWords is how long a hit's snippet is.
const snippetWords = 16

// SearchMemory ranks every entry holding any of the query's terms by BM25
// (internal/store/rank), within a fixed amount of work at any memory size.
func (x *txn) SearchMemory(ctx context.Context, q store.MemoryQuery) (store.MemoryResult, error) {
	var res store.MemoryResult
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	offset := max(q.Offset, 0)
	where, args := filters(q)
	terms := memory.Terms(q.Text)
	if len(terms) == 0 && strings.TrimSpace(q.Text) != "" {
		return res, nil // stopwords alone: they would match everything
	}
	if len(terms) == 0 {
		list := `SELECT ` + memHitCols + `, substr(e.content, 1, 160), 0.0 FROM memory_entries e WHERE 1` + where +
			` ORDER BY e.id DESC LIMIT ? OFFSET ?`
		rows, err := x.query(ctx, list, append(append([]any{}, args...), limit, offset)...)
		if err != nil {
			return res, fmt.Errorf("search memory: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var h store.MemoryHit
			if h.Entry, err = scanMemory(rows, &h.Snippet, &h.Score); err != nil {
				return res, fmt.Errorf("search memory: %w", err)
			}
			res.Hits = append(res.Hits, h)
		}
		if err := rows.Err(); err != nil {
			return res, fmt.Errorf("search memory: %w", err)
		}
		res.Total = offset + len(res.Hits)
		if len(res.Hits) == limit || (len(res.Hits) == 0 && offset > 0) {
			if err := x.queryRow(ctx, `SELECT count(*) FROM memory_entries e WHERE 1`+where, args...).Scan(&res.Total); err != nil {
				return res, fmt.Errorf("count memory: %w", err)
			}
		}
		return res, nil
	}
	// Superseded and expired entries are few: rather than join every
	// posting read with its entry to leave them out (which costs the
	// unfiltered search its fast path), rank as many more and drop them.
	k := offset + limit
	hidden, err := x.hiddenIDs(ctx, q)
	if err != nil {
		return res, fmt.Errorf("search memory: %w", err)
	}
	if len(hidden) <= hiddenBudget {
		rq := q
		rq.IncludeSuperseded, rq.Now = true, time.Time{}
		where, args = filters(rq)
		k += len(hidden)
	} else {
		hidden = nil // too many to drop afterwards: filter as postings are read
	}
	r, err := rank.Search(ctx, source{x: x, where: where, args: args}, rank.NewQuery(q.Text, terms), k)
	if err != nil {
		return res, fmt.Errorf("search memory: %w", err)
	}
	res.Total, res.AtLeast = r.Total, r.AtLeast
	if r.AtLeast && where == "" {
		res.Total = max(res.Total, r.MaxDF)
	}
	if len(hidden) > 0 {
		n, err := x.matching(ctx, terms, hidden)
		if err != nil {
			return res, fmt.Errorf("search memory: %w", err)
		}
		r.Hits = rank.Drop(r.Hits, hidden)
		res.Total = max(res.Total-n, len(r.Hits))
		if len(r.Hits) > offset+limit {
			r.Hits = r.Hits[:offset+limit]
		}
	}
	if offset >= len(r.Hits) {
		return res, nil
	}
	page := r.Hits[offset:]
	ids := make([]int64, len(page))
	for i, h := range page {
		ids[i] = h.Entry
	}
	idList, _ := json.Marshal(ids)
	es, err := x.scanMemories(ctx, qMemoriesIn, string(idList))
	if err != nil {
		return res, fmt.Errorf("search memory: %w", err)
	}
	byID := make(map[memory.ID]memory.Entry, len(es))
	for _, e := range es {
		byID[e.ID] = e
	}
	for _, h := range page {
		e, ok := byID[memory.ID(h.Entry)]
		if !ok {
			continue
		}
		snippet := memory.Snippet(e.SearchText(), terms, snippetWords)
		res.Hits = append(res.Hits, store.MemoryHit{Entry: hitOnly(e), Snippet: snippet, Score: h.Score})
	}
	return res, nil
}

// hiddenBudget bounds the superseded and expired entries a search drops
// after ranking; past it, it filters them as it reads postings.
const hiddenBudget = 256

// hiddenIDs returns the entries q leaves out for being superseded or
// expired, up to hiddenBudget+1 of them.
func (x *txn) hiddenIDs(ctx context.Context, q store.MemoryQuery) ([]int64, error) {
	// Two queries, not a UNION: SQLite would merge the union in id order
	// by scanning the table instead of reading the two partial indexes.
	type part struct {
		q    string
		args []any
	}
	var parts []part
	if !q.IncludeSuperseded {
		parts = append(parts, part{`SELECT id FROM memory_entries WHERE superseded_by IS NOT NULL LIMIT ?`, nil})
	}
	if !q.Now.IsZero() {
		parts = append(parts, part{`SELECT id FROM memory_entries WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?`, []any{micros(q.Now)}})
	}
	seen := map[int64]bool{}
	var out []int64
	for _, p := range parts {
		rows, err := x.query(ctx, p.q, append(p.args, hiddenBudget+1)...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, err
			}
			if !seen[id] {
				seen[id] = true
				out = append(out, id)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// matching counts the entries among ids that hold any of terms.
func (x *txn) matching(ctx context.Context, terms []string, ids []int64) (int, error) {
	t, _ := json.Marshal(terms)
	e, _ := json.Marshal(ids)
	var n int
	err := x.queryRow(ctx, `SELECT count(DISTINCT entry_id) FROM memory_postings WHERE term IN (SELECT value FROM json_each(?))
	AND entry_id IN (SELECT value FROM json_each(?))`, string(t), string(e)).Scan(&n)
	return n, err
}

// hitOnly is e as a search lists it: without its content and the
// type-specific text.
func hitOnly(e memory.Entry) memory.Entry {
	return memory.Entry{ID: e.ID, UID: e.UID, Type: e.Type, Title: e.Title, Tags: e.Tags, SessionID: e.SessionID,
		Branch: e.Branch, Occurrences: e.Occurrences, DiscoveryTokens: e.DiscoveryTokens, FileHashes: e.FileHashes,
		SupersededBy: e.SupersededBy, ExpiresAt: e.ExpiresAt, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
}

func (x *txn) MemoryTimeline(ctx context.Context, anchor memory.ID, before, after int, sameSession bool) ([]memory.Entry, []memory.Entry, error) {
	a, err := scanMemory(x.queryRow(ctx, qMemory, int64(anchor)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, &memory.NotFoundError{Kind: "entry", ID: anchor.String()}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read memory %s: %w", anchor, err)
	}
	var older, newer []memory.Entry
	if sameSession && a.SessionID != "" {
		older, err = x.scanMemories(ctx, qOlderSession, a.SessionID, int64(anchor), before)
		if err == nil {
			newer, err = x.scanMemories(ctx, qNewerSession, a.SessionID, int64(anchor), after)
		}
	} else {
		older, err = x.scanMemories(ctx, qOlder, int64(anchor), before)
		if err == nil {
			newer, err = x.scanMemories(ctx, qNewer, int64(anchor), after)
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read timeline of %s: %w", anchor, err)
	}
	for i, j := 0, len(older)-1; i < j; i, j = i+1, j-1 {
		older[i], older[j] = older[j], older[i]
	}
	return older, newer, nil
}

func (x *txn) SelectMemories(ctx context.Context, s store.MemorySelector) ([]memory.Entry, int, error) {
	filter, args := filters(store.MemoryQuery{Types: s.Types, Before: s.Before, IncludeSuperseded: true})
	var where strings.Builder
	if len(s.IDs) > 0 {
		where.WriteString(" AND e.id IN (" + placeholders(len(s.IDs)) + ")")
		ids := make([]any, len(s.IDs))
		for i, id := range s.IDs {
			ids[i] = int64(id)
		}
		args = append(ids, args...)
	}
	where.WriteString(filter)
	var total int
	if err := x.queryRow(ctx, `SELECT count(*) FROM memory_entries e WHERE 1`+where.String(), args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("select memory: %w", err)
	}
	q := `SELECT ` + memCols + ` FROM memory_entries e WHERE 1` + where.String() + ` ORDER BY e.id`
	if s.Limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", s.Limit)
	}
	out, err := x.scanMemories(ctx, q, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("select memory: %w", err)
	}
	return out, total, nil
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
			return &memory.NotFoundError{Kind: "entry", ID: id.String()}
		}
		return fmt.Errorf("store vector of %s: %w", id, err)
	}
	return nil
}

func (x *txn) MissingVectors(ctx context.Context, model string, limit int) ([]memory.Entry, error) {
	out, err := x.scanMemories(ctx, qMissingVectors, model, limit)
	if err != nil {
		return nil, fmt.Errorf("read entries without vectors: %w", err)
	}
	return out, nil
}

func (x *txn) NearestMemories(ctx context.Context, model string, vec []float32, q store.MemoryQuery, limit int) ([]store.ScoredID, error) {
	where, args := filters(q)
	query := `SELECT v.entry_id, vec_distance_cosine(v.vec, ?) AS d FROM memory_vectors v JOIN memory_entries e ON e.id = v.entry_id
	WHERE v.model = ?` + where + ` ORDER BY d, v.entry_id LIMIT ?`
	rows, err := x.query(ctx, query, append(append([]any{memory.EncodeVector(vec), model}, args...), limit)...)
	if err != nil {
		return nil, fmt.Errorf("nearest memory: %w", err)
	}
	defer rows.Close()
	var out []store.ScoredID
	for rows.Next() {
		var (
			s store.ScoredID
			d sql.NullFloat64
		)
		if err := rows.Scan(&s.ID, &d); err != nil {
			return nil, fmt.Errorf("nearest memory: %w", err)
		}
		if !d.Valid {
			continue // a zero vector has no direction: similar to nothing
		}
		s.Score = 1 - d.Float64
		out = append(out, s)
	}
	return out, rows.Err()
}

func (x *txn) CountVectors(ctx context.Context, model string) (int, int, error) {
	var with, total int
	if err := x.queryRow(ctx, qCountVectors, model).Scan(&with, &total); err != nil {
		return 0, 0, fmt.Errorf("count vectors: %w", err)
	}
	return with, total, nil
}
