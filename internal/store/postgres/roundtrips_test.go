package postgres_test

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// writeLog keeps the store's "postgres write", "postgres view" and
// "postgres read" debug records (Store.run, Store.ReadPlan).
type writeLog struct {
	mu     sync.Mutex
	trips  []int
	held   []time.Duration
	awaits []time.Duration
}

func (w *writeLog) Enabled(context.Context, slog.Level) bool { return true }
func (w *writeLog) WithAttrs([]slog.Attr) slog.Handler       { return w }
func (w *writeLog) WithGroup(string) slog.Handler            { return w }
func (w *writeLog) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "postgres write" && r.Message != "postgres view" && r.Message != "postgres read" {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "round_trips":
			w.trips = append(w.trips, int(a.Value.Int64()))
		case "held":
			w.held = append(w.held, a.Value.Duration())
		case "awaiting":
			w.awaits = append(w.awaits, a.Value.Duration())
		}
		return true
	})
	return nil
}

// since returns the round trips of the writes logged after the first n.
func (w *writeLog) since(n int) []int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.trips[n:])
}

func (w *writeLog) len() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.trips)
}

// openLogged opens a store of a new project whose round trips wl counts.
func openLogged(t *testing.T) (st *postgres.Store, wl *writeLog) {
	t.Helper()
	wl = &writeLog{}
	st, err := postgres.Open(context.Background(), pgtest.URL(t), postgres.Options{Project: pgtest.Project(t), Logger: slog.New(wl)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, wl
}

// TestWriteRoundTrips counts the round trips each write tool of load.sh's
// mix makes to PostgreSQL while it holds the project's lock (the first,
// which takes it, and COMMIT included), on a plan like cairn-load's: a
// write's round trips are what every writer queued behind it waits for.
// Some reads are counted too (ReadPlan's one statement, or their
// transactions' round trips, BEGIN and COMMIT included).
// It fails when a tool makes more than it did when last cut down; -v
// prints the counts.
func TestWriteRoundTrips(t *testing.T) {
	ctx := context.Background()
	st, wl := openLogged(t)
	set := service.New(st, service.Options{})
	var ids, open []string
	for i := range 60 {
		in := plan.NewTask{Title: fmt.Sprintf("plan task %d", i), Description: "seeded"}
		if i%3 == 0 {
			in.Status = task.StatusDone
		}
		if i > 0 && in.Status == "" {
			in.Deps = []string{ids[i-1]}
		}
		d, err := set.Plan.Create(ctx, in)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, d.ID.String())
		if in.Status == "" {
			open = append(open, d.ID.String())
		}
	}
	if _, err := set.Plan.Board(ctx); err != nil { // the cache update_task starts from
		t.Fatal(err)
	}
	const agent = "agent-1"
	if _, err := set.Focus.CreateNewTask(ctx, agent, "Agent", "own task"); err != nil {
		t.Fatal(err)
	}
	got := map[string][]int{}
	measure := func(tool string, call func() error) {
		t.Helper()
		n := wl.len()
		if err := call(); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		got[tool] = append(got[tool], wl.since(n)...)
	}
	for round := range 3 {
		measure("create_new_task", func() error {
			_, err := set.Focus.CreateNewTask(ctx, agent, fmt.Sprint("Batch ", round), "A batch of steps.")
			return err
		})
		for step := range 4 {
			measure("create_new_task", func() error {
				_, err := set.Focus.CreateNewTask(ctx, agent, fmt.Sprint("Step ", step), "Do one thing.")
				return err
			})
			measure("update_current_task", func() error {
				_, err := set.Focus.UpdateCurrentTask(ctx, agent, "progress")
				return err
			})
			measure("complete_current_task", func() error {
				_, err := set.Focus.CompleteCurrentTask(ctx, agent, false)
				return err
			})
		}
		measure("complete_current_task", func() error { // the batch
			_, err := set.Focus.CompleteCurrentTask(ctx, agent, false)
			return err
		})
		measure("get_next_task", func() error {
			_, err := set.Plan.Next(ctx, plan.NextQuery{Agent: agent})
			return err
		})
		measure("get_task", func() error {
			_, err := set.Plan.Get(ctx, open[round])
			return err
		})
		measure("get_current_task", func() error {
			_, err := set.Focus.Current(ctx, agent)
			return err
		})
		measure("create_task", func() error {
			_, err := set.Plan.Create(ctx, plan.NewTask{Title: fmt.Sprint("follow-up ", round), Description: "found while working",
				Priority: task.PriorityHigh, Deps: []string{ids[10+round]}})
			return err
		})
		for i, status := range []task.Status{task.StatusInProgress, task.StatusPending} {
			desc, prio := fmt.Sprint("notes ", round, i), task.PriorityLow
			measure("update_task", func() error {
				_, err := set.Plan.Update(ctx, open[10+round*2+i], plan.Change{Status: &status, Priority: &prio, Description: &desc, Agent: agent})
				return err
			})
		}
	}
	// The most round trips each tool may make; a count above it is a
	// regression (a read or write added under the lock, or a statement
	// no longer pipelined).
	limit := map[string]int{
		"create_new_task":       1,
		"update_current_task":   1,
		"complete_current_task": 2,
		"create_task":           2,
		"update_task":           2,
		"get_next_task":         1, // one statement (ReadPlan), no transaction
		"get_task":              1,
		"get_current_task":      1,
	}
	var report []string
	for tool, trips := range got {
		slices.Sort(trips)
		report = append(report, fmt.Sprintf("%s: %v", tool, trips))
		if len(trips) == 0 {
			t.Errorf("%s: no write logged", tool)
			continue
		}
		if m := trips[len(trips)-1]; m > limit[tool] {
			t.Errorf("%s made %d round trips under the lock, more than %d", tool, m, limit[tool])
		}
	}
	slices.Sort(report)
	t.Logf("round trips (under the project's lock, for a write), per call:\n%s", strings.Join(report, "\n"))
}
