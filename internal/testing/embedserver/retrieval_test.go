package embedserver

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/cairn-dev/cairn/internal/memory"
)

// The labelled set lives with the memory package, whose search it measures; this test
// checks that the set does what it claims (keyword queries are easy for full text,
// paraphrase queries are not) and that this server plays its part: the embedding
// ranking finds what full text misses, and fusion keeps the best of both.

type retrievalSet struct {
	Entries []struct {
		Key     string   `json:"key"`
		Type    string   `json:"type"`
		Title   string   `json:"title"`
		Content string   `json:"content"`
		Tags    []string `json:"tags"`
	} `json:"entries"`
	Queries []struct {
		Query    string   `json:"query"`
		Style    string   `json:"style"`
		Relevant []string `json:"relevant"`
	} `json:"queries"`
}

func loadRetrievalSet(t *testing.T) retrievalSet {
	t.Helper()
	b, err := os.ReadFile("../../memory/testdata/retrieval.json")
	if err != nil {
		t.Fatal(err)
	}
	var s retrievalSet
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("retrieval.json: %v", err)
	}
	return s
}

func TestRetrievalSet_WellFormed(t *testing.T) {
	s := loadRetrievalSet(t)
	types := map[string]bool{"decision": true, "mistake": true, "convention": true, "pattern": true,
		"preference": true, "insight": true, "tool_outcome": true, "workflow_outcome": true}
	keys := map[string]bool{}
	for i, e := range s.Entries {
		if e.Key != "e"+strconv.Itoa(i+1) {
			t.Errorf("entry %d has key %q, want e%d", i, e.Key, i+1)
		}
		if !types[e.Type] {
			t.Errorf("%s: unknown type %q", e.Key, e.Type)
		}
		if e.Title == "" || e.Content == "" || len(e.Tags) == 0 {
			t.Errorf("%s: title, content and tags are required", e.Key)
		}
		keys[e.Key] = true
	}
	styles := map[string]int{}
	for _, q := range s.Queries {
		styles[q.Style]++
		if q.Query == "" || len(q.Relevant) == 0 {
			t.Errorf("query %q: needs text and relevant entries", q.Query)
		}
		for _, r := range q.Relevant {
			if !keys[r] {
				t.Errorf("query %q: relevant %q is not an entry", q.Query, r)
			}
		}
	}
	if len(s.Entries) < 140 || len(s.Queries) < 45 || styles["keyword"] < 20 || styles["paraphrase"] < 20 || len(styles) != 2 {
		t.Errorf("%d entries, queries by style %v: want about 150 entries and 50 queries, half of each style", len(s.Entries), styles)
	}
}

// bm25 ranks entries by Okapi BM25 over plain lowercase words, roughly what SQLite's
// FTS5 with the default tokenizer does with an OR query.
type bm25 struct {
	docs  [][]string
	df    map[string]int
	avgdl float64
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func newBM25(docs []string) *bm25 {
	b := &bm25{df: map[string]int{}}
	total := 0
	for _, d := range docs {
		ws := words(d)
		b.docs = append(b.docs, ws)
		total += len(ws)
		seen := map[string]bool{}
		for _, w := range ws {
			if !seen[w] {
				seen[w] = true
				b.df[w]++
			}
		}
	}
	b.avgdl = float64(total) / float64(len(docs))
	return b
}

func (b *bm25) rank(query string) []int64 {
	const k1, bb = 1.2, 0.75
	n := float64(len(b.docs))
	type hit struct {
		i     int
		score float64
	}
	var hits []hit
	var qs []string
	for _, w := range words(query) {
		if !stopwords[w] {
			qs = append(qs, w)
		}
	}
	for i, d := range b.docs {
		tf := map[string]int{}
		for _, w := range d {
			tf[w]++
		}
		var score float64
		for _, q := range qs {
			f := float64(tf[q])
			if f == 0 {
				continue
			}
			df := float64(b.df[q])
			idf := math.Log((n-df+0.5)/(df+0.5) + 1)
			score += idf * f * (k1 + 1) / (f + k1*(1-bb+bb*float64(len(d))/b.avgdl))
		}
		if score > 0 {
			hits = append(hits, hit{i, score})
		}
	}
	sort.SliceStable(hits, func(a, c int) bool { return hits[a].score > hits[c].score })
	ids := make([]int64, len(hits))
	for j, h := range hits {
		ids[j] = int64(h.i)
	}
	return ids
}

func vectorRank(t *testing.T, docs [][]float32, q []float32) []int64 {
	type hit struct {
		i   int
		sim float64
	}
	hits := make([]hit, len(docs))
	for i, d := range docs {
		sim, err := memory.Cosine(q, d)
		if err != nil {
			t.Fatal(err)
		}
		hits[i] = hit{i, sim}
	}
	sort.SliceStable(hits, func(a, c int) bool { return hits[a].sim > hits[c].sim })
	ids := make([]int64, 0, len(hits))
	for _, h := range hits {
		if h.sim > 0 {
			ids = append(ids, int64(h.i))
		}
	}
	return ids
}

func head(ids []int64, n int) []int64 { return ids[:min(n, len(ids))] }

// rankOf is the 1-based position of the first relevant entry in ids, 0 if absent.
func rankOf(ids []int64, relevant map[int64]bool) int {
	for i, id := range ids {
		if relevant[id] {
			return i + 1
		}
	}
	return 0
}

func TestRetrieval_HybridFindsParaphrases(t *testing.T) {
	s := loadRetrievalSet(t)
	texts := make([]string, len(s.Entries))
	vecs := make([][]float32, len(s.Entries))
	index := map[string]int64{}
	for i, e := range s.Entries {
		texts[i] = e.Title + "\n" + e.Content + "\n" + strings.Join(e.Tags, " ")
		vecs[i] = Embed(texts[i])
		index[e.Key] = int64(i)
	}
	fts := newBM25(texts)

	// Each ranking contributes its top candidates, as a store's LIMIT would; fusing
	// whole rankings lets the long tail of weak full-text matches outvote an entry
	// that only the semantic ranking finds.
	const topK, candidates = 5, 10
	type tally struct{ queries, bm25, vector, fused, weighted int }
	byStyle := map[string]*tally{"keyword": {}, "paraphrase": {}}
	var report strings.Builder
	fmt.Fprintf(&report, "%-10s %5s %6s %5s  %s\n", "style", "bm25", "vector", "fused", "query")
	for _, q := range s.Queries {
		rel := map[int64]bool{}
		for _, r := range q.Relevant {
			rel[index[r]] = true
		}
		lexical := head(fts.rank(q.Query), candidates)
		semantic := head(vectorRank(t, vecs, Embed(q.Query)), candidates)
		var fusedIDs []int64
		for _, f := range memory.Fuse(memory.DefaultRRFK, lexical, semantic) {
			fusedIDs = append(fusedIDs, f.ID)
		}
		var weightedIDs []int64
		for _, f := range memory.FuseWeighted(memory.DefaultRRFK, []float64{0.7, 1}, lexical, semantic) {
			weightedIDs = append(weightedIDs, f.ID)
		}
		rb, rv, rf := rankOf(lexical, rel), rankOf(semantic, rel), rankOf(fusedIDs, rel)
		tl := byStyle[q.Style]
		tl.queries++
		hit := func(r int) int {
			if r >= 1 && r <= topK {
				return 1
			}
			return 0
		}
		tl.bm25 += hit(rb)
		tl.vector += hit(rv)
		tl.fused += hit(rf)
		tl.weighted += hit(rankOf(weightedIDs, rel))
		fmt.Fprintf(&report, "%-10s %5d %6d %5d  %s\n", q.Style, rb, rv, rf, q.Query)
	}
	recall := func(n, of int) float64 { return float64(n) / float64(of) }
	kw, pp := byStyle["keyword"], byStyle["paraphrase"]
	fmt.Fprintf(&report, "recall@%d keyword    bm25 %.2f vector %.2f fused %.2f fused(bm25 weight 0.7) %.2f\n", topK,
		recall(kw.bm25, kw.queries), recall(kw.vector, kw.queries), recall(kw.fused, kw.queries), recall(kw.weighted, kw.queries))
	fmt.Fprintf(&report, "recall@%d paraphrase bm25 %.2f vector %.2f fused %.2f fused(bm25 weight 0.7) %.2f\n", topK,
		recall(pp.bm25, pp.queries), recall(pp.vector, pp.queries), recall(pp.fused, pp.queries), recall(pp.weighted, pp.queries))
	t.Log("rank of the first relevant entry (0 = not ranked)\n" + report.String())

	// The set's promise: full text handles keyword queries and misses paraphrases.
	if r := recall(kw.bm25, kw.queries); r < 0.9 {
		t.Errorf("bm25 recall@%d on keyword queries = %.2f, want ≥ 0.9", topK, r)
	}
	if r := recall(pp.bm25, pp.queries); r > 0.35 {
		t.Errorf("bm25 recall@%d on paraphrase queries = %.2f, want ≤ 0.35: they share too many words", topK, r)
	}
	// The server's promise: its vectors find the paraphrases, and fusing both rankings
	// keeps nearly everything either one finds.
	if r := recall(pp.vector, pp.queries); r < 0.8 {
		t.Errorf("vector recall@%d on paraphrase queries = %.2f, want ≥ 0.8", topK, r)
	}
	if r := recall(pp.fused, pp.queries); r < 0.75 {
		t.Errorf("fused recall@%d on paraphrase queries = %.2f, want ≥ 0.75", topK, r)
	}
	if r := recall(kw.fused+pp.fused, kw.queries+pp.queries); r < 0.85 {
		t.Errorf("fused recall@%d = %.2f, want ≥ 0.85", topK, r)
	}
}
