package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

func claim(s store.Store, id task.ID, agent string, at time.Time, lease time.Duration) (prev task.Claim, err error) {
	err = s.Update(context.Background(), func(tx store.Tx) (err error) {
		prev, err = tx.ClaimTask(context.Background(), task.Claim{TaskID: id, Agent: agent, ClaimedAt: at, ExpiresAt: at.Add(lease)})
		return err
	})
	return prev, err
}

func testClaims(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{})

	prev, err := claim(s, a.ID, "ann", t0, time.Hour)
	if err != nil || prev != (task.Claim{}) {
		t.Fatalf("first claim: prev %+v, %v; want none", prev, err)
	}
	// Another agent is refused while the lease runs, and told whose it is.
	_, err = claim(s, a.ID, "bob", t0.Add(59*time.Minute), time.Hour)
	if c, ok := task.ClaimOf(err); !problem.Is(err, problem.Claimed) || !ok || c.Agent != "ann" || !c.ExpiresAt.Equal(t0.Add(time.Hour)) {
		t.Fatalf("claim of a held task: %v; want a Claimed refusal naming ann until t0+1h", err)
	}
	// The holder renews: ClaimedAt stays, the lease moves.
	prev, err = claim(s, a.ID, "ann", t0.Add(30*time.Minute), time.Hour)
	if err != nil || prev.Agent != "ann" {
		t.Fatalf("renewal: prev %+v, %v", prev, err)
	}
	view(t, s, func(tx store.Tx) error {
		c, ok, err := store.TaskClaim(ctx, tx, a.ID)
		want := task.Claim{TaskID: a.ID, Agent: "ann", ClaimedAt: t0, ExpiresAt: t0.Add(90 * time.Minute)}
		if err != nil || !ok || !cmp.Equal(c, want) {
			t.Errorf("TaskClaim after renewal = %+v, %v, %v; want %+v", c, ok, err, want)
		}
		return nil
	})
	// Expired: anyone takes it over, and learns whose claim it was.
	prev, err = claim(s, a.ID, "bob", t0.Add(90*time.Minute), time.Hour)
	if err != nil || prev.Agent != "ann" || !prev.ExpiresAt.Equal(t0.Add(90*time.Minute)) {
		t.Fatalf("claim of an expired task: prev %+v, %v; want ann's expired claim", prev, err)
	}
	if _, err := claim(s, b.ID, "ann", t0, time.Hour); err != nil {
		t.Fatal(err)
	}
	view(t, s, func(tx store.Tx) error {
		got, err := tx.Claims(ctx, store.ClaimQuery{Now: t0.Add(95 * time.Minute)})
		if err != nil {
			return err
		}
		if len(got) != 1 || got[a.ID].Agent != "bob" {
			t.Errorf("Claims at t0+95m = %+v; want only bob's on %s (ann's on %s expired)", got, a.ID, b.ID)
		}
		// By task: the claim live or expired, whatever Now says.
		got, err = tx.Claims(ctx, store.ClaimQuery{Task: b.ID, Now: t0.Add(95 * time.Minute)})
		want := map[task.ID]task.Claim{b.ID: {TaskID: b.ID, Agent: "ann", ClaimedAt: t0, ExpiresAt: t0.Add(time.Hour)}}
		if err != nil || !cmp.Equal(got, want) {
			t.Errorf("Claims of %s = %+v, %v; want ann's expired claim %+v", b.ID, got, err, want)
		}
		return nil
	})
	// Drop: whoever holds it; dropping no claim is no error.
	update(t, s, func(tx store.Tx) error {
		for _, id := range []task.ID{a.ID, b.ID, a.ID} {
			if err := tx.DropClaim(ctx, id); err != nil {
				t.Errorf("DropClaim(%s) = %v", id, err)
			}
		}
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		for _, id := range []task.ID{a.ID, b.ID} {
			if _, ok, _ := store.TaskClaim(ctx, tx, id); ok {
				t.Errorf("claim on %s still there after DropClaim", id)
			}
		}
		return nil
	})
	// A missing or removed task cannot be claimed; a removed task's claim
	// is not listed.
	if _, err := claim(s, 9999, "ann", t0, time.Hour); !problem.Is(err, problem.NotFound) {
		t.Errorf("claim of a missing task: %v; want not found", err)
	}
	done := create(t, s, "done", store.Placement{})
	done.Status, done.CompletedAt = task.StatusDone, t0
	update(t, s, func(tx store.Tx) error { return tx.UpdateTask(ctx, done) })
	if _, err := claim(s, done.ID, "ann", t0, time.Hour); !problem.Is(err, problem.NotFound) {
		t.Errorf("claim of a done task: %v; want not found (only open tasks are claimed)", err)
	}
	if _, err := claim(s, b.ID, "ann", t0, time.Hour); err != nil {
		t.Fatal(err)
	}
	remove(t, s, b.ID)
	view(t, s, func(tx store.Tx) error {
		if got, _ := tx.Claims(ctx, store.ClaimQuery{Now: t0}); len(got) != 0 {
			t.Errorf("Claims lists a removed task: %+v", got)
		}
		// By task, whatever the task's state.
		if c, ok, err := store.TaskClaim(ctx, tx, b.ID); err != nil || !ok || c.Agent != "ann" {
			t.Errorf("TaskClaim of a removed task = %+v, %v, %v; want ann's", c, ok, err)
		}
		if c, ok, err := store.TaskClaim(ctx, tx, 9999); err != nil || ok {
			t.Errorf("TaskClaim of a missing task = %+v, %v, %v; want none", c, ok, err)
		}
		return nil
	})
}

// testClaimRace has many writers, on two stores as two processes would,
// claim the same tasks at once: each task goes to exactly one of them.
func testClaimRace(t *testing.T, s, s2 store.Store) {
	const tasks, agents = 20, 8
	var ids []task.ID
	for i := range tasks {
		ids = append(ids, create(t, s, "t"+string(rune('a'+i)), store.Placement{}).ID)
	}
	won := make([][]task.ID, agents)
	var wg sync.WaitGroup
	errs := make(chan error, agents*tasks)
	for g := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := s
			if g%2 == 1 {
				st = s2
			}
			for _, id := range ids {
				_, err := claim(st, id, "agent"+string(rune('0'+g)), t0, time.Hour)
				switch {
				case err == nil:
					won[g] = append(won[g], id)
				case !problem.Is(err, problem.Claimed):
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	seen := map[task.ID]int{}
	for _, w := range won {
		for _, id := range w {
			seen[id]++
		}
	}
	for _, id := range ids {
		if seen[id] != 1 {
			t.Errorf("task %s claimed %d times; want exactly once", id, seen[id])
		}
	}
}

func testLifecycles(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := create(t, s, "a", store.Placement{})
	b := create(t, s, "b", store.Placement{})
	l := store.Lifecycle{TaskID: a.ID, Definition: "asdd", Phase: "SYNC", Status: store.LifecycleOpen,
		StartedAt: t0, PhaseSince: t0, UpdatedAt: t0, State: []byte(`{"x":1}`)}
	update(t, s, func(tx store.Tx) (err error) {
		l.ID, err = tx.PutLifecycle(ctx, l)
		return err
	})
	// One open lifecycle per task; the failed write leaves the transaction
	// usable.
	update(t, s, func(tx store.Tx) error {
		dup := l
		dup.ID = 0
		if _, err := tx.PutLifecycle(ctx, dup); !errors.Is(err, store.ErrDuplicate) {
			t.Errorf("second open lifecycle: %v; want ErrDuplicate", err)
		}
		_, err := tx.PutLifecycle(ctx, store.Lifecycle{TaskID: b.ID, Definition: "six", Phase: "PLAN", Status: store.LifecycleOpen,
			StartedAt: t0, PhaseSince: t0, UpdatedAt: t0, State: []byte(`{}`)})
		return err
	})
	if _, err := func() (int64, error) {
		var id int64
		err := s.Update(ctx, func(tx store.Tx) (err error) {
			id, err = tx.PutLifecycle(ctx, store.Lifecycle{TaskID: 9999, Definition: "x", Phase: "P", Status: store.LifecycleOpen, State: []byte(`{}`)})
			return err
		})
		return id, err
	}(); !problem.Is(err, problem.NotFound) {
		t.Errorf("lifecycle on a missing task: %v; want not found", err)
	}
	l.Phase, l.PhaseSince, l.UpdatedAt, l.State = "STORY", t0.Add(time.Hour), t0.Add(time.Hour), []byte(`{"y":2}`)
	update(t, s, func(tx store.Tx) error { _, err := tx.PutLifecycle(ctx, l); return err })
	view(t, s, func(tx store.Tx) error {
		got, ok, err := store.LifecycleByID(ctx, tx, l.ID)
		if err != nil || !ok || !cmp.Equal(got, l) {
			t.Errorf("Lifecycle = %+v, %v, %v; want %+v", got, ok, err, l)
		}
		if _, ok, err := store.LifecycleByID(ctx, tx, l.ID+100); ok || err != nil {
			t.Errorf("missing lifecycle: %v, %v; want not ok", ok, err)
		}
		for _, c := range []struct {
			q     store.LifecycleQuery
			want  []task.ID
			total int
		}{
			{store.LifecycleQuery{}, []task.ID{a.ID, b.ID}, 2},
			{store.LifecycleQuery{Phase: "STORY"}, []task.ID{a.ID}, 1},
			{store.LifecycleQuery{Status: store.LifecycleDone}, nil, 0},
			{store.LifecycleQuery{Tasks: []task.ID{b.ID}}, []task.ID{b.ID}, 1},
			{store.LifecycleQuery{Limit: 1, Offset: 1}, []task.ID{b.ID}, 2},
			{store.LifecycleQuery{Limit: 1}, []task.ID{a.ID}, 2},
			{store.LifecycleQuery{Offset: 1}, []task.ID{b.ID}, 2},
			{store.LifecycleQuery{Status: store.LifecycleOpen}, []task.ID{a.ID, b.ID}, 2},
			{store.LifecycleQuery{Status: store.LifecycleOpen, Tasks: []task.ID{b.ID}}, []task.ID{b.ID}, 1},
			{store.LifecycleQuery{Status: store.LifecycleOpen, Tasks: []task.ID{a.ID, b.ID}}, []task.ID{a.ID, b.ID}, 2},
		} {
			ls, total, err := tx.Lifecycles(ctx, c.q)
			if err != nil {
				return err
			}
			var got []task.ID
			for _, l := range ls {
				got = append(got, l.TaskID)
			}
			if !cmp.Equal(got, c.want) || total != c.total {
				t.Errorf("Lifecycles(%+v) = %v of %d; want %v of %d", c.q, got, total, c.want, c.total)
			}
		}
		return nil
	})
	// Once done, the task may start another.
	l.Status = store.LifecycleDone
	update(t, s, func(tx store.Tx) error {
		if _, err := tx.PutLifecycle(ctx, l); err != nil {
			return err
		}
		_, err := tx.PutLifecycle(ctx, store.Lifecycle{TaskID: a.ID, Definition: "asdd", Phase: "SYNC", Status: store.LifecycleOpen,
			StartedAt: t0, PhaseSince: t0, UpdatedAt: t0, State: []byte(`{}`)})
		return err
	})
	remove(t, s, b.ID)
	view(t, s, func(tx store.Tx) error {
		if _, total, _ := tx.Lifecycles(ctx, store.LifecycleQuery{}); total != 2 {
			t.Errorf("Lifecycles after removing %s: %d; want 2 (a removed task's are hidden)", b.ID, total)
		}
		return nil
	})
}
