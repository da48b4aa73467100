package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
	"github.com/cairn-dev/cairn/internal/testing/wait"
)

// TestOpenSharedOnePool: eight projects opened with OpenShared on one
// database URL hold one pool (its connections bounded by MaxConns, one
// listener), each store sees only its project, closing one leaves the
// others working, and the pool closes with the last.
func TestOpenSharedOnePool(t *testing.T) {
	ctx := context.Background()
	base := pgtest.Project(t)
	app := "cairn-shared-" + base[len(base)-12:]
	url := withParam(t, "application_name", app)
	const projects, maxConns = 8, 3
	var stores []*postgres.Store
	for i := range projects {
		s, err := postgres.OpenShared(ctx, url, postgres.Options{Project: fmt.Sprintf("%s-%d", base, i), MaxConns: maxConns})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	// Every project busy at once, and watched (the listener's connection).
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for i, s := range stores {
		s.Watch(wctx)
		for w := range 3 {
			wg.Go(func() { createTask(t, s, fmt.Sprintf("p%d w%d", i, w)) })
		}
	}
	wg.Wait()
	admin, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	conns := func() int {
		t.Helper()
		var n int
		if err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := conns(); n > maxConns+1 {
		t.Errorf("%d projects hold %d connections; want at most %d (one pool of %d and one listener)", projects, n, maxConns+1, maxConns)
	}
	// Each store sees its own project's tasks only.
	for i, s := range stores {
		var ts []task.Task
		if err := s.View(ctx, func(tx store.Tx) (err error) { ts, err = store.Tasks(ctx, tx); return err }); err != nil {
			t.Fatal(err)
		}
		if len(ts) != 3 {
			t.Errorf("project %d sees %d tasks, want its own 3: %v", i, len(ts), titlesOf(ts))
		}
		for _, x := range ts {
			if want := fmt.Sprintf("p%d ", i); x.Title[:len(want)] != want {
				t.Errorf("project %d sees %q, another project's task", i, x.Title)
			}
		}
	}
	// Closing one project leaves the pool to the others.
	if err := stores[0].Close(); err != nil {
		t.Fatal(err)
	}
	if err := stores[0].View(ctx, func(store.Tx) error { return nil }); !errors.Is(err, store.ErrClosed) {
		t.Errorf("a closed project's store: %v, want store.ErrClosed", err)
	}
	createTask(t, stores[1], "after another project closed")
	// Reopening a project while the pool is open uses the same pool.
	again, err := postgres.OpenShared(ctx, url, postgres.Options{Project: fmt.Sprintf("%s-%d", base, 0)})
	if err != nil {
		t.Fatal(err)
	}
	createTask(t, again, "reopened")
	if n := conns(); n > maxConns+1 {
		t.Errorf("after reopening a project: %d connections, want at most %d", n, maxConns+1)
	}
	again.Close()
	for _, s := range stores[1:] {
		s.Close()
	}
	// The server ends a backend shortly after its client hangs up: poll
	// it, another process.
	if !wait.For(10*time.Second, func() bool { return conns() == 0 }) {
		t.Errorf("%d connections left 10s after every project closed; the shared pool should be closed", conns())
	}
}

func titlesOf(ts []task.Task) []string {
	out := make([]string, len(ts))
	for i, x := range ts {
		out[i] = x.Title
	}
	return out
}

// TestMemoryWritesNoTsvector: memory search ranks from its postings, so
// the tsvector column older schemas computed on every write is gone
// (migration 0007); the memory contract tests hold search to the same
// answers.
func TestMemoryWritesNoTsvector(t *testing.T) {
	ctx := context.Background()
	newStore(t) // migrated
	admin, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var cols []string
	rows, err := admin.Query(ctx, `SELECT column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = 'memory_entries' AND data_type = 'tsvector'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatal(err)
		}
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if len(cols) > 0 {
		t.Errorf("memory_entries still has tsvector columns %v, written on every memory write and read by nothing", cols)
	}
}

// TestWritersDoNotHoldThePool: while one write holds the project's lock,
// at most one more of the store's writers waits with a pooled connection
// (the rest wait without), so a read still gets one: with three
// connections, the writer at work, the next writer, and one free. Before,
// each waiting writer held a connection while it waited on the lock, and
// the read waited behind them all.
func TestWritersDoNotHoldThePool(t *testing.T) {
	ctx := context.Background()
	project := pgtest.Project(t)
	app := "cairn-writers-" + project[len(project)-12:]
	s, err := postgres.Open(ctx, withParam(t, "application_name", app), postgres.Options{Project: project, MaxConns: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	admin, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	createTask(t, s, "seed")
	holding, release := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		err := s.Update(ctx, func(tx store.Tx) error {
			if _, err := store.Tasks(ctx, tx); err != nil {
				return err
			}
			close(holding)
			<-release
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	})
	<-holding
	var started sync.WaitGroup
	started.Add(3)
	for i := range 3 {
		wg.Go(func() {
			started.Done()
			createTask(t, s, fmt.Sprint("queued ", i))
		})
	}
	started.Wait()
	// The next writer waits on the project's lock in the server: poll the
	// server, another process, until it shows it waiting.
	wait.Until(t, 10*time.Second, "a writer to wait on the project's lock after three were started", func() bool {
		var waiting int
		if err := admin.QueryRow(ctx, `SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
			WHERE l.locktype = 'advisory' AND NOT l.granted AND a.application_name = $1`, app).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
		return waiting > 0
	})
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var n int
	err = s.View(rctx, func(tx store.Tx) (err error) { _, n, err = tx.Query(rctx, store.Query{}); return err })
	close(release)
	wg.Wait()
	if err != nil {
		t.Fatalf("a read while writers queue for the lock: %v", err)
	}
	if n != 1 {
		t.Errorf("the read saw %d tasks, want the 1 committed before the writers", n)
	}
	var all []task.Task
	if err := s.View(ctx, func(tx store.Tx) (err error) { all, err = store.Tasks(ctx, tx); return err }); err != nil || len(all) != 4 {
		t.Errorf("after the writers: %v %v, want 4 tasks", titlesOf(all), err)
	}
}
