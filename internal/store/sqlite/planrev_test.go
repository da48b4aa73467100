package sqlite_test

import (
	"context"
	"database/sql"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
)

// TestPlanChanges: the plan revision (migration 0006) names exactly the
// tasks whose board fields or dependencies changed, and the removed ones.
func TestPlanChanges(t *testing.T) {
	ctx := context.Background()
	s := open(t, sqlite.Options{})
	changes := func(since uint64) (task.Changes, uint64) {
		t.Helper()
		res, err := s.ReadPlan(ctx, store.PlanRead{Since: since, Whole: since == 0})
		if err == nil && res.Reload {
			res, err = s.ReadPlan(ctx, store.PlanRead{Whole: true})
		}
		if err != nil {
			t.Fatal(err)
		}
		return res.Changes, res.Rev
	}
	ids := func(ts []task.Task) []task.ID {
		out := []task.ID{}
		for _, x := range ts {
			out = append(out, x.ID)
		}
		slices.Sort(out)
		return out
	}
	update := func(fn func(tx store.Tx) error) {
		t.Helper()
		if err := s.Update(ctx, fn); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().UTC()
	var a, b, c task.Task
	update(func(tx store.Tx) (err error) {
		if a, err = tx.CreateTask(ctx, task.New("a", "", now), store.Placement{}); err != nil {
			return err
		}
		if b, err = tx.CreateTask(ctx, task.New("b", "", now), store.Placement{}); err != nil {
			return err
		}
		if c, err = tx.CreateTask(ctx, task.New("c", "", now), store.Placement{Parent: b.ID}); err != nil {
			return err
		}
		return tx.SetDeps(ctx, a.ID, []task.ID{b.ID})
	})
	full, rev := changes(0)
	if !full.Full || len(full.Tasks) != 3 || !slices.Equal(full.Deps[a.ID], []task.ID{b.ID}) {
		t.Fatalf("since 0: %+v", full)
	}
	if got, again := changes(rev); got.Full || len(got.Tasks)+len(got.Removed) != 0 || again != rev {
		t.Fatalf("nothing changed, yet %+v at %d (was %d)", got, again, rev)
	}
	// Loop state is not on the board: no change.
	update(func(tx store.Tx) error {
		return tx.SetLoop(ctx, []byte(`{}`), store.LoopEvent{TaskID: c.ID, Kind: "start", At: time.Now()})
	})
	if got, _ := changes(rev); len(got.Tasks)+len(got.Removed) != 0 {
		t.Fatalf("loop state changed the plan: %+v", got)
	}
	// A status change and a dependency change name their tasks.
	update(func(tx store.Tx) error {
		c.Status = task.StatusInProgress
		if err := tx.UpdateTask(ctx, c); err != nil {
			return err
		}
		return tx.SetDeps(ctx, a.ID, nil)
	})
	got, rev2 := changes(rev)
	if got.Full || !slices.Equal(ids(got.Tasks), []task.ID{a.ID, c.ID}) || len(got.Deps) != 0 || rev2 <= rev {
		t.Fatalf("after status and dependency changes: %+v at %d", got, rev2)
	}
	// Removing b hides c too, and drops a's dependency on b.
	update(func(tx store.Tx) error { return tx.SetDeps(ctx, a.ID, []task.ID{b.ID}) })
	_, rev = changes(0)
	update(func(tx store.Tx) error { _, err := tx.RemoveSubtree(ctx, b.ID, now); return err })
	got, _ = changes(rev)
	if slices.Sort(got.Removed); !slices.Equal(got.Removed, []task.ID{b.ID, c.ID}) || !slices.Equal(ids(got.Tasks), []task.ID{a.ID}) || len(got.Deps) != 0 {
		t.Fatalf("after removal: %+v", got)
	}
	// A deleted row (never done by Cairn) forces a full reload.
	_, rev = changes(0)
	db, err := sql.Open("sqlite", s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`DELETE FROM tasks WHERE id = ?`, int64(c.ID)); err != nil {
		t.Fatal(err)
	}
	if got, _ := changes(rev); !got.Full || !slices.Equal(ids(got.Tasks), []task.ID{a.ID}) {
		t.Fatalf("after a row was deleted: %+v", got)
	}
}
