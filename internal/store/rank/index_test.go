package rank

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/memory"
)

// entries is a memory of n entries, ids 1 to n.
func entries(n int) []memory.Entry {
	out := make([]memory.Entry, n)
	for i := range out {
		out[i] = memory.Entry{ID: memory.ID(i + 1), Title: fmt.Sprint("entry ", i+1)}
	}
	return out
}

// after reads up to n entries of es after id, as a store's query does.
func after(es []memory.Entry, id memory.ID, n int) []memory.Entry {
	var out []memory.Entry
	for _, e := range es {
		if e.ID > id && len(out) < n {
			out = append(out, e)
		}
	}
	return out
}

func TestFollowing(t *testing.T) {
	es := entries(10)
	next := func(id memory.ID) ([]memory.Entry, error) { return after(es, id, ContextDepth), nil }
	for _, tc := range []struct {
		changed []memory.ID
		want    string
	}{
		{[]memory.ID{3}, "[m4 m5]"},
		{[]memory.ID{3, 4}, "[m5 m6]"}, // a changed entry is indexed by its change, not again
		{[]memory.ID{3, 5}, "[m4 m6 m7]"},
		{[]memory.ID{10}, "[]"},
	} {
		got, err := Following(tc.changed, next)
		var ids []memory.ID
		for _, e := range got {
			ids = append(ids, e.ID)
		}
		if err != nil || fmt.Sprint(ids) != tc.want {
			t.Errorf("Following(%v) = %v, %v; want %s", tc.changed, ids, err, tc.want)
		}
	}
	if _, err := Following([]memory.ID{1}, func(memory.ID) ([]memory.Entry, error) { return nil, errors.New("gone") }); err == nil {
		t.Error("Following hid next's error")
	}
}

// TestRebuild: every entry is added once, in id order, across pages,
// after Start and before Finish; the log says what happens, and nothing
// for a store with no entry.
func TestRebuild(t *testing.T) {
	for _, n := range []int{0, 3, RebuildPage + 7} {
		es := entries(n)
		var (
			steps []string
			added []memory.ID
			log   bytes.Buffer
		)
		err := Rebuild{Entries: n, Was: 2,
			Start:  func() error { steps = append(steps, "start"); return nil },
			Next:   func(id memory.ID) ([]memory.Entry, error) { return after(es, id, RebuildPage), nil },
			Add:    func(e memory.Entry) error { added = append(added, e.ID); return nil },
			Finish: func() error { steps = append(steps, fmt.Sprint("finish after ", len(added))); return nil },
		}.Run(slog.New(slog.NewTextHandler(&log, nil)))
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprint([]string{"start", fmt.Sprint("finish after ", n)}); fmt.Sprint(steps) != want {
			t.Errorf("%d entries: steps %v; want %s", n, steps, want)
		}
		for i, id := range added {
			if id != memory.ID(i+1) {
				t.Fatalf("%d entries: added %v, not each once in id order", n, added)
			}
		}
		if len(added) != n {
			t.Errorf("%d entries: added %d", n, len(added))
		}
		said := strings.Contains(log.String(), "rebuilding the memory search index") && strings.Contains(log.String(), "rebuilt the memory search index")
		if said != (n > 0) {
			t.Errorf("%d entries: the log says:\n%s", n, log.String())
		}
	}
}

func TestRebuildFails(t *testing.T) {
	es := entries(3)
	next := func(id memory.ID) ([]memory.Entry, error) { return after(es, id, RebuildPage), nil }
	quiet := slog.New(slog.DiscardHandler)
	err := Rebuild{Entries: 3, Start: func() error { return nil }, Next: next,
		Add: func(e memory.Entry) error {
			if e.ID == 2 {
				return errors.New("disk full")
			}
			return nil
		}}.Run(quiet)
	if err == nil || err.Error() != "reindex memory m2: disk full" {
		t.Errorf("a failed add: %v", err)
	}
	err = Rebuild{Entries: 3, Start: func() error { return errors.New("locked") }, Next: next, Add: func(memory.Entry) error { return nil }}.Run(quiet)
	if err == nil || err.Error() != "reset memory index: locked" {
		t.Errorf("a failed start: %v", err)
	}
}
