package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// TestHotQueriesDoNotScanTasks: statements that run on most tool calls
// find their rows by index, never by a scan of every task, whatever the
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
	for name, q := range map[string]string{
		"qClaims":               qClaims,
		"qOpenLifecycles":       qOpenLifecycles,
		"qOpenLifecyclesOfTask": qOpenLifecyclesOfTask,
		"qTaskDeps":             qTaskDeps,
		"qDependents":           qDependents,
	} {
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
			if strings.HasPrefix(step, "SCAN t ") || step == "SCAN t" || strings.HasPrefix(step, "SCAN tasks") {
				t.Errorf("%s scans every task:\n%s", name, strings.Join(plan, "\n"))
			}
		}
	}
}
