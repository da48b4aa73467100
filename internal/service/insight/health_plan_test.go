package insight_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service/insight"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
)

// TestHealthPlanCountsBlocked: the plan component is the open tasks that
// are blocked, of the open ones (deferred is open); done, cancelled and
// removed tasks count in neither.
func TestHealthPlanCountsBlocked(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	statuses := []task.Status{task.StatusBlocked, task.StatusBlocked, task.StatusPending, task.StatusInProgress, task.StatusDone, task.StatusCancelled, task.StatusDeferred, task.StatusBlocked}
	err = st.Update(ctx, func(tx store.Tx) error {
		for i, s := range statuses {
			tk, err := tx.CreateTask(ctx, task.Task{Title: "t", Status: s, Priority: task.PriorityMedium, CreatedAt: now, UpdatedAt: now}, store.Placement{})
			if err != nil {
				return err
			}
			if i == len(statuses)-1 { // removed: in neither count
				if _, err := tx.RemoveSubtree(ctx, tk.ID, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ins := insight.New(st, insight.Options{})
	defer ins.Close()
	h, err := ins.Health(ctx, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range h.Components {
		if c.Name == "plan" {
			if want := "2 of 5 open tasks blocked"; c.Detail != want || c.N != 5 {
				t.Fatalf("plan component %q (n %d); want %q", c.Detail, c.N, want)
			}
			return
		}
	}
	t.Fatalf("no plan component in %+v", h.Components)
}
