package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// testFocusedTask: FocusedTask (which both stores' transactions offer, for
// the focus service) answers as Focus and then Task do, for an agent
// without focus, one focused on a visible task (with its body and times),
// one whose focus was cleared and one on a removed task.
func testFocusedTask(t *testing.T, s store.Store) {
	ctx := context.Background()
	at := time.Date(2026, 11, 26, 10, 0, 0, 123456000, time.UTC)
	err := s.Update(ctx, func(tx store.Tx) error {
		a, err := tx.CreateTask(ctx, task.Task{Title: "a", Body: "body of a", CreatedAt: at, UpdatedAt: at, CompletedAt: at, Status: task.StatusDone, Priority: task.PriorityMedium}, store.Placement{})
		if err != nil {
			return err
		}
		b, err := tx.CreateTask(ctx, task.New("b", "", at), store.Placement{Parent: a.ID})
		if err != nil {
			return err
		}
		for agent, id := range map[string]task.ID{"on-a": a.ID, "on-b": b.ID, "cleared": 0} {
			if err := tx.SetFocus(ctx, agent, id, at); err != nil {
				return err
			}
		}
		if err := tx.SetFocus(ctx, "on-removed", b.ID, at); err != nil {
			return err
		}
		_, err = tx.RemoveSubtree(ctx, b.ID, at)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, func(tx store.Tx) error {
		for _, agent := range []string{"nobody", "on-a", "on-b", "cleared", "on-removed"} {
			want, wantFound := task.Task{}, false
			id, err := focusOf(ctx, tx, agent)
			if err != nil {
				return err
			}
			if id != 0 {
				want, err = store.Task(ctx, tx, id)
				if err == nil {
					wantFound = true
				} else if !problem.Is(err, problem.NotFound) {
					return err
				} else {
					want = task.Task{}
				}
			}
			got, found, err := store.FocusedTask(ctx, tx, agent)
			if err != nil {
				return err
			}
			if found != wantFound || got != want {
				t.Errorf("%s: FocusedTask = %+v, %v; Focus and Task give %+v, %v", agent, got, found, want, wantFound)
			}
			// The list's and the level's fields do not apply; the count is
			// the answer's.
			ts, n, err := tx.Query(ctx, store.Query{FocusOf: agent, Level: true, Statuses: []task.Status{task.StatusCancelled}})
			if err != nil || n != len(ts) || (len(ts) == 1) != wantFound || (wantFound && ts[0] != want) {
				t.Errorf("%s: Query FocusOf = %+v, %d, %v; want %+v, %v", agent, ts, n, err, want, wantFound)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// focusOf is the agent's focus pointer as Focuses has it; zero: none.
func focusOf(ctx context.Context, tx store.Tx, agent string) (task.ID, error) {
	m, err := tx.Focuses(ctx)
	return m[agent], err
}
