package service_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// TestRecordMistakeConcurrently: four writers, each with its own store
// handle on one project (as four processes have), record one mistake
// worded differently by each run and 400 distinct ones, at once. Every
// recording of the shared one is an occurrence (none lost), the distinct
// ones never merge, and the first analysis stays. On a real SQLite file
// and on PostgreSQL.
func TestRecordMistakeConcurrently(t *testing.T) {
	ctx := context.Background()
	backends := map[string]func(t *testing.T) func() store.Store{
		"sqlite": func(t *testing.T) func() store.Store {
			path := filepath.Join(t.TempDir(), "cairn.db")
			return func() store.Store {
				s, err := sqlite.Open(ctx, path, sqlite.Options{})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				return s
			}
		},
		"postgres": func(t *testing.T) func() store.Store {
			url, project := pgtest.URL(t), pgtest.Project(t)
			return func() store.Store {
				s, err := postgres.Open(ctx, url, postgres.Options{Project: project})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { s.Close() })
				return s
			}
		},
	}
	for name, backend := range backends {
		t.Run(name, func(t *testing.T) {
			open := backend(t)
			const writers, each = 4, 50
			first := memories.NewMemory(open(), memories.MemoryOptions{})
			known, err := first.Record(ctx, "a", memories.AddRequest{Entry: memory.Entry{Type: memory.Mistake,
				Title: "deadlock in pool.go:10:2 after 30ms", Content: "first", RootCause: "lock order", Fix: "take a before b"}})
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make(chan error, writers*each*2)
			for w := range writers {
				m := memories.NewMemory(open(), memories.MemoryOptions{})
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := range each {
						n := w*each + i
						if _, err := m.Record(ctx, fmt.Sprint("agent", w), memories.AddRequest{Entry: memory.Entry{Type: memory.Mistake,
							Title: fmt.Sprintf("Deadlock in pool.go:%d:%d after %dms", n+11, w, n), Content: fmt.Sprintf("run %d", n), RootCause: "same"}}); err != nil {
							errs <- err
						}
						if _, err := m.Record(ctx, "", memories.AddRequest{Entry: memory.Entry{Type: memory.Mistake,
							Title: fmt.Sprintf("flaky test %d in worker", n)}}); err != nil {
							errs <- err
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			es, _, err := first.Get(ctx, []string{known.Entry.ID.String()})
			if err != nil {
				t.Fatal(err)
			}
			e := es[0]
			if e.Occurrences != writers*each+1 || e.RootCause != "lock order" || e.Content != "first" || len(e.Recent) != memories.RecentOccurrences {
				t.Fatalf("after %d recordings: %d occurrences, root cause %q, content %q, %d recent", writers*each+1, e.Occurrences, e.RootCause, e.Content, len(e.Recent))
			}
			res, err := first.Search(ctx, memories.SearchQuery{Types: []string{"mistake"}, Page: page.Page{Limit: 1}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Total != writers*each+1 {
				t.Fatalf("%d mistakes, want %d distinct flaky tests and one deadlock", res.Total, writers*each+1)
			}
		})
	}
}
