package memories

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/proc"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/words"
)

// Embedder turns texts into vectors: an embedding provider's client.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

// MemoryOptions configure the memory service.
type MemoryOptions struct {
	// Embedder, when set, adds semantic ranking; Model names its vectors so
	// a change of model never mixes them.
	Embedder Embedder
	Model    string
	// EmbedTimeout bounds the embedding of one write or one query; default
	// 5 s. A write is stored before it is embedded, so a slow or failed
	// provider never loses it.
	EmbedTimeout time.Duration
	// Now is the clock; nil is time.Now in UTC (a test fixes it).
	Now func() time.Time
	// Alive says whether a client's process still runs; nil asks the
	// system (proc.Alive). A session whose client has gone is ended.
	Alive func(memory.Proc) bool
	// Branch returns the current git branch ("" if unknown); entries and
	// sessions recorded without one get it.
	Branch func() string
	// Root is the project's directory, where an entry's files are found to
	// record their content hashes and tell when they changed; "" (a
	// project served without a directory) records none.
	Root   string
	Logger *slog.Logger
}

// Memory is the project's durable knowledge: typed entries with 3-layer
// search (index, timeline, full entries), sessions and branch contexts.
type Memory struct {
	store  store.Store
	opts   MemoryOptions
	now    func() time.Time
	hashes fileHashCache
	checks partChecks
	errs   readErrors
}

// NewMemory returns the memory service over s.
func NewMemory(s store.Store, opts MemoryOptions) *Memory {
	if opts.EmbedTimeout <= 0 {
		opts.EmbedTimeout = 5 * time.Second
	}
	if opts.Branch == nil {
		opts.Branch = func() string { return "" }
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Alive == nil {
		opts.Alive = proc.Alive
	}
	now := opts.Now
	if now == nil {
		now = func() time.Time { return time.Now().UTC() }
	}
	return &Memory{store: s, opts: opts, now: now}
}

// Semantic reports whether an embedding provider is configured.
func (m *Memory) Semantic() bool { return m.opts.Embedder != nil }

// Branch is the current git branch, "" if unknown.
func (m *Memory) Branch() string { return redactedBranch(m.opts.Branch()) }

// redactedBranch is a branch name as it is stored and shown: with what
// looks like a secret redacted (a branch named after a token, a ticket
// URL with a key), like every other text a session keeps.
func redactedBranch(b string) string {
	out, _ := redact.Redact(b)
	return out
}

// alive says whether a client's process still runs.
func (o MemoryOptions) alive(p memory.Proc) bool { return o.Alive(p) }

// Model names the embedding model that ranks searches with BM25, "" when
// none is configured.
func (m *Memory) Model() string { return m.opts.Model }

// Recorded is what a write to memory did.
type Recorded struct {
	Entry memory.Entry
	// Counted is set when a mistake was already known: the write is an
	// occurrence of Entry (Occurrence is its number) instead of a copy.
	Counted    bool
	Occurrence int
	// Of the analysis (root_cause, fix, prevention) a counted mistake
	// gave: what filled empty fields, what replaced the entry's (with
	// ReplaceAnalysis), and what differed and was kept with the occurrence
	// only.
	Added, Replaced, Kept []string
	// Superseded is the entry this one replaced, if any.
	Superseded memory.ID
	// Redacted counts the private spans and secrets removed before storage.
	Redacted int
	// EmbedError says why the entry has no vector yet ("" when it has one
	// or no provider is configured); `cairn memory backfill` retries.
	EmbedError string
}

// redactEntry removes private spans and secrets from every text field of e and
// returns how many it removed.
func redactEntry(e *memory.Entry) int {
	n := 0
	e.EachText(func(s *string) {
		out, r := redact.Redact(*s)
		*s, n = out, n+r.Total
	})
	one := func(s *string) {
		out, r := redact.Redact(*s)
		*s, n = out, n+r.Total
	}
	one(&e.Branch)
	// A tag is a slug: one that holds a secret is dropped (and counted),
	// since a marker is not a tag.
	tags := e.Tags[:0]
	for _, t := range e.Tags {
		if out, r := redact.Redact(t); r.Total > 0 || out != t {
			n += max(r.Total, 1)
			continue
		}
		tags = append(tags, t)
	}
	e.Tags = tags
	return n
}

// AddRequest is an entry to record and how.
type AddRequest struct {
	Entry memory.Entry
	// Supersedes names the entry this one replaces ("m12"): it is kept,
	// marked superseded, and left out of searches by default.
	Supersedes string
	// ReplaceAnalysis lets a known mistake's new root cause, fix and
	// prevention replace the recorded ones; by default the first stay and
	// the new ones are kept with the occurrence.
	ReplaceAnalysis bool
	// ExpiresInDays makes an observation stop being searched after that
	// many days (0: never).
	ExpiresInDays int
}

// MaxExpiryDays bounds ExpiresInDays.
const MaxExpiryDays = 3650

// Add records an entry for agent; see Record.
func (m *Memory) Add(ctx context.Context, agent string, e memory.Entry) (Recorded, error) {
	return m.Record(ctx, agent, AddRequest{Entry: e})
}

// Record records an entry for agent, in the agent's open session unless
// the entry names one. A mistake whose title matches a known mistake's
// (see memory.Fingerprint) is recorded as another occurrence of it (see
// memory.Fold) rather than a duplicate. Nothing changes when it fails.
func (m *Memory) Record(ctx context.Context, agent string, req AddRequest) (Recorded, error) {
	e := req.Entry
	redacted := redactEntry(&e)
	e.Normalize()
	if err := memory.Validate(e); err != nil {
		return Recorded{}, err
	}
	var supersedes memory.ID
	if s := strings.TrimSpace(req.Supersedes); s != "" {
		id, err := memory.ParseID(s)
		if err != nil {
			return Recorded{}, &problem.FieldError{Field: "supersedes", Problem: fmt.Sprintf("is %q, not an entry id", problem.Clip(s, 40)),
				Fix: `pass the id of the entry this one replaces, such as "m12", or leave it out`}
		}
		supersedes = id
	}
	if req.ExpiresInDays < 0 || req.ExpiresInDays > MaxExpiryDays {
		return Recorded{}, &problem.FieldError{Field: "expires_in_days", Problem: fmt.Sprintf("is %d", req.ExpiresInDays),
			Fix: fmt.Sprintf("pass 1 to %d days, or leave it out to keep the entry searchable", MaxExpiryDays)}
	}
	if req.ExpiresInDays > 0 && !e.Type.Observation() {
		return Recorded{}, &problem.FieldError{Field: "expires_in_days", Problem: "is set on a " + string(e.Type),
			Fix: "only observations expire; supersede a " + string(e.Type) + " that is no longer true instead"}
	}
	if e.Branch == "" {
		e.Branch = m.opts.Branch()
	}
	now := m.now()
	e.ID, e.UID, e.CreatedAt, e.UpdatedAt = 0, "", now, now
	e.SupersededBy, e.Supersedes = 0, nil
	e.ExpiresAt = time.Time{}
	if req.ExpiresInDays > 0 {
		e.ExpiresAt = now.Add(time.Duration(req.ExpiresInDays) * 24 * time.Hour)
	}
	e.FileHashes = m.markFiles(e)
	rec := Recorded{Redacted: redacted, Superseded: supersedes}
	write := func(tx store.Tx) error {
		rec = Recorded{Redacted: redacted, Superseded: supersedes} // a retried transaction starts over
		if e.SessionID == "" {
			if sid := memory.SessionFrom(ctx); sid != 0 {
				e.SessionID = sid.String()
			} else if agent != "" {
				open, _, err := tx.Sessions(ctx, store.SessionQuery{Agent: agent, OpenOnly: true, Limit: 1})
				if err != nil {
					return err
				}
				if len(open) > 0 {
					e.SessionID = open[0].ID.String()
				}
			}
		}

		if e.Type == memory.Mistake {
			known, ok, err := store.MistakeByFingerprint(ctx, tx, memory.Fingerprint(e.Title))
			if err != nil {
				return err
			}
			if ok {
				f := memory.Fold(known, e, req.ReplaceAnalysis)
				rec.Entry, rec.Counted, rec.Occurrence = f.Entry, true, f.Occurrence.N
				rec.Added, rec.Replaced, rec.Kept = f.Added, f.Replaced, f.Kept
				if err := supersede(ctx, tx, rec.Entry, supersedes); err != nil {
					return err
				}
				_, err := tx.PutMemory(ctx, rec.Entry, f.Occurrence)
				return err
			}
			e.Occurrences = 1
		}
		if supersedes != 0 {
			// Refused before the entry is added, so nothing changes.
			if err := supersede(ctx, tx, memory.Entry{}, supersedes); err != nil {
				return err
			}
		}
		var (
			err   error
			first []memory.Occurrence
		)
		if e.Type == memory.Mistake {
			first = append(first, memory.OccurrenceOf(e, 1))
		}
		if rec.Entry, err = tx.PutMemory(ctx, e, first...); err != nil {
			return err
		}
		if supersedes != 0 {
			return supersede(ctx, tx, rec.Entry, supersedes)
		}
		return nil
	}
	err := m.store.Update(ctx, func(tx store.Tx) error {
		if err := write(tx); err != nil {
			return err
		}
		// What is written in a session is the session's.
		sid, err := memory.ParseSessionID(e.SessionID)
		if err != nil {
			return nil
		}
		return tx.RecordEvent(ctx, memory.Event{Session: sid, Kind: memory.EventMemory, Key: rec.Entry.ID.String(),
			Subject: rec.Entry.ID.String(), Detail: string(rec.Entry.Type) + ": " + rec.Entry.Title, At: now})
	})
	if err != nil {
		if problem.Is(err, problem.Invalid) {
			return Recorded{}, err
		}
		return Recorded{}, fmt.Errorf("record %s: %w", e.Type, err)
	}
	rec.EmbedError = m.embedEntries(ctx, rec.Entry)
	return rec, nil
}

// supersede marks old as replaced by by. With a zero by (the entry is not
// added yet) it only checks that it may: old exists, is not already
// replaced by another entry, is not by itself, and the chain would not
// loop.
func supersede(ctx context.Context, tx store.Tx, by memory.Entry, old memory.ID) error {
	if old == 0 {
		return nil
	}
	if old == by.ID {
		return &problem.FieldError{Field: "supersedes", Problem: fmt.Sprintf("names %s, the entry this records (a known mistake counts on it)", old),
			Fix: "pass the id of an older entry this one replaces, or leave supersedes out"}
	}
	es, err := store.Memories(ctx, tx, []memory.ID{old}, 0)
	if err != nil {
		return err
	}
	if len(es) == 0 {
		return &problem.FieldError{Field: "supersedes", Problem: fmt.Sprintf("names %s, which does not exist", old),
			Fix: "pass the id of an entry that exists, or leave supersedes out", Hint: problem.SearchMemory}
	}
	target := es[0]
	if target.SupersededBy != 0 && target.SupersededBy != by.ID {
		return &problem.FieldError{Field: "supersedes", Problem: fmt.Sprintf("names %s, already superseded by %s", old, target.SupersededBy),
			Fix: fmt.Sprintf("pass %s, the entry that replaced it, instead", target.SupersededBy)}
	}
	if by.ID == 0 {
		return nil
	}
	// by must not be (transitively) superseded by old: the chain would loop.
	for cur, n := by, 0; cur.SupersededBy != 0 && n < 1000; n++ {
		if cur.SupersededBy == old {
			return &problem.FieldError{Field: "supersedes", Problem: fmt.Sprintf("names %s, which already supersedes %s: the chain would loop", old, by.ID),
				Fix: "pass no supersedes: the newer entry already replaces this one"}
		}
		next, err := store.Memories(ctx, tx, []memory.ID{cur.SupersededBy}, 0)
		if err != nil {
			return err
		}
		if len(next) == 0 {
			break
		}
		cur = next[0]
	}
	target.SupersededBy = by.ID
	_, err = tx.PutMemory(ctx, target)
	return err
}

// embedText is what an entry's vector is computed from.
func embedText(e memory.Entry) string {
	s := e.Title + "\n" + e.SearchText()
	if len(s) > 8000 { // a few thousand tokens: past that providers truncate or refuse
		s = s[:8000]
		for !utf8.ValidString(s) {
			s = s[:len(s)-1]
		}
	}
	return s
}

// embedEntries computes and stores the vectors of entries already stored,
// and returns why it could not ("" on success or with no provider).
func (m *Memory) embedEntries(ctx context.Context, es ...memory.Entry) string {
	if m.opts.Embedder == nil || len(es) == 0 {
		return ""
	}
	texts := make([]string, len(es))
	for i, e := range es {
		texts[i] = embedText(e)
	}
	ectx, cancel := context.WithTimeout(ctx, m.opts.EmbedTimeout)
	vecs, err := m.opts.Embedder.Embed(ectx, texts)
	cancel()
	if err == nil && len(vecs) != len(es) {
		err = fmt.Errorf("provider returned %d vectors for %d texts", len(vecs), len(es))
	}
	if err == nil {
		err = m.store.Update(ctx, func(tx store.Tx) error {
			for i, e := range es {
				if err := tx.SetMemoryVector(ctx, e.ID, m.opts.Model, vecs[i]); err != nil && !problem.Is(err, problem.NotFound) {
					return err
				}
			}
			return nil
		})
	}
	if err != nil {
		m.opts.Logger.Warn("embedding failed; entries are stored and can be backfilled", "entries", len(es), "error", err)
		return "not embedded yet (" + problem.Clip(err.Error(), 120) + "); `cairn memory backfill` retries"
	}
	return ""
}

// Backfill embeds up to limit entries that have no vector for the
// configured model, batch at a time, and returns how many it embedded and
// how many are still missing.
func (m *Memory) Backfill(ctx context.Context, batch, limit int) (done, missing int, err error) {
	if m.opts.Embedder == nil {
		return 0, 0, errors.New("no embedding provider is configured: set CAIRN_EMBED_URL and CAIRN_EMBED_MODEL")
	}
	if batch <= 0 {
		batch = 32
	}
	for limit <= 0 || done < limit {
		var es []memory.Entry
		if err := m.store.View(ctx, func(tx store.Tx) (err error) {
			es, _, err = tx.SelectMemories(ctx, store.MemorySelector{WithoutVector: m.opts.Model, Limit: batch, SkipCount: true})
			return err
		}); err != nil {
			return done, 0, err
		}
		if len(es) == 0 {
			break
		}
		if msg := m.embedEntries(ctx, es...); msg != "" {
			return done, 0, errors.New(msg)
		}
		done += len(es)
	}
	err = m.store.View(ctx, func(tx store.Tx) error {
		missing, err = store.CountMemories(ctx, tx, store.MemorySelector{WithoutVector: m.opts.Model})
		return err
	})
	return done, missing, err
}

// Hit is one line of the search index: enough to decide whether to fetch
// the entry.
type Hit struct {
	ID          memory.ID
	Type        memory.Type
	Title       string
	Snippet     string
	CreatedAt   time.Time
	Score       float64
	Occurrences int // mistakes only
	// SupersededBy is set on a superseded entry (listed only on request).
	SupersededBy memory.ID
	// Changed is what became of the entry's files since it was recorded
	// (see Changes).
	Changed []memory.FileChange
}

// SearchResult is a page of the index.
type SearchResult struct {
	Hits  []Hit
	Total int
	// AtLeast says Total is a lower bound.
	AtLeast    bool
	Offset     int
	NextOffset int // zero: this is the last page
	// Mode is "bm25", "hybrid" (BM25 fused with semantic ranking) or
	// "recent" (no query text).
	Mode string
	// Note says why a hybrid search fell back to BM25, if it did.
	Note string
}

// Search limits.
const (
	// fuseDepth bounds the candidates each ranking contributes to fusion;
	// pages beyond it are ranked by BM25 alone.
	fuseDepth  = 50
	snippetLen = 160
)

// Fusion takes the top fuseTop of each ranking (more when a later page
// is asked for) and combines their scores (memory.FuseScores): the
// full-text score counts the share of the query's words that the best
// full-text hit holds, the embedding similarity the rest, counted by how
// far it stands above the embedding ranking's last candidate. When the best
// word match holds every word of the query, the words have found what was
// asked; when it holds few (a paraphrase), the embedding decides, as far as
// its best stands out.
//
// Measured on the hand-written dialogues' dev split (178 questions, full
// text alone recall@5 0.626, recall@10 0.730, MRR 0.567) with the test
// embedder, which knows software words and not conversations (alone it
// finds recall@10 0.449, below plain BM25's 0.514), and on the retrieval
// set's paraphrases (internal/service/retrieval_test.go, where it knows the
// words). Reciprocal rank fusion (k 60, full text weighted 0.7, the
// embedding's weight lowered by 0.6 of the best hit's coverage) gave
// dialogues 0.494, 0.663, MRR 0.429 and paraphrases recall@5 0.86,
// recall@10 0.95, MRR 0.50: over two lists ten deep, k 60 leaves 1/61 and
// 1/70 nearly equal, so an entry in both lists outranks the best word
// match, and the heavier list's entries all come before the lighter's,
// whatever their ranks. No setting of it did better on both: full text
// weighted at or above the embedding kept dialogues' recall@10 at 0.730 but
// lost paraphrases (recall@5 0.17); k 1 to 20 gave dialogues 0.669 to 0.683
// (paraphrases recall@5 0.81 to 0.91); k 1 or 3 with full text weighted 1
// or 1.5, 0.705 to 0.719 (paraphrases 0.31 to 0.83). Fusing scores as
// here: dialogues 0.601, 0.730, MRR 0.519; paraphrases 0.90, 0.90, MRR
// 0.62; keywords stay 1.00. With similarities scaled between the list's
// last and first instead (min-max), no weighting did as well on both (0.3
// + 0.7 coverage: dialogues recall@10 0.711, paraphrases recall@5 0.86;
// 0.5 + 0.5: 0.733 but 0.48); full text counting 0.1 + 0.9 or 1.2 times
// the coverage: dialogues 0.733, paraphrases 0.79 or 0.83; deeper lists
// (30) and the best coverage among the first three hits were worse.
// Reported once, after: the dialogues' report split, hybrid recall@10
// 0.591 -> 0.674 (full text 0.677); synthetic seed 2, 0.559 -> 0.594
// (full text 0.594).
var (
	// semanticFloor drops embedding candidates less than this share as
	// similar as the nearest.
	semanticFloor = 0.5
	fuseTop       = 10
)

// Search is layer 1: a compact, ranked index of the entries q selects.
func (m *Memory) Search(ctx context.Context, q SearchQuery) (SearchResult, error) {
	sq, err := q.query()
	if err != nil {
		return SearchResult{}, err
	}
	res, err := m.search(ctx, sq)
	res.NextOffset = page.NextOffset(res.Offset, len(res.Hits), res.Total)
	return res, err
}

func (m *Memory) search(ctx context.Context, q store.MemoryQuery) (SearchResult, error) {
	if q.Now.IsZero() {
		q.Now = m.now() // expired observations are not searched
	}
	res := SearchResult{Offset: q.Offset, Mode: "bm25"}
	if strings.TrimSpace(q.Text) == "" {
		res.Mode = "recent"
	}
	if res.Mode == "bm25" && m.opts.Embedder != nil && q.Offset+q.Limit <= fuseDepth {
		r, note, err := m.hybrid(ctx, q)
		if err != nil {
			return SearchResult{}, err
		}
		if note == "" {
			return r, nil
		}
		res.Note = note
	}
	var (
		page     store.MemoryResult
		progress IndexProgress
	)
	err := m.store.View(ctx, func(tx store.Tx) (err error) {
		if page, err = store.SearchMemory(ctx, tx, q); err != nil || page.Unindexed == 0 {
			return err
		}
		progress, err = progressOf(ctx, tx, page.Unindexed)
		return err
	})
	if err != nil {
		return SearchResult{}, fmt.Errorf("search memory: %w", err)
	}
	res.Total, res.AtLeast = page.Total, page.AtLeast
	res.Note = joinNote(res.Note, rebuildingNote(progress))
	if res.Mode == "bm25" && len(memory.Terms(q.Text)) == 0 {
		res.Note = joinNote(res.Note, "every word of the query is too common to search by; name what the entry is about")
	}
	for _, h := range page.Hits {
		res.Hits = append(res.Hits, m.HitOf(h.Entry, h.Snippet, h.Score))
	}
	return res, nil
}

func joinNote(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "; " + b
}

// HitOf is an index line of e; only the lines shown pay for checking their
// files.
func (m *Memory) HitOf(e memory.Entry, snippet string, score float64) Hit {
	return Hit{ID: e.ID, Type: e.Type, Title: e.Title, Snippet: words.OneLine(snippet, snippetLen), CreatedAt: e.CreatedAt, Score: score,
		Occurrences: e.Occurrences, SupersededBy: e.SupersededBy, Changed: m.Changes(e)}
}

// hybrid fuses the BM25 ranking with the embedding ranking by their
// scores (see fuseTop). A note (and no result) means semantic ranking is unavailable now
// and the caller falls back to BM25.
func (m *Memory) hybrid(ctx context.Context, q store.MemoryQuery) (SearchResult, string, error) {
	ectx, cancel := context.WithTimeout(ctx, m.opts.EmbedTimeout)
	vecs, err := m.opts.Embedder.Embed(ectx, []string{q.Text})
	cancel()
	if err != nil || len(vecs) != 1 {
		if err == nil {
			err = errors.New("no vector returned")
		}
		m.opts.Logger.Warn("query embedding failed; ranking by BM25 alone", "error", err)
		return SearchResult{}, "semantic ranking unavailable (" + problem.Clip(err.Error(), 100) + "); ranked by BM25", nil
	}
	var (
		lex     []store.MemoryHit
		sem     []store.ScoredID
		entries []memory.Entry
	)
	deep := q
	top := max(fuseTop, q.Offset+q.Limit)
	deep.Offset, deep.Limit = 0, top
	res := SearchResult{Offset: q.Offset, Mode: "hybrid"}
	err = m.store.View(ctx, func(tx store.Tx) error {
		var err error
		lexPage, err := store.SearchMemory(ctx, tx, deep)
		if err != nil {
			return err
		}
		lex = lexPage.Hits
		if lexPage.Unindexed > 0 {
			progress, err := progressOf(ctx, tx, lexPage.Unindexed)
			if err != nil {
				return err
			}
			res.Note = rebuildingNote(progress)
		}
		idx, err := tx.MemoryIndex(ctx, q.Selector())
		if err != nil {
			return err
		}
		if sem, err = idx.Nearest(ctx, m.opts.Model, vecs[0], top); err != nil {
			return err
		}
		lexical := make([]memory.Scored, len(lex))
		for i, h := range lex {
			lexical[i] = memory.Scored{ID: int64(h.Entry.ID), Score: h.Score}
		}
		// An entry far less similar than the best one is not a semantic
		// match at all; listing it would still earn it fusion credit (in a
		// small memory every entry is among the nearest).
		var semantic []memory.Scored
		for _, s := range sem {
			if s.Score < semanticFloor*sem[0].Score {
				break
			}
			semantic = append(semantic, memory.Scored{ID: int64(s.ID), Score: s.Score})
		}
		alpha := 0.0 // no word matches: the embedding alone
		if len(lex) > 0 {
			best, err := store.Memories(ctx, tx, []memory.ID{lex[0].Entry.ID}, 0)
			if err != nil {
				return err
			}
			if len(best) == 1 {
				alpha = coverage(memory.Terms(q.Text), best[0])
			}
		}
		pack := 0.0
		if len(sem) > 0 {
			pack = sem[len(sem)-1].Score
		}
		fused := memory.FuseScores(alpha, lexical, semantic, pack)
		res.Total = len(fused)
		if q.Offset >= len(fused) {
			return nil
		}
		page := fused[q.Offset:min(len(fused), q.Offset+q.Limit)]
		ids := make([]memory.ID, len(page))
		for i, f := range page {
			ids[i] = memory.ID(f.ID)
		}
		if entries, err = store.Memories(ctx, tx, ids, 0); err != nil {
			return err
		}
		snippets := make(map[memory.ID]string, len(lex))
		for _, h := range lex {
			snippets[h.Entry.ID] = h.Snippet
		}
		byID := make(map[memory.ID]memory.Entry, len(entries))
		for _, e := range entries {
			byID[e.ID] = e
		}
		for _, f := range page {
			e, ok := byID[memory.ID(f.ID)]
			if !ok {
				continue
			}
			snip, ok := snippets[e.ID]
			if !ok {
				snip = e.Content
			}
			res.Hits = append(res.Hits, m.HitOf(e, snip, f.Score))
		}
		return nil
	})
	if err != nil {
		return SearchResult{}, "", fmt.Errorf("search memory: %w", err)
	}
	return res, "", nil
}

// coverage is the share of the query's terms that entry e holds.
func coverage(terms []string, e memory.Entry) float64 {
	if len(terms) == 0 {
		return 0
	}
	has := map[string]bool{}
	for _, t := range memory.Tokens(e.Title + " " + e.SearchText() + " " + strings.Join(e.Tags, " ")) {
		has[t] = true
	}
	n := 0
	for _, t := range terms {
		if has[t] {
			n++
		}
	}
	return float64(n) / float64(len(terms))
}

// Timeline is layer 2: entries recorded around an anchor.
type Timeline struct {
	Anchor Hit
	Before []Hit
	After  []Hit
}

// Context returns the anchor and up to before/after entries recorded just
// before and after it, within its session when sameSession is set.
func (m *Memory) Context(ctx context.Context, q ContextQuery) (Timeline, error) {
	ids, err := parseEntryIDs("id", []string{q.ID})
	if err != nil {
		fe := *err.(*problem.FieldError)
		fe.Field = "id"
		return Timeline{}, &fe
	}
	anchor := ids[0]
	for _, f := range []struct {
		name string
		v    *int
	}{{"before", &q.Before}, {"after", &q.After}} {
		if *f.v < 0 || *f.v > MaxContext {
			return Timeline{}, &problem.FieldError{Field: f.name, Problem: fmt.Sprintf("is %d", *f.v), Fix: fmt.Sprintf("pass 0 to %d", MaxContext)}
		}
		if *f.v == 0 {
			*f.v = DefaultAround
		}
	}
	before, after, sameSession := q.Before, q.After, q.SameSession
	var tl Timeline
	err = m.store.View(ctx, func(tx store.Tx) error {
		es, err := store.Memories(ctx, tx, []memory.ID{anchor}, 0)
		if err != nil {
			return err
		}
		if len(es) == 0 {
			return memory.NotFound("entry", anchor.String())
		}
		tl.Anchor = m.HitOf(es[0], es[0].Content, 0)
		older, newer, err := store.MemoryTimeline(ctx, tx, anchor, before, after, sameSession)
		for _, e := range older {
			tl.Before = append(tl.Before, m.HitOf(e, e.Content, 0))
		}
		for _, e := range newer {
			tl.After = append(tl.After, m.HitOf(e, e.Content, 0))
		}
		return err
	})
	if err != nil {
		return Timeline{}, fmt.Errorf("memory context of %s: %w", anchor, err)
	}
	return tl, nil
}

// MaxGet bounds how many entries one Get returns.
const MaxGet = 20

// RecentOccurrences is how many of a mistake's latest occurrences Get shows.
const RecentOccurrences = 3

// Get is layer 3: full entries, in the order asked, and the ids not found;
// a mistake with its latest occurrences, every entry with what became of
// its files.
func (m *Memory) Get(ctx context.Context, refs []string) ([]memory.Entry, []memory.ID, error) {
	if len(refs) == 0 {
		return nil, nil, &problem.FieldError{Field: "ids", Problem: "is empty", Fix: `pass the ids a search listed, such as ["m12"]`, Hint: problem.SearchMemory}
	}
	if len(refs) > MaxGet {
		return nil, nil, &problem.FieldError{Field: "ids", Problem: fmt.Sprintf("has %d ids", len(refs)), Fix: fmt.Sprintf("pass at most %d at a time", MaxGet)}
	}
	ids, err := parseEntryIDs("ids", refs)
	if err != nil {
		return nil, nil, err
	}
	return m.get(ctx, ids)
}

func (m *Memory) get(ctx context.Context, ids []memory.ID) ([]memory.Entry, []memory.ID, error) {
	var es []memory.Entry
	err := m.store.View(ctx, func(tx store.Tx) (err error) {
		es, err = store.Memories(ctx, tx, ids, RecentOccurrences)
		return err
	})
	for i := range es {
		es[i].Changed = m.Changes(es[i])
	}
	if err != nil {
		return nil, nil, fmt.Errorf("get memory: %w", err)
	}
	found := make(map[memory.ID]bool, len(es))
	for _, e := range es {
		found[e.ID] = true
	}
	var missing []memory.ID
	for _, id := range ids {
		if !found[id] {
			missing = append(missing, id)
		}
	}
	return es, missing, nil
}

// Pruned is what a prune selected, and removed unless it was a dry run.
type Pruned struct {
	Entries []memory.Entry // the first PruneList of them
	Total   int
	Deleted int
	DryRun  bool
}

// PruneList bounds how many pruned entries are listed.
const PruneList = 20

// Prune removes the entries sel selects; with dryRun it only lists them.
func (m *Memory) Prune(ctx context.Context, q PruneQuery) (Pruned, error) {
	sel, err := q.selector(m.now())
	if err != nil {
		return Pruned{}, err
	}
	dryRun := q.DryRun
	p := Pruned{DryRun: dryRun}
	do := m.store.Update
	if dryRun {
		do = m.store.View
	}
	err = do(ctx, func(tx store.Tx) error {
		all, total, err := tx.SelectMemories(ctx, sel)
		if err != nil {
			return err
		}
		p.Total = total
		p.Entries = all[:min(len(all), PruneList)]
		if dryRun {
			return nil
		}
		ids := make([]memory.ID, len(all))
		for i, e := range all {
			ids[i] = e.ID
		}
		p.Deleted, err = tx.DeleteMemories(ctx, ids)
		return err
	})
	if err != nil {
		return Pruned{}, fmt.Errorf("prune memory: %w", err)
	}
	return p, nil
}
