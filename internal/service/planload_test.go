package service_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

// loadCounter counts the store's reads of the whole plan (ReadPlan with
// Whole); the incremental reads are ReadPlans of the changes.
type loadCounter struct {
	*sqlite.Store
	loads atomic.Int32
}

func (v *loadCounter) ReadPlan(ctx context.Context, r store.PlanRead) (store.PlanReadResult, error) {
	if r.Whole {
		v.loads.Add(1)
	}
	return v.Store.ReadPlan(ctx, r)
}

// TestFirstReadsLoadThePlanOnce: the calls a server gets together as it
// starts (sixteen agents at once, or a warm-up and the first call) load
// the whole plan once between them, not once each; every one answers.
func TestFirstReadsLoadThePlanOnce(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	seed := service.New(st, service.Options{})
	var last string
	for i := range 1500 {
		d, err := seed.Plan.Create(ctx, plan.NewTask{Title: fmt.Sprint("task ", i), Description: "A task of the plan."})
		if err != nil {
			t.Fatal(err)
		}
		last = d.ID.String()
	}
	if _, err := seed.Focus.SwitchFocus(ctx, "a", last); err != nil {
		t.Fatal(err)
	}

	vc := &loadCounter{Store: st}
	set := service.New(vc, service.Options{}) // no board yet
	start := make(chan struct{})
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		wg.Go(func() {
			<-start
			v, err := set.Focus.Current(ctx, "a")
			if err == nil && v.Task.ID.String() != last {
				err = fmt.Errorf("current task %s, want %s", v.Task.ID, last)
			}
			errs[i] = err
		})
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("reader %d: %v", i, err)
		}
	}
	if n := vc.loads.Load(); n != 1 {
		t.Fatalf("16 first reads loaded the whole plan %d times, want once", n)
	}
}
