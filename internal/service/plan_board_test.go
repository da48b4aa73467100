package service_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/lifecycles"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/oracle"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// boardView renders a board for comparison: every task without its
// pointer, and each task's dependencies sorted.
func boardView(b *task.Board) map[task.ID]string {
	out := make(map[task.ID]string, b.Tasks.Len())
	for id, t := range b.Tasks.All() {
		ds := slices.Sorted(slices.Values(b.Deps[id]))
		out[id] = fmt.Sprintf("%+v deps=%v blocked=%v", *t, ds, b.Blocked(id))
	}
	return out
}

// fullBoard builds the board from every task, as a fresh process would.
func fullBoard(t *testing.T, s store.Store) *task.Board {
	t.Helper()
	var b *task.Board
	err := s.View(context.Background(), func(tx store.Tx) error {
		ts, err := store.Tasks(context.Background(), tx)
		if err != nil {
			return err
		}
		deps, err := tx.Deps(context.Background(), store.DepQuery{All: true})
		b = task.NewBoard(ts, deps)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBoardReflectsAcknowledgedWrites: while readers ask for the next task,
// writers (the plan's own tools, the focus stack's, and another process on
// the same file) change the plan; after each write is acknowledged, the
// writer's next look at the board reflects it: its new task is there, a
// finished task is never the next one, a dependency blocks until done, a
// deleted task is gone. At the end the cached board, refreshed change by
// change, equals one built from scratch.
func TestBoardReflectsAcknowledgedWrites(t *testing.T) {
	onBothStores(t, testBoardReflects)
}

func testBoardReflects(t *testing.T, s, other store.Store) {
	ctx := context.Background()
	set := service.New(s, service.Options{})
	pl, fs, otherPlan := set.Plan, set.Focus, service.New(other, service.Options{}).Plan
	for i := range 40 {
		in := plan.NewTask{Title: fmt.Sprintf("seed %d", i)}
		if i > 0 {
			in.Deps = []string{fmt.Sprint(1 + i/2)}
		}
		if _, err := pl.Create(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	// The focus agent works under a task of its own, which no writer
	// deletes: completing a step brings it back there.
	if _, err := fs.CreateNewTask(ctx, "agent0", "focus root", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := pl.Next(ctx, plan.NextQuery{}); err != nil { // the board is cached from here on
		t.Fatal(err)
	}

	board := func() *task.Board {
		b, err := pl.Board(ctx)
		if err != nil {
			t.Error(err)
			return task.NewBoard(nil, nil)
		}
		return b
	}
	status := func(b *task.Board, id task.ID) task.Status {
		if x := b.Tasks.Get(id); x != nil {
			return x.Status
		}
		return "absent"
	}
	var stop atomic.Bool
	var readers sync.WaitGroup
	for range 3 {
		readers.Go(func() {
			for !stop.Load() {
				r, err := pl.Next(ctx, plan.NextQuery{})
				if err != nil {
					t.Error(err)
					return
				}
				if r.Task != nil && !r.Task.Status.Open() {
					t.Errorf("next task %s is %s", r.Task.ID, r.Task.Status)
				}
			}
		})
	}
	var writers sync.WaitGroup
	for w := range 4 {
		writers.Go(func() {
			p := pl
			if w == 3 {
				p = otherPlan // its writes reach plan only through the file
			}
			critical := task.PriorityCritical
			for i := range 15 {
				a, err := p.Create(ctx, plan.NewTask{Title: fmt.Sprintf("w%d a%d", w, i), Priority: critical})
				if err != nil {
					t.Error(err)
					return
				}
				if got := status(board(), a.ID); got != task.StatusPending {
					t.Errorf("writer %d: created task %s is %s on the board", w, a.ID, got)
				}
				bt, err := p.Create(ctx, plan.NewTask{Title: fmt.Sprintf("w%d b%d", w, i), Priority: critical, Deps: []string{a.ID.String()}})
				if err != nil {
					t.Error(err)
					return
				}
				if b := board(); !b.Blocked(bt.ID) {
					t.Errorf("writer %d: %s depends on open %s but is not blocked", w, bt.ID, a.ID)
				}
				done := task.StatusDone
				if _, err := p.Update(ctx, a.ID.String(), plan.Change{Status: &done}); err != nil {
					t.Error(err)
					return
				}
				b := board()
				if got := status(b, a.ID); got != task.StatusDone {
					t.Errorf("writer %d: finished task %s is %s on the board", w, a.ID, got)
				}
				if b.Blocked(bt.ID) {
					t.Errorf("writer %d: %s is still blocked after its dependency %s finished", w, bt.ID, a.ID)
				}
				r, err := pl.Next(ctx, plan.NextQuery{Priorities: []string{string(critical)}})
				if err != nil {
					t.Error(err)
					return
				}
				if r.Task != nil && r.Task.ID == a.ID {
					t.Errorf("writer %d: next task is %s, finished", w, a.ID)
				}
				if _, err := p.Delete(ctx, bt.ID.String(), plan.Writer{}); err != nil {
					t.Error(err)
					return
				}
				if got := status(board(), bt.ID); got != "absent" {
					t.Errorf("writer %d: deleted task %s is %s on the board", w, bt.ID, got)
				}
				if w == 0 { // the focus stack's writes change the plan too
					agent := fmt.Sprintf("agent%d", w)
					x, err := fs.CreateNewTask(ctx, agent, fmt.Sprintf("focus %d", i), "")
					if err != nil {
						t.Error(err)
						return
					}
					// It takes the agent's focus: it is in progress.
					if got := status(board(), x.ID); got != task.StatusInProgress {
						t.Errorf("focus task %s is %s on the board", x.ID, got)
					}
					if _, err := fs.CompleteCurrentTask(ctx, agent, false); err != nil {
						t.Error(err)
						return
					}
					if got := status(board(), x.ID); got != task.StatusDone {
						t.Errorf("completed focus task %s is %s on the board", x.ID, got)
					}
				}
			}
		})
	}
	writers.Wait()
	stop.Store(true)
	readers.Wait()
	if diff := cmp.Diff(boardView(fullBoard(t, s)), boardView(board())); diff != "" {
		t.Errorf("the cached board differs from a fresh one (-fresh +cached):\n%s", diff)
	}
}

// tallyStore counts a store's transactions, version reads and plan reads.
type tallyStore struct {
	store.Store
	views, versions, reads atomic.Int32
}

func (c *tallyStore) ReadPlan(ctx context.Context, r store.PlanRead) (store.PlanReadResult, error) {
	c.reads.Add(1)
	return c.Store.ReadPlan(ctx, r)
}

func (c *tallyStore) Version(ctx context.Context) (uint64, error) {
	c.versions.Add(1)
	return c.Store.Version(ctx)
}

func (c *tallyStore) View(ctx context.Context, fn func(store.Tx) error) error {
	c.views.Add(1)
	return c.Store.View(ctx, fn)
}

// TestNextOneStatementOnPostgres: on PostgreSQL, get_next_task after a
// write reads the plan's changes and the claims in one statement (the plan
// read, on one pooled connection), with no transaction and no version
// read.
func TestNextOneStatementOnPostgres(t *testing.T) {
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.URL(t), postgres.Options{Project: pgtest.Project(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := &tallyStore{Store: s}
	pl := service.New(ts, service.Options{}).Plan
	for i := range 3 {
		if _, err := pl.Create(ctx, plan.NewTask{Title: fmt.Sprint("t", i)}); err != nil {
			t.Fatal(err)
		}
		if _, err := pl.Next(ctx, plan.NextQuery{Agent: "a"}); err != nil {
			t.Fatal(err)
		}
	}
	x, err := pl.Create(ctx, plan.NewTask{Title: "urgent", Priority: task.PriorityCritical})
	if err != nil {
		t.Fatal(err)
	}
	ts.views.Store(0)
	ts.versions.Store(0)
	ts.reads.Store(0)
	r, err := pl.Next(ctx, plan.NextQuery{Agent: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Task == nil || r.Task.ID != x.ID {
		t.Fatalf("next after creating a critical task: %+v, want %s", r.Task, x.ID)
	}
	if v, n, r := ts.views.Load(), ts.versions.Load(), ts.reads.Load(); v != 0 || n != 0 || r != 1 {
		t.Errorf("get_next_task after a write ran %d transactions, %d version reads and %d plan reads; want 0, 0 and 1", v, n, r)
	}
}

// TestUpdateAnswerCarriesClaimAndLifecycle: update_task's answer, built
// from the cached board and the write's own read, carries the task's live
// claim and open lifecycle as a full read of the task does, on a board
// that another handle's writes have moved on meanwhile.
func TestUpdateAnswerCarriesClaimAndLifecycle(t *testing.T) {
	onBothStores(t, testUpdateAnswerCarries)
}

func testUpdateAnswerCarries(t *testing.T, s, other store.Store) {
	ctx := context.Background()
	set := service.New(s, service.Options{})
	otherSet := service.New(other, service.Options{})
	var ids []string
	for i := range 4 {
		d, err := set.Plan.Create(ctx, plan.NewTask{Title: fmt.Sprint("task ", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, d.ID.String())
	}
	if _, _, err := set.Plan.AddSubtask(ctx, ids[1], plan.NewTask{Title: "under", Deps: []string{ids[2]}}); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Plan.Claim(ctx, plan.ClaimRequest{Agent: "ann", Ref: ids[1]}); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Lifecycles.Init(ctx, lifecycles.LifecycleInit{Task: ids[1]}); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Plan.Board(ctx); err != nil { // the board the answer starts from
		t.Fatal(err)
	}
	deps := []string{ids[3]}
	if _, err := otherSet.Plan.Update(ctx, ids[0], plan.Change{Deps: &deps}); err != nil {
		t.Fatal(err)
	}
	if _, err := otherSet.Plan.Create(ctx, plan.NewTask{Title: "elsewhere", Deps: []string{ids[1]}}); err != nil {
		t.Fatal(err)
	}
	st, notes := task.StatusInProgress, "notes"
	got, err := set.Plan.Update(ctx, ids[1], plan.Change{Status: &st, Description: &notes})
	if err != nil {
		t.Fatal(err)
	}
	if got.Claim == nil || got.Lifecycle == nil || len(got.Dependents) != 1 || len(got.Subtasks) != 1 {
		t.Fatalf("update answered claim %v, lifecycle %v, dependents %v, subtasks %v; want all four",
			got.Claim, got.Lifecycle, got.Dependents, got.Subtasks)
	}
	want, err := oracle.Get(ctx, s, ids[1])
	if err != nil {
		t.Fatal(err)
	}
	want.Imports = nil
	if diff := cmp.Diff(want, got, cmpopts.EquateApproxTime(time.Microsecond)); diff != "" {
		t.Fatalf("update answered a detail other than the full read's (-full +update):\n%s", diff)
	}
}
