// Package rank is the memory's full-text ranking, shared by both stores:
// BM25 over an index of the stores' own (a postings row per term and entry
// with the term's weighted frequency and the entry's length, ordered by
// impact), searched top-k with a bounded amount of work.
//
// Why not the databases' own ranking: SQLite's FTS5 bm25() reads every
// entry holding each word of a query, so a question of common words in a
// large memory cost hundreds of milliseconds, and the store gave up ranking
// above a budget; PostgreSQL's ts_rank is not BM25 (no IDF) and reads every
// match too. Here a search reads the rarest terms' postings in full and the
// common terms' best postings (highest impact first), completes the scores
// of the best candidates by lookup, and so ranks every query by relevance
// within a fixed budget. When a common term's postings are not all read,
// ranking is exact for every entry that holds a rarer term or is among the
// common term's best; the total is then a lower bound.
package rank

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/cairn-dev/cairn/internal/memory"
)

// BM25 parameters, and how much a word counts in each field (whole
// numbers: the stores keep frequencies as integers). Field weights
// were measured on the conversational benchmark's development seed
// (internal/testutil/convbench): titles are often short and generic (a
// speaker and a date), so a heavy title weight ranks every entry of one
// speaker above the turn that answers.
var (
	K1          = 1.2
	B           = 0.75
	TitleWeight = 2.0
	BodyWeight  = 1.0
	TagWeight   = 1.0
)

// Budgets: postings a search reads at most (in impact order), and
// candidates whose scores it completes by lookup. At 100,000 entries these
// keep a search of common words to a few milliseconds.
var (
	PostingBudget  = 1000
	MinPerTerm     = 100
	CompleteBudget = 64
)

// Doc is an entry as the index holds it: each term's weighted frequency
// and the entry's weighted length.
type Doc struct {
	TF  map[string]float64
	Len float64
}

// Analyze indexes an entry's title, body and tags.
func Analyze(title, body string, tags []string) Doc {
	d := Doc{TF: map[string]float64{}}
	for _, f := range []struct {
		text string
		w    float64
	}{{title, TitleWeight}, {body, BodyWeight}, {strings.Join(tags, " "), TagWeight}} {
		for _, t := range memory.Tokens(f.text) {
			d.TF[t] += f.w
			d.Len += f.w
		}
	}
	return d
}

// Impact is a term's BM25 weight in an entry, without its IDF: what the
// index orders postings by.
func Impact(tf, dl, avgdl float64) float64 {
	if avgdl <= 0 {
		avgdl = dl
	}
	if avgdl <= 0 {
		return 0
	}
	return tf * (K1 + 1) / (tf + K1*(1-B+B*dl/avgdl))
}

// IDF is BM25's inverse document frequency (the Lucene form, never
// negative).
func IDF(docs, df int) float64 {
	return math.Log(1 + (float64(docs)-float64(df)+0.5)/(float64(df)+0.5))
}

// Posting is one term in one entry.
type Posting struct {
	Entry int64
	TF    float64
	Len   float64
}

// Source is a store's index, as one search (with its filters) sees it.
type Source interface {
	// Stats returns how many entries the index holds and their total length.
	Stats(ctx context.Context) (docs int, totalLen float64, err error)
	// DF returns how many entries hold each term; absent terms are missing.
	DF(ctx context.Context, terms []string) (map[string]int, error)
	// Top returns up to limit postings of term, highest impact first, of
	// entries the search's filters select.
	Top(ctx context.Context, term string, limit int) ([]Posting, error)
	// Lookup returns term's postings for these entries (those it has).
	Lookup(ctx context.Context, term string, entries []int64) ([]Posting, error)
}

// Scored is an entry and its BM25 score.
type Scored struct {
	Entry int64
	Score float64
}

// Result is a ranking: the best entries, best first (ties newest first),
// and how many entries match. AtLeast says Total is a lower bound: some
// common term's postings were not all read.
type Result struct {
	Hits    []Scored
	Total   int
	AtLeast bool
	// MaxDF is how many entries hold the commonest term, filters aside: a
	// lower bound of the total when the search has no filters.
	MaxDF int
}

type termState struct {
	term     string
	df       int
	idf      float64
	full     bool    // every posting read
	floor    float64 // impact of the last posting read: no unread one has more
	postings map[int64]bool
}

// Search ranks the entries matching any of terms and returns the best k.
func Search(ctx context.Context, src Source, terms []string, k int) (Result, error) {
	if len(terms) == 0 || k <= 0 {
		return Result{}, nil
	}
	dfs, err := src.DF(ctx, terms)
	if err != nil {
		return Result{}, err
	}
	docs, total, err := src.Stats(ctx)
	if err != nil {
		return Result{}, err
	}
	avgdl := 0.0
	if docs > 0 {
		avgdl = total / float64(docs)
	}
	var ts []*termState
	for _, t := range terms {
		if df := dfs[t]; df > 0 {
			ts = append(ts, &termState{term: t, df: df, idf: IDF(max(docs, df), df)})
		}
	}
	if len(ts) == 0 {
		return Result{}, nil
	}
	// Rarest first: they decide most of the ranking and cost least.
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].df < ts[j].df })
	scores := map[int64]float64{}
	// A later page needs deeper lists: whoever pages that far pays for it.
	budget := max(PostingBudget, 4*k)
	maxDF := 0
	// rest[i] bounds what terms i… can add to any entry's score.
	rest := make([]float64, len(ts)+1)
	for i := len(ts) - 1; i >= 0; i-- {
		rest[i] = rest[i+1] + ts[i].idf*(K1+1)
	}
	for i, t := range ts {
		maxDF = max(maxDF, t.df)
		limit := t.df
		if share := max(MinPerTerm, k, budget/(len(ts)-i)); limit > share {
			limit = share
		}
		// MaxScore: once k entries score more than the remaining terms
		// could give an entry holding none of the rarer ones, those terms
		// only complete the candidates' scores; their lists are not read.
		if limit < t.df && len(scores) >= k && kth(scores, k) >= rest[i] {
			for _, u := range ts[i:] {
				maxDF = max(maxDF, u.df)
				u.floor, u.postings = K1+1, map[int64]bool{}
			}
			break
		}
		ps, err := src.Top(ctx, t.term, limit+1)
		if err != nil {
			return Result{}, err
		}
		t.full = len(ps) <= limit
		if !t.full {
			ps = ps[:limit]
		}
		budget -= len(ps)
		t.postings = make(map[int64]bool, len(ps))
		for _, p := range ps {
			imp := Impact(p.TF, p.Len, avgdl)
			scores[p.Entry] += t.idf * imp
			t.postings[p.Entry] = true
			t.floor = imp
		}
	}
	// Complete the best candidates' scores with the terms whose postings
	// were not all read: an entry missing from such a term's best may still
	// hold it with a lower impact.
	var partial []*termState
	for _, t := range ts {
		if !t.full {
			partial = append(partial, t)
		}
	}
	cands := make([]Scored, 0, len(scores))
	for e, s := range scores {
		cands = append(cands, Scored{e, s})
	}
	if len(partial) > 0 {
		upper := func(c Scored) float64 {
			u := c.Score
			for _, t := range partial {
				if !t.postings[c.Entry] {
					u += t.idf * t.floor
				}
			}
			return u
		}
		// Only the best n by upper bound are completed: order them first.
		n := min(len(cands), max(CompleteBudget, 2*k))
		bounded := make([]Scored, len(cands))
		for i, c := range cands {
			bounded[i] = Scored{Entry: c.Entry, Score: upper(c)}
		}
		sortScored(bounded)
		best := make(map[int64]bool, n)
		for _, c := range bounded[:n] {
			best[c.Entry] = true
		}
		// The chosen n first, the rest after, in any order.
		i := 0
		for j := range cands {
			if best[cands[j].Entry] {
				cands[i], cands[j] = cands[j], cands[i]
				i++
			}
		}
		for _, t := range partial {
			var missing []int64
			for _, c := range cands[:n] {
				if !t.postings[c.Entry] {
					missing = append(missing, c.Entry)
				}
			}
			if len(missing) == 0 {
				continue
			}
			ps, err := src.Lookup(ctx, t.term, missing)
			if err != nil {
				return Result{}, err
			}
			add := map[int64]float64{}
			for _, p := range ps {
				add[p.Entry] = t.idf * Impact(p.TF, p.Len, avgdl)
			}
			for i := range cands[:n] {
				cands[i].Score += add[cands[i].Entry]
			}
		}
	}
	sortScored(cands)
	res := Result{Total: len(cands)}
	if len(partial) > 0 {
		res.AtLeast = true
	}
	res.MaxDF = maxDF
	res.Hits = slices.Clone(cands[:min(k, len(cands))])
	return res, nil
}

// kth is the k-th highest of scores (k ≤ len(scores)).
func kth(scores map[int64]float64, k int) float64 {
	h := make([]float64, 0, k) // a min-heap of the k highest so far
	for _, v := range scores {
		if len(h) < k {
			h = append(h, v)
			for j := len(h) - 1; j > 0 && h[(j-1)/2] > h[j]; j = (j - 1) / 2 {
				h[j], h[(j-1)/2] = h[(j-1)/2], h[j]
			}
			continue
		}
		if v <= h[0] {
			continue
		}
		h[0] = v
		for j := 0; ; {
			c := 2*j + 1
			if c >= len(h) {
				break
			}
			if c+1 < len(h) && h[c+1] < h[c] {
				c++
			}
			if h[j] <= h[c] {
				break
			}
			h[j], h[c] = h[c], h[j]
			j = c
		}
	}
	return h[0]
}

// sortScored orders by score, highest first, then newest (highest id)
// first.
func sortScored(cs []Scored) {
	slices.SortFunc(cs, func(a, b Scored) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return cmp.Compare(b.Entry, a.Entry)
	})
}
