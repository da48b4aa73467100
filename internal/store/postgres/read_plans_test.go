package postgres

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// TestPlanReadUsesIndexes: every shape of ReadPlan the services use, as
// the generic plan every pooled connection makes of it (genericPlans),
// finds its tasks by index, expecting few, on an analyzed project of 2,000
// tasks: a shape that scans the tasks table reads every task on every read
// of the plan ("rev > $2" alone made a plan expecting a third of them, which
// became a scan of the table).
func TestPlanReadUsesIndexes(t *testing.T) {
	ctx := context.Background()
	// A database of its own: in one shared by many projects' tests, a
	// project's few rows make any plan led by project_id look cheap.
	s, err := Open(ctx, freshSchema(t), Options{Project: "plans"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Now()
	err = s.Update(ctx, func(tx store.Tx) error {
		var root task.ID
		for i := range 2000 {
			p := store.Placement{}
			if i%20 != 0 {
				p.Parent = root
			}
			tk, err := tx.CreateTask(ctx, task.Task{Title: fmt.Sprint("task ", i), CreatedAt: now, UpdatedAt: now}, p)
			if err != nil {
				return err
			}
			if i%20 == 0 {
				root = tk.ID
			} else if i%3 == 0 {
				if err := tx.SetDeps(ctx, tk.ID, []task.ID{tk.ID - 1}); err != nil {
					return err
				}
			}
			if i == 1999 {
				if err := tx.SetFocus(ctx, "a1", tk.ID, now); err != nil {
					return err
				}
				if _, err := tx.ClaimTask(ctx, task.Claim{TaskID: tk.ID, Agent: "a1", ClaimedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.db.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if _, err := c.Exec(ctx, `ANALYZE tasks, task_deps, focus, claims, imports, lifecycles`); err != nil {
		t.Fatal(err)
	}
	// What genericPlans sets on a connection made once tasks is analyzed.
	if _, err := c.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	reads := []store.PlanRead{
		{},                       // Board, Next
		{Claims: true, Now: now}, // Next for an agent
		{Agent: "a1"},            // Current
		{Task: 2000},             // Get
		{Claims: true, Now: now, Lifecycles: true}, // List
		{Agent: "a1", Lifecycles: true},            // BigPicture
	}
	for i, r := range reads {
		r.Since = 1000
		q, args := planReadQuery(s.project, r)
		name := fmt.Sprintf("plan_read_%d_%d", s.project, i)
		if _, err := c.Exec(ctx, `PREPARE `+name+` AS `+q); err != nil {
			t.Fatal(err)
		}
		var lits []string
		for _, a := range args {
			switch a := a.(type) {
			case time.Time:
				lits = append(lits, fmt.Sprintf("'%s'::timestamptz", a.Format(time.RFC3339Nano)))
			case string:
				lits = append(lits, fmt.Sprintf("'%s'", a))
			default:
				lits = append(lits, fmt.Sprint(a))
			}
		}
		rows, err := c.Query(ctx, `EXPLAIN EXECUTE `+name+`(`+strings.Join(lits, ", ")+`)`)
		if err != nil {
			t.Fatal(err)
		}
		var plan strings.Builder
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan.WriteString(line + "\n")
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		// No node reads the tasks table whole, nor guesses it will read
		// more than a few of the project's tasks (a guess of a third made
		// the plans that scanned it).
		for _, line := range strings.Split(plan.String(), "\n") {
			if !strings.Contains(line, " on tasks ") && !strings.Contains(line, " on task_deps ") {
				continue
			}
			var rows int
			if i := strings.Index(line, " rows="); i >= 0 {
				fmt.Sscanf(line[i+len(" rows="):], "%d", &rows)
			}
			if strings.Contains(line, "Seq Scan") || rows > 100 {
				t.Errorf("%+v reads many tasks:\n%s", r, plan.String())
				break
			}
		}
		if _, err := c.Exec(ctx, `DEALLOCATE `+name); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOpenChildrenUseTheirIndex: OpenChildren's statement, and the reads
// ahead of the focused task's open children and open siblings, find the
// open children by tasks_open_children, as the generic plan every pooled
// connection makes of them, on an analyzed project whose one level holds
// 2,000 done tasks and 3 open ones: by tasks_by_parent they would read
// every done one, and each completion on a long batch would cost more
// than the one before. LeftSibling's finds its one sibling by
// tasks_by_parent.
func TestOpenChildrenUseTheirIndex(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, freshSchema(t), Options{Project: "open-children"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Now()
	var batch, last task.Task
	err = s.Update(ctx, func(tx store.Tx) (err error) {
		if batch, err = tx.CreateTask(ctx, task.New("batch", "", now), store.Placement{}); err != nil {
			return err
		}
		for i := range 2003 {
			st := task.StatusDone
			if i%1000 == 500 {
				st = task.StatusPending
			}
			tk, err := tx.CreateTask(ctx, task.Task{Title: fmt.Sprint("step ", i), Status: st, Priority: task.PriorityMedium, CreatedAt: now, UpdatedAt: now},
				store.Placement{Parent: batch.ID})
			if err != nil {
				return err
			}
			if i == 2002 {
				last = tk
				if err := tx.SetFocus(ctx, "a1", tk.ID, now); err != nil {
					return err
				}
			}
		}
		return tx.SetFocus(ctx, "a2", batch.ID, now)
	})
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.db.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Release()
	if _, err := c.Exec(ctx, `ANALYZE tasks, focus`); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, `SET plan_cache_mode = force_generic_plan`); err != nil {
		t.Fatal(err)
	}
	for i, q := range []struct {
		sql, args, index string
	}{
		{qOpenChildren, fmt.Sprintf("%d, %d", s.project, batch.ID), "tasks_open_children"},
		{qFocusedOpenChildren, fmt.Sprintf("%d, 'a2'", s.project), "tasks_open_children"},
		{qFocusedOpenSiblings, fmt.Sprintf("%d, 'a1'", s.project), "tasks_open_children"},
		{qLeftSibling, fmt.Sprintf("%d, %d, %d, %d", s.project, batch.ID, last.Position, last.ID), "tasks_by_parent"},
		{qLeftSiblingBody, fmt.Sprintf("%d, %d, %d, %d", s.project, batch.ID, last.Position, last.ID), "tasks_by_parent"},
	} {
		name := fmt.Sprintf("open_children_%d", i)
		if _, err := c.Exec(ctx, `PREPARE `+name+` AS `+q.sql); err != nil {
			t.Fatal(err)
		}
		rows, err := c.Query(ctx, `EXPLAIN EXECUTE `+name+`(`+q.args+`)`)
		if err != nil {
			t.Fatal(err)
		}
		var plan strings.Builder
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan.WriteString(line + "\n")
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(plan.String(), q.index) || strings.Contains(plan.String(), "Seq Scan on tasks") {
			t.Errorf("%s\ndoes not read by %s:\n%s", q.sql, q.index, plan.String())
		}
		if _, err := c.Exec(ctx, `DEALLOCATE `+name); err != nil {
			t.Fatal(err)
		}
	}
}
