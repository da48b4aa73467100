package service_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

// TestChangesSeesAnotherProcess: the change feed first says where the
// project is, then tells of a write made through another handle on the same
// file (another process), and ends with its context.
func TestChangesSeesAnotherProcess(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "cairn.db")
		s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		other, err := sqlite.Open(context.Background(), path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		testChanges(t, s, other)
	})
	t.Run("postgres", func(t *testing.T) {
		s, other, _, _ := pgHandles(t)
		testChanges(t, s, other)
	})
}

func testChanges(t *testing.T, s, other store.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	set := service.New(s, service.Options{})
	ch := set.Changes(ctx)
	recv := func(what string) uint64 {
		t.Helper()
		select {
		case v, ok := <-ch:
			if !ok {
				t.Fatalf("%s: the feed closed", what)
			}
			return v
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: nothing on the feed", what)
		}
		return 0
	}
	first := recv("the current version")
	if now, err := set.Version(ctx); err != nil || now != first {
		t.Fatalf("first value %d, version %d (%v)", first, now, err)
	}
	if _, err := service.New(other, service.Options{}).Plan.Create(ctx, plan.NewTask{Title: "from another process"}); err != nil {
		t.Fatal(err)
	}
	if v := recv("after another process's write"); v == first {
		t.Fatalf("the feed sent the old version %d again", v)
	}
	agents, err := set.Focus.Agents(ctx)
	if err != nil || len(agents) != 0 {
		t.Fatalf("Agents with no focus: %v, %v", agents, err)
	}
	cancel()
	for range ch { // drains, then closes
	}
}

// deafStore is a store.Watcher whose notifications never come, as behind a
// connection pooler that drops LISTEN.
type deafStore struct{ store.Store }

func (deafStore) Watch(context.Context) <-chan struct{} { return make(chan struct{}) }

// TestChangesBackstop: when a Watcher's notifications stop, the feed still
// tells of a change, by its backstop read of the version.
func TestChangesBackstop(t *testing.T) {
	defer func(d time.Duration) { service.ChangeBackstop = d }(service.ChangeBackstop)
	service.ChangeBackstop = 20 * time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	path := filepath.Join(t.TempDir(), "cairn.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ch := service.New(deafStore{s}, service.Options{}).Changes(ctx)
	first := <-ch
	if _, err := service.New(s, service.Options{}).Plan.Create(ctx, plan.NewTask{Title: "unheard"}); err != nil {
		t.Fatal(err)
	}
	select {
	case v := <-ch:
		if v == first {
			t.Fatalf("the feed sent the old version %d again", v)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a change went untold while the store's notifications were silent")
	}
}
