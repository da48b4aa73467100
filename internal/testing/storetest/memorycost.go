package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

// MemoryRead is one read of the memory as the memory tools make it, for a
// backend's test that counts what each costs it (statements, round trips).
type MemoryRead struct {
	Name string
	Read func(ctx context.Context, tx store.Tx) error
}

// SeedMemoryReads records the memory MemoryReads reads: 40 entries over
// three sessions, every tenth expired by now and every seventh superseded
// by the next, so that a search has entries to leave out after ranking.
func SeedMemoryReads(t *testing.T, s store.Store, now time.Time) {
	t.Helper()
	ctx := context.Background()
	t0 := now.Add(-time.Hour)
	update(t, s, func(tx store.Tx) error {
		var prev memory.Entry
		for i := range 40 {
			e := memory.Entry{Type: memory.Decision, Title: fmt.Sprintf("decision %d on caching", i),
				Content: fmt.Sprintf("the cache keeps %d entries warm for the planner", i), Tags: []string{"cache"},
				SessionID: fmt.Sprint("s", i%3), Branch: "main", CreatedAt: t0.Add(time.Duration(i) * time.Minute)}
			e.UpdatedAt = e.CreatedAt
			if i%10 == 9 {
				e.ExpiresAt = t0
			}
			got, err := tx.PutMemory(ctx, e)
			if err != nil {
				return err
			}
			if i%7 == 6 {
				prev.SupersededBy = got.ID
				if _, err := tx.PutMemory(ctx, prev); err != nil {
					return err
				}
			}
			prev = got
		}
		return nil
	})
}

// MemoryReads are the memory tools' reads, as the memory service makes
// them at now, of the memory SeedMemoryReads records.
func MemoryReads(now time.Time) []MemoryRead {
	search := func(q store.MemoryQuery) func(context.Context, store.Tx) error {
		q.Now = now
		return func(ctx context.Context, tx store.Tx) error {
			_, err := store.SearchMemory(ctx, tx, q)
			return err
		}
	}
	return []MemoryRead{
		{"search", search(store.MemoryQuery{Text: "caching planner"})},
		{"search filtered", search(store.MemoryQuery{Text: "caching planner", Tags: []string{"cache"}, Branch: "main"})},
		{"search second page", search(store.MemoryQuery{Text: "cache", Offset: 10, Limit: 5})},
		{"recent", search(store.MemoryQuery{})},
		{"context", func(ctx context.Context, tx store.Tx) error {
			if _, err := store.Memories(ctx, tx, []memory.ID{20}, 0); err != nil {
				return err
			}
			_, _, err := store.MemoryTimeline(ctx, tx, 20, 3, 3, true)
			return err
		}},
	}
}

// CheckUpgraded checks a store opened on data an older Cairn left (the
// backends' migration tests write it): task 1, "Old task" with body, and
// entry m1, "Keep the journal in WAL mode", whose rationale is
// "concurrency" and which a search finds.
func CheckUpgraded(t *testing.T, s store.Store, body string) {
	t.Helper()
	ctx := context.Background()
	view(t, s, func(tx store.Tx) error {
		if tk, err := store.Task(ctx, tx, 1); err != nil || tk.Title != "Old task" || tk.Body != body {
			t.Errorf("task 1 = %+v, %v", tk, err)
		}
		r, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: "journal"})
		if err != nil {
			return err
		}
		if len(r.Hits) != 1 || r.Hits[0].Entry.ID != 1 {
			t.Errorf("search after upgrading: %+v", r)
		}
		if es, err := store.Memories(ctx, tx, []memory.ID{1}, 0); err != nil || len(es) != 1 || es[0].Rationale != "concurrency" {
			t.Errorf("m1 = %+v, %v", es, err)
		}
		return nil
	})
}
