package e2e

import (
	"context"
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/task"
)

// BenchmarkWriteTools makes the service calls of scripts/load.sh's write
// tools on the 10,000-task plan, with the plan's board cached as a busy
// server has it (a read between writes brings it up to date, untimed):
// allocs/op and B/op are the deterministic part, to compare across changes.
//
//	go test -run '^$' -bench WriteTools -benchtime 1000x ./internal/e2e/
func BenchmarkWriteTools(b *testing.B) {
	ctx := context.Background()
	inProgress, pending := task.StatusInProgress, task.StatusPending
	prios := []task.Priority{task.PriorityHigh, task.PriorityLow}
	var open []task.ID // the plan's open tasks, which update_task changes
	for _, bc := range []struct {
		name string
		call func(svc *service.Set, i int) error
	}{
		{"create_task", func(svc *service.Set, i int) error {
			_, err := svc.Plan.Create(ctx, plan.NewTask{Title: fmt.Sprint("Follow-up ", i), Description: "Found while working.",
				Priority: prios[i%2], Deps: []string{fmt.Sprint(1 + i%1000)}})
			return err
		}},
		{"update_task", func(svc *service.Set, i int) error {
			st, notes := &inProgress, fmt.Sprint("Notes, call ", i)
			if i%2 == 1 {
				st = &pending
			}
			_, err := svc.Plan.Update(ctx, open[i%len(open)].String(), plan.Change{Status: st, Priority: &prios[i%2], Description: &notes})
			return err
		}},
		{"focus_cycle", func(svc *service.Set, i int) error {
			// create_new_task, then complete_current_task: focus goes back
			// to the batch.
			if _, err := svc.Focus.CreateNewTask(ctx, "bench-writer", fmt.Sprint("Step ", i), "Do one thing."); err != nil {
				return err
			}
			_, err := svc.Focus.CompleteCurrentTask(ctx, "bench-writer", false)
			return err
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			svc := &openPlanBenchProject(b).Set
			board, err := svc.Plan.Board(ctx)
			if err != nil {
				b.Fatal(err)
			}
			open = open[:0]
			for id, t := range board.Tasks.All() {
				if t.Status.Open() && len(open) < 1000 {
					open = append(open, id)
				}
			}
			if _, err := svc.Focus.CreateNewTask(ctx, "bench-writer", "Batch", ""); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				b.StopTimer()
				if _, err := svc.Plan.Board(ctx); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := bc.call(svc, i); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
