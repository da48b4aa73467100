package service_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/focus"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// eachStore runs fn on a fresh SQLite store and, when the test database is
// set, on a fresh PostgreSQL project.
func eachStore(t *testing.T, fn func(t *testing.T, s store.Store)) {
	ctx := context.Background()
	t.Run("sqlite", func(t *testing.T) {
		s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cairn.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		fn(t, s)
	})
	t.Run("postgres", func(t *testing.T) {
		s, err := postgres.Open(ctx, pgtest.URL(t), postgres.Options{Project: pgtest.Project(t)})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		fn(t, s)
	})
}

// TestCompletionAmongManyClosedSiblings: on a level of hundreds of
// finished steps, with open siblings of every kind between them (deferred,
// blocked, waiting on a dependency, ready), a completion moves focus to the
// leftmost ready sibling, then to the next, then to the parent; and the
// parent, with open children among hundreds of closed ones, is refused
// naming exactly the open ones.
func TestCompletionAmongManyClosedSiblings(t *testing.T) {
	eachStore(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		set := service.New(s, service.Options{})
		const agent = "agent-1"
		mk := func(title string, parent task.ID, st task.Status, deps ...string) task.ID {
			t.Helper()
			d, err := set.Plan.Create(ctx, plan.NewTask{Title: title, Parent: parent, Status: st, Deps: deps})
			if err != nil {
				t.Fatal(err)
			}
			return d.ID
		}
		elsewhere := mk("elsewhere", 0, task.StatusPending)
		batch := mk("batch", 0, task.StatusInProgress)
		closed := func(n int, st task.Status) {
			for i := range n {
				mk(fmt.Sprint(st, " ", i), batch, st)
			}
		}
		closed(120, task.StatusDone)
		deferred := mk("deferred", batch, task.StatusDeferred)
		closed(60, task.StatusDone)
		closed(20, task.StatusCancelled)
		blocked := mk("blocked", batch, task.StatusBlocked)
		waiting := mk("waiting", batch, task.StatusPending, elsewhere.String())
		closed(100, task.StatusDone)
		ready1 := mk("ready 1", batch, task.StatusPending)
		cur := mk("current", batch, task.StatusPending)
		ready2 := mk("ready 2", batch, task.StatusInProgress)
		closed(30, task.StatusDone)
		if _, err := set.Focus.SwitchFocus(ctx, agent, cur.String()); err != nil {
			t.Fatal(err)
		}
		for _, want := range []task.ID{ready1, ready2, batch} {
			c, err := set.Focus.CompleteCurrentTask(ctx, agent, false)
			if err != nil {
				t.Fatal(err)
			}
			if c.Next.ID != want {
				t.Fatalf("completed %s, focus on %s %q; want %s", c.Task.ID, c.Next.ID, c.Next.Title, want)
			}
			v, err := set.Focus.Current(ctx, agent)
			if err != nil || v.Task.ID != want {
				t.Fatalf("current after completing %s: %+v, %v; want %s", c.Task.ID, v.Task, err, want)
			}
		}
		_, err := set.Focus.CompleteCurrentTask(ctx, agent, false)
		if !problem.Is(err, problem.OpenChildren) {
			t.Fatalf("completing the batch with open children: %v; want it refused for open children", err)
		}
		want := fmt.Sprintf(`has 3 incomplete: %s "deferred", %s "blocked", %s "waiting"`, deferred, blocked, waiting)
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not say %q", err, want)
		}
		// Once they are closed, the batch completes and focus leaves the
		// level: to the one ready task left, elsewhere.
		for _, id := range []task.ID{deferred, blocked} {
			cancelled := task.StatusCancelled
			if _, err := set.Plan.Update(ctx, id.String(), plan.Change{Status: &cancelled}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := set.Focus.RemoveTask(ctx, "nobody", waiting.String(), false); err != nil {
			t.Fatal(err)
		}
		c, err := set.Focus.CompleteCurrentTask(ctx, agent, false)
		if err != nil {
			t.Fatal(err)
		}
		if c.Task.ID != batch || c.Next.ID != elsewhere {
			t.Errorf("completed %s, focus on %s; want %s, then %s", c.Task.ID, c.Next.ID, batch, elsewhere)
		}
	})
}

// rowTally counts the task rows a store's write transactions read through
// the Tx methods that list tasks. Its transactions offer none of the
// stores' own interfaces, so the services take their plain paths: the
// reads of the Tx interface, each counted.
type rowTally struct {
	store.Store
	rows atomic.Int64
}

func (r *rowTally) Update(ctx context.Context, fn func(store.Tx) error) error {
	return r.Store.Update(ctx, func(tx store.Tx) error { return fn(tallyTx{tx, &r.rows}) })
}

type tallyTx struct {
	store.Tx
	rows *atomic.Int64
}

func (x tallyTx) Query(ctx context.Context, q store.Query) ([]task.Task, int, error) {
	ts, n, err := x.Tx.Query(ctx, q)
	x.rows.Add(int64(len(ts)))
	return ts, n, err
}

// TestCompletionReadsDoNotGrowWithClosedSiblings: the task rows a
// create_new_task and complete_current_task read (the way agents work
// through a batch: a step created under it, completed, focus back on the
// batch) are as many after 300 finished steps as after 30: the focus rules
// and the completion's check read the open children, not all of them.
func TestCompletionReadsDoNotGrowWithClosedSiblings(t *testing.T) {
	eachStore(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		rt := &rowTally{Store: s}
		fs := service.New(rt, service.Options{}).Focus
		const agent = "agent-1"
		batch, err := fs.CreateNewTask(ctx, agent, "batch", "")
		if err != nil {
			t.Fatal(err)
		}
		// An open sibling the steps' completions pass over.
		if _, err := service.New(s, service.Options{}).Plan.Create(ctx, plan.NewTask{Title: "later", Parent: batch.ID, Status: task.StatusDeferred}); err != nil {
			t.Fatal(err)
		}
		step := func(i int) int64 {
			t.Helper()
			before := rt.rows.Load()
			if _, err := fs.CreateNewTask(ctx, agent, fmt.Sprint("step ", i), "Do one thing."); err != nil {
				t.Fatal(err)
			}
			c, err := fs.CompleteCurrentTask(ctx, agent, false)
			if err != nil {
				t.Fatal(err)
			}
			if c.Next.ID != batch.ID {
				t.Fatalf("step %d: focus on %s after the completion; want the batch, %s", i, c.Next.ID, batch.ID)
			}
			return rt.rows.Load() - before
		}
		var early, late int64
		for i := range 300 {
			n := step(i)
			switch i {
			case 29:
				early = n
			case 299:
				late = n
			}
		}
		t.Logf("task rows read by a step's creation and completion: %d after 30 finished steps, %d after 300", early, late)
		if late != early {
			t.Errorf("a step's creation and completion read %d task rows after 30 finished steps, %d after 300; want as many", early, late)
		}
	})
}

// TestCurrentAmongManyClosedSiblings: YOU ARE HERE from the cached board
// (Board.NearLeft) lists the same left siblings, and counts the same rest,
// as the same call read in a transaction (NearLeft over every sibling), on
// a level of hundreds of siblings of every status, some inserted out of id
// order, for a focus at its start, in its middle and at its end; and
// peek_context (LeftSibling) shows the sibling before it in the level's
// order, with its body or without.
func TestCurrentAmongManyClosedSiblings(t *testing.T) {
	eachStore(t, func(t *testing.T, s store.Store) {
		ctx := context.Background()
		set := service.New(s, service.Options{})
		ref := service.New(plainStore{s}, service.Options{})
		const agent = "agent-1"
		batch, err := set.Plan.Create(ctx, plan.NewTask{Title: "batch"})
		if err != nil {
			t.Fatal(err)
		}
		focusAt := map[int]bool{0: true, 1: true, 5: true, 100: true, 101: true, 200: true, 239: true}
		var ids []task.ID
		for i := range 240 {
			st := task.StatusDone
			switch {
			case focusAt[i]:
				st = task.StatusInProgress
			case i%37 == 5 || i%53 == 0:
				st = task.Statuses[i%len(task.Statuses)]
			}
			d, err := set.Plan.Create(ctx, plan.NewTask{Title: fmt.Sprint("step ", i), Parent: batch.ID, Status: st})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, d.ID)
		}
		// Out of id order: a step inserted right of the 100th.
		if _, err := set.Focus.SwitchFocus(ctx, agent, ids[100].String()); err != nil {
			t.Fatal(err)
		}
		inserted, err := set.Focus.ExtendCurrentTask(ctx, agent, "inserted", "")
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range []task.ID{ids[0], ids[1], ids[5], inserted.ID, ids[101], ids[200], ids[239]} {
			if _, err := set.Focus.SwitchFocus(ctx, agent, at.String()); err != nil {
				t.Fatal(err)
			}
			got, err := set.Focus.Current(ctx, agent)
			if err != nil {
				t.Fatal(err)
			}
			want, err := ref.Focus.Current(ctx, agent)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("focus on %s: YOU ARE HERE from the board differs from a transaction's (-tx +board):\n%s", at, diff)
			}
			// peek_context: the sibling immediately to the left, as the
			// whole level read in order has it.
			var level []task.Task
			if err := s.View(ctx, func(tx store.Tx) (err error) {
				level, err = store.Children(ctx, tx, batch.ID, true)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			var wantLeft *task.Task
			for i, x := range level {
				if x.ID == at && i > 0 {
					wantLeft = &level[i-1]
				}
			}
			for _, withBody := range []bool{true, false} {
				c, err := set.Focus.PeekContext(ctx, agent, withBody)
				if err != nil {
					t.Fatal(err)
				}
				w := wantLeft
				if w != nil && !withBody {
					nb := *w
					nb.Body = ""
					w = &nb
				}
				if diff := cmp.Diff(w, c.Left); diff != "" || c.Current.ID != at {
					t.Errorf("peek_context on %s (bodies %v): current %s, left (-want +got):\n%s", at, withBody, c.Current.ID, diff)
				}
			}
			if at == ids[239] && (len(got.Left) != focus.LeftShown || got.LeftMore != 240-focus.LeftShown) {
				t.Errorf("focus on the last step: %d left siblings shown and %d more; want %d and %d",
					len(got.Left), got.LeftMore, focus.LeftShown, 240-focus.LeftShown)
			}
		}
	})
}

// BenchmarkFocusLongLevel times the focus tools on a level of many
// finished steps (SQLite, services as the server wires them): YOU ARE
// HERE (get_current_task), peek_context with bodies, and a step's
// create_new_task + complete_current_task (focus back on the batch). Their
// cost should not grow with the finished steps: compare done=500 with
// done=5000.
//
//	go test -run '^$' -bench FocusLongLevel -benchmem ./internal/service
func BenchmarkFocusLongLevel(b *testing.B) {
	for _, done := range []int{500, 5000} {
		b.Run(fmt.Sprint("done=", done), func(b *testing.B) {
			ctx := context.Background()
			s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "cairn.db"), sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			var batch, cur task.Task
			err = s.Update(ctx, func(tx store.Tx) (err error) {
				if batch, err = tx.CreateTask(ctx, task.New("batch", "", time.Now()), store.Placement{}); err != nil {
					return err
				}
				for i := range done {
					if _, err := tx.CreateTask(ctx, task.Task{Title: fmt.Sprint("step ", i), Body: "Did one thing.", Status: task.StatusDone},
						store.Placement{Parent: batch.ID}); err != nil {
						return err
					}
				}
				cur, err = tx.CreateTask(ctx, task.Task{Title: "current", Body: "Doing it."}, store.Placement{Parent: batch.ID})
				return err
			})
			if err != nil {
				b.Fatal(err)
			}
			set := service.New(s, service.Options{})
			const agent = "bench"
			focusOn := func(b *testing.B, id task.ID) {
				if _, err := set.Focus.SwitchFocus(ctx, agent, id.String()); err != nil {
					b.Fatal(err)
				}
			}
			b.Run("get_current_task", func(b *testing.B) {
				focusOn(b, cur.ID)
				b.ReportAllocs()
				for b.Loop() {
					v, err := set.Focus.Current(ctx, agent)
					if err != nil || v.Task.ID != cur.ID || len(v.Left) != focus.LeftShown || v.LeftMore != done-focus.LeftShown {
						b.Fatalf("%+v, %v", v, err)
					}
				}
			})
			b.Run("peek_context", func(b *testing.B) {
				focusOn(b, cur.ID)
				b.ReportAllocs()
				for b.Loop() {
					c, err := set.Focus.PeekContext(ctx, agent, true)
					if err != nil || c.Left == nil || c.Left.Title != fmt.Sprint("step ", done-1) || c.Left.Body == "" {
						b.Fatalf("%+v, %v", c.Left, err)
					}
				}
			})
			b.Run("step", func(b *testing.B) {
				focusOn(b, batch.ID)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if _, err := set.Focus.CreateNewTask(ctx, agent, fmt.Sprint("step ", i), "Do one thing."); err != nil {
						b.Fatal(err)
					}
					c, err := set.Focus.CompleteCurrentTask(ctx, agent, false)
					if err != nil || c.Next.ID != cur.ID {
						// The open current step is the leftmost ready one.
						b.Fatalf("focus on %s after a step; want %s: %v", c.Next.ID, cur.ID, err)
					}
					focusOn(b, batch.ID)
					i++
				}
			})
		})
	}
}
