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

// TestSearchWithinBudget: a search whose words are in many entries ranks by
// its rarer words, or lists the entries holding all of them newest first,
// and says so; the rare entries are never lost among the common ones.
func TestSearchWithinBudget(t *testing.T) {
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
			got, err := tx.AddMemory(ctx, e)
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
			r, err = tx.SearchMemory(ctx, store.MemoryQuery{Text: text, Limit: 10})
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
	got := ids(r)
	slices.Sort(got)
	if fmt.Sprint(got) != fmt.Sprint(rare) || r.Recent || r.Total != 3 {
		t.Errorf("common zebra: ids %v (want %v), recent %v, dropped %v, total %d", got, rare, r.Recent, r.Dropped, r.Total)
	}
	r = search("common")
	if !r.Recent || len(r.Hits) != 10 || r.Hits[0].Entry.ID != 1500 || r.Total != 1000 || !r.AtLeast {
		t.Errorf("common: recent %v, %d hits, first %v, total %d (at least %v)", r.Recent, len(r.Hits), ids(r)[:1], r.Total, r.AtLeast)
	}
	// Two common words whose intersection is still large: newest first.
	r = search("common frequent")
	if !r.Recent || r.Total != 500 || r.Hits[0].Entry.ID != 1498 {
		t.Errorf("common frequent: recent %v total %d first %v", r.Recent, r.Total, ids(r)[:1])
	}
	// Few entries: ranked as usual.
	r = search("zebra")
	if r.Recent || len(r.Dropped) != 0 || r.Total != 3 || r.Hits[0].Score <= 0 {
		t.Errorf("zebra: %+v", r)
	}
}
