package service_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

// TestChangesSeesAnotherProcess: the change feed first says where the
// project is, then tells of a write made through another handle on the same
// file (another process), and ends with its context.
func TestChangesSeesAnotherProcess(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	path := filepath.Join(t.TempDir(), "cairn.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	other, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	set := service.NewSet(s, service.MemoryOptions{}, nil)
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
	if _, err := service.NewPlan(other).Create(ctx, service.NewTask{Title: "from another process"}); err != nil {
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
