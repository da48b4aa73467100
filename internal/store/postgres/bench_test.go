package postgres_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// benchStore opens a fresh project with n root tasks.
func benchStore(b *testing.B, n int) (*postgres.Store, []task.Task) {
	b.Helper()
	s, err := postgres.Open(context.Background(), pgtest.URL(b), postgres.Options{Project: pgtest.Project(b)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	var ts []task.Task
	now := time.Now()
	err = s.Update(context.Background(), func(tx store.Tx) error {
		for i := range n {
			t, err := tx.CreateTask(context.Background(), task.Task{Title: fmt.Sprint("t", i), Body: "body", CreatedAt: now, UpdatedAt: now}, store.Placement{})
			if err != nil {
				return err
			}
			ts = append(ts, t)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return s, ts
}

// BenchmarkCreateTask: one Update that creates a task and moves a focus,
// as create_new_task does.
func BenchmarkCreateTask(b *testing.B) {
	s, _ := benchStore(b, 0)
	ctx := context.Background()
	now := time.Now()
	for b.Loop() {
		err := s.Update(ctx, func(tx store.Tx) error {
			t, err := tx.CreateTask(ctx, task.New("x", "", now), store.Placement{})
			if err != nil {
				return err
			}
			return tx.SetFocus(ctx, "agent", t.ID, now)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkViewTask: one View that reads a focus and its task
// (Query.FocusOf), as get_current_task does.
func BenchmarkViewTask(b *testing.B) {
	s, ts := benchStore(b, 100)
	ctx := context.Background()
	if err := s.Update(ctx, func(tx store.Tx) error { return tx.SetFocus(ctx, "agent", ts[50].ID, time.Now()) }); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		err := s.View(ctx, func(tx store.Tx) error {
			_, found, err := store.FocusedTask(ctx, tx, "agent")
			if err == nil && !found {
				err = fmt.Errorf("no focused task")
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTasks1000: every task of a 1,000-task project, as the plan's
// next-task computation reads them.
func BenchmarkTasks1000(b *testing.B) {
	s, _ := benchStore(b, 1000)
	ctx := context.Background()
	for b.Loop() {
		err := s.View(ctx, func(tx store.Tx) error {
			ts, err := store.Tasks(ctx, tx)
			if err == nil && len(ts) != 1000 {
				err = fmt.Errorf("%d tasks", len(ts))
			}
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVersion: the read caches and watchers poll.
func BenchmarkVersion(b *testing.B) {
	s, _ := benchStore(b, 1)
	ctx := context.Background()
	for b.Loop() {
		if _, err := s.Version(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchMemory: memory search on PostgreSQL over the entries the
// end-to-end memory benchmark seeds (internal/testing/benchseed), with the same
// queries; reports latency percentiles. CAIRN_BENCH_MEMORY sets how many
// entries (default 10,000; seeding takes a while).
//
//	go test -run '^$' -bench '^BenchmarkSearchMemory$' -benchtime 400x ./internal/store/postgres/
func BenchmarkSearchMemory(b *testing.B) {
	ctx := context.Background()
	n := 10_000
	if v := os.Getenv("CAIRN_BENCH_MEMORY"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			b.Fatal(err)
		}
	}
	if b.N == 1 {
		return // the framework's probe run: seeding a second project costs minutes
	}
	s, err := postgres.Open(ctx, pgtest.URL(b), postgres.Options{Project: pgtest.Project(b)})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	if err := benchseed.SeedMemoryStore(ctx, s, n); err != nil {
		b.Fatal(err)
	}
	qs := benchseed.MemoryQueries(200)
	lat := make([]time.Duration, b.N)
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		if err := s.View(ctx, func(tx store.Tx) error {
			_, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: qs[i%len(qs)], Limit: 10})
			return err
		}); err != nil {
			b.Fatal(err)
		}
		lat[i] = time.Since(t0)
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkFocusCycle runs the focus cycle's two writes (create_new_task,
// then complete_current_task) one after the other through the focus
// service: with nothing else running, a write's time here is about the
// time it holds the project's lock, which bounds a project's writes per
// second.
func BenchmarkFocusCycle(b *testing.B) {
	ctx := context.Background()
	s, _ := benchStore(b, 200)
	f := service.New(s, service.Options{}).Focus
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if _, err := f.CreateNewTask(ctx, "bench", "step "+strconv.Itoa(i), "Created by the benchmark."); err != nil {
			b.Fatal(err)
		}
		if _, err := f.CompleteCurrentTask(ctx, "bench", false); err != nil {
			b.Fatal(err)
		}
	}
}
