package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/store/sqlq"
)

// TestHotQueriesDoNotScanTasks: statements that run on most tool calls
// find their rows by index, never by a scan of every task (or import: get_task
// reads a task's), whatever the
// planner would guess without statistics. qClaims (get_tasks, get_next_task)
// once scanned the tasks and looked up each one's claim.
func TestHotQueriesDoNotScanTasks(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hot := map[string]string{
		"qClaims":                qClaims,
		"qOpenLifecycles":        qOpenLifecycles,
		"qOpenLifecyclesOfTask":  qOpenLifecyclesOfTask,
		"qOpenLifecyclesOfTasks": qOpenLifecyclesOfTasks,
		"qDepsOf":                qDepsOf,
		"qTaskDeps":              qTaskDeps,
		"qDependents":            qDependents,
		"qInsertTaskLast":        qInsertTaskLast,
		"qInsertTaskAt":          qInsertTaskAt,
		"qFocusedTask":           qFocusedTask,
		"qOpenChildren":          qOpenChildren,
		"qLeftSibling":           qLeftSibling,
		"qLeftSiblingBody":       qLeftSiblingBody,
		"qInsertUnderFocus":      qInsertUnderFocus,
	}
	hot["ImportsOf"], _ = sqlq.ImportsOf(sq.Where(""), 1)
	for i, q := range readPlanQueries() { // ReadPlan's shapes
		hot[fmt.Sprint("ReadPlan ", i)] = q
	}
	for name, q := range hot {
		args := make([]any, strings.Count(q, "?"))
		for i := range args {
			args[i] = 1
		}
		rows, err := db.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		for _, step := range plan {
			if strings.HasPrefix(step, "SCAN t ") || step == "SCAN t" || strings.HasPrefix(step, "SCAN tasks") || strings.HasPrefix(step, "SCAN imports") {
				t.Errorf("%s scans every task or import:\n%s", name, strings.Join(plan, "\n"))
			}
		}
	}
}

// TestPreparedQueriesKeepTheirPlan: no prepared statement compares a
// parameter to a column that a partial index's WHERE compares to a
// constant (lifecycles' status = 'open'). Such a comparison makes the
// plan depend on the bound value, and SQLite then prepares the statement
// again every time it runs with new bindings: the open-lifecycle reads,
// on most tool calls, cost as much as unprepared ones.
func TestPreparedQueriesKeepTheirPlan(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "cairn.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.r.QueryContext(ctx, `SELECT tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql LIKE '% WHERE %'`)
	if err != nil {
		t.Fatal(err)
	}
	type guard struct{ table, col string }
	var guards []guard
	constEq := regexp.MustCompile(`(\w+)\s*=\s*('|[0-9])`)
	for rows.Next() {
		var table, sql string
		if err := rows.Scan(&table, &sql); err != nil {
			t.Fatal(err)
		}
		_, where, _ := strings.Cut(sql, " WHERE ")
		for _, m := range constEq.FindAllStringSubmatch(where, -1) {
			guards = append(guards, guard{table, m[1]})
		}
	}
	rows.Close()
	if len(guards) == 0 {
		t.Fatal("no partial index compares a column to a constant: the test looks at nothing")
	}
	var queries []string
	for _, qs := range [][]string{readQueries, writeQueries, planReadQueries, planWriteQueries, loopReadQueries, loopWriteQueries,
		memoryReadQueries, memoryWriteQueries, sessionWriteQueries, claimReadQueries, claimWriteQueries, readPlanQueries(), writePlanQueries()} {
		queries = append(queries, qs...)
	}
	// Nor does one equate a parameter to a column that a join equates to
	// another (l.task_id = ?3 with t.id = l.task_id): the planner carries
	// the parameter over to the other table (t.id = ?3), whose partial
	// indexes then tie the plan to the bound value in the same way. ReadPlan's
	// get_task shape did, and was prepared again on most runs. IN (?) keeps
	// the plan.
	joined := regexp.MustCompile(`\b(\w+\.\w+)\s*=\s*(\w+\.\w+)\b`)
	for _, q := range queries {
		for _, m := range joined.FindAllStringSubmatch(q, -1) {
			for _, col := range m[1:] {
				if regexp.MustCompile(regexp.QuoteMeta(col) + `\s*=\s*\?`).MatchString(q) {
					t.Errorf("a prepared query equates a parameter to %s, which a join equates to another column; write %s IN (?):\n%s", col, col, q)
				}
			}
		}
	}
	for _, g := range guards {
		table := regexp.MustCompile(`(?i)\b(FROM|JOIN|UPDATE|INTO)\s+` + g.table + `\b`)
		param := regexp.MustCompile(`\b` + g.col + `\s*(=|IN\s*\()\s*\?`)
		for _, q := range queries {
			_, where, ok := strings.Cut(q, " WHERE ")
			if ok && table.MatchString(q) && param.MatchString(where) {
				t.Errorf("a prepared query compares %s.%s, which a partial index compares to a constant, to a parameter; write the constant:\n%s", g.table, g.col, q)
			}
		}
	}
}
