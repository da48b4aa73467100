package benchseed

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
)

func TestSeedAndClone(t *testing.T) {
	ctx := context.Background()
	s := Shape{Roots: 3, Children: 3, Grandchildren: 4, BodyLen: 10}
	src := t.TempDir()
	res, err := Seed(ctx, src, s)
	if err != nil {
		t.Fatal(err)
	}
	if res.Tasks != s.Tasks() || res.Tasks != 3*(1+3*(1+4)) {
		t.Fatalf("seeded %d tasks, want %d", res.Tasks, s.Tasks())
	}
	if _, err := Seed(ctx, src, s); err == nil {
		t.Fatal("seeding a project twice: want an error")
	}
	dst := t.TempDir()
	if err := Clone(src, dst); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, project.DBPath(dst), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var n int
	if err := st.View(ctx, func(tx store.Tx) (err error) { _, n, err = tx.Query(ctx, store.Query{}); return err }); err != nil {
		t.Fatal(err)
	}
	if n != res.Tasks {
		t.Fatalf("clone has %d tasks, want %d", n, res.Tasks)
	}
	v, err := service.New(st, service.Options{}).Focus.Current(ctx, Agent)
	if err != nil {
		t.Fatal(err)
	}
	if v.Task.ID != res.Focus || v.Depth != 3 || len(v.Left) != 1 || v.Task.Title != "Task 2.2.2: implement and test" {
		t.Fatalf("current = %s %q depth %d, %d to the left; want task %s at depth 3 with 1 to the left",
			v.Task.ID, v.Task.Title, v.Depth, len(v.Left), res.Focus)
	}
}

func TestSeedPlan(t *testing.T) {
	ctx := context.Background()
	s := PlanShape{Tasks: 500, MaxDeps: 3, Window: 20, SubtaskPercent: 30, DonePercent: 30, InProgressPercent: 5, BodyLen: 10}
	dir := t.TempDir()
	res, err := SeedPlan(ctx, dir, s)
	if err != nil {
		t.Fatal(err)
	}
	if res.Tasks != s.Tasks || res.Subtasks == 0 || res.Deps == 0 || res.Open == 0 || res.Open == res.Tasks {
		t.Fatalf("seeded %+v", res)
	}
	st, err := sqlite.Open(ctx, project.DBPath(dir), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var (
		all  []task.Task
		deps task.Deps
	)
	if err := st.View(ctx, func(tx store.Tx) (err error) {
		if all, err = store.Tasks(ctx, tx); err != nil {
			return err
		}
		deps, err = tx.Deps(ctx, store.DepQuery{All: true})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	b := task.NewBoard(all, deps)
	n := 0
	for id, ds := range b.Deps {
		for _, d := range ds {
			n++
			if d >= id || d == b.Tasks.Get(id).ParentID {
				t.Fatalf("task %v depends on %v: not an earlier task that is not its parent", id, d)
			}
		}
	}
	if n != res.Deps || b.Tasks.Len() != res.Tasks {
		t.Fatalf("store holds %d tasks and %d dependencies, want %d and %d", b.Tasks.Len(), n, res.Tasks, res.Deps)
	}
	for id, t0 := range b.Tasks.All() {
		if t0.ParentID != 0 && b.Tasks.Get(t0.ParentID).ParentID != 0 {
			t.Fatalf("task %v is deeper than a subtask", id)
		}
		if t0.ParentID != 0 && !b.Tasks.Get(t0.ParentID).Status.Open() && t0.Status.Open() {
			t.Fatalf("open task %v under closed %v", id, t0.ParentID)
		}
	}
	next, err := service.New(st, service.Options{}).Plan.Next(ctx, plan.NextQuery{})
	if err != nil || next.Task == nil {
		t.Fatalf("next task: %+v, %v", next, err)
	}
	// The same shape seeds the same plan.
	again, err := SeedPlan(ctx, t.TempDir(), s)
	if err != nil || again != res {
		t.Fatalf("second seed: %+v, %v; want %+v", again, err, res)
	}
}
