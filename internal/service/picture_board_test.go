package service_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/oracle"
)

// TestBigPictureFromBoardMatchesFullRead: the big picture built from the
// plan service's cached board (NewSet links them) is the one built from a
// read of every task (a focus service of its own has no board), and so is
// get_task's detail (its neighbours read one by one) and get_tasks' pages
// (the store's queries), and so is update_task's answer, after every
// step of a random mix of the focus stack's and the plan's writes, from
// this process and from another handle on the same store, for every agent
// and a spread of pages, on SQLite and PostgreSQL.
func TestBigPictureFromBoardMatchesFullRead(t *testing.T) {
	onBothStores(t, testBigPictureFromBoard)
}

func testBigPictureFromBoard(t *testing.T, s, other store.Store) {
	ctx := context.Background()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 16))
	cached := service.New(s, service.Options{})
	otherSet := service.New(other, service.Options{})

	agents := []string{"a", "b", "c"}
	statuses := []task.Status{task.StatusPending, task.StatusInProgress, task.StatusBlocked, task.StatusDeferred, task.StatusDone, task.StatusCancelled}
	n := 0 // tasks created so far; ids are 1..n (some removed)
	ref := func() string { return fmt.Sprint(1 + rng.IntN(max(n, 1))) }
	// updated updates and checks the task update_task answers with (its
	// neighbours from the cached board and the write's own changes) against
	// a full read of the task just written.
	updated := func(set *service.Set, r string, c plan.Change) error {
		got, err := set.Plan.Update(ctx, r, c)
		if err != nil {
			return err
		}
		want, err := oracle.Get(ctx, s, r)
		if err != nil {
			t.Fatalf("get %s after its update: %v", r, err)
		}
		want.Imports = nil // update_task's answer leaves them out
		// Its task's times are the ones written, not as stored (to the
		// microsecond).
		if diff := cmp.Diff(want, got, cmpopts.EquateApproxTime(time.Microsecond)); diff != "" {
			t.Fatalf("update %s answered a detail other than the full read's (-full +update):\n%s", r, diff)
		}
		return nil
	}
	// created checks the task create_task and add_subtask answer with (known
	// without reading it back) against a full read of it.
	created := func(got plan.Detail, err error) error {
		if err != nil {
			return err
		}
		want, err := oracle.Get(ctx, s, got.ID.String())
		if err != nil {
			t.Fatalf("get %s after its creation: %v", got.ID, err)
		}
		want.Imports = nil
		if diff := cmp.Diff(want, got, cmpopts.EquateApproxTime(time.Microsecond)); diff != "" {
			t.Fatalf("create %s answered a detail other than the full read's (-full +create):\n%s", got.ID, diff)
		}
		return nil
	}
	step := func(i int) string {
		set := cached
		if rng.IntN(5) == 0 {
			set = otherSet
		}
		agent := agents[rng.IntN(len(agents))]
		title := fmt.Sprintf("step %d", i)
		var err error
		op := rng.IntN(10)
		switch op {
		case 0, 1:
			_, err = set.Focus.CreateNewTask(ctx, agent, title, "")
		case 2:
			_, err = set.Focus.ExtendCurrentTask(ctx, agent, title, "")
		case 3:
			_, err = set.Focus.CompleteCurrentTask(ctx, agent, rng.IntN(2) == 0)
		case 4:
			_, err = set.Focus.SwitchFocus(ctx, agent, ref())
		case 5:
			if rng.IntN(3) == 0 {
				_, err = set.Focus.RemoveTask(ctx, agent, ref(), false)
			} else {
				_, err = set.Plan.Delete(ctx, ref(), plan.Writer{})
			}
		case 6, 7:
			in := plan.NewTask{Title: title, Priority: task.Priorities[rng.IntN(len(task.Priorities))]}
			if rng.IntN(2) == 0 {
				in.Deps = []string{ref()}
			}
			if rng.IntN(2) == 0 {
				var sub plan.Detail
				if sub, _, err = set.Plan.AddSubtask(ctx, ref(), in); err == nil {
					err = created(sub, nil)
				}
			} else {
				err = created(set.Plan.Create(ctx, in))
			}
		case 8:
			st := statuses[rng.IntN(len(statuses))]
			err = updated(set, ref(), plan.Change{Status: &st, Force: true})
		case 9:
			title := title + " renamed"
			deps := []string{ref()}
			c := plan.Change{Title: &title, Deps: &deps}
			if rng.IntN(2) == 0 { // the fields and the status in one write
				st := statuses[rng.IntN(len(statuses))]
				c.Status, c.Force = &st, true
			}
			err = updated(set, ref(), c)
		}
		if op <= 2 || op == 6 || op == 7 {
			n += 2 // an upper bound is enough for ref
		}
		return fmt.Sprintf("step %d: op %d by %s: %v", i, op, agent, err)
	}
	pages := []page.Page{{}, {Limit: 1}, {Limit: 7}, {Offset: 3, Limit: 5}, {Offset: 40}}
	lists := []plan.TaskQuery{{}, {Statuses: []string{"pending"}}, {OpenOnly: true, Sort: "priority"},
		{Statuses: []string{"done", "cancelled"}, Sort: "status", Order: "desc"}, {Priorities: []string{"high", "critical"}, Sort: "created"},
		{Sort: "updated", Order: "desc"}, {Sort: "status"}, {Statuses: []string{"in-progress"}, Priorities: []string{"low"}, Order: "desc"}}
	for i := range 300 {
		what := step(i)
		if i%3 != 0 && i < 290 {
			continue // let changes pile up between looks, too
		}
		// get_task's neighbours from the board are the store's too.
		for id := 1; id <= n; id += 1 + rng.IntN(3) {
			want, werr := oracle.Get(ctx, s, fmt.Sprint(id))
			got, gerr := cached.Plan.Get(ctx, fmt.Sprint(id))
			if fmt.Sprint(werr) != fmt.Sprint(gerr) {
				t.Fatalf("after %s: get %d: error %v; full read %v", what, id, gerr, werr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("after %s: get %d: the board's detail differs from the full read (-full +board):\n%s", what, id, diff)
			}
		}
		// get_tasks' pages from the board are the store's too.
		for _, q := range lists {
			q.Page = pages[rng.IntN(len(pages))]
			want, werr := oracle.List(ctx, s, q)
			got, gerr := cached.Plan.List(ctx, q)
			if fmt.Sprint(werr) != fmt.Sprint(gerr) {
				t.Fatalf("after %s: list %+v: error %v; full read %v", what, q, gerr, werr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("after %s: list %+v: the board's page differs from the store's (-store +board):\n%s", what, q, diff)
			}
		}
		for _, agent := range agents {
			for _, pg := range pages {
				pg.Offset = min(pg.Offset, n)
				want, werr := oracle.Picture(ctx, s, agent, pg)
				got, gerr := cached.Focus.BigPicture(ctx, agent, pg)
				if fmt.Sprint(werr) != fmt.Sprint(gerr) {
					t.Fatalf("after %s: agent %s page %+v: error %v; full read %v", what, agent, pg, gerr, werr)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("after %s: agent %s page %+v: the board's picture differs from the full read (-full +board):\n%s", what, agent, pg, diff)
				}
			}
		}
	}
}
