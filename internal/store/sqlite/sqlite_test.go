package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/storetest"
)

func open(t *testing.T, opts sqlite.Options) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), ".cairn", "cairn.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// backend opens stores with opts for the contract suite; a second store on
// the same file has its own connections, as another process would.
func backend(opts sqlite.Options) storetest.Backend {
	return storetest.Backend{
		Open: func(t *testing.T) store.Store { return open(t, opts) },
		OpenAgain: func(t *testing.T, s store.Store) store.Store {
			t.Helper()
			s2, err := sqlite.Open(context.Background(), s.(*sqlite.Store).Path(), opts)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s2.Close() })
			return s2
		},
	}
}

func TestContract(t *testing.T) {
	storetest.Run(t, backend(sqlite.Options{}))
}

// TestContractOneShot: a hook's or a CLI command's store, which prepares
// no statement, keeps the whole contract, and prepares none.
func TestContractOneShot(t *testing.T) {
	var (
		mu     sync.Mutex
		opened []*sqlite.Store
	)
	b := backend(sqlite.Options{OneShot: true})
	open := b.Open
	b.Open = func(t *testing.T) store.Store {
		s := open(t)
		mu.Lock()
		opened = append(opened, s.(*sqlite.Store))
		mu.Unlock()
		return s
	}
	// Cleanup runs once every subtest, parallel ones too, has ended; a
	// store still counts its statements after Close.
	t.Cleanup(func() {
		if len(opened) == 0 {
			t.Fatal("the contract opened no store")
		}
		for _, s := range opened {
			if n := s.Prepared(); n != 0 {
				t.Errorf("a one-shot store prepared %d statements", n)
			}
		}
	})
	storetest.Run(t, b)
}

func TestContractSyncFull(t *testing.T) {
	storetest.Run(t, backend(sqlite.Options{Sync: sqlite.SyncFull}))
}

func TestOpenTwiceMigratesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cairn.db")
	for range 2 {
		s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
}

func TestOpenRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		path string
		opts sqlite.Options
	}{
		{"question mark in path", filepath.Join(t.TempDir(), "a?b.db"), sqlite.Options{}},
		{"bad sync", filepath.Join(t.TempDir(), "c.db"), sqlite.Options{Sync: "OFF"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if s, err := sqlite.Open(context.Background(), tc.path, tc.opts); err == nil {
				s.Close()
				t.Fatal("want an error")
			}
		})
	}
}

// TestRemoveSubtreeDropsEdges: removal deletes the stored edges that point
// at removed tasks (the contract can only see that they are hidden).
func TestRemoveSubtreeDropsEdges(t *testing.T) {
	ctx := context.Background()
	s := open(t, sqlite.Options{})
	var a, a1, b task.Task
	err := s.Update(ctx, func(tx store.Tx) (err error) {
		mk := func(title string, parent task.ID) task.Task {
			if err != nil {
				return task.Task{}
			}
			var x task.Task
			x, err = tx.CreateTask(ctx, task.Task{Title: title}, store.Placement{Parent: parent})
			return x
		}
		a, b = mk("a", 0), mk("b", 0)
		a1 = mk("a1", a.ID)
		if err != nil {
			return err
		}
		if err := tx.SetDeps(ctx, b.ID, []task.ID{a.ID, a1.ID}); err != nil {
			return err
		}
		return tx.SetDeps(ctx, a1.ID, []task.ID{b.ID})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, func(tx store.Tx) error { _, err := tx.RemoveSubtree(ctx, a.ID, time.Now()); return err }); err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM task_deps WHERE depends_on IN (?, ?)`, a.ID, a1.ID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d stored edges still point at removed tasks", n)
	}
}

// TestOpenRefusesEmptyFile: a 0-byte cairn.db (truncated, or created by
// hand) is not silently made a new store; InitEmpty (cairn init) does.
func TestOpenRefusesEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cairn.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if !errors.Is(err, sqlite.ErrEmptyDatabase) || !strings.Contains(err.Error(), "cairn init") {
		t.Fatalf("open an empty file: %v", err)
	}
	if fi, _ := os.Stat(path); fi.Size() != 0 {
		t.Fatal("the refused open wrote to the file")
	}
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{InitEmpty: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatalf("reopen after init: %v", err)
	}
	s.Close()
}

// TestCallerGivesUp: a transaction whose caller's context ends stops at its
// next statement with the context's error, and a write's changes are rolled
// back; a context already done starts nothing.
func TestCallerGivesUp(t *testing.T) {
	s := open(t, sqlite.Options{})
	bg := context.Background()
	done, cancel := context.WithCancel(bg)
	cancel()
	if err := s.View(done, func(store.Tx) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("View with a done context: %v; want context.Canceled", err)
	}
	if err := s.Update(done, func(store.Tx) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Update with a done context: %v; want context.Canceled", err)
	}

	ctx, cancel := context.WithCancel(bg)
	err := s.Update(ctx, func(tx store.Tx) error {
		now := time.Now()
		if _, err := tx.CreateTask(ctx, task.New("kept?", "", now), store.Placement{}); err != nil {
			return err
		}
		cancel()
		_, err := tx.CreateTask(ctx, task.New("after", "", now), store.Placement{})
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Update whose caller gave up between statements: %v; want context.Canceled", err)
	}
	ctx, cancel = context.WithCancel(bg)
	defer cancel()
	err = s.View(ctx, func(tx store.Tx) error {
		ts, err := store.Tasks(ctx, tx)
		if err != nil {
			return err
		}
		if len(ts) != 0 {
			t.Errorf("%d tasks after a write that gave up; want its changes rolled back", len(ts))
		}
		cancel()
		_, err = store.Tasks(ctx, tx)
		return err
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("View whose caller gave up between statements: %v; want context.Canceled", err)
	}
}
