package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store/rank"
)

// Memory search and timelines, written once above the stores on their
// primitives (MemoryTx): a store lists, counts and looks entries up, and
// gives its full-text index to package rank, which ranks; what a search
// means (its defaults, paging, totals, snippets and the entries it leaves
// out) is here. It lives in this package, beside the query and result
// types and the interface it calls, rather than in rank: rank is BM25 over
// any index and knows nothing of entries, filters or pages.

// DefaultMemoryLimit is a search's page size when MemoryQuery.Limit is zero.
const DefaultMemoryLimit = 10

const (
	// snippetWords is how long a ranked hit's snippet is, in words.
	snippetWords = 16
	// recentSnippet is how long a listed hit's snippet is (the start of its
	// content), in characters.
	recentSnippet = 160
	// hiddenBudget bounds the superseded and expired entries a search
	// drops after ranking; past it, it filters them as it reads postings.
	hiddenBudget = 256
)

// SearchMemory returns a page of the entries q selects, best first. With
// Text, entries match any of its words in full text and are ranked by BM25
// (package rank), each with a snippet, within a fixed amount of work at
// any memory size; when a common word's postings were not all read the
// total is a lower bound (AtLeast). Text of stopwords alone matches
// nothing. Without Text, the entries are listed newest first, each with
// the start of its content.
func SearchMemory(ctx context.Context, tx MemoryTx, q MemoryQuery) (MemoryResult, error) {
	if q.Limit <= 0 {
		q.Limit = DefaultMemoryLimit
	}
	q.Offset = max(q.Offset, 0)
	terms := memory.Terms(q.Text)
	var (
		res MemoryResult
		err error
	)
	switch {
	case len(terms) > 0:
		res, err = rankMemory(ctx, tx, q, terms)
	case strings.TrimSpace(q.Text) == "":
		res, err = recentMemory(ctx, tx, q)
	default: // stopwords alone: they would match everything
	}
	if err != nil {
		return MemoryResult{}, fmt.Errorf("search memory: %w", err)
	}
	return res, nil
}

// recentMemory lists the entries q's filters select, newest first: a
// search without words.
func recentMemory(ctx context.Context, tx MemoryTx, q MemoryQuery) (MemoryResult, error) {
	s := q.Selector()
	s.Newest, s.Offset, s.Limit = true, q.Offset, q.Limit
	es, total, err := tx.SelectMemories(ctx, s)
	if err != nil {
		return MemoryResult{}, err
	}
	res := MemoryResult{Total: total}
	for _, e := range es {
		res.Hits = append(res.Hits, MemoryHit{Entry: hitOnly(e), Snippet: prefix(e.Content, recentSnippet)})
	}
	return res, nil
}

// rankMemory ranks every entry holding any of terms by BM25.
//
// Superseded and expired entries are few: rather than join every posting
// read with its entry to leave them out (which costs the unfiltered search
// its fast path), it ranks as many more and drops them, unless there are
// more than hiddenBudget of them.
func rankMemory(ctx context.Context, tx MemoryTx, q MemoryQuery, terms []string) (MemoryResult, error) {
	s := q.Selector()
	k := q.Offset + q.Limit
	idx, err := tx.MemoryIndex(ctx, s)
	if err != nil {
		return MemoryResult{}, err
	}
	var hidden []memory.ID
	if s.HideSuperseded || !s.Now.IsZero() {
		if hidden, err = idx.Hidden(ctx, hiddenBudget+1); err != nil {
			return MemoryResult{}, err
		}
	}
	if len(hidden) <= hiddenBudget {
		if s.HideSuperseded || !s.Now.IsZero() {
			s.HideSuperseded, s.Now = false, time.Time{}
			if idx, err = tx.MemoryIndex(ctx, s); err != nil {
				return MemoryResult{}, err
			}
		}
		k += len(hidden)
	} else {
		hidden = nil // too many to drop afterwards: filter as postings are read
	}
	r, err := rank.Search(ctx, idx, rank.NewQuery(q.Text, terms), k)
	if err != nil {
		return MemoryResult{}, err
	}
	res := MemoryResult{Total: r.Total, AtLeast: r.AtLeast}
	if res.Unindexed, err = idx.Unindexed(ctx); err != nil {
		return MemoryResult{}, err
	}
	if r.AtLeast && !s.Filtered() {
		res.Total = max(res.Total, r.MaxDF)
	}
	if len(hidden) > 0 {
		if r.Hits, res.Total, err = dropHidden(ctx, idx, r.Hits, res.Total, terms, hidden); err != nil {
			return MemoryResult{}, err
		}
		r.Hits = r.Hits[:min(len(r.Hits), q.Offset+q.Limit)]
	}
	if q.Offset >= len(r.Hits) {
		return res, nil
	}
	res.Hits, err = rankedHits(ctx, tx, r.Hits[q.Offset:], terms)
	return res, err
}

// dropHidden leaves the hidden entries out of a ranking's hits and its
// total, which counted those that hold any of terms.
func dropHidden(ctx context.Context, idx rank.Source, hits []rank.Scored, total int, terms []string, hidden []memory.ID) ([]rank.Scored, int, error) {
	ids := make([]int64, len(hidden))
	for i, id := range hidden {
		ids[i] = int64(id)
	}
	found, err := idx.Lookup(ctx, terms, ids)
	if err != nil {
		return nil, 0, err
	}
	matched := map[int64]bool{}
	for _, ps := range found {
		for _, p := range ps {
			matched[p.Entry] = true
		}
	}
	hits = rank.Drop(hits, ids)
	return hits, max(total-len(matched), len(hits)), nil
}

// rankedHits reads the entries of a page of ranked hits, in its order,
// each with the snippet of its text that holds most of terms.
func rankedHits(ctx context.Context, tx MemoryTx, page []rank.Scored, terms []string) ([]MemoryHit, error) {
	ids := make([]memory.ID, len(page))
	for i, h := range page {
		ids[i] = memory.ID(h.Entry)
	}
	es, _, err := tx.SelectMemories(ctx, MemorySelector{IDs: ids, SkipCount: true})
	if err != nil {
		return nil, err
	}
	byID := make(map[memory.ID]memory.Entry, len(es))
	for _, e := range es {
		byID[e.ID] = e
	}
	var hits []MemoryHit
	for _, h := range page {
		e, ok := byID[memory.ID(h.Entry)]
		if !ok {
			continue
		}
		hits = append(hits, MemoryHit{Entry: hitOnly(e), Snippet: memory.Snippet(e.SearchText(), terms, snippetWords), Score: h.Score})
	}
	return hits, nil
}

// hitOnly is e as a search lists it: without its content and the
// type-specific text.
func hitOnly(e memory.Entry) memory.Entry {
	return memory.Entry{ID: e.ID, UID: e.UID, Type: e.Type, Title: e.Title, Tags: e.Tags, SessionID: e.SessionID,
		Branch: e.Branch, Occurrences: e.Occurrences, DiscoveryTokens: e.DiscoveryTokens, FileHashes: e.FileHashes,
		SupersededBy: e.SupersededBy, ExpiresAt: e.ExpiresAt, CreatedAt: e.CreatedAt, UpdatedAt: e.UpdatedAt}
}

// prefix is s's first n characters (runes), as SQL's substr counts them.
func prefix(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// MemoryTimeline returns up to before entries recorded just before the
// anchor and up to after just after it (by ID, oldest first), within the
// anchor's session when sameSession is set, leaving out superseded entries.
// An anchor that does not exist is a memory.NotFound refusal.
func MemoryTimeline(ctx context.Context, tx MemoryTx, anchor memory.ID, before, after int, sameSession bool) (older, newer []memory.Entry, err error) {
	a, _, err := tx.SelectMemories(ctx, MemorySelector{IDs: []memory.ID{anchor}, SkipCount: true})
	if err != nil {
		return nil, nil, fmt.Errorf("read memory %s: %w", anchor, err)
	}
	if len(a) == 0 {
		return nil, nil, memory.NotFound("entry", anchor.String())
	}
	around := MemorySelector{HideSuperseded: true, SkipCount: true}
	if sameSession {
		around.SessionID = a[0].SessionID
	}
	if older, err = timelineSide(ctx, tx, around, anchor, before, true); err == nil {
		newer, err = timelineSide(ctx, tx, around, anchor, after, false)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read timeline of %s: %w", anchor, err)
	}
	return older, newer, nil
}

// timelineSide returns up to n of the entries s selects just before the
// anchor (or after it), oldest first.
func timelineSide(ctx context.Context, tx MemoryTx, s MemorySelector, anchor memory.ID, n int, before bool) ([]memory.Entry, error) {
	if n <= 0 {
		return nil, nil
	}
	s.Limit = n
	if before {
		s.Below, s.Newest = anchor, true
	} else {
		s.Above = anchor
	}
	es, _, err := tx.SelectMemories(ctx, s)
	if before {
		slices.Reverse(es)
	}
	return es, err
}
