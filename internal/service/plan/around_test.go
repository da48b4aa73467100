package plan

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/internal/task"
)

// TestBoardAroundMatchesApply: what boardAround says of a task's
// neighbours is what the board Apply builds says, for every task, over
// random plans and random changes to them (new, changed, moved and removed
// tasks, changed dependencies).
func TestBoardAroundMatchesApply(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	randomDeps := func(id task.ID, n int) []task.ID {
		var ds []task.ID
		for range rng.IntN(3) {
			if d := task.ID(1 + rng.IntN(n)); d != id && !slices.Contains(ds, d) {
				ds = append(ds, d)
			}
		}
		return ds
	}
	checked := 0
	for round := range 300 {
		n := 5 + rng.IntN(30)
		var tasks []task.Task
		deps := task.Deps{}
		for i := 1; i <= n; i++ {
			id := task.ID(i)
			tasks = append(tasks, task.Task{ID: id, ParentID: task.ID(rng.IntN(i)), Position: rng.IntN(5), Title: fmt.Sprint(i)})
			if ds := randomDeps(id, n); len(ds) > 0 {
				deps[id] = ds
			}
		}
		b := task.NewBoard(tasks, deps)
		// Changes: some tasks change (title, parent, dependencies), some
		// are new, some are removed.
		var c task.Changes
		c.Deps = task.Deps{}
		gone := map[task.ID]bool{}
		total := n + rng.IntN(5)
		for i := 1; i <= total; i++ {
			id := task.ID(i)
			switch r := rng.IntN(6); {
			case i > n || r == 0: // new or changed
				x := task.Task{ID: id, ParentID: task.ID(rng.IntN(i)), Position: rng.IntN(5), Title: fmt.Sprint(i, "'")}
				if i <= n && rng.IntN(2) == 0 {
					x.ParentID = b.Tasks.Get(id).ParentID
				}
				c.Tasks = append(c.Tasks, x)
				ds := randomDeps(id, total)
				if i <= n && rng.IntN(2) == 0 {
					ds = deps[id] // same edges, other fields
				}
				if len(ds) > 0 {
					c.Deps[id] = ds
				}
			case r == 1:
				c.Removed = append(c.Removed, id)
				gone[id] = true
			}
		}
		after := b.Apply(c)
		for i := 1; i <= total; i++ {
			id := task.ID(i)
			around, ok := boardAround(b, c, id)
			if ok != after.Tasks.Has(id) {
				t.Fatalf("round %d: task %d: boardAround ok %v, on the applied board %v", round, id, ok, after.Tasks.Has(id))
			}
			if !ok {
				continue
			}
			checked++
			for _, view := range []struct {
				name      string
				got, want []task.ID
			}{
				{"dependencies", around.Deps[id], after.Deps[id]},
				{"dependents", around.Dependents[id], after.Dependents[id]},
				{"subtasks", around.Children[id], after.Children[id]},
			} {
				got, want := slices.Sorted(slices.Values(view.got)), slices.Sorted(slices.Values(view.want))
				if !slices.Equal(got, want) {
					t.Fatalf("round %d: task %d: %s %v; the applied board has %v", round, id, view.name, got, want)
				}
				for _, x := range want {
					if *around.Tasks.Get(x) != *after.Tasks.Get(x) {
						t.Fatalf("round %d: task %d: %s %d is %+v; on the applied board %+v", round, id, view.name, x, *around.Tasks.Get(x), *after.Tasks.Get(x))
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("checked only %d tasks", checked)
	}
}
