package postgres_test

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// TestRevisionOncePerTransaction: the tasks a transaction writes share one
// plan revision, whether a statement took it (takeRev, nextID: migration
// 0011) or a trigger did (a dependency, an older cairn's statement, which
// sets no revision), in either order; the change feed names each of them
// and no other, and every write, whichever bumped the version (the
// statement or COMMIT), moves it and wakes another instance's watcher.
func TestRevisionOncePerTransaction(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s := newStore(t)
	// The other instance: a pool of its own, as another process, with a
	// second project on its listener, whose wakes are barriers.
	odb, err := postgres.OpenDB(ctx, pgtest.URL(t), postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer odb.Close()
	other, err := odb.Project(ctx, s.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	fence, err := odb.Project(ctx, s.Name()+"-fence")
	if err != nil {
		t.Fatal(err)
	}
	defer fence.Close()
	wake, fenced := other.Watch(ctx), fence.Watch(ctx)
	a, b, c := createTask(t, s, "a"), createTask(t, s, "b"), createTask(t, s, "c")
	waitWake(t, wake, "after the tasks were created")

	conn, err := pgx.Connect(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// settle waits until the other instance has heard every notification
	// committed so far, then drops the wakes they left: PostgreSQL delivers
	// notifications in commit order, and the listener passes them on one
	// by one, so once it wakes the fence's watcher for a notification sent
	// now, it has passed on all before it.
	settle := func() {
		t.Helper()
		if _, err := conn.Exec(ctx, `SELECT pg_notify('cairn_changes', $1::text)`, strconv.FormatInt(fence.ProjectID(), 10)); err != nil {
			t.Fatal(err)
		}
		waitWake(t, fenced, "for the fence")
		for len(wake) > 0 {
			<-wake
		}
	}
	planRev := func() uint64 {
		t.Helper()
		var n int64
		if err := conn.QueryRow(ctx, `SELECT plan_rev FROM projects WHERE id = $1`, s.ProjectID()).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return uint64(n)
	}
	// step runs a write and checks that it took exactly one revision,
	// that the feed since before it names want and that the version
	// moved and the other instance heard of it.
	step := func(what string, want []task.ID, write func() error) {
		t.Helper()
		settle() // no wake of the writes before is left to answer for this one
		rev, v := planRev(), version(t, s)
		if err := write(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := planRev(); got != rev+1 {
			t.Fatalf("%s took the plan from revision %d to %d, want one revision", what, rev, got)
		}
		res, err := s.ReadPlan(ctx, store.PlanRead{Since: rev})
		if err != nil {
			t.Fatal(err)
		}
		c, at := res.Changes, res.Rev
		var ids []task.ID
		for _, x := range c.Tasks {
			ids = append(ids, x.ID)
		}
		slices.Sort(want)
		slices.Sort(ids)
		if c.Full || at != rev+1 || !slices.Equal(ids, want) {
			t.Fatalf("%s: the feed since %d says %v at %d (full %v), want %v at %d", what, rev, ids, at, c.Full, want, rev+1)
		}
		if got := version(t, s); got <= v {
			t.Fatalf("%s left the version at %d (was %d)", what, got, v)
		}
		waitWake(t, wake, "after "+what)
	}

	var d task.Task
	step("statements first, then a trigger", []task.ID{a.ID, b.ID, c.ID, 4}, func() error {
		return s.Update(ctx, func(tx store.Tx) (err error) {
			a.Status = task.StatusInProgress
			if err := tx.UpdateTask(ctx, a); err != nil { // takes the revision
				return err
			}
			if err := tx.SetDeps(ctx, b.ID, []task.ID{a.ID}); err != nil { // the trigger reuses it
				return err
			}
			if d, err = tx.CreateTask(ctx, task.New("d", "", time.Now()), store.Placement{}); err != nil {
				return err
			}
			c.Title = "c, renamed"
			return tx.UpdateTask(ctx, c)
		})
	})
	if d.ID != 4 {
		t.Fatalf("d is task %s, want 4", d.ID)
	}
	step("a trigger first, then a statement", []task.ID{b.ID, c.ID}, func() error {
		return s.Update(ctx, func(tx store.Tx) error {
			if err := tx.SetDeps(ctx, c.ID, []task.ID{a.ID}); err != nil {
				return err
			}
			b.Priority = task.PriorityHigh
			return tx.UpdateTask(ctx, b)
		})
	})
	step("a write no statement of which bumps", []task.ID{d.ID}, func() error {
		return s.Update(ctx, func(tx store.Tx) error {
			if err := tx.SetFocus(ctx, "agent", d.ID, time.Now()); err != nil {
				return err
			}
			return tx.SetDeps(ctx, d.ID, []task.ID{a.ID})
		})
	})
	// An older cairn's statements (from before 0011: no revision of their
	// own) are stamped by the triggers, as they were.
	var e int64
	step("an older cairn's writes", []task.ID{a.ID, 5}, func() error {
		tx, err := conn.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, `UPDATE tasks SET status = 'done', updated_at = now() WHERE project_id = $1 AND id = $2`, s.ProjectID(), int64(a.ID)); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `
			WITH nid AS (UPDATE projects SET next_task_id = next_task_id + 1 WHERE id = $1 RETURNING next_task_id - 1 AS id)
			INSERT INTO tasks (project_id, id, parent_id, position, num, title, created_at, updated_at)
			SELECT $1, nid.id, 0, 99, 99, 'e', now(), now() FROM nid RETURNING id`, s.ProjectID()).Scan(&e); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE projects SET version = version + 1 WHERE id = $1`, s.ProjectID()); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_notify('cairn_changes', $1::text)`, strconv.FormatInt(s.ProjectID(), 10)); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
	if e != 5 {
		t.Fatalf("the older cairn's task is %d, want 5", e)
	}
}
