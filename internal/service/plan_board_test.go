package service_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
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
		ts, err := tx.Tasks(context.Background())
		if err != nil {
			return err
		}
		deps, err := tx.Deps(context.Background())
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
	plan, focus, otherPlan := service.NewPlan(s), service.NewFocus(s), service.NewPlan(other)
	for i := range 40 {
		in := service.NewTask{Title: fmt.Sprintf("seed %d", i)}
		if i > 0 {
			in.Deps = []string{fmt.Sprint(1 + i/2)}
		}
		if _, err := plan.Create(ctx, in); err != nil {
			t.Fatal(err)
		}
	}
	// The focus agent works under a task of its own, which no writer
	// deletes: completing a step brings it back there.
	if _, err := focus.CreateNewTask(ctx, "agent0", "focus root", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Next(ctx, service.NextQuery{}); err != nil { // the board is cached from here on
		t.Fatal(err)
	}

	board := func() *task.Board {
		b, err := plan.Board(ctx)
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
				r, err := plan.Next(ctx, service.NextQuery{})
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
			p := plan
			if w == 3 {
				p = otherPlan // its writes reach plan only through the file
			}
			critical := task.PriorityCritical
			for i := range 15 {
				a, err := p.Create(ctx, service.NewTask{Title: fmt.Sprintf("w%d a%d", w, i), Priority: critical})
				if err != nil {
					t.Error(err)
					return
				}
				if got := status(board(), a.ID); got != task.StatusPending {
					t.Errorf("writer %d: created task %s is %s on the board", w, a.ID, got)
				}
				bt, err := p.Create(ctx, service.NewTask{Title: fmt.Sprintf("w%d b%d", w, i), Priority: critical, Deps: []string{a.ID.String()}})
				if err != nil {
					t.Error(err)
					return
				}
				if b := board(); !b.Blocked(bt.ID) {
					t.Errorf("writer %d: %s depends on open %s but is not blocked", w, bt.ID, a.ID)
				}
				done := task.StatusDone
				if _, err := p.Update(ctx, a.ID.String(), service.Change{Status: &done}); err != nil {
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
				r, err := plan.Next(ctx, service.NextQuery{Priorities: []string{string(critical)}})
				if err != nil {
					t.Error(err)
					return
				}
				if r.Task != nil && r.Task.ID == a.ID {
					t.Errorf("writer %d: next task is %s, finished", w, a.ID)
				}
				if _, err := p.Delete(ctx, bt.ID.String()); err != nil {
					t.Error(err)
					return
				}
				if got := status(board(), bt.ID); got != "absent" {
					t.Errorf("writer %d: deleted task %s is %s on the board", w, bt.ID, got)
				}
				if w == 0 { // the focus stack's writes change the plan too
					agent := fmt.Sprintf("agent%d", w)
					x, err := focus.CreateNewTask(ctx, agent, fmt.Sprintf("focus %d", i), "")
					if err != nil {
						t.Error(err)
						return
					}
					if got := status(board(), x.ID); got != task.StatusPending {
						t.Errorf("focus task %s is %s on the board", x.ID, got)
					}
					if _, err := focus.CompleteCurrentTask(ctx, agent, false); err != nil {
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

// countingStore counts View calls (board refreshes) and reports a new
// version on every read, as a store under a steady stream of writes would;
// gate, while set, holds every View until it is closed.
type countingStore struct {
	store.Store
	views   atomic.Int32
	version atomic.Uint64
	gate    atomic.Pointer[chan struct{}]
}

func (c *countingStore) Version(context.Context) (uint64, error) { return c.version.Add(1), nil }

func (c *countingStore) View(ctx context.Context, fn func(store.Tx) error) error {
	c.views.Add(1)
	if g := c.gate.Load(); g != nil {
		<-*g
	}
	return c.Store.View(ctx, fn)
}

// TestBoardRefreshesShared: callers that find the board stale while a
// refresh runs share the next one, rather than each running its own in
// turn (which, under a steady stream of writes, made the last of N callers
// wait for N refreshes).
func TestBoardRefreshesShared(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cs := &countingStore{Store: s}
	plan := service.NewPlan(cs)
	if _, err := plan.Create(ctx, service.NewTask{Title: "a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := plan.Board(ctx); err != nil {
		t.Fatal(err)
	}
	gate := make(chan struct{})
	cs.gate.Store(&gate)
	before := cs.views.Load()
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			if b, err := plan.Board(ctx); err != nil || b.Tasks.Len() != 1 {
				t.Errorf("board: %v, %v", b, err)
			}
		})
	}
	// Let every caller reach its wait (a refresh running, the rest queued).
	for cs.views.Load() == before {
		runtime.Gosched()
	}
	time.Sleep(50 * time.Millisecond)
	cs.gate.Store(nil)
	close(gate)
	wg.Wait()
	if n := cs.views.Load() - before; n > 2 {
		t.Errorf("10 callers of a stale board ran %d refreshes; want at most 2 (the one running and one shared by the rest)", n)
	}
}

// tallyStore counts a store's transactions and version reads.
type tallyStore struct {
	store.Store
	views, versions atomic.Int32
}

func (c *tallyStore) Version(ctx context.Context) (uint64, error) {
	c.versions.Add(1)
	return c.Store.Version(ctx)
}

func (c *tallyStore) View(ctx context.Context, fn func(store.Tx) error) error {
	c.views.Add(1)
	return c.Store.View(ctx, fn)
}

// TestNextOneTransactionOnPostgres: on PostgreSQL, get_next_task after a
// write reads the version, the plan's changes and the claims in one
// transaction (one pooled connection), instead of a version read, a
// refresh other callers queue behind, and a claims read.
func TestNextOneTransactionOnPostgres(t *testing.T) {
	ctx := context.Background()
	s, err := postgres.Open(ctx, pgtest.URL(t), postgres.Options{Project: pgtest.Project(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ts := &tallyStore{Store: s}
	plan := service.NewPlan(ts)
	for i := range 3 {
		if _, err := plan.Create(ctx, service.NewTask{Title: fmt.Sprint("t", i)}); err != nil {
			t.Fatal(err)
		}
		if _, err := plan.Next(ctx, service.NextQuery{Agent: "a"}); err != nil {
			t.Fatal(err)
		}
	}
	x, err := plan.Create(ctx, service.NewTask{Title: "urgent", Priority: task.PriorityCritical})
	if err != nil {
		t.Fatal(err)
	}
	ts.views.Store(0)
	ts.versions.Store(0)
	r, err := plan.Next(ctx, service.NextQuery{Agent: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Task == nil || r.Task.ID != x.ID {
		t.Fatalf("next after creating a critical task: %+v, want %s", r.Task, x.ID)
	}
	if v, n := ts.views.Load(), ts.versions.Load(); v != 1 || n != 0 {
		t.Errorf("get_next_task after a write ran %d transactions and %d version reads; want 1 and 0", v, n)
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
	set := service.NewSet(s, service.MemoryOptions{}, nil)
	otherSet := service.NewSet(other, service.MemoryOptions{}, nil)
	full := service.NewPlanFullReadsForTest(s)
	var ids []string
	for i := range 4 {
		d, err := set.Plan.Create(ctx, service.NewTask{Title: fmt.Sprint("task ", i)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, d.ID.String())
	}
	if _, _, err := set.Plan.AddSubtask(ctx, ids[1], service.NewTask{Title: "under", Deps: []string{ids[2]}}); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Plan.Claim(ctx, service.ClaimRequest{Agent: "ann", Ref: ids[1]}); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Lifecycles.Init(ctx, service.LifecycleInit{Task: ids[1]}); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Plan.Board(ctx); err != nil { // the board the answer starts from
		t.Fatal(err)
	}
	deps := []string{ids[3]}
	if _, err := otherSet.Plan.Update(ctx, ids[0], service.Change{Deps: &deps}); err != nil {
		t.Fatal(err)
	}
	if _, err := otherSet.Plan.Create(ctx, service.NewTask{Title: "elsewhere", Deps: []string{ids[1]}}); err != nil {
		t.Fatal(err)
	}
	st, notes := task.StatusInProgress, "notes"
	got, err := set.Plan.Update(ctx, ids[1], service.Change{Status: &st, Description: &notes})
	if err != nil {
		t.Fatal(err)
	}
	if got.Claim == nil || got.Lifecycle == nil || len(got.Dependents) != 1 || len(got.Subtasks) != 1 {
		t.Fatalf("update answered claim %v, lifecycle %v, dependents %v, subtasks %v; want all four",
			got.Claim, got.Lifecycle, got.Dependents, got.Subtasks)
	}
	want, err := full.Get(ctx, ids[1])
	if err != nil {
		t.Fatal(err)
	}
	want.Imports = nil
	if diff := cmp.Diff(want, got, cmpopts.EquateApproxTime(time.Microsecond)); diff != "" {
		t.Fatalf("update answered a detail other than the full read's (-full +update):\n%s", diff)
	}
}
