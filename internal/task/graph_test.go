package task

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/problem"
)

func TestFindCycle(t *testing.T) {
	deps := Deps{2: {1}, 3: {2}, 4: {3, 1}}
	for _, tc := range []struct {
		name string
		id   ID
		next []ID
		want []ID
	}{
		{"self", 1, []ID{1}, []ID{1, 1}},
		{"two", 1, []ID{2}, []ID{1, 2, 1}},
		{"long", 1, []ID{4}, []ID{1, 4, 1}}, // the shortest way back wins
		{"chain", 2, []ID{3}, []ID{2, 3, 2}},
		{"none", 4, []ID{1, 2}, nil},
		{"none for a new task", 9, []ID{4}, nil},
		{"replacing edges", 3, []ID{1}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, FindCycle(deps, tc.id, tc.next)); diff != "" {
				t.Fatalf("FindCycle (-want +got):\n%s", diff)
			}
		})
	}
	err := fmt.Errorf("update: %w", Cycle([]ID{1, 2, 1}))
	if path, ok := CycleOf(err); !problem.Is(err, problem.Cycle) || !ok || len(path) != 3 ||
		problem.Of(err).Error() != "dependency cycle 1 → 2 → 1; drop one of these dependencies" {
		t.Fatalf("Cycle: %v", err)
	}
}

func TestDepthStats(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ids     []ID
		deps    Deps
		max     int
		average float64
	}{
		{"empty", nil, nil, 0, 0},
		{"no deps", []ID{1, 2}, Deps{}, 0, 0},
		{"chain", []ID{1, 2, 3, 4}, Deps{2: {1}, 3: {2}, 4: {3}}, 3, 0.75},
		{"diamond", []ID{1, 2, 3, 4}, Deps{2: {1}, 3: {1}, 4: {2, 3}}, 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, avg := DepthStats(tc.ids, tc.deps)
			if m != tc.max || avg != tc.average {
				t.Fatalf("DepthStats = %d, %v; want %d, %v", m, avg, tc.max, tc.average)
			}
		})
	}
	// A long chain does not exhaust the stack.
	var ids []ID
	deps := Deps{}
	for i := ID(1); i <= 50000; i++ {
		ids = append(ids, i)
		if i > 1 {
			deps[i] = []ID{i - 1}
		}
	}
	if m, _ := DepthStats(ids, deps); m != 49999 {
		t.Fatalf("long chain depth %d", m)
	}
}

func pt(id, parent ID, st Status, p Priority, ageHours int) Task {
	return Task{ID: id, ParentID: parent, Status: st, Priority: p, Title: "t" + id.String(),
		CreatedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(-ageHours) * time.Hour)}
}

func TestNext(t *testing.T) {
	const (
		P  = StatusPending
		IP = StatusInProgress
		D  = StatusDone
		B  = StatusBlocked
		C  = StatusCancelled
	)
	for _, tc := range []struct {
		name   string
		tasks  []Task
		deps   Deps
		filter NextFilter
		want   ID // zero: none
	}{
		{"empty", nil, nil, NextFilter{}, 0},
		{"priority first", []Task{pt(1, 0, P, PriorityLow, 9), pt(2, 0, P, PriorityHigh, 1)}, nil, NextFilter{}, 2},
		{"critical beats high", []Task{pt(1, 0, P, PriorityHigh, 9), pt(2, 0, P, PriorityCritical, 1)}, nil, NextFilter{}, 2},
		{"fewer dependencies next", []Task{pt(1, 0, D, PriorityLow, 0), pt(2, 0, P, PriorityMedium, 9), pt(3, 0, P, PriorityMedium, 1)},
			Deps{2: {1}}, NextFilter{}, 3},
		{"then age", []Task{pt(1, 0, P, PriorityMedium, 1), pt(2, 0, P, PriorityMedium, 5)}, nil, NextFilter{}, 2},
		{"then id", []Task{pt(2, 0, P, PriorityMedium, 1), pt(1, 0, P, PriorityMedium, 1)}, nil, NextFilter{}, 1},
		{"open dependency blocks", []Task{pt(1, 0, P, PriorityLow, 0), pt(2, 0, P, PriorityCritical, 0)}, Deps{2: {1}}, NextFilter{}, 1},
		{"cancelled dependency does not block", []Task{pt(1, 0, C, PriorityLow, 0), pt(2, 0, P, PriorityCritical, 0)}, Deps{2: {1}}, NextFilter{}, 2},
		{"parent's dependency blocks subtasks", []Task{pt(1, 0, P, PriorityLow, 0), pt(2, 0, P, PriorityLow, 0), pt(3, 2, P, PriorityCritical, 0)},
			Deps{2: {1}}, NextFilter{}, 1},
		{"parent with open subtasks is not a candidate", []Task{pt(1, 0, P, PriorityCritical, 9), pt(2, 1, P, PriorityLow, 0)}, nil, NextFilter{}, 2},
		{"subtasks of in-progress tasks first", []Task{pt(1, 0, P, PriorityCritical, 9), pt(2, 0, IP, PriorityLow, 0), pt(3, 2, P, PriorityLow, 0)},
			nil, NextFilter{}, 3},
		{"blocked status is skipped", []Task{pt(1, 0, B, PriorityCritical, 0), pt(2, 0, P, PriorityLow, 0)}, nil, NextFilter{}, 2},
		{"nothing open", []Task{pt(1, 0, D, PriorityHigh, 0)}, nil, NextFilter{}, 0},
		{"status filter", []Task{pt(1, 0, P, PriorityHigh, 0), pt(2, 0, IP, PriorityLow, 0)}, nil, NextFilter{Statuses: []Status{IP}}, 2},
		{"priority filter", []Task{pt(1, 0, P, PriorityHigh, 0), pt(2, 0, P, PriorityLow, 0)}, nil, NextFilter{Priorities: []Priority{PriorityLow}}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBoard(tc.tasks, tc.deps)
			got, ok := b.Next(tc.filter)
			var id ID
			if ok {
				id = got.ID
			}
			if id != tc.want {
				t.Fatalf("Next = %v, want %v", id, tc.want)
			}
		})
	}
}

func TestUnblocks(t *testing.T) {
	tasks := []Task{
		pt(1, 0, StatusPending, PriorityMedium, 0),
		pt(2, 0, StatusPending, PriorityMedium, 0),
		pt(3, 0, StatusPending, PriorityMedium, 0), // waits for 1 only
		pt(4, 0, StatusPending, PriorityMedium, 0), // waits for 1 and 2
		pt(5, 0, StatusDone, PriorityMedium, 0),
	}
	b := NewBoard(tasks, Deps{3: {1}, 4: {1, 2}, 5: {1}, 6: {1}})
	if diff := cmp.Diff([]ID{3}, b.Unblocks(1)); diff != "" {
		t.Fatalf("Unblocks(1) (-want +got):\n%s", diff)
	}
	if got := b.Waiting(4); len(got) != 2 {
		t.Fatalf("Waiting(4) = %v", got)
	}
}

// nextByScan is Next's rule applied by scanning every task: the reference
// the ranked Next must agree with.
func nextByScan(b *Board, f NextFilter) ID {
	statuses := f.Statuses
	if len(statuses) == 0 {
		statuses = []Status{StatusPending, StatusInProgress}
	}
	type key struct {
		tier, prio, deps int
		t                *Task
	}
	less := func(a, b key) bool {
		if a.tier != b.tier {
			return a.tier < b.tier
		}
		if a.prio != b.prio {
			return a.prio < b.prio
		}
		if a.deps != b.deps {
			return a.deps < b.deps
		}
		if !a.t.CreatedAt.Equal(b.t.CreatedAt) {
			return a.t.CreatedAt.Before(b.t.CreatedAt)
		}
		return a.t.ID < b.t.ID
	}
	var best *key
	for _, t := range b.Tasks.All() {
		if !t.Status.Open() || !slices.Contains(statuses, t.Status) ||
			(len(f.Priorities) > 0 && !slices.Contains(f.Priorities, t.Priority)) ||
			t.Status == StatusBlocked || len(b.Waiting(t.ID)) > 0 || b.hasOpenChildren(t.ID) {
			continue
		}
		k := key{tier: 1, prio: PriorityRank(t.Priority), deps: len(b.Deps[t.ID]), t: t}
		if b.inProgressAncestor(t.ID) {
			k.tier = 0
		}
		if best == nil || less(k, *best) {
			best = &k
		}
	}
	if best == nil {
		return 0
	}
	return best.t.ID
}

// TestNextMatchesScan compares Next with the scan on random boards and filters.
func TestNextMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 300 {
		n := 1 + rng.IntN(60)
		var tasks []Task
		deps := Deps{}
		for i := 1; i <= n; i++ {
			var parent ID
			if i > 1 && rng.IntN(3) == 0 {
				parent = ID(1 + rng.IntN(i-1))
			}
			tasks = append(tasks, pt(ID(i), parent, Statuses[rng.IntN(len(Statuses))], Priorities[rng.IntN(len(Priorities))], rng.IntN(5)))
			for range rng.IntN(3) {
				if i > 1 {
					deps[ID(i)] = append(deps[ID(i)], ID(1+rng.IntN(i-1)))
				}
			}
		}
		b := NewBoard(tasks, deps)
		for range 10 {
			var f NextFilter
			for _, s := range Statuses {
				if rng.IntN(4) == 0 {
					f.Statuses = append(f.Statuses, s)
				}
			}
			for _, p := range Priorities {
				if rng.IntN(4) == 0 {
					f.Priorities = append(f.Priorities, p)
				}
			}
			var got ID
			if x, ok := b.Next(f); ok {
				got = x.ID
			}
			if want := nextByScan(b, f); got != want {
				t.Fatalf("round %d, filter %+v: Next = %v, the scan says %v", round, f, got, want)
			}
			for _, x := range b.Tasks.All() {
				if b.Blocked(x.ID) != (x.Status == StatusBlocked || len(b.Waiting(x.ID)) > 0) {
					t.Fatalf("round %d: Blocked(%v) disagrees with Waiting", round, x.ID)
				}
			}
		}
	}
}

// TestNextConcurrent: the first calls on a board may race to rank it.
func TestNextConcurrent(t *testing.T) {
	b := NewBoard([]Task{pt(1, 0, StatusPending, PriorityLow, 0), pt(2, 0, StatusPending, PriorityHigh, 0)}, nil)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if x, ok := b.Next(NextFilter{}); !ok || x.ID != 2 {
				t.Errorf("Next = %v, %v", x, ok)
			}
		}()
	}
	wg.Wait()
}

// normal renders a board with every index sorted and empty entries dropped,
// so that two boards of the same plan compare equal.
func normal(b *Board) map[string]any {
	tasks := map[ID]Task{}
	for id, t := range b.Tasks.All() {
		tasks[id] = *t
	}
	idx := func(m map[ID][]ID) map[ID][]ID {
		out := map[ID][]ID{}
		for id, ids := range m {
			if len(ids) > 0 {
				out[id] = slices.Sorted(slices.Values(ids))
			}
		}
		return out
	}
	return map[string]any{"tasks": tasks, "len": b.Tasks.Len(), "deps": idx(b.Deps), "children": idx(b.Children), "dependents": idx(b.Dependents)}
}

// TestApplyMatchesNewBoard: a board brought up to date by Apply, change
// after change, is the board NewBoard builds from the plan as it now is,
// and the boards it started from are left as they were.
func TestApplyMatchesNewBoard(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 200 {
		// The plan as a store holds it: tasks by id, and each task's
		// dependencies (which may name removed tasks; boards drop those).
		plan := map[ID]Task{}
		deps := Deps{}
		next := ID(1)
		add := func() Task {
			var parent ID
			if len(plan) > 0 && rng.IntN(2) == 0 {
				parent = slices.Collect(maps.Keys(plan))[rng.IntN(len(plan))]
			}
			x := pt(next, parent, Statuses[rng.IntN(len(Statuses))], Priorities[rng.IntN(len(Priorities))], rng.IntN(5))
			deps[next] = nil
			for range rng.IntN(3) {
				if len(plan) > 0 {
					deps[next] = append(deps[next], slices.Collect(maps.Keys(plan))[rng.IntN(len(plan))])
				}
			}
			plan[next] = x
			next++
			return x
		}
		for range rng.IntN(30) {
			add()
		}
		full := func() *Board { return NewBoard(slices.Collect(maps.Values(plan)), maps.Clone(deps)) }
		b := full()
		if round%2 == 0 {
			b.ByID() // carried over by each Apply from here on
		}
		if round%3 == 2 {
			b.Next(NextFilter{}) // ranked, and the ranking carried over ten Applies
		}
		for step := range 10 {
			before, was := normal(b), b
			var c Changes
			touched := map[ID]bool{}
			for range rng.IntN(4) { // new tasks
				x := add()
				touched[x.ID] = true
			}
			for range rng.IntN(4) { // changed tasks: status, priority, parent, dependencies
				if len(plan) == 0 {
					break
				}
				id := slices.Collect(maps.Keys(plan))[rng.IntN(len(plan))]
				x := plan[id]
				switch rng.IntN(4) {
				case 0:
					x.Status = Statuses[rng.IntN(len(Statuses))]
				case 1:
					x.Priority = Priorities[rng.IntN(len(Priorities))]
				case 2:
					x.ParentID = 0
				case 3:
					deps[id] = nil
					for range rng.IntN(3) {
						if d := ID(1 + rng.IntN(int(next-1))); d != id {
							deps[id] = append(deps[id], d)
						}
					}
				}
				plan[id] = x
				touched[id] = true
			}
			for range rng.IntN(2) { // removals; others' dependencies on them may stay
				if len(plan) == 0 {
					break
				}
				id := slices.Collect(maps.Keys(plan))[rng.IntN(len(plan))]
				delete(plan, id)
				delete(touched, id)
				c.Removed = append(c.Removed, id)
			}
			c.Deps = Deps{}
			for id := range touched {
				c.Tasks = append(c.Tasks, plan[id])
				if len(deps[id]) > 0 {
					c.Deps[id] = slices.Clone(deps[id])
				}
			}
			b = b.Apply(c)
			if diff := quickDiff(normal(full()), normal(b)); diff != "" {
				t.Fatalf("round %d step %d: Apply differs from NewBoard (-want +got):\n%s", round, step, diff)
			}
			if diff := quickDiff(before, normal(was)); diff != "" {
				t.Fatalf("round %d step %d: Apply changed the board it started from:\n%s", round, step, diff)
			}
			f := NextFilter{}
			var got ID
			if round%3 == 2 && step < 9 {
				// The ranking is asked for only at the end: carried over
				// many Applies.
				continue
			}
			if x, ok := b.Next(f); ok {
				got = x.ID
			}
			if want := nextByScan(b, f); got != want {
				t.Fatalf("round %d step %d: Next = %v, the scan says %v", round, step, got, want)
			}
			// The board's outline is Outline over the plan's tasks, whole
			// and in part; orphans (a parent removed) are roots.
			// The first calls walk the head of the outline, later ones the
			// whole order: both are checked.
			want := Outline(slices.Collect(maps.Values(plan)))
			for range outlineHeads + 1 {
				if diff := quickDiff(want, b.OutlineRange(-1, b.Tasks.Len()+1)); diff != "" {
					t.Fatalf("round %d step %d: OutlineRange differs from Outline (-want +got):\n%s", round, step, diff)
				}
			}
			if !b.outlineDone.Load() && b.Tasks.Len() > 0 {
				t.Fatalf("round %d step %d: OutlineRange never ordered the whole board", round, step)
			}
			if lo := rng.IntN(len(want) + 2); lo < len(want) {
				hi := lo + rng.IntN(len(want)-lo+1)
				if diff := quickDiff(want[lo:hi], b.OutlineRange(lo, hi)); diff != "" {
					t.Fatalf("round %d step %d: OutlineRange(%d, %d) differs (-want +got):\n%s", round, step, lo, hi, diff)
				}
			} else if got := b.OutlineRange(lo, lo+3); got == nil || len(got) != 0 {
				t.Fatalf("round %d step %d: OutlineRange past the end = %#v; want empty, not nil", round, step, got)
			}
			// The ranking Apply carried over is the one ranking anew gives.
			fresh := full()
			fresh.Next(f)
			if diff := quickDiff(rankedIDs(fresh), rankedIDs(b)); diff != "" {
				t.Fatalf("round %d step %d: carried ranking differs (-fresh +carried):\n%s", round, step, diff)
			}
			// So is the id order, whether carried or made anew; in some
			// rounds it is asked for only at the end, carried over many
			// Applies as patches.
			if round%3 == 1 && step < 9 {
				continue
			}
			if diff := quickDiff(listedTasks(fresh), listedTasks(b)); diff != "" {
				t.Fatalf("round %d step %d: ByID differs (-fresh +got):\n%s", round, step, diff)
			}
		}
	}
}

// quickDiff is cmp.Diff, compared with reflect.DeepEqual first: this test
// compares whole boards at every step, and cmp.Diff on each made it take
// most of a minute under -race.
func quickDiff(want, got any) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return cmp.Diff(want, got)
}

// listedTasks is b.ByID's list with each task as a value, checked against
// its codes.
func listedTasks(b *Board) []Task {
	out := []Task{}
	for _, l := range b.ByID() {
		t := b.Tasks.Get(l.ID)
		if t == nil {
			panic(fmt.Sprintf("task %v is listed but not on the board", l.ID))
		}
		if l.Status != StatusCode(t.Status) || l.Priority != PriorityCode(t.Priority) || l.Parent != t.ParentID {
			panic(fmt.Sprintf("task %v: parent %v, codes %d, %d for %v, %q, %q", l.ID, l.Parent, l.Status, l.Priority, t.ParentID, t.Status, t.Priority))
		}
		out = append(out, *t)
	}
	return out
}

func rankedIDs(b *Board) []ID {
	out := []ID{}
	for _, k := range b.ranked {
		out = append(out, k.t.ID)
	}
	return out
}

func TestNextExcept(t *testing.T) {
	b := NewBoard([]Task{pt(1, 0, StatusPending, PriorityCritical, 0), pt(2, 0, StatusPending, PriorityHigh, 0),
		pt(3, 0, StatusDone, PriorityCritical, 0), pt(4, 0, StatusPending, PriorityLow, 0)}, nil)
	for _, tc := range []struct {
		name        string
		skip        map[ID]bool
		want        ID
		wantSkipped int
	}{
		{"nothing skipped", nil, 1, 0},
		{"the best skipped", map[ID]bool{1: true}, 2, 1},
		{"closed tasks are not counted", map[ID]bool{1: true, 3: true}, 2, 1},
		{"all skipped", map[ID]bool{1: true, 2: true, 4: true}, 0, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var skip func(ID) bool
			if tc.skip != nil {
				skip = func(id ID) bool { return tc.skip[id] }
			}
			got, skipped, ok := b.NextExcept(NextFilter{}, skip)
			var id ID
			if ok {
				id = got.ID
			}
			if id != tc.want || skipped != tc.wantSkipped {
				t.Errorf("NextExcept = %v, %d skipped; want %v, %d", id, skipped, tc.want, tc.wantSkipped)
			}
		})
	}
}

func TestClaimLive(t *testing.T) {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := Claim{TaskID: 1, Agent: "a", ClaimedAt: at, ExpiresAt: at.Add(time.Minute)}
	if !c.Live(at) || !c.Live(at.Add(59*time.Second)) || c.Live(at.Add(time.Minute)) || (Claim{}).Live(at) {
		t.Error("Live: a claim holds from its start until, not including, its expiry")
	}
}

// TestOutlineRangeConcurrent: readers sharing a cached board may ask for
// its outline at once (run with -race).
func TestOutlineRangeConcurrent(t *testing.T) {
	tasks := []Task{pt(1, 0, StatusPending, PriorityLow, 0), pt(2, 0, StatusPending, PriorityHigh, 0), pt(3, 1, StatusDone, PriorityLow, 0)}
	tasks[0].Position, tasks[1].Position, tasks[2].Position = 2, 1, 1
	b := NewBoard(tasks, nil)
	want := []ID{2, 1, 3} // by position, children after their parent
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			var got []ID
			for _, e := range b.OutlineRange(0, 3) {
				got = append(got, e.ID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("OutlineRange = %v; want %v", got, want)
			}
		})
	}
	wg.Wait()
}

func TestCodes(t *testing.T) {
	for i, s := range Statuses {
		if got := StatusCode(s); got != uint8(i) {
			t.Errorf("StatusCode(%q) = %d; want %d, its index in Statuses", s, got, i)
		}
	}
	for i, p := range PrioritiesLowFirst {
		if got := PriorityCode(p); got != uint8(i) {
			t.Errorf("PriorityCode(%q) = %d; want %d, its index in PrioritiesLowFirst", p, got, i)
		}
	}
	if StatusCode("later") != uint8(len(Statuses)) || PriorityCode("urgent") != uint8(len(PrioritiesLowFirst)) {
		t.Error("an unknown status or priority must get the code after the known ones")
	}
}

// TestByIDCarriedOddChanges carries the id order over changes that name a
// task twice (the last wins) or both change and remove it (it stays), as
// Apply reads them, and checks it against the order the new board makes
// on its own.
func TestByIDCarriedOddChanges(t *testing.T) {
	var ts []Task
	for id := ID(2); id <= 7; id++ {
		ts = append(ts, pt(id, 0, StatusPending, PriorityMedium, 0))
	}
	c := Changes{
		Tasks: []Task{pt(4, 0, StatusDone, PriorityHigh, 0), pt(10, 0, StatusPending, PriorityLow, 0),
			pt(4, 0, StatusBlocked, PriorityCritical, 0), pt(1, 0, StatusPending, PriorityLow, 0), pt(6, 0, StatusDeferred, PriorityLow, 0)},
		Removed: []ID{3, 6, 7, 8},
	}
	carried := NewBoard(slices.Clone(ts), Deps{})
	carried.ByID()
	carried = carried.Apply(c)
	fresh := NewBoard(slices.Clone(ts), Deps{}).Apply(c) // lists itself
	if carried.listCarry.Load() == nil || fresh.listCarry.Load() != nil || fresh.byIDDone.Load() {
		t.Fatal("the order should be carried over from a board that had it, and only from one")
	}
	if diff := cmp.Diff(listedTasks(fresh), listedTasks(carried)); diff != "" {
		t.Fatalf("carried ByID differs (-fresh +carried):\n%s", diff)
	}
	var ids []ID
	for _, l := range carried.ByID() {
		ids = append(ids, l.ID)
	}
	if want := []ID{1, 2, 4, 5, 6, 10}; !slices.Equal(ids, want) {
		t.Fatalf("ByID ids %v; want %v", ids, want)
	}
	if got := carried.Tasks.Get(4).Status; got != StatusBlocked {
		t.Fatalf("task 4 is %s; the last change (blocked) should win", got)
	}
}

// TestOutlineHead: the head of the outline walked on a new board (many
// roots, positions that tie) is the head of Outline, whatever its length.
func TestOutlineHead(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 50 {
		var ts []Task
		for id := ID(1); id <= ID(1+rng.IntN(150)); id++ {
			var parent ID
			if rng.IntN(3) == 0 {
				parent = ID(1 + rng.IntN(int(id)+5)) // may be missing: an orphan is a root
			}
			x := pt(id, parent, StatusPending, PriorityMedium, 0)
			x.Position = rng.IntN(4)
			ts = append(ts, x)
		}
		want := Outline(ts)
		b := NewBoard(ts, Deps{})
		for hi := 0; hi <= len(ts) && hi <= outlineHead; hi++ {
			lo := rng.IntN(hi + 1)
			nb := &Board{Tasks: b.Tasks, Deps: b.Deps, Children: b.Children, Dependents: b.Dependents}
			if diff := cmp.Diff(want[lo:hi], nb.OutlineRange(lo, hi)); diff != "" {
				t.Fatalf("round %d: OutlineRange(%d, %d) differs from Outline (-want +got):\n%s", round, lo, hi, diff)
			}
			if nb.outlineDone.Load() {
				t.Fatalf("round %d: OutlineRange(%d, %d) ordered the whole board; it should walk the head", round, lo, hi)
			}
		}
	}
}
