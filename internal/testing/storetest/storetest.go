// Package storetest is the contract every store.Store implementation must
// pass. A backend's test calls Run with a Backend that opens a fresh, empty
// store, and a second store on the same data as another process would.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// Backend is how the suite opens a backend's stores.
type Backend struct {
	// Open returns a new, empty store; the backend closes it when t ends.
	Open func(t *testing.T) store.Store
	// OpenAgain opens a second store on s's data, independent of s the way
	// another process's would be (its own connections, no shared state in
	// memory); the backend closes it when t ends.
	OpenAgain func(t *testing.T, s store.Store) store.Store
}

// Run runs the contract suite.
func Run(t *testing.T, b Backend) {
	if b.Open == nil || b.OpenAgain == nil {
		t.Fatal("storetest.Run: Backend needs Open and OpenAgain")
	}
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.Store)
	}{
		{"CreateAndRead", testCreateAndRead},
		{"PlacementAfter", testPlacementAfter},
		{"Ancestors", testAncestors},
		{"UpdateTask", testUpdateTask},
		{"OpenChildren", testOpenChildren},
		{"LeftSibling", testLeftSibling},
		{"RemoveSubtree", testRemoveSubtree},
		{"IDsNeverReused", testIDsNeverReused},
		{"Focus", testFocus},
		{"Completions", testCompletions},
		{"RollbackOnError", testRollback},
		{"ConcurrentWriters", testConcurrentWriters},
		{"Child", testChild},
		{"ChildNumbersInOneTransaction", testChildNumbersInOneTx},
		{"QueryFilters", testQueryFilters},
		{"QuerySort", testQuerySort},
		{"QueryPaging", testQueryPaging},
		{"QueryBody", testQueryBody},
		{"Counts", testCounts},
		{"Deps", testDeps},
		{"Focuses", testFocuses},
		{"FocusedTask", testFocusedTask},
		{"Imported", testImported},
		{"Loops", testLoops},
		{"LoopHistory", testLoopHistory},
		{"MemoryAddAndRead", testMemoryAddAndRead},
		{"MemorySearch", testMemorySearch},
		{"MemorySearchRanksAlways", testMemorySearchRanksAlways},
		{"MemorySearchReplyContext", testMemorySearchReplyContext},
		{"MemorySearchAnswerCue", testMemorySearchAnswerCue},
		{"MemoryEditedContext", testMemoryEditedContext},
		{"MemoryMistakeFingerprint", testMemoryMistakeFingerprint},
		{"MemoryTimeline", testMemoryTimeline},
		{"MemorySelectDelete", testMemorySelectDelete},
		{"MemoryVectors", testMemoryVectors},
		{"MemoryDetails", testMemoryDetails},
		{"MemoryFileMarks", testMemoryFileMarks},
		{"MemoryOccurrences", testMemoryOccurrences},
		{"MemorySupersedeExpire", testMemorySupersedeExpire},
		{"MemorySelectorKeys", testMemorySelectorKeys},
		{"Sessions", testSessions},
		{"SessionEvents", testSessionEvents},
		{"BranchContexts", testBranchContexts},
		{"Claims", testClaims},
		{"ClaimRace", func(t *testing.T, s store.Store) { testClaimRace(t, s, b.OpenAgain(t, s)) }},
		{"Lifecycles", testLifecycles},
		{"Usage", testUsage},
		{"UsageDays", testUsageDays},
		{"UsageRollUp", testUsageRollUp},
		{"Version", func(t *testing.T, s store.Store) { testVersion(t, s, b.OpenAgain(t, s)) }},
		{"VersionConcurrent", func(t *testing.T, s store.Store) { testVersionConcurrent(t, s, b.OpenAgain(t, s)) }},
		{"PlanChanges", func(t *testing.T, s store.Store) { testPlanChanges(t, s, b.OpenAgain(t, s)) }},
		{"Watch", func(t *testing.T, s store.Store) { testWatch(t, s, b.OpenAgain(t, s)) }},
		{"PlanChangesConcurrent", func(t *testing.T, s store.Store) { testPlanChangesConcurrent(t, s, b.OpenAgain(t, s)) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, b.Open(t))
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
		out, err = tx.CreateTask(context.Background(), task.New(title, "body of "+title, t0), place)
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
		out, err = store.Children(context.Background(), tx, parent, withBody)
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
		got, err := store.Task(ctx, tx, a1.ID)
		if err != nil {
			return err
		}
		want := task.Task{ID: a1.ID, ParentID: a.ID, Position: got.Position, Num: 1, Title: "a1", Body: "body of a1",
			Status: task.StatusPending, Priority: task.PriorityMedium, CreatedAt: t0, UpdatedAt: t0}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Task (-want +got):\n%s", diff)
		}
		if _, err := store.Task(ctx, tx, 999); !problem.Is(err, problem.NotFound) {
			t.Errorf("missing task: %v, want not found", err)
		}
		// By id the list's fields do not apply; the count is the answer's.
		ts, n, err := tx.Query(ctx, store.Query{ID: a1.ID, Statuses: []task.Status{task.StatusDone}, Offset: 5, Limit: 1})
		if err != nil || n != 1 || len(ts) != 1 || ts[0] != got {
			t.Errorf("Query by id = %+v, %d, %v; want a1 with its body, 1", ts, n, err)
		}
		if ts, n, err := tx.Query(ctx, store.Query{ID: 999}); err != nil || n != 0 || len(ts) != 0 {
			t.Errorf("Query by a missing id = %+v, %d, %v; want none", ts, n, err)
		}
		// Unpaged, the count is the answer's length.
		_, n, err = tx.Query(ctx, store.Query{})
		if err != nil || n != 3 {
			t.Errorf("Query's count unpaged = %d, %v; want 3", n, err)
		}
		_, n, err = tx.Query(ctx, store.Query{Limit: 1})
		if err != nil || n != 3 {
			t.Errorf("Query's count with a limit of 1 = %d, %v; want 3", n, err)
		}
		all, err := store.Tasks(ctx, tx)
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
	if !problem.Is(err, problem.NotFound) {
		t.Fatalf("After a missing task: %v", err)
	}
}

func testAncestors(t *testing.T, s store.Store) {
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{Parent: a.ID})
	c := create(t, s, "c", store.Placement{Parent: b.ID})
	view(t, s, func(tx store.Tx) error {
		got, n, err := tx.Query(context.Background(), store.Query{PathTo: c.ID})
		if err != nil {
			return err
		}
		if !cmp.Equal(titles(got), []string{"a", "b"}) || n != 2 {
			t.Errorf("PathTo c = %q (%d), want root first", titles(got), n)
		}
		got, _, err = tx.Query(context.Background(), store.Query{PathTo: c.ID, Level: true, Limit: 1})
		if !cmp.Equal(titles(got), []string{"a", "b"}) || err != nil {
			t.Errorf("PathTo c with a level and a limit = %q, %v; want those fields not to apply", titles(got), err)
		}
		got, _, err = tx.Query(context.Background(), store.Query{PathTo: a.ID})
		if err != nil || len(got) != 0 {
			t.Errorf("PathTo root = %q, %v", titles(got), err)
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
		got, err := store.Task(context.Background(), tx, a.ID)
		if diff := cmp.Diff(a, got); diff != "" || err != nil {
			t.Errorf("after update (-want +got): %v\n%s", err, diff)
		}
		return nil
	})
	err := s.Update(context.Background(), func(tx store.Tx) error {
		return tx.UpdateTask(context.Background(), task.Task{ID: 999, Title: "x"})
	})
	if !problem.Is(err, problem.NotFound) {
		t.Fatalf("update missing: %v", err)
	}
}

// testOpenChildren: OpenChildren is Children (without bodies) less the
// closed children, for children of every status (so a status added to
// task.Statuses is judged as task.Status.Open judges it), placed out of id
// order, with removed children, grandchildren and roots about; within a
// transaction it sees the transaction's own writes, a child closed or
// opened again included.
func testOpenChildren(t *testing.T, s store.Store) {
	ctx := context.Background()
	p := create(t, s, "p", store.Placement{})
	createTask(t, s, task.Task{Title: "closed root", Status: task.StatusDone, CreatedAt: t0, UpdatedAt: t0}, store.Placement{})
	empty := create(t, s, "empty", store.Placement{})
	var first task.Task
	for round := range 2 {
		for _, st := range task.Statuses {
			x := createTask(t, s, task.Task{Title: fmt.Sprint(st, " ", round), Status: st, CreatedAt: t0, UpdatedAt: t0},
				store.Placement{Parent: p.ID})
			if first.ID == 0 {
				first = x
			}
		}
	}
	// Out of id order: right after the first child.
	createTask(t, s, task.New("inserted", "", t0), store.Placement{After: first.ID})
	gone := create(t, s, "gone", store.Placement{Parent: p.ID})
	remove(t, s, gone.ID)
	create(t, s, "grandchild", store.Placement{Parent: first.ID})
	wantOpen := func(tx store.Tx, parent task.ID) []task.Task {
		all, err := store.Children(ctx, tx, parent, false)
		if err != nil {
			t.Fatal(err)
		}
		var out []task.Task
		for _, c := range all {
			if c.Status.Open() {
				out = append(out, c)
			}
		}
		return out
	}
	check := func(tx store.Tx, parent task.ID, wantTitles []string) {
		t.Helper()
		got, err := store.OpenChildren(ctx, tx, parent)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(wantOpen(tx, parent), got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("OpenChildren(%s) is not the open ones of Children (-want +got):\n%s", parent, diff)
		}
		if !cmp.Equal(titles(got), wantTitles) {
			t.Errorf("OpenChildren(%s) = %q; want %q", parent, titles(got), wantTitles)
		}
	}
	var open []string
	for round := range 2 {
		for _, st := range task.Statuses {
			if st.Open() {
				open = append(open, fmt.Sprint(st, " ", round))
			}
		}
	}
	open = slices.Insert(open, 1, "inserted")
	view(t, s, func(tx store.Tx) error {
		check(tx, p.ID, open)
		check(tx, 0, []string{"p", "empty"})
		check(tx, empty.ID, []string{})
		return nil
	})
	// In a write: a child closed, then opened again.
	update(t, s, func(tx store.Tx) error {
		check(tx, p.ID, open)
		kids, err := store.OpenChildren(ctx, tx, p.ID)
		if err != nil {
			return err
		}
		x := kids[0]
		x.Status, x.UpdatedAt, x.CompletedAt = task.StatusDone, t0, t0
		if err := tx.UpdateTask(ctx, x); err != nil {
			return err
		}
		check(tx, p.ID, open[1:])
		x.Status, x.CompletedAt = task.StatusPending, time.Time{}
		if err := tx.UpdateTask(ctx, x); err != nil {
			return err
		}
		check(tx, p.ID, open)
		return nil
	})
}

// testLeftSibling: LeftSibling is the task before each one in Children's
// order (none for the first), closed, inserted out of id order or not,
// past a removed sibling, among the roots as among children; with its
// body only when asked.
func testLeftSibling(t *testing.T, s store.Store) {
	ctx := context.Background()
	p := create(t, s, "p", store.Placement{})
	var kids []task.Task
	for i, st := range task.Statuses {
		kids = append(kids, createTask(t, s, task.Task{Title: fmt.Sprint("kid ", i), Body: fmt.Sprint("body ", i), Status: st,
			CreatedAt: t0, UpdatedAt: t0}, store.Placement{Parent: p.ID}))
	}
	createTask(t, s, task.New("inserted", "inserted's", t0), store.Placement{After: kids[0].ID})
	remove(t, s, kids[3].ID)
	create(t, s, "root 2", store.Placement{})
	create(t, s, "grandchild", store.Placement{Parent: kids[1].ID})
	view(t, s, func(tx store.Tx) error {
		for _, parent := range []task.ID{p.ID, 0} {
			level, err := store.Children(ctx, tx, parent, true)
			if err != nil {
				return err
			}
			if len(level) < 2 {
				t.Fatalf("level of %s: %q", parent, titles(level))
			}
			for i, c := range level {
				for _, withBody := range []bool{false, true} {
					got, found, err := store.LeftSibling(ctx, tx, c, withBody)
					if err != nil {
						return err
					}
					if i == 0 {
						if found {
							t.Errorf("LeftSibling(%s) = %q; want none", c.Title, got.Title)
						}
						continue
					}
					want := level[i-1]
					if !withBody {
						want.Body = ""
					}
					if diff := cmp.Diff(want, got); diff != "" || !found {
						t.Errorf("LeftSibling(%s, %v): found %v (-want +got):\n%s", c.Title, withBody, found, diff)
					}
				}
			}
		}
		return nil
	})
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
		if !problem.Is(err, problem.NotFound) {
			t.Errorf("second removal: %v", err)
		}
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		if _, err := store.Task(ctx, tx, b.ID); !problem.Is(err, problem.NotFound) {
			t.Errorf("removed task still readable: %v", err)
		}
		all, _ := store.Tasks(ctx, tx)
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
		if id, err := focusOf(ctx, tx, "alice"); err != nil || id != 0 {
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
			if got, err := focusOf(ctx, tx, agent); err != nil || got != want {
				t.Errorf("Focus(%s) = %v, %v; want %v", agent, got, err, want)
			}
		}
		return nil
	})
	update(t, s, func(tx store.Tx) error { return tx.SetFocus(ctx, "bob", 0, t0) })
	view(t, s, func(tx store.Tx) error {
		if got, _ := focusOf(ctx, tx, "bob"); got != 0 {
			t.Errorf("zen focus = %v", got)
		}
		return nil
	})
}

func testCompletions(t *testing.T, s store.Store) {
	ctx := context.Background()
	// An empty archive, and a page past the end, each as a transaction's
	// first read: none, with the count.
	view(t, s, func(tx store.Tx) error {
		got, total, err := tx.Completions(ctx, false, 0, 20)
		if err != nil || total != 0 || len(got) != 0 {
			t.Errorf("empty archive = %+v, %d, %v", got, total, err)
		}
		return nil
	})
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
	view(t, s, func(tx store.Tx) error {
		got, total, err := tx.Completions(ctx, true, 10, 10)
		if err != nil || total != 5 || len(got) != 0 {
			t.Errorf("page past the end = %+v, %d, %v", got, total, err)
		}
		return nil
	})
}

func testRollback(t *testing.T, s store.Store) {
	boom := errors.New("boom")
	err := s.Update(context.Background(), func(tx store.Tx) error {
		if _, err := tx.CreateTask(context.Background(), task.New("ghost", "", t0), store.Placement{}); err != nil {
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
					created, err = tx.CreateTask(context.Background(), task.New(fmt.Sprintf("w%d-%d", w, i), "", t0), store.Placement{})
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

// createTask stores t (times and status as given) at place and returns it.
// createTask stores x at place; a status or priority x leaves out is the
// model's default (the store keeps none of its own).
func createTask(t *testing.T, s store.Store, x task.Task, place store.Placement) task.Task {
	t.Helper()
	if x.Status == "" {
		x.Status = task.StatusPending
	}
	if x.Priority == "" {
		x.Priority = task.PriorityMedium
	}
	var out task.Task
	update(t, s, func(tx store.Tx) (err error) {
		out, err = tx.CreateTask(context.Background(), x, place)
		return err
	})
	return out
}

func remove(t *testing.T, s store.Store, id task.ID) {
	t.Helper()
	update(t, s, func(tx store.Tx) error {
		_, err := tx.RemoveSubtree(context.Background(), id, t0)
		return err
	})
}

// wantNotFound checks that err refuses subtask sub of task id as not found.
func wantNotFound(t *testing.T, what string, err error, id task.ID, sub int) {
	t.Helper()
	want := task.SubtaskNotFound(id, sub)
	if !problem.Is(err, problem.NotFound) || problem.Of(err).Problem != problem.Of(want).Problem {
		t.Errorf("%s: error %v, want %v", what, err, want)
	}
}

func testChild(t *testing.T, s store.Store) {
	ctx := context.Background()
	p := create(t, s, "p", store.Placement{})
	q := create(t, s, "q", store.Placement{})
	c1 := create(t, s, "c1", store.Placement{Parent: p.ID})
	c2 := create(t, s, "c2", store.Placement{Parent: p.ID})
	c3 := create(t, s, "c3", store.Placement{Parent: p.ID})
	g1 := create(t, s, "g1", store.Placement{Parent: c1.ID})
	g2 := create(t, s, "g2", store.Placement{Parent: c1.ID})
	for _, x := range []struct {
		t    task.Task
		want int
	}{{p, 1}, {q, 2}, {c1, 1}, {c2, 2}, {c3, 3}, {g1, 1}, {g2, 2}} {
		if x.t.Num != x.want {
			t.Errorf("CreateTask(%s).Num = %d, want %d", x.t.Title, x.t.Num, x.want)
		}
	}

	// child reads parent's subtask num and checks it is want, in full.
	child := func(tx store.Tx, parent task.ID, num int, want task.Task) {
		t.Helper()
		got, err := store.Child(ctx, tx, parent, num)
		if err != nil {
			t.Errorf("Child(%v, %d): %v", parent, num, err)
			return
		}
		full, err := store.Task(ctx, tx, want.ID)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(full, got); diff != "" {
			t.Errorf("Child(%v, %d) is not task %s with its body (-want +got):\n%s", parent, num, want.Title, diff)
		}
	}
	view(t, s, func(tx store.Tx) error {
		child(tx, 0, 1, p) // the roots are numbered too
		child(tx, 0, 2, q)
		child(tx, p.ID, 1, c1)
		child(tx, p.ID, 2, c2)
		child(tx, p.ID, 3, c3)
		child(tx, c1.ID, 2, g2) // nested: p.1.2
		_, err := store.Child(ctx, tx, p.ID, 4)
		wantNotFound(t, "Child(p, 4)", err, p.ID, 4)
		_, err = store.Child(ctx, tx, q.ID, 1)
		wantNotFound(t, "Child(q, 1) of a task without children", err, q.ID, 1)
		_, err = store.Child(ctx, tx, g1.ID, 1) // a grandchild's number is not its child's
		wantNotFound(t, "Child(g1, 1)", err, g1.ID, 1)
		_, err = store.Child(ctx, tx, p.ID, 0) // numbers start at 1
		wantNotFound(t, "Child(p, 0)", err, p.ID, 0)
		return nil
	})

	// A removed child's number is not reused, not even the highest one, and
	// the others keep theirs.
	remove(t, s, c2.ID)
	remove(t, s, c3.ID)
	c4 := create(t, s, "c4", store.Placement{Parent: p.ID})
	if c4.Num != 4 {
		t.Errorf("new child after removing numbers 2 and 3: Num %d, want 4", c4.Num)
	}
	// Placed in the middle, a child still takes the next number.
	c5 := create(t, s, "c5", store.Placement{After: c1.ID})
	if c5.Num != 5 {
		t.Errorf("child placed after c1: Num %d, want 5", c5.Num)
	}
	if got := titles(children(t, s, p.ID, false)); !cmp.Equal(got, []string{"c1", "c5", "c4"}) {
		t.Errorf("children of p = %q", got)
	}
	remove(t, s, q.ID)
	r := create(t, s, "r", store.Placement{})
	if r.Num != 3 {
		t.Errorf("new root after removing root 2: Num %d, want 3", r.Num)
	}
	view(t, s, func(tx store.Tx) error {
		child(tx, p.ID, 1, c1)
		child(tx, p.ID, 4, c4)
		child(tx, p.ID, 5, c5)
		child(tx, 0, 3, r)
		for _, n := range []int{2, 3} {
			_, err := store.Child(ctx, tx, p.ID, n)
			wantNotFound(t, fmt.Sprintf("removed Child(p, %d)", n), err, p.ID, n)
		}
		_, err := store.Child(ctx, tx, 0, 2)
		wantNotFound(t, "removed root 2", err, 0, 2)
		return nil
	})

	// The children of a removed task go with it.
	remove(t, s, c1.ID)
	view(t, s, func(tx store.Tx) error {
		_, err := store.Child(ctx, tx, c1.ID, 1)
		wantNotFound(t, "Child of a removed task", err, c1.ID, 1)
		_, err = store.Child(ctx, tx, p.ID, 1)
		wantNotFound(t, "removed Child(p, 1)", err, p.ID, 1)
		return nil
	})
}

func testChildNumbersInOneTx(t *testing.T, s store.Store) {
	ctx := context.Background()
	p := create(t, s, "p", store.Placement{})
	var nums []int
	update(t, s, func(tx store.Tx) error {
		for i := range 3 {
			c, err := tx.CreateTask(ctx, task.New(fmt.Sprint("c", i), "", t0), store.Placement{Parent: p.ID})
			if err != nil {
				return err
			}
			nums = append(nums, c.Num)
			if got, err := store.Child(ctx, tx, p.ID, c.Num); err != nil || got.ID != c.ID {
				t.Errorf("Child(p, %d) in the creating transaction = %v, %v; want %v", c.Num, got.ID, err, c.ID)
			}
		}
		return nil
	})
	if !cmp.Equal(nums, []int{1, 2, 3}) {
		t.Errorf("numbers in one transaction = %v, want [1 2 3]", nums)
	}
}

// queryRow describes a task of the Query fixture.
type queryRow struct {
	title            string
	status           task.Status
	priority         task.Priority
	created, updated int // hours after t0
}

// queryFixture is the Query tests' tasks in creation (id) order. Times and
// priorities tie on purpose, so that sorts fall back to the id.
var queryFixture = []queryRow{
	{"a", task.StatusPending, task.PriorityHigh, 1, 5},
	{"b", task.StatusDone, task.PriorityLow, 2, 2},
	{"c", task.StatusInProgress, task.PriorityCritical, 2, 9},
	{"d", task.StatusBlocked, task.PriorityMedium, 3, 5},
	{"e", task.StatusDeferred, task.PriorityHigh, 4, 1},
	{"f", task.StatusCancelled, task.PriorityLow, 5, 7},
	{"g", task.StatusPending, task.PriorityCritical, 5, 9},
	{"h", task.StatusDone, task.PriorityMedium, 6, 3},
	{"x", task.StatusPending, task.PriorityHigh, 3, 4},   // removed
	{"i", task.StatusPending, task.PriorityMedium, 7, 8}, // a subtask of a
}

func hours(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }

// seedQuery stores queryFixture and returns the visible tasks by title.
func seedQuery(t *testing.T, s store.Store) map[string]task.Task {
	t.Helper()
	out := map[string]task.Task{}
	for _, r := range queryFixture {
		x := task.Task{Title: r.title, Body: "body of " + r.title, Status: r.status, Priority: r.priority,
			CreatedAt: hours(r.created), UpdatedAt: hours(r.updated)}
		if !r.status.Open() {
			x.CompletedAt = hours(r.updated)
		}
		var place store.Placement
		if r.title == "i" {
			place.Parent = out["a"].ID
		}
		out[r.title] = createTask(t, s, x, place)
	}
	remove(t, s, out["x"].ID)
	delete(out, "x")
	return out
}

func query(t *testing.T, s store.Store, q store.Query) ([]task.Task, int) {
	t.Helper()
	var (
		got   []task.Task
		total int
	)
	view(t, s, func(tx store.Tx) (err error) {
		got, total, err = tx.Query(context.Background(), q)
		return err
	})
	return got, total
}

func testQueryFilters(t *testing.T, s store.Store) {
	byTitle := seedQuery(t, s)
	for _, tc := range []struct {
		name string
		q    store.Query
		want []string // in id order
	}{
		{"all visible", store.Query{}, []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}},
		{"one status", store.Query{Statuses: []task.Status{task.StatusPending}}, []string{"a", "g", "i"}},
		{"statuses", store.Query{Statuses: []task.Status{task.StatusDone, task.StatusCancelled}}, []string{"b", "f", "h"}},
		{"every status", store.Query{Statuses: task.Statuses}, []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}},
		{"one priority", store.Query{Priorities: []task.Priority{task.PriorityCritical}}, []string{"c", "g"}},
		{"priorities", store.Query{Priorities: []task.Priority{task.PriorityHigh, task.PriorityLow}}, []string{"a", "b", "e", "f"}},
		{"status and priority", store.Query{Statuses: []task.Status{task.StatusPending}, Priorities: []task.Priority{task.PriorityCritical}}, []string{"g"}},
		{"nothing matches", store.Query{Statuses: []task.Status{task.StatusPending}, Priorities: []task.Priority{task.PriorityLow}}, nil},
		{"created after (strictly)", store.Query{CreatedAfter: hours(2)}, []string{"d", "e", "f", "g", "h", "i"}},
		{"created before (strictly)", store.Query{CreatedBefore: hours(2)}, []string{"a"}},
		{"created between", store.Query{CreatedAfter: hours(2), CreatedBefore: hours(5)}, []string{"d", "e"}},
		{"updated after (strictly)", store.Query{UpdatedAfter: hours(5)}, []string{"c", "f", "g", "i"}},
		{"updated before (strictly)", store.Query{UpdatedBefore: hours(3)}, []string{"b", "e"}},
		{"updated between", store.Query{UpdatedAfter: hours(3), UpdatedBefore: hours(8)}, []string{"a", "d", "f"}},
		{"created after, a second off", store.Query{CreatedAfter: hours(7).Add(-time.Second)}, []string{"i"}},
		{"every filter", store.Query{Statuses: []task.Status{task.StatusPending, task.StatusBlocked}, Priorities: []task.Priority{task.PriorityHigh, task.PriorityMedium},
			CreatedAfter: hours(0), CreatedBefore: hours(7), UpdatedAfter: hours(4), UpdatedBefore: hours(9)}, []string{"a", "d"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, total := query(t, s, tc.q)
			if g := titles(got); !cmp.Equal(g, append([]string{}, tc.want...)) || total != len(tc.want) {
				t.Errorf("Query = %q, total %d; want %q, total %d", g, total, tc.want, len(tc.want))
			}
		})
	}
	// Rows are the tasks, without bodies.
	got, _ := query(t, s, store.Query{})
	for _, x := range got {
		want := byTitle[x.Title]
		want.Body = ""
		if diff := cmp.Diff(want, x); diff != "" {
			t.Errorf("Query row %s (-want +got):\n%s", x.Title, diff)
		}
	}
	err := s.View(context.Background(), func(tx store.Tx) error {
		_, _, err := tx.Query(context.Background(), store.Query{Sort: "title"})
		return err
	})
	if !problem.Is(err, problem.Invalid) {
		t.Errorf("unknown sort: %v, want an invalid argument", err)
	}
}

func testQuerySort(t *testing.T, s store.Store) {
	byTitle := seedQuery(t, s)
	statusRank := func(st task.Status) int { return slices.Index(task.Statuses, st) }
	for _, tc := range []struct {
		sort string
		key  func(x task.Task) int64
	}{
		{"", func(x task.Task) int64 { return 0 }}, // the id
		{store.SortID, func(x task.Task) int64 { return 0 }},
		{store.SortPriority, func(x task.Task) int64 { return -int64(task.PriorityRank(x.Priority)) }}, // low first
		{store.SortCreated, func(x task.Task) int64 { return x.CreatedAt.UnixMicro() }},
		{store.SortUpdated, func(x task.Task) int64 { return x.UpdatedAt.UnixMicro() }},
		{store.SortStatus, func(x task.Task) int64 { return int64(statusRank(x.Status)) }},
	} {
		// Ascending: by the key, ties by id; descending is the exact reverse.
		all := make([]task.Task, 0, len(byTitle))
		for _, x := range byTitle {
			all = append(all, x)
		}
		slices.SortFunc(all, func(a, b task.Task) int {
			if c := cmp2(tc.key(a), tc.key(b)); c != 0 {
				return c
			}
			return cmp2(a.ID, b.ID)
		})
		asc := titles(all)
		desc := slices.Clone(asc)
		slices.Reverse(desc)
		for _, d := range []struct {
			desc bool
			want []string
		}{{false, asc}, {true, desc}} {
			t.Run(fmt.Sprintf("%q desc=%v", tc.sort, d.desc), func(t *testing.T) {
				got, total := query(t, s, store.Query{Sort: tc.sort, Desc: d.desc})
				if !cmp.Equal(titles(got), d.want) || total != len(d.want) {
					t.Errorf("Query = %q, total %d; want %q", titles(got), total, d.want)
				}
			})
		}
	}
	// Spot checks of the orders the reference above computes.
	for _, tc := range []struct {
		q    store.Query
		want []string
	}{
		{store.Query{Sort: store.SortPriority, Desc: true}, []string{"g", "c", "e", "a", "i", "h", "d", "f", "b"}}, // critical first
		{store.Query{Sort: store.SortStatus}, []string{"a", "g", "i", "c", "d", "b", "h", "e", "f"}},
		{store.Query{Sort: store.SortUpdated, Desc: true}, []string{"g", "c", "i", "f", "d", "a", "h", "b", "e"}},
		{store.Query{Sort: store.SortCreated, Statuses: []task.Status{task.StatusPending}, Desc: true}, []string{"i", "g", "a"}},
	} {
		if got, _ := query(t, s, tc.q); !cmp.Equal(titles(got), tc.want) {
			t.Errorf("Query(%+v) = %q, want %q", tc.q, titles(got), tc.want)
		}
	}
}

func cmp2[T int64 | task.ID](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func testQueryPaging(t *testing.T, s store.Store) {
	seedQuery(t, s)
	for _, q := range []store.Query{
		{},
		{Sort: store.SortPriority},
		{Sort: store.SortUpdated, Desc: true},
		{Statuses: []task.Status{task.StatusPending, task.StatusDone}, Sort: store.SortCreated},
	} {
		all, total := query(t, s, q)
		if total != len(all) {
			t.Fatalf("Query(%+v): total %d, %d rows without a limit", q, total, len(all))
		}
		for _, limit := range []int{1, 2, 4, 100} {
			var pages []string
			for off := 0; off < total+limit; off += limit {
				pq := q
				pq.Offset, pq.Limit = off, limit
				got, n := query(t, s, pq)
				if n != total {
					t.Errorf("Query(%+v): total %d, want %d (the total is of every match, not the page)", pq, n, total)
				}
				if want := min(limit, max(total-off, 0)); len(got) != want {
					t.Errorf("Query(%+v): %d rows, want %d", pq, len(got), want)
				}
				pages = append(pages, titles(got)...)
			}
			if !cmp.Equal(pages, titles(all)) {
				t.Errorf("Query(%+v) in pages of %d = %q, want %q", q, limit, pages, titles(all))
			}
		}
	}
	got, total := query(t, s, store.Query{Statuses: []task.Status{task.StatusPending}, Offset: 1, Limit: 1})
	if !cmp.Equal(titles(got), []string{"g"}) || total != 3 {
		t.Errorf("second pending task = %q, total %d; want [g], 3", titles(got), total)
	}
	got, total = query(t, s, store.Query{Offset: 50})
	if len(got) != 0 || total != 9 {
		t.Errorf("offset past the end = %q, total %d; want none, 9", titles(got), total)
	}
}

func testQueryBody(t *testing.T, s store.Store) {
	seedQuery(t, s)
	got, _ := query(t, s, store.Query{WithBody: true, Limit: 3, Offset: 1})
	if len(got) != 3 {
		t.Fatalf("WithBody page: %d rows", len(got))
	}
	for _, x := range got {
		if x.Body != "body of "+x.Title {
			t.Errorf("WithBody: %s has body %q", x.Title, x.Body)
		}
	}
	got, _ = query(t, s, store.Query{Limit: 3})
	for _, x := range got {
		if x.Body != "" {
			t.Errorf("without WithBody: %s has body %q", x.Title, x.Body)
		}
	}
}

func testCounts(t *testing.T, s store.Store) {
	ctx := context.Background()
	counts := func() store.Counts {
		t.Helper()
		var c store.Counts
		view(t, s, func(tx store.Tx) error {
			// The aggregates are store.CountsOf over the tasks a store
			// gives: each must carry the times and fields they need.
			all, err := store.Tasks(ctx, tx)
			c = store.CountsOf(slices.Values(all))
			return err
		})
		return c
	}
	check := func(c store.Counts, byStatus map[task.Status]int, byPriority map[task.Priority]int, avg float64) {
		t.Helper()
		for _, st := range task.Statuses {
			if c.ByStatus[st] != byStatus[st] {
				t.Errorf("ByStatus[%s] = %d, want %d (all: %v)", st, c.ByStatus[st], byStatus[st], c.ByStatus)
			}
		}
		for _, p := range task.Priorities {
			if c.ByPriority[p] != byPriority[p] {
				t.Errorf("ByPriority[%s] = %d, want %d (all: %v)", p, c.ByPriority[p], byPriority[p], c.ByPriority)
			}
		}
		if math.Abs(c.AvgCompletionDays-avg) > 1e-9 {
			t.Errorf("AvgCompletionDays = %v, want %v", c.AvgCompletionDays, avg)
		}
	}
	check(counts(), nil, nil, 0)

	day := 24 * time.Hour
	mk := func(title string, st task.Status, p task.Priority, created time.Time, took time.Duration, place store.Placement) task.Task {
		x := task.Task{Title: title, Status: st, Priority: p, CreatedAt: created, UpdatedAt: created}
		if took > 0 {
			x.CompletedAt = created.Add(took)
			x.UpdatedAt = x.CompletedAt
		}
		return createTask(t, s, x, place)
	}
	mk("p1", task.StatusPending, task.PriorityHigh, t0, 0, store.Placement{})
	mk("p2", task.StatusPending, task.PriorityLow, t0, 0, store.Placement{})
	ip := mk("ip", task.StatusInProgress, task.PriorityCritical, t0, 0, store.Placement{})
	mk("d1", task.StatusDone, task.PriorityMedium, t0, day, store.Placement{Parent: ip.ID})
	mk("d2", task.StatusDone, task.PriorityHigh, t0.Add(12*time.Hour), 2*day, store.Placement{})
	mk("c1", task.StatusCancelled, task.PriorityMedium, t0, 10*day, store.Placement{}) // not done: not averaged
	gone := mk("gone", task.StatusDone, task.PriorityCritical, t0, 100*day, store.Placement{})
	mk("gone too", task.StatusDone, task.PriorityLow, t0, 50*day, store.Placement{Parent: gone.ID})
	remove(t, s, gone.ID)
	check(counts(),
		map[task.Status]int{task.StatusPending: 2, task.StatusInProgress: 1, task.StatusDone: 2, task.StatusCancelled: 1},
		map[task.Priority]int{task.PriorityCritical: 1, task.PriorityHigh: 2, task.PriorityMedium: 2, task.PriorityLow: 1},
		1.5)
}

func sortedDeps(d task.Deps) task.Deps {
	out := task.Deps{}
	for id, ds := range d {
		if len(ds) > 0 {
			out[id] = slices.Sorted(slices.Values(ds))
		}
	}
	return out
}

func testDeps(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{})
	c := create(t, s, "c", store.Placement{})
	d := create(t, s, "d", store.Placement{})
	p := create(t, s, "p", store.Placement{})
	p1 := create(t, s, "p1", store.Placement{Parent: p.ID})
	e := create(t, s, "e", store.Placement{})

	// check compares every read of the graph with want (task -> deps).
	check := func(tx store.Tx, when string, want task.Deps) {
		t.Helper()
		got, err := tx.Deps(ctx, store.DepQuery{All: true})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(sortedDeps(want), sortedDeps(got)); diff != "" {
			t.Errorf("%s: Deps (-want +got):\n%s", when, diff)
		}
		visible, err := store.Tasks(ctx, tx)
		if err != nil {
			t.Fatal(err)
		}
		ids := []task.ID{999} // a missing id has no entry
		for _, x := range visible {
			ids = append(ids, x.ID)
		}
		batch, err := tx.Deps(ctx, store.DepQuery{Of: ids})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(sortedDeps(want), batch); diff != "" { // each list in id order
			t.Errorf("%s: DepsOf (-want +got):\n%s", when, diff)
		}
		// The dependencies of no task are none, not every task's.
		if none, err := tx.Deps(ctx, store.DepQuery{}); err != nil || len(none) != 0 {
			t.Errorf("%s: Deps of no task = %v, %v; want none", when, none, err)
		}
		// Every task's dependents, turned round from every edge.
		if all, err := tx.Deps(ctx, store.DepQuery{All: true, Dependents: true}); err != nil {
			t.Fatal(err)
		} else {
			for _, x := range visible {
				one, err := store.Dependents(ctx, tx, x.ID)
				if err != nil {
					t.Fatal(err)
				}
				if !cmp.Equal(all[x.ID], one, cmpopts.EquateEmpty()) {
					t.Errorf("%s: dependents of %s = %v from every edge, %v alone", when, x.Title, all[x.ID], one)
				}
			}
		}
		for _, x := range visible {
			ds, err := store.TaskDeps(ctx, tx, x.ID)
			if err != nil {
				t.Fatal(err)
			}
			if w := want[x.ID]; !cmp.Equal(ds, w, cmpopts.EquateEmpty()) {
				t.Errorf("%s: TaskDeps(%s) = %v, want %v", when, x.Title, ds, w)
			}
			var dependents []task.ID
			for id, ds := range want {
				if slices.Contains(ds, x.ID) {
					dependents = append(dependents, id)
				}
			}
			slices.Sort(dependents)
			got, err := store.Dependents(ctx, tx, x.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !cmp.Equal(got, dependents, cmpopts.EquateEmpty()) {
				t.Errorf("%s: Dependents(%s) = %v, want %v", when, x.Title, got, dependents)
			}
		}
	}
	view(t, s, func(tx store.Tx) error {
		check(tx, "no dependencies", nil)
		return nil
	})
	want := task.Deps{c.ID: {a.ID, b.ID}, d.ID: {c.ID}, e.ID: {p1.ID}, p1.ID: {a.ID}}
	update(t, s, func(tx store.Tx) error {
		for _, x := range []struct {
			id   task.ID
			deps []task.ID
		}{{c.ID, []task.ID{b.ID, a.ID}}, {d.ID, []task.ID{c.ID}}, {e.ID, []task.ID{p1.ID}}, {p1.ID, []task.ID{a.ID}}} {
			if err := tx.SetDeps(ctx, x.id, x.deps); err != nil {
				return err
			}
		}
		check(tx, "set, in the transaction", want) // TaskDeps in id order though set b, a
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		check(tx, "set", want)
		return nil
	})

	// SetDeps replaces; an empty list clears.
	update(t, s, func(tx store.Tx) error {
		if err := tx.SetDeps(ctx, c.ID, []task.ID{b.ID}); err != nil {
			return err
		}
		return tx.SetDeps(ctx, d.ID, nil)
	})
	want = task.Deps{c.ID: {b.ID}, e.ID: {p1.ID}, p1.ID: {a.ID}}
	view(t, s, func(tx store.Tx) error {
		check(tx, "replaced", want)
		return nil
	})

	// Removing a subtree drops the edges from and to every task in it, seen
	// in the removing transaction and after.
	update(t, s, func(tx store.Tx) error {
		if _, err := tx.RemoveSubtree(ctx, p.ID, t0); err != nil {
			return err
		}
		check(tx, "subtree removed, in the transaction", task.Deps{c.ID: {b.ID}})
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		check(tx, "subtree removed", task.Deps{c.ID: {b.ID}})
		for _, id := range []task.ID{a.ID, e.ID} {
			if ds, err := store.Dependents(ctx, tx, id); err != nil || len(ds) != 0 {
				t.Errorf("Dependents(%v) after removing its dependent's subtree = %v, %v", id, ds, err)
			}
		}
		return nil
	})
	remove(t, s, b.ID)
	view(t, s, func(tx store.Tx) error {
		check(tx, "dependency removed", nil)
		return nil
	})
	// A new dependency on a task that lost one works as before.
	update(t, s, func(tx store.Tx) error { return tx.SetDeps(ctx, c.ID, []task.ID{a.ID}) })
	view(t, s, func(tx store.Tx) error {
		check(tx, "set again", task.Deps{c.ID: {a.ID}})
		return nil
	})
}

func testFocuses(t *testing.T, s store.Store) {
	ctx := context.Background()
	focuses := func() map[string]task.ID {
		t.Helper()
		var m map[string]task.ID
		view(t, s, func(tx store.Tx) (err error) {
			m, err = tx.Focuses(ctx)
			return err
		})
		return m
	}
	if m := focuses(); len(m) != 0 {
		t.Errorf("Focuses on an empty store = %v", m)
	}
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{})
	update(t, s, func(tx store.Tx) error {
		for _, f := range []struct {
			agent string
			id    task.ID
		}{{"alice", a.ID}, {"bob", a.ID}, {"carol", a.ID}, {"bob", b.ID}, {"carol", 0}} {
			if err := tx.SetFocus(ctx, f.agent, f.id, t0); err != nil {
				return err
			}
		}
		return nil
	})
	if diff := cmp.Diff(map[string]task.ID{"alice": a.ID, "bob": b.ID}, focuses()); diff != "" {
		t.Errorf("Focuses (-want +got); zen agents are left out:\n%s", diff)
	}
}

func testImported(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{})
	c := create(t, s, "c", store.Placement{})
	d := create(t, s, "d", store.Placement{})
	imported := func(tx store.Tx, source, ext string, want task.ID) {
		t.Helper()
		id, ok, err := store.ImportedTask(ctx, tx, source, ext)
		if err != nil || ok != (want != 0) || id != want {
			t.Errorf("Imported(%s, %s) = %v, %v, %v; want %v, %v", source, ext, id, ok, err, want, want != 0)
		}
	}
	view(t, s, func(tx store.Tx) error {
		imported(tx, "jira", "X-1", 0)
		return nil
	})
	update(t, s, func(tx store.Tx) error {
		for _, m := range []struct {
			source, ext string
			id          task.ID
		}{{"jira", "X-1", a.ID}, {"github", "X-1", b.ID}, {"jira", "X-2", b.ID}} {
			if err := tx.SetImported(ctx, m.source, m.ext, m.id); err != nil {
				return err
			}
		}
		imported(tx, "jira", "X-1", a.ID) // in the writing transaction
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		imported(tx, "jira", "X-1", a.ID)
		imported(tx, "github", "X-1", b.ID) // sources are separate
		imported(tx, "jira", "X-2", b.ID)
		imported(tx, "jira", "x-1", 0) // external ids are exact
		imported(tx, "gitlab", "X-1", 0)
		got, err := tx.Imports(ctx, store.ImportQuery{Task: b.ID})
		want := []store.Import{{Source: "github", ExternalID: "X-1", TaskID: b.ID}, {Source: "jira", ExternalID: "X-2", TaskID: b.ID}}
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("Imports of b = %v, %v; want %v", got, err, want)
		}
		// By external id: the one mapping, with its task.
		got, err = tx.Imports(ctx, store.ImportQuery{Source: "jira", ExternalID: "X-2"})
		if want := []store.Import{{Source: "jira", ExternalID: "X-2", TaskID: b.ID}}; err != nil || !slices.Equal(got, want) {
			t.Errorf("Imports of jira X-2 = %v, %v; want %v", got, err, want)
		}
		if got, err := tx.Imports(ctx, store.ImportQuery{Task: d.ID}); err != nil || len(got) != 0 {
			t.Errorf("Imports of d = %v, %v; want none", got, err)
		}
		return nil
	})
	// Upsert: a mapping set again points at the new task.
	update(t, s, func(tx store.Tx) error { return tx.SetImported(ctx, "jira", "X-1", c.ID) })
	view(t, s, func(tx store.Tx) error {
		imported(tx, "jira", "X-1", c.ID)
		imported(tx, "github", "X-1", b.ID)
		return nil
	})
	// A mapping to a removed task reads as absent, and can be set again.
	remove(t, s, c.ID)
	view(t, s, func(tx store.Tx) error {
		imported(tx, "jira", "X-1", 0)
		imported(tx, "jira", "X-2", b.ID)
		// By task, a removed task's mappings are still there.
		got, err := tx.Imports(ctx, store.ImportQuery{Task: c.ID})
		if want := []store.Import{{Source: "jira", ExternalID: "X-1", TaskID: c.ID}}; err != nil || !slices.Equal(got, want) {
			t.Errorf("Imports of removed c = %v, %v; want %v", got, err, want)
		}
		return nil
	})
	update(t, s, func(tx store.Tx) error { return tx.SetImported(ctx, "jira", "X-1", d.ID) })
	view(t, s, func(tx store.Tx) error {
		imported(tx, "jira", "X-1", d.ID)
		return nil
	})
}

func version(t *testing.T, s store.Store) uint64 {
	t.Helper()
	v, err := s.Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// testVersion: s2 is a second store on s's data, as another process sees it.
func testVersion(t *testing.T, s, s2 store.Store) {
	ctx := context.Background()
	a := create(t, s, "a", store.Placement{})
	unchanged := func(when string, want uint64) {
		t.Helper()
		if v := version(t, s); v != want {
			t.Errorf("%s: Version changed from %d to %d with nothing written", when, want, v)
		}
	}
	v := version(t, s)
	unchanged("read again", v)
	view(t, s, func(tx store.Tx) error {
		_, err := store.Tasks(ctx, tx)
		return err
	})
	view(t, s2, func(tx store.Tx) error {
		_, err := store.Tasks(ctx, tx)
		return err
	})
	version(t, s2)
	unchanged("after reads here and in the other store", v)
	boom := errors.New("boom")
	if err := s.Update(ctx, func(tx store.Tx) error {
		if _, err := tx.CreateTask(ctx, task.New("ghost", "", t0), store.Placement{}); err != nil {
			return err
		}
		return boom
	}); !errors.Is(err, boom) {
		t.Fatal(err)
	}
	unchanged("after a rolled-back write", v)

	// Each committed write changes it: this store's, then the other's.
	seen := map[uint64]string{v: "start"}
	changed := func(when string) {
		t.Helper()
		nv := version(t, s)
		if prev, dup := seen[nv]; dup {
			t.Errorf("%s: Version is %d, as it was %s", when, nv, prev)
		}
		seen[nv] = when
		v = nv
		unchanged(when+", read again", v)
	}
	for i := range 3 {
		a.Title, a.UpdatedAt = fmt.Sprint("a", i), t0.Add(time.Duration(i)*time.Second)
		update(t, s, func(tx store.Tx) error { return tx.UpdateTask(ctx, a) })
		changed(fmt.Sprintf("after write %d here", i))
	}
	for i := range 3 {
		a.Title = fmt.Sprint("b", i)
		update(t, s2, func(tx store.Tx) error { return tx.UpdateTask(ctx, a) })
		changed(fmt.Sprintf("after write %d by the other store", i))
		view(t, s, func(tx store.Tx) error {
			if got, err := store.Task(ctx, tx, a.ID); err != nil || got.Title != a.Title {
				t.Errorf("the other store's write is not visible: %q, %v", got.Title, err)
			}
			return nil
		})
	}
	// And the other store sees this one's writes.
	v2 := version(t, s2)
	update(t, s, func(tx store.Tx) error { return tx.SetFocus(ctx, "alice", a.ID, t0) })
	if nv := version(t, s2); nv == v2 {
		t.Errorf("the other store's Version stayed %d after a write here", nv)
	}
	changed("after a focus write here")
}

// testVersionConcurrent reads Version from several goroutines while another
// store writes: every read succeeds, and the last one differs from the first.
func testVersionConcurrent(t *testing.T, s, s2 store.Store) {
	ctx := context.Background()
	a := create(t, s, "a", store.Placement{})
	first := version(t, s)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.Version(ctx); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := range 20 {
		a.Title = fmt.Sprint("a", i)
		if err := s2.Update(ctx, func(tx store.Tx) error { return tx.UpdateTask(ctx, a) }); err != nil {
			errs <- err
			break
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if last := version(t, s); last == first {
		t.Errorf("Version still %d after 20 writes by another store", last)
	}
}

func testLoops(t *testing.T, s store.Store) {
	ctx := context.Background()
	plain := create(t, s, "plain", store.Placement{})
	a := create(t, s, "loop a", store.Placement{})
	b := create(t, s, "loop b", store.Placement{Parent: plain.ID})
	update(t, s, func(tx store.Tx) error {
		if err := tx.SetLoop(ctx, []byte(`{"status":"running","iteration":1}`), loopEvent(a.ID, "start")); err != nil {
			return err
		}
		if err := tx.SetLoop(ctx, []byte(`{"status":"pending"}`), loopEvent(b.ID, "create")); err != nil {
			return err
		}
		return tx.SetLoop(ctx, []byte(`{"status":"running","iteration":2}`), loopEvent(a.ID, "iteration")) // replaces
	})
	err := s.Update(ctx, func(tx store.Tx) error { return tx.SetLoop(ctx, []byte(`{}`), loopEvent(999, "start")) })
	if !problem.Is(err, problem.NotFound) {
		t.Errorf("SetLoop on a missing task: %v", err)
	}
	view(t, s, func(tx store.Tx) error {
		got, state, err := store.Loop(ctx, tx, a.ID)
		if err != nil || got.Title != "loop a" || got.Body == "" || string(state) != `{"status":"running","iteration":2}` {
			t.Errorf("Loop(a) = %+v, %s, %v", got, state, err)
		}
		if _, state, err := store.Loop(ctx, tx, plain.ID); err != nil || state != nil {
			t.Errorf("Loop(plain) = %s, %v; want no state", state, err)
		}
		if _, _, err := store.Loop(ctx, tx, 999); !problem.Is(err, problem.NotFound) {
			t.Errorf("Loop(missing): %v", err)
		}
		rows, err := tx.Loops(ctx, 0)
		if err != nil || len(rows) != 2 || rows[0].Task.ID != a.ID || rows[1].Task.ID != b.ID || rows[1].Task.ParentID != plain.ID {
			t.Errorf("Loops = %+v, %v", rows, err)
		}
		// Each state came with its event, in the loop's own history.
		es, total, err := tx.LoopEvents(ctx, a.ID, 0, 10)
		if err != nil || total != 2 || len(es) != 2 || es[0].Kind != "start" || es[1].Kind != "iteration" || es[0].TaskID != a.ID || !es[1].At.Equal(t0) {
			t.Errorf("LoopEvents(a) = %+v, %d, %v; want start, iteration", es, total, err)
		}
		if _, total, err := tx.LoopEvents(ctx, 999, 0, 10); err != nil || total != 0 {
			t.Errorf("LoopEvents of the refused SetLoop = %d, %v; want none", total, err)
		}
		return nil
	})
	// A removed loop is gone from the list, with its parent's subtree.
	update(t, s, func(tx store.Tx) error { _, err := tx.RemoveSubtree(ctx, plain.ID, t0); return err })
	view(t, s, func(tx store.Tx) error {
		rows, err := tx.Loops(ctx, 0)
		if err != nil || len(rows) != 1 || rows[0].Task.ID != a.ID {
			t.Errorf("Loops after removal = %+v, %v", rows, err)
		}
		return nil
	})
}

// loopEvent is an event of loop id at t0.
func loopEvent(id task.ID, kind string) store.LoopEvent {
	return store.LoopEvent{TaskID: id, Kind: kind, At: t0}
}

func testLoopHistory(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := create(t, s, "loop", store.Placement{})
	other := create(t, s, "other", store.Placement{})
	var ids []int64
	update(t, s, func(tx store.Tx) error {
		for i := range 3 {
			id, err := tx.AddCheckpoint(ctx, store.Checkpoint{TaskID: a.ID, Note: fmt.Sprint("n", i), State: []byte(fmt.Sprintf(`{"iteration":%d}`, i)), CreatedAt: t0.Add(time.Duration(i) * time.Second)})
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		if _, err := tx.AddCheckpoint(ctx, store.Checkpoint{TaskID: other.ID, State: []byte(`{}`), CreatedAt: t0}); err != nil {
			return err
		}
		for i := range 5 {
			if err := tx.SetLoop(ctx, []byte(`{}`), store.LoopEvent{TaskID: a.ID, Kind: "iteration", Detail: fmt.Sprint("#", i), At: t0}); err != nil {
				return err
			}
		}
		return tx.SetLoop(ctx, []byte(`{}`), store.LoopEvent{TaskID: other.ID, Kind: "start", At: t0})
	})
	if !(ids[0] < ids[1] && ids[1] < ids[2]) {
		t.Fatalf("checkpoint ids not increasing: %v", ids)
	}
	view(t, s, func(tx store.Tx) error {
		cps, err := tx.Checkpoints(ctx, a.ID)
		if err != nil || len(cps) != 3 || cps[0].ID != ids[0] || cps[2].Note != "n2" || string(cps[1].State) != `{"iteration":1}` ||
			!cps[2].CreatedAt.Equal(t0.Add(2*time.Second)) || cps[0].TaskID != a.ID {
			t.Errorf("Checkpoints = %+v, %v", cps, err)
		}
		es, total, err := tx.LoopEvents(ctx, a.ID, 1, 2)
		if err != nil || total != 5 || len(es) != 2 || es[0].Detail != "#1" || es[1].Detail != "#2" || es[0].Seq >= es[1].Seq {
			t.Errorf("LoopEvents page = %+v, %d, %v", es, total, err)
		}
		es, total, err = tx.LoopEvents(ctx, a.ID, 10, 5)
		if err != nil || total != 5 || len(es) != 0 {
			t.Errorf("LoopEvents past the end = %+v, %d, %v", es, total, err)
		}
		return nil
	})
}
