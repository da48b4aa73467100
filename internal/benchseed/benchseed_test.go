package benchseed

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
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
	if err := st.View(ctx, func(tx store.Tx) (err error) { n, err = tx.CountTasks(ctx); return err }); err != nil {
		t.Fatal(err)
	}
	if n != res.Tasks {
		t.Fatalf("clone has %d tasks, want %d", n, res.Tasks)
	}
	v, err := service.NewFocus(st).Current(ctx, Agent)
	if err != nil {
		t.Fatal(err)
	}
	if v.Task.ID != res.Focus || v.Depth != 3 || len(v.Left) != 1 || v.Task.Title != "Task 2.2.2: implement and test" {
		t.Fatalf("current = %s %q depth %d, %d to the left; want task %s at depth 3 with 1 to the left",
			v.Task.ID, v.Task.Title, v.Depth, len(v.Left), res.Focus)
	}
}
