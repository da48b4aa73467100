package service_test

// The retrieval benchmark: a labelled set (internal/memory/testdata/
// retrieval.json: 150 entries of one project, 54 queries with the entries
// that should come back, half keyword and half paraphrase) searched through
// the memory service on a real SQLite store, by BM25 alone and hybrid (BM25
// fused with an embedding ranking from the deterministic test provider, over
// the real /v1/embeddings client). It reports recall@5, recall@10 and MRR:
//
//	go test -run TestRetrieval -v ./internal/service/
//
// It asserts only what the design promises: keyword queries are found by
// either mode, and hybrid finds paraphrases that BM25 alone cannot.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/embedding"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/embedserver"
)

type retrievalSet struct {
	Entries []struct {
		Key, Type, Title, Content string
		Tags                      []string
	} `json:"entries"`
	Queries []struct {
		Query, Style string
		Relevant     []string
	} `json:"queries"`
}

// scores are one mode's metrics over one style of query.
type scores struct {
	n                 int
	recall5, recall10 float64
	reciprocalRankSum float64
}

func (s *scores) add(ranked []memory.ID, relevant map[memory.ID]bool) {
	s.n++
	found5, found10 := 0, 0
	first := 0
	for i, id := range ranked {
		if !relevant[id] {
			continue
		}
		if first == 0 {
			first = i + 1
		}
		if i < 5 {
			found5++
		}
		if i < 10 {
			found10++
		}
	}
	s.recall5 += float64(found5) / float64(len(relevant))
	s.recall10 += float64(found10) / float64(len(relevant))
	if first > 0 {
		s.reciprocalRankSum += 1 / float64(first)
	}
}

func (s scores) String() string {
	return fmt.Sprintf("recall@5 %.2f  recall@10 %.2f  MRR %.2f", s.recall5/float64(s.n), s.recall10/float64(s.n), s.reciprocalRankSum/float64(s.n))
}

func TestRetrieval(t *testing.T) {
	if raceEnabled {
		t.Skip("slow under -race; scripts/test runs it without: go test -run TestRetrieval ./internal/service")
	}
	ctx := context.Background()
	b, err := os.ReadFile(filepath.Join("..", "memory", "testdata", "retrieval.json"))
	if err != nil {
		t.Fatal(err)
	}
	var set retrievalSet
	if err := json.Unmarshal(b, &set); err != nil {
		t.Fatal(err)
	}
	srv := embedserver.Start(t)
	client, err := embedding.New(embedding.Config{URL: srv.URL, Model: "embedserver"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	hybrid := memories.NewMemory(st, memories.MemoryOptions{Embedder: client, Model: client.Model()})
	lexical := memories.NewMemory(st, memories.MemoryOptions{})
	ids := map[string]memory.ID{}
	for _, e := range set.Entries {
		r, err := hybrid.Add(ctx, "", memory.Entry{Type: memory.Type(e.Type), Title: e.Title, Content: e.Content, Tags: e.Tags})
		if err != nil {
			t.Fatalf("%s: %v", e.Key, err)
		}
		if r.EmbedError != "" {
			t.Fatalf("%s: %s", e.Key, r.EmbedError)
		}
		ids[e.Key] = r.Entry.ID
	}
	results := map[string]*scores{}
	for _, q := range set.Queries {
		relevant := map[memory.ID]bool{}
		for _, k := range q.Relevant {
			relevant[ids[k]] = true
		}
		for _, mode := range []struct {
			name string
			m    *memories.Memory
		}{{"bm25", lexical}, {"hybrid", hybrid}} {
			res, err := mode.m.Search(ctx, memories.SearchQuery{Text: q.Query, Page: page.Page{Limit: 10}})
			if err != nil {
				t.Fatal(err)
			}
			if mode.name == "hybrid" && res.Mode != "hybrid" {
				t.Fatalf("%q searched in mode %s (%s)", q.Query, res.Mode, res.Note)
			}
			var ranked []memory.ID
			for _, h := range res.Hits {
				ranked = append(ranked, h.ID)
			}
			for _, key := range []string{mode.name + " " + q.Style, mode.name + " all"} {
				if results[key] == nil {
					results[key] = &scores{}
				}
				results[key].add(ranked, relevant)
			}
		}
	}
	var report strings.Builder
	for _, style := range []string{"keyword", "paraphrase", "all"} {
		for _, mode := range []string{"bm25", "hybrid"} {
			s := results[mode+" "+style]
			fmt.Fprintf(&report, "%-7s %-11s (%2d queries)  %s\n", mode, style, s.n, s)
		}
	}
	t.Logf("retrieval over %d entries:\n%s", len(set.Entries), report.String())
	r5 := func(key string) float64 { s := results[key]; return s.recall5 / float64(s.n) }
	if r5("bm25 keyword") < 0.9 || r5("hybrid keyword") < 0.9 {
		t.Errorf("keyword queries: recall@5 bm25 %.2f hybrid %.2f, want ≥ 0.9 both", r5("bm25 keyword"), r5("hybrid keyword"))
	}
	if r5("hybrid paraphrase") < r5("bm25 paraphrase")+0.3 {
		t.Errorf("paraphrase queries: recall@5 hybrid %.2f vs bm25 %.2f; the embedding ranking should lift them", r5("hybrid paraphrase"), r5("bm25 paraphrase"))
	}
}
