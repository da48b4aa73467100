package postgres_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// TestMemoryReadRoundTrips counts the round trips each memory read makes
// to PostgreSQL (its transaction's BEGIN and COMMIT included), through the
// memory service as the tools call it, on a memory with superseded and
// expired entries (which a search leaves out after ranking). It fails when
// a read makes more than it did when last cut down; -v prints the counts.
func TestMemoryReadRoundTrips(t *testing.T) {
	ctx := context.Background()
	wl := &writeLog{}
	st, err := postgres.Open(ctx, pgtest.URL(t), postgres.Options{Project: pgtest.Project(t), Logger: slog.New(wl)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	t0 := time.Now().Add(-time.Hour).UTC().Truncate(time.Microsecond)
	err = st.Update(ctx, func(tx store.Tx) error {
		var prev memory.Entry
		for i := range 40 {
			e := memory.Entry{Type: memory.Decision, Title: fmt.Sprintf("decision %d on caching", i),
				Content: fmt.Sprintf("the cache keeps %d entries warm for the planner", i), Tags: []string{"cache"},
				SessionID: fmt.Sprint("s", i%3), Branch: "main", CreatedAt: t0.Add(time.Duration(i) * time.Minute)}
			e.UpdatedAt = e.CreatedAt
			if i%10 == 9 {
				e.ExpiresAt = t0 // expired
			}
			got, err := tx.AddMemory(ctx, e)
			if err != nil {
				return err
			}
			if i%7 == 6 { // supersedes the one before
				prev.SupersededBy = got.ID
				if err := tx.UpdateMemory(ctx, prev); err != nil {
					return err
				}
			}
			prev = got
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	mem := service.NewSet(st, service.MemoryOptions{}, nil).Memory
	reads := []struct {
		name  string
		limit int
		call  func() error
	}{
		{"search", 7, func() error {
			_, err := mem.Search(ctx, service.SearchQuery{Text: "caching planner"})
			return err
		}},
		{"search filtered", 7, func() error {
			_, err := mem.Search(ctx, service.SearchQuery{Text: "caching planner", Tags: []string{"cache"}, Branch: "main"})
			return err
		}},
		{"search second page", 7, func() error {
			_, err := mem.Search(ctx, service.SearchQuery{Text: "cache", Page: service.Page{Offset: 10, Limit: 5}})
			return err
		}},
		{"recent", 3, func() error {
			_, err := mem.Search(ctx, service.SearchQuery{})
			return err
		}},
		{"context", 6, func() error {
			_, err := mem.Context(ctx, service.ContextQuery{ID: "m20", SameSession: true})
			return err
		}},
	}
	for _, r := range reads {
		n := wl.len()
		if err := r.call(); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		trips := 0
		for _, k := range wl.since(n) {
			trips += k
		}
		t.Logf("%s: %d round trips", r.name, trips)
		if trips > r.limit {
			t.Errorf("%s made %d round trips, more than %d", r.name, trips, r.limit)
		}
	}
}
