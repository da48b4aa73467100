package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// planChanges reads the plan's change feed as the board cache does
// (Store.ReadPlan): the changes after since, and the whole plan (Full)
// when since is 0 or the changes cannot be followed.
func planChanges(t *testing.T, s store.Store, since uint64) (task.Changes, uint64) {
	t.Helper()
	ctx := context.Background()
	res, err := s.ReadPlan(ctx, store.PlanRead{Since: since, Whole: since == 0})
	if err == nil && res.Reload {
		if res.Changes.Full || len(res.Changes.Tasks)+len(res.Changes.Removed) != 0 {
			t.Fatalf("a reload with changes: %+v", res.Changes)
		}
		res, err = s.ReadPlan(ctx, store.PlanRead{Whole: true})
	}
	if err != nil {
		t.Fatal(err)
	}
	if since == 0 && (!res.Changes.Full || res.Reload || res.Changes.Removed != nil) {
		t.Fatalf("the whole plan: Full %v, Reload %v, removed %v", res.Changes.Full, res.Reload, res.Changes.Removed)
	}
	return res.Changes, res.Rev
}

func changedIDs(c task.Changes) []task.ID {
	out := []task.ID{}
	for _, x := range c.Tasks {
		out = append(out, x.ID)
	}
	slices.Sort(out)
	return out
}

// testPlanChanges: the feed names exactly the tasks whose board fields or
// dependencies changed (by this handle or another), and the removed ones.
func testPlanChanges(t *testing.T, s, s2 store.Store) {
	ctx := context.Background()
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{})
	c := create(t, s, "c", store.Placement{Parent: b.ID})
	update(t, s, func(tx store.Tx) error { return tx.SetDeps(ctx, a.ID, []task.ID{b.ID}) })

	full, rev := planChanges(t, s, 0)
	if !full.Full || !slices.Equal(changedIDs(full), []task.ID{a.ID, b.ID, c.ID}) || !slices.Equal(full.Deps[a.ID], []task.ID{b.ID}) || rev == 0 {
		t.Fatalf("since 0: want the whole plan, got %+v at revision %d", full, rev)
	}
	if got, again := planChanges(t, s, rev); got.Full || len(got.Tasks)+len(got.Removed) != 0 || again != rev {
		t.Fatalf("nothing changed, yet %+v at %d (was %d)", got, again, rev)
	}

	// Neither a body, loop state nor focus is on the board.
	update(t, s, func(tx store.Tx) error {
		if err := tx.SetLoop(ctx, []byte(`{}`), store.LoopEvent{TaskID: c.ID, Kind: "start", At: t0}); err != nil {
			return err
		}
		return tx.SetFocus(ctx, "agent", c.ID, t0)
	})
	if got, _ := planChanges(t, s, rev); got.Full || len(got.Tasks)+len(got.Removed) != 0 {
		t.Fatalf("loop state or focus changed the plan: %+v", got)
	}

	// A status change and a dropped dependency name their tasks; the
	// dependency's end that did not change is not named.
	update(t, s, func(tx store.Tx) error {
		c.Status = task.StatusInProgress
		if err := tx.UpdateTask(ctx, c); err != nil {
			return err
		}
		return tx.SetDeps(ctx, a.ID, nil)
	})
	got, rev2 := planChanges(t, s, rev)
	if got.Full || !slices.Equal(changedIDs(got), []task.ID{a.ID, c.ID}) || len(got.Deps) != 0 || len(got.Removed) != 0 || rev2 <= rev {
		t.Fatalf("after a status and a dependency change: %+v at %d (was %d)", got, rev2, rev)
	}
	rev = rev2

	// Another handle's writes (another process's) are in the feed: a new
	// task, and a dependency added to an old one.
	d := create(t, s2, "d", store.Placement{})
	update(t, s2, func(tx store.Tx) error { return tx.SetDeps(ctx, a.ID, []task.ID{d.ID}) })
	got, rev2 = planChanges(t, s, rev)
	if got.Full || !slices.Equal(changedIDs(got), []task.ID{a.ID, d.ID}) || !cmp.Equal(got.Deps, task.Deps{a.ID: {d.ID}}) || rev2 <= rev {
		t.Fatalf("after another handle's writes: %+v at %d (was %d)", got, rev2, rev)
	}
	rev = rev2

	// Placing a task after a sibling moves the siblings behind it.
	e := create(t, s, "e", store.Placement{After: a.ID})
	got, rev2 = planChanges(t, s, rev)
	if got.Full || !slices.Contains(changedIDs(got), e.ID) || !slices.Contains(changedIDs(got), b.ID) || !slices.Contains(changedIDs(got), d.ID) || rev2 <= rev {
		t.Fatalf("after placing e after a: %+v at %d (was %d), want e and the siblings it moved (b, d)", got, rev2, rev)
	}
	rev = rev2

	// Removing b hides c too; a task depending on b is named, without the
	// edge.
	update(t, s, func(tx store.Tx) error { return tx.SetDeps(ctx, e.ID, []task.ID{b.ID, d.ID}) })
	got, rev2 = planChanges(t, s, rev)
	if got.Full || !slices.Equal(changedIDs(got), []task.ID{e.ID}) || !cmp.Equal(got.Deps[e.ID], []task.ID{b.ID, d.ID}) || rev2 <= rev {
		t.Fatalf("after e's dependencies changed: %+v at %d (was %d)", got, rev2, rev)
	}
	rev = rev2
	update(t, s2, func(tx store.Tx) error { _, err := tx.RemoveSubtree(ctx, b.ID, t0); return err })
	got, rev2 = planChanges(t, s, rev)
	slices.Sort(got.Removed)
	if got.Full || !slices.Equal(got.Removed, []task.ID{b.ID, c.ID}) || !slices.Contains(changedIDs(got), e.ID) || !cmp.Equal(got.Deps[e.ID], []task.ID{d.ID}) || rev2 <= rev {
		t.Fatalf("after removing b: %+v at %d (was %d); want b and c removed, e changed depending on d only", got, rev2, rev)
	}
	for _, x := range got.Tasks {
		if x.ID == b.ID || x.ID == c.ID {
			t.Fatalf("removed task %s listed as changed: %+v", x.ID, got)
		}
	}
	checkBoard(t, s)
}

// checkBoard: a board built by applying the feed from scratch equals one
// built from a full read.
func checkBoard(t *testing.T, s store.Store) {
	t.Helper()
	ctx := context.Background()
	full, _ := planChanges(t, s, 0)
	var ts []task.Task
	var deps task.Deps
	view(t, s, func(tx store.Tx) (err error) {
		if ts, err = store.Tasks(ctx, tx); err != nil {
			return err
		}
		deps, err = tx.Deps(ctx, store.DepQuery{All: true})
		return err
	})
	sameBoard(t, task.NewBoard(ts, deps), (*task.Board)(nil).Apply(full))
}

// sameBoard compares two boards' tasks and edges.
func sameBoard(t *testing.T, want, got *task.Board) {
	t.Helper()
	norm := func(b *task.Board) (map[task.ID]task.Task, map[task.ID][]task.ID) {
		ts := map[task.ID]task.Task{}
		for id, x := range b.Tasks.All() {
			ts[id] = *x
		}
		deps := map[task.ID][]task.ID{}
		for id, ds := range b.Deps {
			if len(ds) > 0 {
				deps[id] = slices.Sorted(slices.Values(ds))
			}
		}
		return ts, deps
	}
	wt, wd := norm(want)
	gt, gd := norm(got)
	if d := cmp.Diff(wt, gt); d != "" {
		t.Errorf("tasks differ (-full read +applied changes):\n%s", d)
	}
	if d := cmp.Diff(wd, gd); d != "" {
		t.Errorf("dependencies differ (-full read +applied changes):\n%s", d)
	}
}

// testPlanChangesConcurrent: writers on two handles race a reader that
// follows the feed; whatever order their revisions commit in, the reader's
// board ends equal to a full read. A feed whose revisions could commit out
// of order (a reader at N missing a change committed later with a smaller
// revision) fails here.
func testPlanChangesConcurrent(t *testing.T, s, s2 store.Store) {
	ctx := context.Background()
	var roots []task.Task
	for i := range 4 {
		roots = append(roots, create(t, s, fmt.Sprint("root", i), store.Placement{}))
	}
	c, rev := planChanges(t, s, 0)
	board := (*task.Board)(nil).Apply(c)

	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for w, st := range []store.Store{s, s2, s, s2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var prev task.ID
			for i := range 15 {
				err := st.Update(ctx, func(tx store.Tx) error {
					n, err := tx.CreateTask(ctx, task.New(fmt.Sprintf("w%d.%d", w, i), "", t0),
						store.Placement{Parent: roots[w].ID})
					if err != nil {
						return err
					}
					if prev != 0 {
						if err := tx.SetDeps(ctx, n.ID, []task.ID{prev}); err != nil {
							return err
						}
					}
					prev = n.ID
					r := roots[(w+i)%len(roots)]
					r, err = store.Task(ctx, tx, r.ID)
					if err != nil {
						return err
					}
					r.Title = fmt.Sprintf("root touched by w%d.%d", w, i)
					return tx.UpdateTask(ctx, r)
				})
				if err != nil {
					errs <- err
					return
				}
				if i == 10 && w == 1 {
					if err := st.Update(ctx, func(tx store.Tx) error {
						_, err := tx.RemoveSubtree(ctx, prev, t0)
						return err
					}); err != nil {
						errs <- err
						return
					}
					prev = 0
				}
			}
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	for following := true; following; {
		select {
		case <-done:
			following = false
		default:
		}
		var next uint64
		c, next = planChanges(t, s, rev)
		if c.Full {
			t.Fatalf("the feed asked for a full reload at %d (since %d) with no row deleted", next, rev)
		}
		if next < rev {
			t.Fatalf("the revision went back from %d to %d", rev, next)
		}
		board, rev = board.Apply(c), next
	}
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	c, _ = planChanges(t, s, rev)
	board = board.Apply(c)
	checkBoard(t, s)
	var ts []task.Task
	var deps task.Deps
	view(t, s, func(tx store.Tx) (err error) {
		if ts, err = store.Tasks(ctx, tx); err != nil {
			return err
		}
		deps, err = tx.Deps(ctx, store.DepQuery{All: true})
		return err
	})
	sameBoard(t, task.NewBoard(ts, deps), board)
}

// testWatch: Watch wakes a store's watchers after a commit by the same
// handle and by another (another process), and every watcher of a handle
// hears it.
func testWatch(t *testing.T, s, s2 store.Store) {
	w := s
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	chs := []<-chan struct{}{w.Watch(ctx), w.Watch(ctx), w.Watch(ctx)}
	drain := func() {
		for _, ch := range chs {
			select {
			case <-ch:
			default:
			}
		}
	}
	hear := func(what string) {
		t.Helper()
		for i, ch := range chs {
			select {
			case <-ch:
			case <-time.After(10 * time.Second):
				t.Fatalf("watcher %d heard nothing of %s", i, what)
			}
		}
	}
	drain()
	create(t, s, "own", store.Placement{})
	hear("a commit through the same handle")
	drain()
	create(t, s2, "other", store.Placement{})
	hear("a commit through another handle")
}
