package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/rank"
)

// memColumns are memory_entries' columns as the store reads and writes
// them (project_id and the full-text columns aside): the one list that the
// select lists, the insert and update statements, their arguments and the
// scan destinations are all made from.
var memColumns = []memColumn{
	{name: "id", dest: func(r *memRow) any { return &r.id }},
	{name: "uid", arg: func(e memory.Entry) any { return e.UID }, dest: func(r *memRow) any { return &r.e.UID }},
	{name: "type", arg: func(e memory.Entry) any { return string(e.Type) }, dest: func(r *memRow) any { return &r.typ }},
	{name: "title", arg: func(e memory.Entry) any { return e.Title }, dest: func(r *memRow) any { return &r.e.Title }},
	{name: "content", hit: "''", arg: func(e memory.Entry) any { return e.Content }, dest: func(r *memRow) any { return &r.e.Content }},
	{name: "facts", hit: "NULL::text[]", arg: func(e memory.Entry) any { return list(e.Facts) }, dest: func(r *memRow) any { return &r.facts }},
	{name: "tags", arg: func(e memory.Entry) any { return list(e.Tags) }, dest: func(r *memRow) any { return &r.tags }},
	{name: "files", hit: "NULL::text[]", arg: func(e memory.Entry) any { return list(e.Files) }, dest: func(r *memRow) any { return &r.files }},
	{name: "session_id", arg: func(e memory.Entry) any { return e.SessionID }, dest: func(r *memRow) any { return &r.e.SessionID }},
	{name: "branch", arg: func(e memory.Entry) any { return e.Branch }, dest: func(r *memRow) any { return &r.e.Branch }},
	{name: "occurrences", arg: func(e memory.Entry) any { return int32(e.Occurrences) }, dest: func(r *memRow) any { return &r.occ }},
	{name: "details", hit: "NULL::jsonb", arg: func(e memory.Entry) any { return nullJSON(e.Details()) }, dest: func(r *memRow) any { return &r.details }},
	{name: "file_hashes", arg: func(e memory.Entry) any { return jsonMap(e.FileHashes) }, dest: func(r *memRow) any { return &r.hashes }},
	{name: "superseded_by", arg: func(e memory.Entry) any { return nullMemID(e.SupersededBy) }, dest: func(r *memRow) any { return &r.supersededBy }},
	{name: "expires_at", arg: func(e memory.Entry) any { return nullTS(e.ExpiresAt) }, dest: func(r *memRow) any { return &r.expires }},
	{name: "fingerprint", arg: func(e memory.Entry) any { return fingerprint(e) }},
	{name: "search_body", arg: func(e memory.Entry) any { return e.SearchText() }},
	{name: "created_at", arg: func(e memory.Entry) any { return ts(e.CreatedAt) }, dest: func(r *memRow) any { return &r.created }},
	{name: "updated_at", arg: func(e memory.Entry) any { return ts(e.UpdatedAt) }, dest: func(r *memRow) any { return &r.updated }},
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

var (
	// memCols are an entry's columns, memHitCols the same with no text
	// beyond the title (what a search lists); scanMemory reads either.
	memCols    = selectList(false)
	memHitCols = selectList(true)
)

var (
	qMemoriesByID  = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.id = ANY($2)`
	qMemory        = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.id = $2`
	qMemoryByUID   = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.uid = $2`
	qMistakeByFP   = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.fingerprint = $2`
	qOlder         = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.id < $2 AND e.superseded_by IS NULL ORDER BY e.id DESC LIMIT $3`
	qNewer         = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.id > $2 AND e.superseded_by IS NULL ORDER BY e.id LIMIT $3`
	qOlderSession  = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.session_id = $4 AND e.id < $2 AND e.superseded_by IS NULL ORDER BY e.id DESC LIMIT $3`
	qNewerSession  = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.session_id = $4 AND e.id > $2 AND e.superseded_by IS NULL ORDER BY e.id LIMIT $3`
	qMissingVector = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND NOT EXISTS
	(SELECT 1 FROM memory_vectors v WHERE v.project_id = $1 AND v.entry_id = e.id AND v.model = $2) ORDER BY e.id LIMIT $3`
)

const (
	qSupersedes  = `SELECT superseded_by, id FROM memory_entries WHERE project_id = $1 AND superseded_by = ANY($2) ORDER BY id`
	qMemDelete   = `DELETE FROM memory_entries WHERE project_id = $1 AND id = ANY($2)`
	qUnsupersede = `UPDATE memory_entries SET superseded_by = NULL WHERE project_id = $1 AND superseded_by = ANY($2)`
	// An occurrence of a missing entry inserts nothing (rather than
	// failing, which would abort the transaction).
	qAddOccurrence = `INSERT INTO memory_occurrences (project_id, entry_id, n, at, session_id, branch, title, content, extra)
	SELECT $1, id, $3, $4, $5, $6, $7, $8, $9 FROM memory_entries WHERE project_id = $1 AND id = $2`
	qOccurrences = `SELECT n, at, session_id, branch, title, content, extra FROM memory_occurrences
	WHERE project_id = $1 AND entry_id = $2 ORDER BY n DESC LIMIT $3`
	qSetVector = `INSERT INTO memory_vectors (project_id, entry_id, model, vec) SELECT $1, id, $3, $4 FROM memory_entries WHERE project_id = $1 AND id = $2
	ON CONFLICT (project_id, entry_id, model) DO UPDATE SET vec = excluded.vec`
	qCountVectors = `SELECT (SELECT count(*) FROM memory_vectors WHERE project_id = $1 AND model = $2),
	(SELECT count(*) FROM memory_entries WHERE project_id = $1)`
	qAddSession = `WITH nid AS (UPDATE projects SET next_session_id = next_session_id + 1 WHERE id = $1 RETURNING next_session_id - 1 AS id)
	INSERT INTO sessions (project_id, id, thread_id, agent, branch, started_at, ended_at, doc)
	SELECT $1, nid.id, $2, $3, $4, $5, $6, '{}' FROM nid RETURNING id`
	qUpdateSession = `UPDATE sessions SET thread_id = $3, agent = $4, branch = $5, started_at = $6, ended_at = $7, doc = $8 WHERE project_id = $1 AND id = $2`
	qSession       = `SELECT doc FROM sessions WHERE project_id = $1 AND id = $2`
	qBranch        = `SELECT doc FROM branch_contexts WHERE project_id = $1 AND branch = $2`
	qSetBranch     = `INSERT INTO branch_contexts (project_id, branch, updated_at, doc) VALUES ($1, $2, $3, $4)
	ON CONFLICT (project_id, branch) DO UPDATE SET updated_at = excluded.updated_at, doc = excluded.doc`
	qBranches = `SELECT doc FROM branch_contexts WHERE project_id = $1 ORDER BY updated_at DESC, branch`
)

// writeMemory renders the insert (id 0) or update of e: the written
// columns, each a parameter.
func (x *txn) writeMemory(e memory.Entry, id memory.ID) (string, []any) {
	p := &params{args: []any{x.p}}
	var names, vals []string
	for _, c := range memColumns {
		if c.arg == nil {
			continue
		}
		names, vals = append(names, c.name), append(vals, p.add(c.arg(e)))
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

// hiddenBudget bounds the superseded and expired entries a search drops
// after ranking; past it, it filters them as it reads postings.
const hiddenBudget = 256

// hiddenIDs returns the entries q leaves out for being superseded or
// expired, up to hiddenBudget+1 of them.
func (x *txn) hiddenIDs(ctx context.Context, q store.MemoryQuery) ([]int64, error) {
	p := &params{args: []any{x.p}}
	var parts []string
	if !q.IncludeSuperseded {
		parts = append(parts, `SELECT id FROM memory_entries WHERE project_id = $1 AND superseded_by IS NOT NULL`)
	}
	if !q.Now.IsZero() {
		parts = append(parts, `SELECT id FROM memory_entries WHERE project_id = $1 AND expires_at IS NOT NULL AND expires_at <= `+p.add(ts(q.Now)))
	}
	if len(parts) == 0 {
		return nil, nil
	}
	rows, err := x.tx.Query(ctx, strings.Join(parts, " UNION ")+` LIMIT `+p.add(int64(hiddenBudget+1)), p.args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// list stores an empty list as NULL, so it reads back as nil.
func list(l []string) []string {
	if len(l) == 0 {
		return nil
	}
	return l
}

func jsonMap(m map[string]string) any {
	if len(m) == 0 {
		return nil
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func nullJSON(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

func nullMemID(id memory.ID) *int64 {
	if id == 0 {
		return nil
	}
	v := int64(id)
	return &v
}

func fingerprint(e memory.Entry) *string {
	if e.Type != memory.Mistake {
		return nil
	}
	fp := memory.Fingerprint(e.Title)
	return &fp
}

// scanMemory reads one row of memCols or memHitCols, plus extra.
func scanMemory(row pgx.Row, extra ...any) (memory.Entry, error) {
	var r memRow
	dest := make([]any, 0, len(memColumns)+len(extra))
	for _, c := range memColumns {
		if c.dest != nil {
			dest = append(dest, c.dest(&r))
		}
	}
	if err := row.Scan(append(dest, extra...)...); err != nil {
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

func (x *txn) AddMemory(ctx context.Context, e memory.Entry) (memory.Entry, error) {
	if e.UID == "" {
		e.UID = memory.NewUID()
	}
	// ON CONFLICT DO NOTHING: a duplicate (uid, or a mistake's
	// fingerprint) inserts no row instead of failing, so the transaction
	// stays usable and the caller can count an occurrence in it.
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
	return e, nil
}

func (x *txn) UpdateMemory(ctx context.Context, e memory.Entry) error {
	q, args := x.writeMemory(e, e.ID)
	tag, err := x.tx.Exec(ctx, q, args...)
	if err != nil {
		if pgCode(err) == uniqueViolation {
			return fmt.Errorf("update memory %s: %w", e.ID, store.ErrDuplicate)
		}
		return fmt.Errorf("update memory %s: %w", e.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return &memory.NotFoundError{Kind: "entry", ID: e.ID.String()}
	}
	x.changed()
	if err := x.index(ctx, e); err != nil {
		return fmt.Errorf("index memory %s: %w", e.ID, err)
	}
	if err := x.repost(ctx, e.ID); err != nil {
		return fmt.Errorf("index memory %s: %w", e.ID, err)
	}
	return nil
}

// qBefore is the entries a new entry's dialogue context comes from
// (rank.Context); qNext, those whose context holds an entry.
var (
	qBefore = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.id < $2 ORDER BY e.id DESC LIMIT ` + strconv.Itoa(rank.ContextDepth)
	qNext   = `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1 AND e.id > $2 ORDER BY e.id LIMIT ` + strconv.Itoa(rank.ContextDepth)
)

// repost indexes again the entries whose dialogue context (rank.Context)
// holds the entries at ids, after those changed or went, so the index stays
// the one adding the entries as they are now would build.
func (x *txn) repost(ctx context.Context, ids ...memory.ID) error {
	done := map[memory.ID]bool{}
	for _, id := range ids {
		next, err := x.scanMemories(ctx, qNext, x.p, int64(id))
		if err != nil {
			return err
		}
		for _, f := range next {
			if done[f.ID] || slices.Contains(ids, f.ID) {
				continue
			}
			done[f.ID] = true
			if err := x.index(ctx, f); err != nil {
				return err
			}
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

func (x *txn) Memories(ctx context.Context, ids []memory.ID) ([]memory.Entry, error) {
	if len(ids) == 0 {
		return []memory.Entry{}, nil
	}
	found, err := x.scanMemories(ctx, qMemoriesByID, x.p, memIDs(ids))
	if err != nil {
		return nil, fmt.Errorf("read memory: %w", err)
	}
	byID := make(map[memory.ID]memory.Entry, len(found))
	for _, e := range found {
		byID[e.ID] = e
	}
	rows, err := x.tx.Query(ctx, qSupersedes, x.p, memIDs(ids))
	if err != nil {
		return nil, fmt.Errorf("read memory: %w", err)
	}
	for rows.Next() {
		var by, old int64
		if err := rows.Scan(&by, &old); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read memory: %w", err)
		}
		e := byID[memory.ID(by)]
		e.Supersedes = append(e.Supersedes, memory.ID(old))
		byID[memory.ID(by)] = e
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read memory: %w", err)
	}
	out := make([]memory.Entry, 0, len(ids))
	for _, id := range ids {
		if e, ok := byID[id]; ok {
			out = append(out, e)
		}
	}
	return out, nil
}

func (x *txn) one(ctx context.Context, q string, arg any) (memory.Entry, bool, error) {
	e, err := scanMemory(x.tx.QueryRow(ctx, q, x.p, arg))
	if errors.Is(err, pgx.ErrNoRows) {
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

func (x *txn) AddOccurrence(ctx context.Context, id memory.ID, o memory.Occurrence) error {
	tag, err := x.tx.Exec(ctx, qAddOccurrence, x.p, int64(id), int32(o.N), ts(o.At), o.SessionID, o.Branch, o.Title, o.Content, nullJSON(o.Extra()))
	if err != nil {
		return fmt.Errorf("record occurrence %d of %s: %w", o.N, id, err)
	}
	if tag.RowsAffected() == 0 {
		return &memory.NotFoundError{Kind: "entry", ID: id.String()}
	}
	x.changed()
	return nil
}

func (x *txn) Occurrences(ctx context.Context, id memory.ID, limit int) ([]memory.Occurrence, error) {
	rows, err := x.tx.Query(ctx, qOccurrences, x.p, int64(id), limitOf(limit))
	if err != nil {
		return nil, fmt.Errorf("read occurrences of %s: %w", id, err)
	}
	defer rows.Close()
	var out []memory.Occurrence
	for rows.Next() {
		var (
			o     memory.Occurrence
			n     int32
			at    time.Time
			extra []byte
		)
		if err := rows.Scan(&n, &at, &o.SessionID, &o.Branch, &o.Title, &o.Content, &extra); err != nil {
			return nil, fmt.Errorf("read occurrences of %s: %w", id, err)
		}
		o.N, o.At = int(n), at.UTC()
		if err := o.SetExtra(extra); err != nil {
			return nil, fmt.Errorf("read occurrences of %s: %w", id, err)
		}
		out = append(out, o)
	}
	return out, rows.Err()
}

// params numbers a statement's arguments as they are added.
type params struct{ args []any }

func (p *params) add(v any) string {
	p.args = append(p.args, v)
	return "$" + strconv.Itoa(len(p.args))
}

// memFilters renders q's filters as AND clauses on e.
func memFilters(q store.MemoryQuery, p *params) string {
	var b strings.Builder
	if len(q.Types) > 0 {
		b.WriteString(" AND e.type = ANY(" + p.add(strs(q.Types)) + ")")
	}
	if len(q.Tags) > 0 {
		b.WriteString(" AND e.tags && " + p.add(q.Tags) + "::text[]")
	}
	if q.SessionID != "" {
		b.WriteString(" AND e.session_id = " + p.add(q.SessionID))
	}
	if q.Branch != "" {
		b.WriteString(" AND e.branch = " + p.add(q.Branch))
	}
	if !q.After.IsZero() {
		b.WriteString(" AND e.created_at >= " + p.add(ts(q.After)))
	}
	if !q.Before.IsZero() {
		b.WriteString(" AND e.created_at < " + p.add(ts(q.Before)))
	}
	if !q.IncludeSuperseded {
		b.WriteString(" AND e.superseded_by IS NULL")
	}
	if !q.Now.IsZero() {
		b.WriteString(" AND (e.expires_at IS NULL OR e.expires_at > " + p.add(ts(q.Now)) + ")")
	}
	return b.String()
}

// source is the full-text index as one search sees it: rank.Source with
// the query's filters applied to the postings it reads.
type source struct {
	x     *txn
	q     store.MemoryQuery
	stats bool // docs and len are read
	docs  int64
	len   float64
}

func (s source) filtered() bool {
	return memFilters(s.q, &params{}) != ""
}

func (s *source) Stats(ctx context.Context) (int, float64, error) {
	if !s.stats {
		if err := s.x.tx.QueryRow(ctx, `SELECT memory_docs, memory_len FROM projects WHERE id = $1`, s.x.p).Scan(&s.docs, &s.len); err != nil {
			return 0, 0, err
		}
	}
	return int(s.docs), s.len, nil
}

// DF reads the project's counts with the terms', in one round trip.
func (s *source) DF(ctx context.Context, terms []string) (map[string]int, error) {
	rows, err := s.x.tx.Query(ctx, `SELECT '', memory_docs, memory_len FROM projects WHERE id = $1
	UNION ALL SELECT term, df, 0 FROM memory_terms WHERE project_id = $1 AND term = ANY($2) AND df > 0`, s.x.p, terms)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string]int, len(terms))
	for rows.Next() {
		var (
			t   string
			n   int64
			len float64
		)
		if err := rows.Scan(&t, &n, &len); err != nil {
			return nil, err
		}
		if t == "" {
			s.docs, s.len, s.stats = n, len, true
			continue
		}
		out[t] = int(n)
	}
	return out, rows.Err()
}

func (s source) Top(ctx context.Context, terms []string, limits []int) ([][]rank.Posting, error) {
	lims := make([]int32, len(limits))
	for i, l := range limits {
		lims[i] = int32(l)
	}
	p := &params{args: []any{s.x.p, terms, lims}}
	where := memFilters(s.q, p)
	from := `memory_postings p`
	if where != "" {
		from += ` JOIN memory_entries e ON e.project_id = p.project_id AND e.id = p.entry_id`
	}
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

func (s source) Lookup(ctx context.Context, terms []string, entries []int64) (map[string][]rank.Posting, error) {
	rows, err := s.x.tx.Query(ctx, `SELECT term, entry_id, tf, dl FROM memory_postings WHERE project_id = $1 AND term = ANY($2)
	AND entry_id = ANY($3)`, s.x.p, terms, entries)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[string][]rank.Posting, len(terms))
	for rows.Next() {
		var (
			t      string
			p      rank.Posting
			tf, dl float32
		)
		if err := rows.Scan(&t, &p.Entry, &tf, &dl); err != nil {
			return nil, err
		}
		p.TF, p.Len = float64(tf), float64(dl)
		out[t] = append(out[t], p)
	}
	return out, rows.Err()
}

// snippetWords is how long a hit's snippet is.
const snippetWords = 16

// SearchMemory ranks every entry holding any of the query's terms by BM25
// (internal/store/rank), within the same fixed amount of work as the
// embedded store, and gives the same answers.
func (x *txn) SearchMemory(ctx context.Context, q store.MemoryQuery) (store.MemoryResult, error) {
	var res store.MemoryResult
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	offset := max(q.Offset, 0)
	terms := memory.Terms(q.Text)
	if len(terms) == 0 && strings.TrimSpace(q.Text) != "" {
		return res, nil // stopwords alone: they would match everything
	}
	if len(terms) == 0 {
		hits, total, err := x.recentMemory(ctx, q, limit, offset)
		return store.MemoryResult{Hits: hits, Total: total}, err
	}
	if err := x.flushTerms(ctx); err != nil { // this transaction's own entries count
		return res, fmt.Errorf("search memory: %w", err)
	}
	if x.genericSearch {
		// The search's statements take arrays of terms and entries; for
		// some of them PostgreSQL's custom plan (plan_cache_mode auto, the
		// default, and Cairn's until the tasks table has statistics; see
		// genericPlans) reads the project's every posting: a p99 of 0.6 s
		// at 10,000 entries, against 7 ms with the generic plan.
		if _, err := x.tx.Exec(ctx, `SET LOCAL plan_cache_mode = force_generic_plan`); err != nil {
			return res, fmt.Errorf("search memory: %w", err)
		}
	}
	// Superseded and expired entries are few: rather than join every
	// posting read with its entry to leave them out (which costs the
	// unfiltered search its fast path), rank as many more and drop them.
	k := offset + limit
	hidden, err := x.hiddenIDs(ctx, q)
	if err != nil {
		return res, fmt.Errorf("search memory: %w", err)
	}
	src := &source{x: x, q: q}
	if len(hidden) <= hiddenBudget {
		src.q.IncludeSuperseded, src.q.Now = true, time.Time{}
		k += len(hidden)
	} else {
		hidden = nil // too many to drop afterwards: filter as postings are read
	}
	r, err := rank.Search(ctx, src, rank.NewQuery(q.Text, terms), k)
	if err != nil {
		return res, fmt.Errorf("search memory: %w", err)
	}
	res.Total, res.AtLeast = r.Total, r.AtLeast
	if r.AtLeast && !src.filtered() {
		res.Total = max(res.Total, r.MaxDF)
	}
	if len(hidden) > 0 {
		var n int64
		if err := x.tx.QueryRow(ctx, `SELECT count(DISTINCT entry_id) FROM memory_postings WHERE project_id = $1 AND term = ANY($2) AND entry_id = ANY($3)`,
			x.p, terms, hidden).Scan(&n); err != nil {
			return res, fmt.Errorf("search memory: %w", err)
		}
		r.Hits = rank.Drop(r.Hits, hidden)
		res.Total = max(res.Total-int(n), len(r.Hits))
		if len(r.Hits) > offset+limit {
			r.Hits = r.Hits[:offset+limit]
		}
	}
	if offset >= len(r.Hits) {
		return res, nil
	}
	page := r.Hits[offset:]
	ids := make([]memory.ID, len(page))
	for i, h := range page {
		ids[i] = memory.ID(h.Entry)
	}
	es, err := x.Memories(ctx, ids)
	if err != nil {
		return res, fmt.Errorf("search memory: %w", err)
	}
	for i, e := range es { // in the order asked
		res.Hits = append(res.Hits, store.MemoryHit{Entry: hitOnly(e), Snippet: memory.Snippet(e.SearchText(), terms, snippetWords), Score: scoreOf(page, e.ID, i)})
	}
	return res, nil
}

func scoreOf(page []rank.Scored, id memory.ID, i int) float64 {
	if i < len(page) && page[i].Entry == int64(id) {
		return page[i].Score
	}
	for _, h := range page {
		if h.Entry == int64(id) {
			return h.Score
		}
	}
	return 0
}

// hitOnly is e as a search lists it: without its content and the
// type-specific text.
func hitOnly(e memory.Entry) memory.Entry {
	return memory.Entry{ID: e.ID, UID: e.UID, Type: e.Type, Title: e.Title, Tags: e.Tags, SessionID: e.SessionID,
		Branch: e.Branch, Occurrences: e.Occurrences, DiscoveryTokens: e.DiscoveryTokens, FileHashes: e.FileHashes,
		SupersededBy: e.SupersededBy, ExpiresAt: e.ExpiresAt, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
}

// recentMemory lists the entries q's filters select, newest first: a
// search without words.
func (x *txn) recentMemory(ctx context.Context, q store.MemoryQuery, limit, offset int) ([]store.MemoryHit, int, error) {
	p := &params{args: []any{x.p}}
	where := memFilters(q, p)
	list := `SELECT ` + memHitCols + `, left(e.content, 160), 0.0::float8 FROM memory_entries e WHERE e.project_id = $1` + where +
		` ORDER BY e.id DESC`
	count := `SELECT count(*) FROM memory_entries e WHERE e.project_id = $1` + where
	countArgs := slices.Clone(p.args)
	list += ` LIMIT ` + p.add(int64(limit)) + ` OFFSET ` + p.add(int64(offset))
	rows, err := x.tx.Query(ctx, list, p.args...)
	if err != nil {
		return nil, 0, fmt.Errorf("search memory: %w", err)
	}
	var hits []store.MemoryHit
	for rows.Next() {
		var h store.MemoryHit
		if h.Entry, err = scanMemory(rows, &h.Snippet, &h.Score); err != nil {
			rows.Close()
			return nil, 0, fmt.Errorf("search memory: %w", err)
		}
		hits = append(hits, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("search memory: %w", err)
	}
	total := offset + len(hits)
	if len(hits) == limit || (len(hits) == 0 && offset > 0) {
		var n int64
		if err := x.tx.QueryRow(ctx, count, countArgs...).Scan(&n); err != nil {
			return nil, 0, fmt.Errorf("count memory: %w", err)
		}
		total = int(n)
	}
	return hits, total, nil
}

// Index upkeep: see migrations/0004_memory_postings.sql.
const (
	qUnindex = `WITH d AS (DELETE FROM memory_postings WHERE project_id = $1 AND entry_id = ANY($2) RETURNING term, entry_id, dl),
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
}

func (x *txn) counts(ctx context.Context) (*termCounts, error) {
	if x.terms != nil {
		return x.terms, nil
	}
	c := &termCounts{df: map[string]int{}}
	if err := x.tx.QueryRow(ctx, `SELECT memory_docs, memory_len FROM projects WHERE id = $1`, x.p).Scan(&c.baseDocs, &c.baseLen); err != nil {
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
	d := rank.Analyze(e.Title, e.SearchText(), e.Tags, rank.Context(e, prev...)...)
	if len(d.TF) == 0 {
		return nil
	}
	c, err := x.counts(ctx)
	if err != nil {
		return err
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
// built it (or none: a project migrated from tsvector search).
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
	start := time.Now()
	if entries == 0 { // a new project
		log = slog.New(slog.DiscardHandler)
	}
	log.Warn("rebuilding the memory search index for this version of Cairn; searches and writes wait until it is done",
		"entries", entries, "analyzer", memory.AnalyzerVersion, "was", analyzer)
	for _, q := range []string{`DELETE FROM memory_postings WHERE project_id = $1`, `DELETE FROM memory_terms WHERE project_id = $1`,
		`UPDATE projects SET memory_docs = 0, memory_len = 0, memory_analyzer = ` + strconv.Itoa(memory.AnalyzerVersion) + ` WHERE id = $1`} {
		if _, err := x.tx.Exec(ctx, q, x.p); err != nil {
			return fmt.Errorf("reset memory index: %w", err)
		}
	}
	x.changed()
	done, reported := 0, start
	for after := int64(0); ; {
		es, err := x.scanMemories(ctx, `SELECT `+memCols+` FROM memory_entries e WHERE e.project_id = $1 AND e.id > $2 ORDER BY e.id LIMIT 500`, x.p, after)
		if err != nil {
			return fmt.Errorf("reindex memory: %w", err)
		}
		if len(es) == 0 {
			log.Warn("rebuilt the memory search index", "entries", done, "took", time.Since(start).Round(time.Millisecond))
			return nil
		}
		for _, e := range es {
			if err := x.post(ctx, e); err != nil {
				return fmt.Errorf("reindex memory %s: %w", e.ID, err)
			}
		}
		after = int64(es[len(es)-1].ID)
		if done += len(es); time.Since(reported) >= 5*time.Second {
			reported = time.Now()
			log.Info("rebuilding the memory search index", "done", done, "entries", entries)
		}
	}
}

func (x *txn) MemoryTimeline(ctx context.Context, anchor memory.ID, before, after int, sameSession bool) ([]memory.Entry, []memory.Entry, error) {
	a, err := scanMemory(x.tx.QueryRow(ctx, qMemory, x.p, int64(anchor)))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, &memory.NotFoundError{Kind: "entry", ID: anchor.String()}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read memory %s: %w", anchor, err)
	}
	var older, newer []memory.Entry
	if sameSession && a.SessionID != "" {
		older, err = x.scanMemories(ctx, qOlderSession, x.p, int64(anchor), int64(max(before, 0)), a.SessionID)
		if err == nil {
			newer, err = x.scanMemories(ctx, qNewerSession, x.p, int64(anchor), int64(max(after, 0)), a.SessionID)
		}
	} else {
		older, err = x.scanMemories(ctx, qOlder, x.p, int64(anchor), int64(max(before, 0)))
		if err == nil {
			newer, err = x.scanMemories(ctx, qNewer, x.p, int64(anchor), int64(max(after, 0)))
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read timeline of %s: %w", anchor, err)
	}
	slices.Reverse(older)
	return older, newer, nil
}

func (x *txn) SelectMemories(ctx context.Context, s store.MemorySelector) ([]memory.Entry, int, error) {
	p := &params{args: []any{x.p}}
	var where strings.Builder
	if len(s.IDs) > 0 {
		where.WriteString(" AND e.id = ANY(" + p.add(memIDs(s.IDs)) + ")")
	}
	if len(s.Types) > 0 {
		where.WriteString(" AND e.type = ANY(" + p.add(strs(s.Types)) + ")")
	}
	if !s.Before.IsZero() {
		where.WriteString(" AND e.created_at < " + p.add(ts(s.Before)))
	}
	var total int64
	if err := x.tx.QueryRow(ctx, `SELECT count(*) FROM memory_entries e WHERE e.project_id = $1`+where.String(), p.args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("select memory: %w", err)
	}
	q := `SELECT ` + memCols + ` FROM memory_entries e WHERE e.project_id = $1` + where.String() + ` ORDER BY e.id`
	if s.Limit > 0 {
		q += ` LIMIT ` + p.add(int64(s.Limit))
	}
	out, err := x.scanMemories(ctx, q, p.args...)
	if err != nil {
		return nil, 0, fmt.Errorf("select memory: %w", err)
	}
	return out, int(total), nil
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
		return &memory.NotFoundError{Kind: "entry", ID: id.String()}
	}
	x.changed()
	return nil
}

func (x *txn) MissingVectors(ctx context.Context, model string, limit int) ([]memory.Entry, error) {
	out, err := x.scanMemories(ctx, qMissingVector, x.p, model, limitOf(limit))
	if err != nil {
		return nil, fmt.Errorf("read entries without vectors: %w", err)
	}
	return out, nil
}

// NearestMemories reads the candidates' vectors and ranks them here by
// cosine similarity (no extension needed on the server).
func (x *txn) NearestMemories(ctx context.Context, model string, vec []float32, q store.MemoryQuery, limit int) ([]store.ScoredID, error) {
	p := &params{args: []any{x.p}}
	m := p.add(model)
	where := memFilters(q, p)
	rows, err := x.tx.Query(ctx, `SELECT v.entry_id, v.vec FROM memory_vectors v JOIN memory_entries e ON e.project_id = v.project_id AND e.id = v.entry_id
		WHERE v.project_id = $1 AND v.model = `+m+where, p.args...)
	if err != nil {
		return nil, fmt.Errorf("nearest memory: %w", err)
	}
	defer rows.Close()
	var out []store.ScoredID
	for rows.Next() {
		var (
			id int64
			v  []float32
		)
		if err := rows.Scan(&id, &v); err != nil {
			return nil, fmt.Errorf("nearest memory: %w", err)
		}
		out = append(out, store.ScoredID{ID: memory.ID(id), Score: cosine(vec, v)})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("nearest memory: %w", err)
	}
	slices.SortFunc(out, func(a, b store.ScoredID) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return int(a.ID - b.ID)
	})
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// cosine is the cosine similarity of a and b (0 when either is zero or
// their lengths differ).
func cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb))
}

func (x *txn) CountVectors(ctx context.Context, model string) (int, int, error) {
	var with, total int64
	if err := x.tx.QueryRow(ctx, qCountVectors, x.p, model).Scan(&with, &total); err != nil {
		return 0, 0, fmt.Errorf("count vectors: %w", err)
	}
	return int(with), int(total), nil
}

func (x *txn) CreateSession(ctx context.Context, s memory.Session) (memory.Session, error) {
	var id int64
	if err := x.tx.QueryRow(ctx, qAddSession, x.p, int64(s.ThreadID), s.Agent, s.Branch, ts(s.StartedAt), nullTS(s.EndedAt)).Scan(&id); err != nil {
		return memory.Session{}, fmt.Errorf("start session: %w", err)
	}
	x.changed()
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
	tag, err := x.tx.Exec(ctx, qUpdateSession, x.p, int64(s.ID), int64(s.ThreadID), s.Agent, s.Branch, ts(s.StartedAt), nullTS(s.EndedAt), string(doc))
	if err != nil {
		return fmt.Errorf("save session %s: %w", s.ID, err)
	}
	if tag.RowsAffected() == 0 {
		return &memory.NotFoundError{Kind: "session", ID: s.ID.String()}
	}
	x.changed()
	return nil
}

func (x *txn) Session(ctx context.Context, id memory.SessionID) (memory.Session, error) {
	var doc string
	err := x.tx.QueryRow(ctx, qSession, x.p, int64(id)).Scan(&doc)
	if errors.Is(err, pgx.ErrNoRows) {
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
	p := &params{args: []any{x.p}}
	var where strings.Builder
	if q.ThreadID != 0 {
		where.WriteString(" AND thread_id = " + p.add(int64(q.ThreadID)))
	}
	if q.Agent != "" {
		where.WriteString(" AND agent = " + p.add(q.Agent))
	}
	if q.Branch != "" {
		where.WriteString(" AND branch = " + p.add(q.Branch))
	}
	if q.OpenOnly {
		where.WriteString(" AND ended_at IS NULL")
	}
	var total int64
	if err := x.tx.QueryRow(ctx, `SELECT count(*) FROM sessions WHERE project_id = $1`+where.String(), p.args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count sessions: %w", err)
	}
	list := `SELECT doc FROM sessions WHERE project_id = $1` + where.String() + ` ORDER BY id DESC`
	list += ` LIMIT ` + p.add(int64(limit)) + ` OFFSET ` + p.add(int64(max(q.Offset, 0)))
	rows, err := x.tx.Query(ctx, list, p.args...)
	if err != nil {
		return nil, 0, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []memory.Session
	for rows.Next() {
		var (
			doc string
			s   memory.Session
		)
		if err := rows.Scan(&doc); err != nil {
			return nil, 0, fmt.Errorf("list sessions: %w", err)
		}
		if err := json.Unmarshal([]byte(doc), &s); err != nil {
			return nil, 0, fmt.Errorf("decode session: %w", err)
		}
		out = append(out, s)
	}
	return out, int(total), rows.Err()
}

func (x *txn) BranchContext(ctx context.Context, branch string) (memory.BranchContext, bool, error) {
	var doc string
	err := x.tx.QueryRow(ctx, qBranch, x.p, branch).Scan(&doc)
	if errors.Is(err, pgx.ErrNoRows) {
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
	if _, err := x.tx.Exec(ctx, qSetBranch, x.p, b.Branch, ts(b.UpdatedAt), string(doc)); err != nil {
		return fmt.Errorf("save branch %s: %w", b.Branch, err)
	}
	x.changed()
	return nil
}

func (x *txn) BranchContexts(ctx context.Context) ([]memory.BranchContext, error) {
	rows, err := x.tx.Query(ctx, qBranches, x.p)
	if err != nil {
		return nil, fmt.Errorf("list branches: %w", err)
	}
	defer rows.Close()
	var out []memory.BranchContext
	for rows.Next() {
		var (
			doc string
			b   memory.BranchContext
		)
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
