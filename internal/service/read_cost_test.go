package service_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/lifecycles"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

// readCalls are the read tools the load's mix calls most, as the MCP
// server runs them (get_next_task is Next, then Get of its pick).
func readCalls(set *service.Set, agent, ref string) []struct {
	name string
	run  func(context.Context) error
} {
	return []struct {
		name string
		run  func(context.Context) error
	}{
		{"get_current_task", func(ctx context.Context) error { _, err := set.Focus.Current(ctx, agent); return err }},
		{"get_task", func(ctx context.Context) error { _, err := set.Plan.Get(ctx, ref); return err }},
		{"get_tasks", func(ctx context.Context) error {
			_, err := set.Plan.List(ctx, plan.TaskQuery{OpenOnly: true})
			return err
		}},
		{"get_next_task", func(ctx context.Context) error {
			r, err := set.Plan.Next(ctx, plan.NextQuery{Agent: agent})
			if err == nil && r.Task != nil {
				_, err = set.Plan.Get(ctx, r.Task.ID.String())
			}
			return err
		}},
		{"get_big_picture", func(ctx context.Context) error {
			_, err := set.Focus.BigPicture(ctx, agent, page.Page{})
			return err
		}},
	}
}

// seedReads makes a small plan with what the reads look at: nested tasks,
// a dependency, a claim, an open lifecycle, and an agent's focus on a
// subtask. It returns a subtask's reference.
func seedReads(t *testing.T, set *service.Set, agent string) string {
	t.Helper()
	ctx := context.Background()
	var last string
	for i := range 5 {
		d, err := set.Plan.Create(ctx, plan.NewTask{Title: fmt.Sprint("root ", i)})
		if err != nil {
			t.Fatal(err)
		}
		for j := range 3 {
			sub, _, err := set.Plan.AddSubtask(ctx, d.ID.String(), plan.NewTask{Title: fmt.Sprint("step ", j), Description: "body"})
			if err != nil {
				t.Fatal(err)
			}
			last = sub.ID.String()
		}
	}
	if _, err := set.Plan.Update(ctx, "5", plan.Change{Deps: &[]string{"1"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Plan.Claim(ctx, plan.ClaimRequest{Agent: "other", Ref: "9"}); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Lifecycles.Init(ctx, lifecycles.LifecycleInit{Task: "13"}); err != nil {
		t.Fatal(err)
	}
	if _, err := set.Focus.SwitchFocus(ctx, agent, last); err != nil {
		t.Fatal(err)
	}
	return last
}

// TestReadCost measures the SQLite statements and transactions each read
// tool runs: with nothing written since the last read (the cached board is
// current), and after another process's write. The budgets are the point
// of the cached board: one statement a read, no transaction.
func TestReadCost(t *testing.T) {
	ctx := context.Background()
	s, other := twoHandles(t)
	set := service.New(s, service.Options{})
	otherSet := service.New(other, service.Options{})
	ref := seedReads(t, set, "me")
	const n = 10
	for _, c := range readCalls(set, "me", ref) {
		if err := c.run(ctx); err != nil { // warm: the board, prepared statements
			t.Fatal(c.name, err)
		}
		st0, tx0 := s.Counters()
		for range n {
			if err := c.run(ctx); err != nil {
				t.Fatal(c.name, err)
			}
		}
		st1, tx1 := s.Counters()
		var wst, wtx uint64
		for i := range n {
			title := fmt.Sprint("changed ", i)
			if _, err := otherSet.Plan.Update(ctx, "17", plan.Change{Title: &title}); err != nil {
				t.Fatal(err)
			}
			a, b := s.Counters()
			if err := c.run(ctx); err != nil {
				t.Fatal(c.name, err)
			}
			x, y := s.Counters()
			wst, wtx = wst+x-a, wtx+y-b
		}
		// get_next_task is two reads: the pick, then its detail.
		budget := uint64(n)
		if c.name == "get_next_task" {
			budget = 2 * n
		}
		if st1-st0 > budget || wst > budget || tx1 != tx0 || wtx > 0 {
			t.Errorf("%s: %d and %d statements, %d and %d transactions for %d calls each, unchanged and after a write; want at most %d statements and no transaction",
				c.name, st1-st0, wst, tx1-tx0, wtx, n, budget)
		}
		t.Logf("%-17s unchanged: %.1f statements, %.1f transactions; after another's write: %.1f statements, %.1f transactions",
			c.name, float64(st1-st0)/n, float64(tx1-tx0)/n, float64(wst)/n, float64(wtx)/n)
	}
}

// TestColdReadsConcurrent: many first reads at once on a new store (no
// board cached, no statement prepared), on a small read pool, all finish.
// Reads holding every pooled connection once waited for the statement
// cache's lock while its holder waited for a connection to prepare on.
func TestColdReadsConcurrent(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "cairn.db")
	seed, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref := seedReads(t, service.New(seed, service.Options{}), "me")
	seed.Close()
	for round := range 5 {
		s, err := sqlite.Open(ctx, path, sqlite.Options{ReadConns: 2})
		if err != nil {
			t.Fatal(err)
		}
		set := service.New(s, service.Options{})
		var wg sync.WaitGroup
		for i := range 16 {
			c := readCalls(set, "me", ref)[i%5]
			wg.Go(func() {
				if err := c.run(ctx); err != nil {
					t.Errorf("round %d: %s: %v", round, c.name, err)
				}
			})
		}
		wg.Wait()
		s.Close()
	}
}

// BenchmarkReadTools times the read tools on a 1,000-task plan, answered
// from the cached board and one statement ("board") and in transactions
// ("tx", the store hidden behind plainStore).
func BenchmarkReadTools(b *testing.B) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	set := service.New(s, service.Options{})
	for i := range 250 {
		d, err := set.Plan.Create(ctx, plan.NewTask{Title: fmt.Sprint("root ", i), Description: "some words"})
		if err != nil {
			b.Fatal(err)
		}
		for j := range 3 {
			if _, _, err := set.Plan.AddSubtask(ctx, d.ID.String(), plan.NewTask{Title: fmt.Sprint("step ", j)}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if _, err := set.Focus.SwitchFocus(ctx, "me", "497.2"); err != nil {
		b.Fatal(err)
	}
	for _, mode := range []struct {
		name string
		set  *service.Set
	}{{"board", set}, {"tx", service.New(plainStore{s}, service.Options{})}} {
		for _, c := range readCalls(mode.set, "me", "497.2") {
			b.Run(c.name+"/"+mode.name, func(b *testing.B) {
				// CPU time as well as wall time: on a busy machine the
				// process's CPU per call varies less than its wall time.
				cpu0 := processCPU()
				for b.Loop() {
					if err := c.run(ctx); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// processCPU is the process's user and system CPU time so far, in ns.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
