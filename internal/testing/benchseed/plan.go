package benchseed

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// PlanShape is a plan of Tasks tasks, as the plan toolset builds one: root
// tasks with some subtasks, each task depending on 0 to MaxDeps of the
// Window tasks created just before it (a DAG: edges only point back in
// time), partway done. The oldest DonePercent are closed (one in ten of
// them cancelled), a band of InProgressPercent after them is in progress,
// and the rest is open (pending, with some blocked and deferred).
// Priorities are random (5% critical, 20% high, 50% medium, 25% low).
// Everything is drawn from a fixed seed, so a shape always seeds the same
// plan.
type PlanShape struct {
	Tasks             int
	MaxDeps           int
	Window            int
	SubtaskPercent    int // tasks that are subtasks of a recent root task
	DonePercent       int
	InProgressPercent int
	BodyLen           int
}

// DefaultPlan is 10,000 tasks, 30% of them subtasks, with 0-3 dependencies
// each among the 50 before, 30% closed and 2% in progress.
var DefaultPlan = PlanShape{Tasks: 10000, MaxDeps: 3, Window: 50, SubtaskPercent: 30, DonePercent: 30, InProgressPercent: 2, BodyLen: 120}

// PlanResult says what SeedPlan wrote.
type PlanResult struct {
	Tasks, Subtasks, Deps int
	Open                  int // tasks not done or cancelled
}

// SeedPlan makes dir a Cairn project whose database holds the plan of shape
// s, written through the store in one transaction. dir must not hold a
// database yet.
func SeedPlan(ctx context.Context, dir string, s PlanShape) (PlanResult, error) {
	if s.Tasks < 1 || s.MaxDeps < 0 || s.Window < 1 {
		return PlanResult{}, fmt.Errorf("benchseed: bad plan shape %+v", s)
	}
	st, err := openNew(ctx, dir)
	if err != nil {
		return PlanResult{}, err
	}
	res, err := seedPlan(ctx, st, s)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return res, err
}

// seedPlan writes the plan of shape s into st in one transaction.
func seedPlan(ctx context.Context, st store.Store, s PlanShape) (PlanResult, error) {
	rng := rand.New(rand.NewPCG(1, uint64(s.Tasks)))
	body := strings.Repeat("Notes: what was tried, what worked, what is left. ", s.BodyLen/50+1)[:s.BodyLen]
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var res PlanResult
	err := st.Update(ctx, func(tx store.Tx) error {
		var (
			made  []task.Task // in creation order
			roots []int       // indexes into made
		)
		for i := range s.Tasks {
			at := base.Add(time.Duration(i) * time.Minute)
			x := task.Task{Title: PlanTitle(i), Body: body, Priority: randomPriority(rng), CreatedAt: at, UpdatedAt: at}
			switch pct := i * 100 / s.Tasks; {
			case pct < s.DonePercent:
				x.Status = task.StatusDone
				if rng.IntN(10) == 0 {
					x.Status = task.StatusCancelled
				}
			case pct < s.DonePercent+s.InProgressPercent:
				x.Status = task.StatusInProgress
			default:
				x.Status = [...]task.Status{task.StatusBlocked, task.StatusDeferred, task.StatusPending}[min(rng.IntN(20), 2)]
			}
			var parent *task.Task
			if len(roots) > 0 && rng.IntN(100) < s.SubtaskPercent {
				recent := roots[max(len(roots)-20, 0):]
				parent = &made[recent[rng.IntN(len(recent))]]
				if !parent.Status.Open() && x.Status.Open() {
					x.Status = task.StatusDone // a closed task has no open subtasks
				}
			}
			if !x.Status.Open() {
				x.CompletedAt = at.Add(time.Duration(1+rng.IntN(72)) * time.Hour)
				x.UpdatedAt = x.CompletedAt
			}
			place := store.Placement{}
			if parent != nil {
				place.Parent = parent.ID
			}
			t, err := tx.CreateTask(ctx, x, place)
			if err != nil {
				return err
			}
			// 0 to MaxDeps dependencies among the Window tasks before,
			// never the task's own parent (an ancestor cannot come first).
			var deps []task.ID
			for range rng.IntN(s.MaxDeps + 1) {
				if i == 0 {
					break
				}
				d := made[i-1-rng.IntN(min(i, s.Window))].ID
				if d != place.Parent && !slices.Contains(deps, d) {
					deps = append(deps, d)
				}
			}
			if len(deps) > 0 {
				if err := tx.SetDeps(ctx, t.ID, deps); err != nil {
					return err
				}
			}
			made = append(made, t)
			if parent == nil {
				roots = append(roots, i)
			} else {
				res.Subtasks++
			}
			res.Deps += len(deps)
			if t.Status.Open() {
				res.Open++
			}
		}
		res.Tasks = len(made)
		return nil
	})
	if err != nil {
		return PlanResult{}, fmt.Errorf("benchseed: %w", err)
	}
	return res, nil
}

// CachedPlan is Cached for a plan of shape s.
func CachedPlan(ctx context.Context, s PlanShape) (string, error) {
	name := fmt.Sprintf("cairn-benchseed-plan-v1-%d-%d-%d-%d-%d-%d-%d",
		s.Tasks, s.MaxDeps, s.Window, s.SubtaskPercent, s.DonePercent, s.InProgressPercent, s.BodyLen)
	return cached(ctx, name, func(dir string) error {
		_, err := SeedPlan(ctx, dir, s)
		return err
	})
}

var planVerbs = []string{"Design", "Build", "Test", "Document", "Review", "Refactor", "Benchmark", "Ship"}
var planNouns = []string{"the parser", "the API", "the schema", "auth", "the cache", "search", "the CLI", "billing", "sync"}

// PlanTitle is the title of the i-th task of a seeded plan: short, as agents
// write them.
func PlanTitle(i int) string {
	return fmt.Sprintf("%s %s (%d)", planVerbs[i%len(planVerbs)], planNouns[i/len(planVerbs)%len(planNouns)], i)
}

func randomPriority(rng *rand.Rand) task.Priority {
	switch n := rng.IntN(100); {
	case n < 5:
		return task.PriorityCritical
	case n < 25:
		return task.PriorityHigh
	case n < 75:
		return task.PriorityMedium
	}
	return task.PriorityLow
}
