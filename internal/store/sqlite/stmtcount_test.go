package sqlite_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/task"
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
		{"complete_current_task", 11, func() error {
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
		{"update_task", 4, func() error {
			_, err := svc.Plan.Update(ctx, seeded[5], plan.Change{Status: &inProgress, Priority: &high, Description: &notes})
			return err
		}},
	} {
		warm()
		counts := map[string]int{}
		stop := sqlite.CountStatements(func(q string) { counts[q]++ })
		err := c.call()
		stop()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		n := 0
		var lines []string
		for _, q := range slices.Sorted(maps.Keys(counts)) {
			n += counts[q]
			lines = append(lines, fmt.Sprintf("  %d× %s", counts[q], strings.Join(strings.Fields(q), " ")))
		}
		t.Logf("%s: %d statements\n%s", c.name, n, strings.Join(lines, "\n"))
		if n > c.max {
			t.Errorf("%s ran %d statements, more than %d:\n%s", c.name, n, c.max, strings.Join(lines, "\n"))
		}
	}
}
