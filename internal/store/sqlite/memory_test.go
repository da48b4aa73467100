package sqlite_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

// TestSearchRanksCommonWords: a search whose words are in every entry is
// still ranked by relevance (never listed by date), and the rare entries
// are never lost among the common ones.
func TestSearchRanksCommonWords(t *testing.T) {
	ctx := context.Background()
	s := open(t, sqlite.Options{})
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var rare []memory.ID
	err := s.Update(ctx, func(tx store.Tx) error {
		for i := range 1500 {
			e := memory.Entry{Type: memory.Insight, Title: fmt.Sprint("note ", i), Content: "common words everywhere", CreatedAt: t0, UpdatedAt: t0}
			if i%500 == 7 {
				e.Content += " zebra"
			}
			if i%3 == 0 {
				e.Content += " frequent"
			}
			got, err := tx.PutMemory(ctx, e)
			if err != nil {
				return err
			}
			if i%500 == 7 {
				rare = append(rare, got.ID)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	search := func(text string) store.MemoryResult {
		t.Helper()
		var r store.MemoryResult
		if err := s.View(ctx, func(tx store.Tx) (err error) {
			r, err = store.SearchMemory(ctx, tx, store.MemoryQuery{Text: text, Limit: 10})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return r
	}
	ids := func(r store.MemoryResult) []memory.ID {
		var out []memory.ID
		for _, h := range r.Hits {
			out = append(out, h.Entry.ID)
		}
		return out
	}

	r := search("common zebra")
	got := ids(r)[:3]
	slices.Sort(got)
	if fmt.Sprint(got) != fmt.Sprint(rare) || r.Total != 1500 {
		t.Errorf("common zebra: first ids %v (want %v), total %d (at least %v)", got, rare, r.Total, r.AtLeast)
	}
	// Two common words: the entries holding both rank first, every hit
	// scored, best first.
	r = search("common frequent")
	if len(r.Hits) != 10 || r.Total != 1500 {
		t.Errorf("common frequent: %d hits, total %d", len(r.Hits), r.Total)
	}
	for i, h := range r.Hits {
		if (int(h.Entry.ID)-1)%3 != 0 || h.Score <= 0 || (i > 0 && h.Score > r.Hits[i-1].Score) {
			t.Errorf("common frequent: hit %d is %s scored %.3f", i, h.Entry.ID, h.Score)
		}
	}
	r = search("zebra")
	if r.Total != 3 || r.AtLeast || r.Hits[0].Score <= 0 {
		t.Errorf("zebra: %+v", r)
	}
	// Stopwords alone match nothing rather than everything.
	if r = search("what did the"); len(r.Hits) != 0 {
		t.Errorf("stopwords: %d hits", len(r.Hits))
	}
}
