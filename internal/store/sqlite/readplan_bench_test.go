package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
)

// BenchmarkReadPlan times ReadPlan's shapes of get_current_task, get_task
// and get_tasks on a 1,000-task plan, each from the revision the last one
// read: with nothing written between them, and after a write from the same
// store (as in a server under load, where most reads follow a write; a
// read-only connection then starts from an empty page cache).
//
//	go test -run '^$' -bench ReadPlan -benchtime 5000x ./internal/store/sqlite/
func BenchmarkReadPlan(b *testing.B) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var ids []task.ID
	now := time.Now()
	err = s.Update(ctx, func(tx store.Tx) error {
		for i := range 1000 {
			t, err := tx.CreateTask(ctx, task.Task{Title: fmt.Sprint("task ", i), Body: "some body text of a task, longer than a title", CreatedAt: now, UpdatedAt: now}, store.Placement{})
			if err != nil {
				return err
			}
			ids = append(ids, t.ID)
			if i > 0 {
				if err := tx.SetDeps(ctx, t.ID, []task.ID{ids[i-1]}); err != nil {
					return err
				}
			}
		}
		return tx.SetFocus(ctx, "me", ids[500], now)
	})
	if err != nil {
		b.Fatal(err)
	}
	res, err := s.ReadPlan(ctx, store.PlanRead{})
	if err != nil {
		b.Fatal(err)
	}
	rev := res.Rev
	for _, write := range []bool{false, true} {
		for _, shape := range []struct {
			name string
			r    store.PlanRead
		}{
			{"current", store.PlanRead{Agent: "me"}},
			{"get", store.PlanRead{Task: ids[300]}},
			{"list", store.PlanRead{Claims: true, Now: now, Lifecycles: true}},
		} {
			b.Run(fmt.Sprintf("%s/write=%v", shape.name, write), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if write {
						b.StopTimer()
						t := task.Task{ID: ids[i%1000], Title: fmt.Sprint("t", i), Status: task.StatusPending, Priority: task.PriorityMedium, UpdatedAt: now}
						if err := s.Update(ctx, func(tx store.Tx) error { return tx.UpdateTask(ctx, t) }); err != nil {
							b.Fatal(err)
						}
						b.StartTimer()
					}
					r := shape.r
					r.Since = rev
					if r.Task != 0 {
						r.Task = ids[i*7%1000] // a task of its own each call, as get_task's
					}
					res, err := s.ReadPlan(ctx, r)
					if err != nil {
						b.Fatal(err)
					}
					rev = res.Rev
				}
			})
		}
	}
}
