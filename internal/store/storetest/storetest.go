// Package storetest is the contract every store.Store implementation must
// pass. A backend's test calls Run with a function that opens a fresh, empty
// store.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// Run runs the contract suite. open must return a new empty store each call.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"CreateAndRead", testCreateAndRead},
		{"PlacementAfter", testPlacementAfter},
		{"Ancestors", testAncestors},
		{"UpdateTask", testUpdateTask},
		{"RemoveSubtree", testRemoveSubtree},
		{"IDsNeverReused", testIDsNeverReused},
		{"Focus", testFocus},
		{"Completions", testCompletions},
		{"RollbackOnError", testRollback},
		{"ConcurrentWriters", testConcurrentWriters},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func update(t *testing.T, s store.Store, fn func(tx store.Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

func view(t *testing.T, s store.Store, fn func(tx store.Tx) error) {
	t.Helper()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

func create(t *testing.T, s store.Store, title string, place store.Placement) task.Task {
	t.Helper()
	var out task.Task
	update(t, s, func(tx store.Tx) (err error) {
		out, err = tx.CreateTask(context.Background(), task.Task{Title: title, Body: "body of " + title, CreatedAt: t0, UpdatedAt: t0}, place)
		return err
	})
	return out
}

func titles(ts []task.Task) []string {
	out := []string{}
	for _, x := range ts {
		out = append(out, x.Title)
	}
	return out
}

func children(t *testing.T, s store.Store, parent task.ID, withBody bool) []task.Task {
	t.Helper()
	var out []task.Task
	view(t, s, func(tx store.Tx) (err error) {
		out, err = tx.Children(context.Background(), parent, withBody)
		return err
	})
	return out
}

func testCreateAndRead(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{})
	a1 := create(t, s, "a1", store.Placement{Parent: a.ID})
	if a.ID == 0 || b.ID <= a.ID || a1.ParentID != a.ID {
		t.Fatalf("ids/parents: a=%v b=%v a1=%+v", a.ID, b.ID, a1)
	}
	if a.Status != task.StatusPending || a.Priority != task.PriorityMedium {
		t.Fatalf("defaults: %+v", a)
	}
	view(t, s, func(tx store.Tx) error {
		got, err := tx.Task(ctx, a1.ID)
		if err != nil {
			return err
		}
		want := task.Task{ID: a1.ID, ParentID: a.ID, Position: got.Position, Num: 1, Title: "a1", Body: "body of a1",
			Status: task.StatusPending, Priority: task.PriorityMedium, CreatedAt: t0, UpdatedAt: t0}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Task (-want +got):\n%s", diff)
		}
		if _, err := tx.Task(ctx, 999); !errors.Is(err, task.ErrNotFound) {
			t.Errorf("missing task: %v, want ErrNotFound", err)
		}
		n, err := tx.CountTasks(ctx)
		if err != nil || n != 3 {
			t.Errorf("CountTasks = %d, %v; want 3", n, err)
		}
		all, err := tx.Tasks(ctx)
		if err != nil || len(all) != 3 {
			t.Errorf("Tasks = %d, %v; want 3", len(all), err)
		}
		for _, x := range all {
			if x.Body != "" {
				t.Errorf("Tasks returned a body for %v", x.ID)
			}
		}
		return nil
	})
	if got := titles(children(t, s, 0, false)); !cmp.Equal(got, []string{"a", "b"}) {
		t.Errorf("roots = %q", got)
	}
	kids := children(t, s, a.ID, true)
	if len(kids) != 1 || kids[0].Body != "body of a1" {
		t.Errorf("children with body = %+v", kids)
	}
	if kids := children(t, s, a.ID, false); kids[0].Body != "" {
		t.Errorf("children without body returned a body")
	}
}

func testPlacementAfter(t *testing.T, s store.Store) {
	p := create(t, s, "p", store.Placement{})
	x := create(t, s, "x", store.Placement{Parent: p.ID})
	create(t, s, "z", store.Placement{Parent: p.ID})
	y := create(t, s, "y", store.Placement{After: x.ID})
	if y.ParentID != p.ID {
		t.Fatalf("After placed under %v, want %v", y.ParentID, p.ID)
	}
	create(t, s, "x2", store.Placement{After: x.ID})
	if got := titles(children(t, s, p.ID, false)); !cmp.Equal(got, []string{"x", "x2", "y", "z"}) {
		t.Fatalf("order after inserts = %q", got)
	}
	// After at the root level.
	create(t, s, "q", store.Placement{After: p.ID})
	if got := titles(children(t, s, 0, false)); !cmp.Equal(got, []string{"p", "q"}) {
		t.Fatalf("roots = %q", got)
	}
	err := s.Update(context.Background(), func(tx store.Tx) error {
		_, err := tx.CreateTask(context.Background(), task.Task{Title: "orphan"}, store.Placement{After: 999})
		return err
	})
	if !errors.Is(err, task.ErrNotFound) {
		t.Fatalf("After a missing task: %v", err)
	}
}

func testAncestors(t *testing.T, s store.Store) {
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{Parent: a.ID})
	c := create(t, s, "c", store.Placement{Parent: b.ID})
	view(t, s, func(tx store.Tx) error {
		got, err := tx.Ancestors(context.Background(), c.ID)
		if err != nil {
			return err
		}
		if !cmp.Equal(titles(got), []string{"a", "b"}) {
			t.Errorf("Ancestors(c) = %q, want root first", titles(got))
		}
		got, err = tx.Ancestors(context.Background(), a.ID)
		if err != nil || len(got) != 0 {
			t.Errorf("Ancestors(root) = %q, %v", titles(got), err)
		}
		return nil
	})
}

func testUpdateTask(t *testing.T, s store.Store) {
	a := create(t, s, "a", store.Placement{})
	t1 := t0.Add(time.Hour)
	a.Title, a.Body, a.Status, a.Priority, a.UpdatedAt, a.CompletedAt = "A", "new", task.StatusDone, task.PriorityHigh, t1, t1
	update(t, s, func(tx store.Tx) error { return tx.UpdateTask(context.Background(), a) })
	view(t, s, func(tx store.Tx) error {
		got, err := tx.Task(context.Background(), a.ID)
		if diff := cmp.Diff(a, got); diff != "" || err != nil {
			t.Errorf("after update (-want +got): %v\n%s", err, diff)
		}
		return nil
	})
	err := s.Update(context.Background(), func(tx store.Tx) error {
		return tx.UpdateTask(context.Background(), task.Task{ID: 999, Title: "x"})
	})
	if !errors.Is(err, task.ErrNotFound) {
		t.Fatalf("update missing: %v", err)
	}
}

func testRemoveSubtree(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{Parent: a.ID})
	create(t, s, "c", store.Placement{Parent: b.ID})
	keep := create(t, s, "keep", store.Placement{})
	update(t, s, func(tx store.Tx) error {
		n, err := tx.RemoveSubtree(ctx, a.ID, t0)
		if err != nil || n != 3 {
			t.Errorf("RemoveSubtree = %d, %v; want 3", n, err)
		}
		_, err = tx.RemoveSubtree(ctx, a.ID, t0)
		if !errors.Is(err, task.ErrNotFound) {
			t.Errorf("second removal: %v", err)
		}
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		if _, err := tx.Task(ctx, b.ID); !errors.Is(err, task.ErrNotFound) {
			t.Errorf("removed task still readable: %v", err)
		}
		all, _ := tx.Tasks(ctx)
		if len(all) != 1 || all[0].ID != keep.ID {
			t.Errorf("visible after removal: %q", titles(all))
		}
		return nil
	})
}

func testIDsNeverReused(t *testing.T, s store.Store) {
	a := create(t, s, "a", store.Placement{})
	update(t, s, func(tx store.Tx) error {
		_, err := tx.RemoveSubtree(context.Background(), a.ID, t0)
		return err
	})
	b := create(t, s, "b", store.Placement{})
	if b.ID <= a.ID {
		t.Fatalf("id %v reused or went back after %v", b.ID, a.ID)
	}
}

func testFocus(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{})
	update(t, s, func(tx store.Tx) error {
		if id, err := tx.Focus(ctx, "alice"); err != nil || id != 0 {
			t.Errorf("unset focus = %v, %v", id, err)
		}
		if err := tx.SetFocus(ctx, "alice", a.ID, t0); err != nil {
			return err
		}
		if err := tx.SetFocus(ctx, "bob", b.ID, t0); err != nil {
			return err
		}
		return tx.SetFocus(ctx, "alice", b.ID, t0) // overwrite
	})
	view(t, s, func(tx store.Tx) error {
		for agent, want := range map[string]task.ID{"alice": b.ID, "bob": b.ID, "carol": 0} {
			if got, err := tx.Focus(ctx, agent); err != nil || got != want {
				t.Errorf("Focus(%s) = %v, %v; want %v", agent, got, err, want)
			}
		}
		return nil
	})
	update(t, s, func(tx store.Tx) error { return tx.SetFocus(ctx, "bob", 0, t0) })
	view(t, s, func(tx store.Tx) error {
		if got, _ := tx.Focus(ctx, "bob"); got != 0 {
			t.Errorf("zen focus = %v", got)
		}
		return nil
	})
}

func testCompletions(t *testing.T, s store.Store) {
	ctx := context.Background()
	update(t, s, func(tx store.Tx) error {
		for i := 1; i <= 5; i++ {
			c := task.Completion{TaskID: task.ID(i), Title: fmt.Sprint("c", i), Body: "b", CreatedAt: t0, CompletedAt: t0.Add(time.Duration(i) * time.Second)}
			if err := tx.Archive(ctx, c); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		got, total, err := tx.Completions(ctx, false, 1, 2)
		if err != nil || total != 5 || len(got) != 2 || got[0].Title != "c2" || got[1].Title != "c3" {
			t.Errorf("chronological page = %+v, %d, %v", got, total, err)
		}
		got, _, _ = tx.Completions(ctx, true, 0, 10)
		if len(got) != 5 || got[0].Title != "c5" || got[4].Title != "c1" || !got[0].CompletedAt.Equal(t0.Add(5*time.Second)) {
			t.Errorf("newest first = %+v", got)
		}
		return nil
	})
}

func testRollback(t *testing.T, s store.Store) {
	boom := errors.New("boom")
	err := s.Update(context.Background(), func(tx store.Tx) error {
		if _, err := tx.CreateTask(context.Background(), task.Task{Title: "ghost", CreatedAt: t0, UpdatedAt: t0}, store.Placement{}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update returned %v, want the callback's error", err)
	}
	if got := children(t, s, 0, false); len(got) != 0 {
		t.Fatalf("rolled-back task is visible: %q", titles(got))
	}
}

func testConcurrentWriters(t *testing.T, s store.Store) {
	const writers, each = 8, 25
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		seen = map[task.ID]bool{}
		errs []error
	)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				var created task.Task
				err := s.Update(context.Background(), func(tx store.Tx) (err error) {
					created, err = tx.CreateTask(context.Background(), task.Task{Title: fmt.Sprintf("w%d-%d", w, i), CreatedAt: t0, UpdatedAt: t0}, store.Placement{})
					if err != nil {
						return err
					}
					return tx.SetFocus(context.Background(), fmt.Sprint("agent", w), created.ID, t0)
				})
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else if seen[created.ID] {
					errs = append(errs, fmt.Errorf("duplicate id %v", created.ID))
				} else {
					seen[created.ID] = true
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d writes failed, first: %v", len(errs), errs[0])
	}
	roots := children(t, s, 0, false)
	if len(roots) != writers*each {
		t.Fatalf("%d tasks stored, want %d", len(roots), writers*each)
	}
	positions := map[int]bool{}
	for _, r := range roots {
		if positions[r.Position] {
			t.Fatalf("two roots share position %d", r.Position)
		}
		positions[r.Position] = true
	}
}
