package sqlite_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/storetest"
)

// TestWriteStatements counts the statements the write tools of
// scripts/load.sh's mix run on SQLite, through the services the MCP tools
// call, on a plan whose board is cached (as it is in a server under load),
// and fails if a call runs more than it did when the count was last cut: a
// statement is tens of microseconds of a write that holds the project's
// lock. Run with -v to see them.
func TestWriteStatements(t *testing.T) {
	ctx := context.Background()
	s := open(t, sqlite.Options{})
	svc := service.New(s, service.Options{})
	const agent = "agent-1"
	var seeded []string
	for i := range 20 {
		d, err := svc.Plan.Create(ctx, plan.NewTask{Title: fmt.Sprintf("Seeded %d", i), Description: "A seeded task."})
		if err != nil {
			t.Fatal(err)
		}
		seeded = append(seeded, d.Task.ID.String())
	}
	box, err := svc.Plan.Create(ctx, plan.NewTask{Title: "Agents"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Focus.SwitchFocus(ctx, agent, box.Task.ID.String()); err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"Agent", "Batch 1"} {
		if _, err := svc.Focus.CreateNewTask(ctx, agent, title, "A batch of steps."); err != nil {
			t.Fatal(err)
		}
	}
	warm := func() {
		t.Helper()
		if _, err := svc.Plan.Board(ctx); err != nil {
			t.Fatal(err)
		}
	}
	inProgress, high := task.StatusInProgress, task.PriorityHigh
	notes := "Notes: approach agreed, tests next."
	for _, c := range []struct {
		name string
		max  int // statements, BEGIN included
		call func() error
	}{
		{"create_new_task", 3, func() error {
			_, err := svc.Focus.CreateNewTask(ctx, agent, "Step 1", "Do one thing.")
			return err
		}},
		// 12: the live claims are read, for whether another agent holds
		// the task and which tasks the focus rules pass over.
		{"complete_current_task", 12, func() error {
			_, err := svc.Focus.CompleteCurrentTask(ctx, agent, false)
			return err
		}},
		{"update_current_task", 3, func() error {
			_, err := svc.Focus.UpdateCurrentTask(ctx, agent, "Progress: it works; edge cases next.")
			return err
		}},
		{"create_task", 4, func() error {
			_, err := svc.Plan.Create(ctx, plan.NewTask{Title: "Follow-up", Description: "Found while working.",
				Priority: task.PriorityHigh, Deps: []string{seeded[3]}})
			return err
		}},
		// 5: as an agent writes it, whose write another agent's claim
		// refuses: the claim on the task is read.
		{"update_task", 5, func() error {
			_, err := svc.Plan.Update(ctx, seeded[5], plan.Change{Status: &inProgress, Priority: &high, Description: &notes, Agent: agent})
			return err
		}},
		// 8: it reads every task for the subtree, in one statement (an
		// unpaged Query, which runs no count), then the live claims.
		{"delete_task", 8, func() error {
			_, err := svc.Plan.Delete(ctx, seeded[7], plan.Writer{Agent: agent})
			return err
		}},
	} {
		warm()
		countStatements(t, c.name, c.max, c.call)
	}
}

// countStatements runs call, logs the statements it ran, and fails the
// test if they are more than most.
func countStatements(t *testing.T, name string, most int, call func() error) {
	t.Helper()
	counts := map[string]int{}
	stop := sqlite.CountStatements(func(q string) { counts[q]++ })
	err := call()
	stop()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	n := 0
	var lines []string
	for _, q := range slices.Sorted(maps.Keys(counts)) {
		n += counts[q]
		lines = append(lines, fmt.Sprintf("  %d× %s", counts[q], strings.Join(strings.Fields(q), " ")))
	}
	t.Logf("%s: %d statements\n%s", name, n, strings.Join(lines, "\n"))
	if n > most {
		t.Errorf("%s ran %d statements, more than %d:\n%s", name, n, most, strings.Join(lines, "\n"))
	}
}

// TestMemoryReadStatements counts the statements the memory tools' reads
// run on SQLite (storetest.MemoryReads: searches, a listing, a timeline,
// BEGIN included), on a memory with superseded and expired entries (which
// a search leaves out after ranking), and fails if a read runs more than
// it did when the count was last cut. Run with -v to see them.
func TestMemoryReadStatements(t *testing.T) {
	ctx := context.Background()
	s := open(t, sqlite.Options{})
	now := time.Now().UTC().Truncate(time.Microsecond)
	storetest.SeedMemoryReads(t, s, now)
	most := map[string]int{"search": 9, "search filtered": 9, "search second page": 8, "recent": 3, "context": 6}
	for _, r := range storetest.MemoryReads(now) {
		countStatements(t, r.Name, most[r.Name], func() error {
			return s.View(ctx, func(tx store.Tx) error { return r.Read(ctx, tx) })
		})
	}
}
