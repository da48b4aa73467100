package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	_ "modernc.org/sqlite/vec" // vec_distance_cosine for the memory's embeddings

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

const (
	memCols = `e.id, e.uid, e.type, e.title, e.content, e.facts, e.tags, e.files, e.session_id, e.branch,
	e.rationale, e.alternatives, e.root_cause, e.fix, e.prevention, e.occurrences, e.examples,
	e.discovery_tokens, e.created_at, e.updated_at`
	// memHitCols are the columns a search lists: no text beyond the title.
	memHitCols = `e.id, e.uid, e.type, e.title, '', NULL, e.tags, NULL, e.session_id, e.branch,
	'', NULL, '', '', '', e.occurrences, NULL, e.discovery_tokens, e.created_at, e.updated_at`

	qAddMemory = `INSERT INTO memory_entries (uid, type, title, content, facts, tags, files, session_id, branch,
	rationale, alternatives, root_cause, fix, prevention, occurrences, examples, discovery_tokens, fingerprint,
	created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
	qUpdateMemory = `UPDATE memory_entries SET uid = ?, type = ?, title = ?, content = ?, facts = ?, tags = ?, files = ?,
	session_id = ?, branch = ?, rationale = ?, alternatives = ?, root_cause = ?, fix = ?, prevention = ?,
	occurrences = ?, examples = ?, discovery_tokens = ?, fingerprint = ?, created_at = ?, updated_at = ? WHERE id = ?`
	qMemory         = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id = ?`
	qMemoryByUID    = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.uid = ?`
	qMistakeByFP    = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.fingerprint = ?`
	qFTSInsert      = `INSERT INTO memory_fts (rowid, title, body, tags) VALUES (?, ?, ?, ?)`
	qFTSDelete      = `DELETE FROM memory_fts WHERE rowid = ?`
	qTagsDelete     = `DELETE FROM memory_tags WHERE entry_id = ?`
	qTagInsert      = `INSERT OR IGNORE INTO memory_tags (tag, entry_id) VALUES (?, ?)`
	qMemDelete      = `DELETE FROM memory_entries WHERE id = ?`
	qOlder          = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id < ? ORDER BY e.id DESC LIMIT ?`
	qNewer          = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.id > ? ORDER BY e.id LIMIT ?`
	qOlderSession   = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.session_id = ? AND e.id < ? ORDER BY e.id DESC LIMIT ?`
	qNewerSession   = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.session_id = ? AND e.id > ? ORDER BY e.id LIMIT ?`
	qSetVector      = `INSERT INTO memory_vectors (model, entry_id, vec) VALUES (?, ?, ?) ON CONFLICT (model, entry_id) DO UPDATE SET vec = excluded.vec`
	qMissingVectors = `SELECT ` + memCols + ` FROM memory_entries e WHERE NOT EXISTS
	(SELECT 1 FROM memory_vectors v WHERE v.model = ? AND v.entry_id = e.id) ORDER BY e.id LIMIT ?`
	qCountVectors  = `SELECT (SELECT count(*) FROM memory_vectors WHERE model = ?), (SELECT count(*) FROM memory_entries)`
	qAddSession    = `INSERT INTO sessions (thread_id, agent, branch, started_at, ended_at, doc) VALUES (?, ?, ?, ?, ?, '{}') RETURNING id`
	qUpdateSession = `UPDATE sessions SET thread_id = ?, agent = ?, branch = ?, started_at = ?, ended_at = ?, doc = ? WHERE id = ?`
	qSession       = `SELECT doc FROM sessions WHERE id = ?`
	qBranch        = `SELECT doc FROM branch_contexts WHERE branch = ?`
	qSetBranch     = `INSERT INTO branch_contexts (branch, updated_at, doc) VALUES (?, ?, ?) ON CONFLICT (branch) DO UPDATE SET updated_at = excluded.updated_at, doc = excluded.doc`
	qBranches      = `SELECT doc FROM branch_contexts ORDER BY updated_at DESC, branch`
)

var (
	memoryReadQueries  = []string{qMemory, qMemoryByUID, qMistakeByFP, qOlder, qNewer, qOlderSession, qNewerSession, qMissingVectors, qCountVectors, qSession, qBranch, qBranches}
	memoryWriteQueries = []string{qAddMemory, qUpdateMemory, qFTSInsert, qFTSDelete, qTagsDelete, qTagInsert, qMemDelete, qSetVector, qAddSession, qUpdateSession, qSetBranch}
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

func memArgs(e memory.Entry) []any {
	return []any{e.UID, string(e.Type), e.Title, e.Content, jsonList(e.Facts), jsonList(e.Tags), jsonList(e.Files),
		e.SessionID, e.Branch, e.Rationale, jsonList(e.Alternatives), e.RootCause, e.Fix, e.Prevention,
		e.Occurrences, jsonList(e.Examples), e.DiscoveryTokens, fingerprint(e), micros(e.CreatedAt), micros(e.UpdatedAt)}
}

// scanMemory reads one row of memCols or memHitCols, plus any extra
// destinations after them.
func scanMemory(row scanner, extra ...any) (memory.Entry, error) {
	var (
		e                                          memory.Entry
		typ                                        string
		facts, tags, files, alternatives, examples sql.NullString
		created, updated                           sql.NullInt64
	)
	dest := []any{&e.ID, &e.UID, &typ, &e.Title, &e.Content, &facts, &tags, &files, &e.SessionID, &e.Branch,
		&e.Rationale, &alternatives, &e.RootCause, &e.Fix, &e.Prevention, &e.Occurrences, &examples,
		&e.DiscoveryTokens, &created, &updated}
	if err := row.Scan(append(dest, extra...)...); err != nil {
		return memory.Entry{}, err
	}
	e.Type = memory.Type(typ)
	for _, l := range []struct {
		src sql.NullString
		dst *[]string
	}{{facts, &e.Facts}, {tags, &e.Tags}, {files, &e.Files}, {alternatives, &e.Alternatives}, {examples, &e.Examples}} {
		if l.src.Valid && l.src.String != "" {
			if err := json.Unmarshal([]byte(l.src.String), l.dst); err != nil {
				return memory.Entry{}, fmt.Errorf("entry %s: %w", e.ID, err)
			}
		}
	}
	e.CreatedAt, e.UpdatedAt = fromMicros(created), fromMicros(updated)
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

// index writes the entry's full-text row and tags.
func (x *txn) index(ctx context.Context, e memory.Entry) error {
	if _, err := x.exec(ctx, qFTSDelete, int64(e.ID)); err != nil {
		return err
	}
	if _, err := x.exec(ctx, qFTSInsert, int64(e.ID), e.Title, e.SearchText(), strings.Join(e.Tags, " ")); err != nil {
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
		out = append(out, e)
	}
	return out, nil
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
	return b.String(), args
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// matchExpr is an FTS5 query for plain words: each term quoted (so no word
// is read as syntax), any of them matching; BM25 ranks entries with more
// of them, and rarer ones, first.
func matchExpr(text string) string {
	terms := memory.Terms(text)
	for i, t := range terms {
		terms[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return strings.Join(terms, " OR ")
}

// A search ranks by FTS5's BM25 only within two budgets. BM25 costs, per
// query, a pass over every entry holding each word (for the words' IDF,
// about 0.1–0.3 µs an entry), and per ranked entry about 7 µs; a word in
// 90,000 entries made one search take 650 ms. So a search first counts,
// cheaply and with caps, the entries that hold its words, and ranks only an
// expression whose words are each in at most idfBudget entries and which
// matches at most rankBudget: a few milliseconds whatever the memory's size.
// A search it cannot rank lists newest first the entries holding all its
// words, and says so.
const (
	rankBudget = 300
	idfBudget  = 5000
)

func quote(term string) string { return `"` + strings.ReplaceAll(term, `"`, `""`) + `"` }

// countUpTo counts the entries matching an FTS5 expression (and q's
// filters, when where is set), stopping at limit+1.
func (x *txn) countUpTo(ctx context.Context, match, where string, args []any, limit int) (int, error) {
	var n int
	q := `SELECT count(*) FROM (SELECT 1 FROM memory_fts f WHERE memory_fts MATCH ? LIMIT ?)`
	a := []any{match, limit + 1}
	if where != "" {
		q = `SELECT count(*) FROM (SELECT 1 FROM memory_fts f JOIN memory_entries e ON e.id = f.rowid WHERE memory_fts MATCH ?` + where + ` LIMIT ?)`
		a = append(append([]any{match}, args...), limit+1)
	}
	err := x.queryRow(ctx, q, a...).Scan(&n)
	return n, err
}

// searchPlan is how a text search runs: the expression entries must match,
// whether it is ranked by BM25 (else newest first), and the words left out.
type searchPlan struct {
	match   string
	ranked  bool
	dropped []string
}

func (x *txn) planSearch(ctx context.Context, terms []string) (searchPlan, error) {
	quoted := make([]string, len(terms))
	for i, t := range terms {
		quoted[i] = quote(t)
	}
	or := func(qs []string) string { return strings.Join(qs, " OR ") }
	and := func(qs []string) string { return strings.Join(qs, " AND ") }
	// Most searches name a word or two that few entries hold: one count
	// says they fit both budgets.
	n, err := x.countUpTo(ctx, or(quoted), "", nil, rankBudget)
	if err != nil || n <= rankBudget {
		return searchPlan{match: or(quoted), ranked: true}, err
	}
	// The words whose IDF is affordable.
	var ok []string
	var dropped []string
	for i, t := range terms {
		n, err := x.countUpTo(ctx, quoted[i], "", nil, idfBudget)
		if err != nil {
			return searchPlan{}, err
		}
		if n <= idfBudget {
			ok = append(ok, quoted[i])
		} else {
			dropped = append(dropped, t)
		}
	}
	fits := func(expr string) (int, error) { return x.countUpTo(ctx, expr, "", nil, rankBudget) }
	if len(ok) > 0 {
		if n, err := fits(or(ok)); err != nil || n <= rankBudget {
			return searchPlan{match: or(ok), ranked: true, dropped: dropped}, err
		}
		if len(ok) > 1 {
			if n, err := fits(and(ok)); err != nil || (n > 0 && n <= rankBudget) {
				return searchPlan{match: and(ok), ranked: true, dropped: dropped}, err
			}
		}
	}
	if n, err := x.countUpTo(ctx, and(quoted), "", nil, 1); err != nil || n > 0 {
		return searchPlan{match: and(quoted)}, err
	}
	return searchPlan{match: or(quoted)}, nil
}

func (x *txn) SearchMemory(ctx context.Context, q store.MemoryQuery) (store.MemoryResult, error) {
	var res store.MemoryResult
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	where, args := filters(q)
	terms := memory.Terms(q.Text)
	var list string
	var listArgs []any
	countCap := 0 // zero: count exactly
	var plan searchPlan
	if len(terms) == 0 {
		list = `SELECT ` + memHitCols + `, substr(e.content, 1, 160), 0.0 FROM memory_entries e WHERE 1` + where +
			` ORDER BY e.id DESC LIMIT ? OFFSET ?`
		listArgs = append(append([]any{}, args...), limit, q.Offset)
	} else {
		var err error
		if plan, err = x.planSearch(ctx, terms); err != nil {
			return res, fmt.Errorf("search memory: %w", err)
		}
		// Unranked, the rank column must not even be read: BM25 counts
		// every entry holding each word, which is what a common word's
		// search cannot afford.
		order, outer, rank := `f.rank`, `top.r, top.id`, `f.rank`
		if !plan.ranked {
			order, outer, rank = `f.rowid DESC`, `top.id DESC`, `0.0`
			countCap = 1000
		}
		res.Recent, res.Dropped = !plan.ranked, plan.dropped
		// The page is chosen first and only its rows get a snippet:
		// computing one for every match before sorting cost most of a
		// search. rank is the BM25 the migration configured.
		from := ` FROM memory_fts f JOIN memory_entries e ON e.id = f.rowid WHERE memory_fts MATCH ?` + where
		list = `WITH top AS (SELECT f.rowid AS id, ` + rank + ` AS r` + from + ` ORDER BY ` + order + ` LIMIT ? OFFSET ?)
		SELECT ` + memHitCols + `, snippet(memory_fts, 1, '', '', '…', 12), -top.r FROM top
		JOIN memory_fts ON memory_fts.rowid = top.id AND memory_fts MATCH ?
		JOIN memory_entries e ON e.id = top.id ORDER BY ` + outer
		listArgs = append(append([]any{plan.match}, args...), limit, q.Offset, plan.match)
	}
	rows, err := x.query(ctx, list, listArgs...)
	if err != nil {
		return res, fmt.Errorf("search memory: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var h store.MemoryHit
		if h.Entry, err = scanMemory(rows, &h.Snippet, &h.Score); err != nil {
			return res, fmt.Errorf("search memory: %w", err)
		}
		if !plan.ranked {
			h.Score = 0
		}
		res.Hits = append(res.Hits, h)
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("search memory: %w", err)
	}
	res.Total = q.Offset + len(res.Hits)
	if len(res.Hits) < limit && (len(res.Hits) > 0 || q.Offset == 0) {
		return res, nil // the last page: the total is known
	}
	if len(terms) == 0 {
		err = x.queryRow(ctx, `SELECT count(*) FROM memory_entries e WHERE 1`+where, args...).Scan(&res.Total)
	} else if countCap > 0 {
		res.Total, err = x.countUpTo(ctx, plan.match, where, args, countCap)
		if res.Total > countCap {
			res.Total, res.AtLeast = countCap, true
		}
	} else {
		err = x.queryRow(ctx, `SELECT count(*) FROM memory_fts f JOIN memory_entries e ON e.id = f.rowid WHERE memory_fts MATCH ?`+where,
			append([]any{plan.match}, args...)...).Scan(&res.Total)
	}
	if err != nil {
		return res, fmt.Errorf("count memory: %w", err)
	}
	return res, nil
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
	filter, args := filters(store.MemoryQuery{Types: s.Types, Before: s.Before})
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
		res, err := x.exec(ctx, qMemDelete, int64(id))
		if err != nil {
			return 0, fmt.Errorf("delete memory %s: %w", id, err)
		}
		k, _ := res.RowsAffected()
		if k == 0 {
			continue
		}
		n++
		if _, err := x.exec(ctx, qFTSDelete, int64(id)); err != nil {
			return 0, fmt.Errorf("delete memory %s: %w", id, err)
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

func (x *txn) CreateSession(ctx context.Context, s memory.Session) (memory.Session, error) {
	var id int64
	if err := x.queryRow(ctx, qAddSession, int64(s.ThreadID), s.Agent, s.Branch, micros(s.StartedAt), nullMicros(s.EndedAt)).Scan(&id); err != nil {
		return memory.Session{}, fmt.Errorf("start session: %w", err)
	}
	s.ID = memory.SessionID(id)
	if s.ThreadID == 0 {
		s.ThreadID = s.ID
	}
	if err := x.UpdateSession(ctx, s); err != nil {
		return memory.Session{}, err
	}
	return s, nil
}

func (x *txn) UpdateSession(ctx context.Context, s memory.Session) error {
	doc, err := json.Marshal(s)
	if err != nil {
		return fmt.Errorf("encode session %s: %w", s.ID, err)
	}
	res, err := x.exec(ctx, qUpdateSession, int64(s.ThreadID), s.Agent, s.Branch, micros(s.StartedAt), nullMicros(s.EndedAt), string(doc), int64(s.ID))
	if err != nil {
		return fmt.Errorf("save session %s: %w", s.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return &memory.NotFoundError{Kind: "session", ID: s.ID.String()}
	}
	return nil
}

func (x *txn) Session(ctx context.Context, id memory.SessionID) (memory.Session, error) {
	var doc string
	err := x.queryRow(ctx, qSession, int64(id)).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.Session{}, &memory.NotFoundError{Kind: "session", ID: id.String()}
	}
	if err != nil {
		return memory.Session{}, fmt.Errorf("read session %s: %w", id, err)
	}
	var s memory.Session
	if err := json.Unmarshal([]byte(doc), &s); err != nil {
		return memory.Session{}, fmt.Errorf("decode session %s: %w", id, err)
	}
	return s, nil
}

func (x *txn) Sessions(ctx context.Context, q store.SessionQuery) ([]memory.Session, int, error) {
	limit := q.Limit
	if limit <= 0 {
		limit = 20
	}
	var (
		where strings.Builder
		args  []any
	)
	if q.ThreadID != 0 {
		where.WriteString(" AND thread_id = ?")
		args = append(args, int64(q.ThreadID))
	}
	if q.Agent != "" {
		where.WriteString(" AND agent = ?")
		args = append(args, q.Agent)
	}
	if q.Branch != "" {
		where.WriteString(" AND branch = ?")
		args = append(args, q.Branch)
	}
	if q.OpenOnly {
		where.WriteString(" AND ended_at IS NULL")
	}
	var total int
	if err := x.queryRow(ctx, `SELECT count(*) FROM sessions WHERE 1`+where.String(), args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count sessions: %w", err)
	}
	rows, err := x.query(ctx, `SELECT doc FROM sessions WHERE 1`+where.String()+` ORDER BY id DESC LIMIT ? OFFSET ?`, append(args, limit, q.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []memory.Session
	for rows.Next() {
		var doc string
		var s memory.Session
		if err := rows.Scan(&doc); err != nil {
			return nil, 0, fmt.Errorf("list sessions: %w", err)
		}
		if err := json.Unmarshal([]byte(doc), &s); err != nil {
			return nil, 0, fmt.Errorf("decode session: %w", err)
		}
		out = append(out, s)
	}
	return out, total, rows.Err()
}

func (x *txn) BranchContext(ctx context.Context, branch string) (memory.BranchContext, bool, error) {
	var doc string
	err := x.queryRow(ctx, qBranch, branch).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return memory.BranchContext{}, false, nil
	}
	if err != nil {
		return memory.BranchContext{}, false, fmt.Errorf("read branch %s: %w", branch, err)
	}
	var b memory.BranchContext
	if err := json.Unmarshal([]byte(doc), &b); err != nil {
		return memory.BranchContext{}, false, fmt.Errorf("decode branch %s: %w", branch, err)
	}
	return b, true, nil
}

func (x *txn) SetBranchContext(ctx context.Context, b memory.BranchContext) error {
	doc, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("encode branch %s: %w", b.Branch, err)
	}
	if _, err := x.exec(ctx, qSetBranch, b.Branch, micros(b.UpdatedAt), string(doc)); err != nil {
		return fmt.Errorf("save branch %s: %w", b.Branch, err)
	}
	return nil
}

func (x *txn) BranchContexts(ctx context.Context) ([]memory.BranchContext, error) {
	rows, err := x.query(ctx, qBranches)
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	defer rows.Close()
	var out []memory.BranchContext
	for rows.Next() {
		var doc string
		var b memory.BranchContext
		if err := rows.Scan(&doc); err != nil {
			return nil, fmt.Errorf("list branches: %w", err)
		}
		if err := json.Unmarshal([]byte(doc), &b); err != nil {
			return nil, fmt.Errorf("decode branch: %w", err)
		}
		out = append(out, b)
	}
	return out, rows.Err()
}
