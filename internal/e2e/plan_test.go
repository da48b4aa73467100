package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

func ids(t *testing.T, r cairntest.Result) []string {
	t.Helper()
	var out []string
	for _, x := range r.Structured["tasks"].([]any) {
		out = append(out, x.(map[string]any)["id"].(string))
	}
	return out
}

func TestPlanCRUDAndNext(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	a := s.OK("create_task", args{"title": "Design schema", "priority": "high"}).Str("id")
	b := s.OK("create_task", args{"title": "Write migrations", "dependencies": []string{a}}).Str("id")
	c := s.OK("create_task", args{"title": "Ship", "priority": "critical", "dependencies": []string{b}, "description": "release notes"}).Str("id")

	// get_task: full, with dependencies and dependents.
	g := s.OK("get_task", args{"id": b})
	if g.Str("title") != "Write migrations" || !strings.Contains(g.Text, "depends on") || !strings.Contains(g.Text, "Ship") {
		t.Fatalf("get_task: %s", g.Text)
	}

	// The next task: the only unblocked one, and what it unblocks.
	n := s.OK("get_next_task", args{})
	if n.Structured["task"].(map[string]any)["id"] != a || !strings.Contains(n.Str("rationale"), "unblocks") {
		t.Fatalf("next: %v", n.Structured)
	}
	s.OK("update_task", args{"id": a, "status": "done"})
	if n := s.OK("get_next_task", args{}); n.Structured["task"].(map[string]any)["id"] != b {
		t.Fatalf("next after a done: %v", n.Structured)
	}

	// A cycle is refused, names the cycle, changes nothing.
	r := s.Err("update_task", args{"id": b, "dependencies": []string{c}})
	if r.Structured["code"] != float64(-32001) || !strings.Contains(r.Text, b+" → "+c+" → "+b) {
		t.Fatalf("cycle: %s", r.Text)
	}
	if g := s.OK("get_task", args{"id": b}); len(g.Structured["dependencies"].([]any)) != 1 {
		t.Fatalf("refused update changed dependencies: %v", g.Structured)
	}
	s.Err("create_task", args{"title": "x", "dependencies": []string{"999"}})
	s.Err("update_task", args{"id": a, "status": "pending"}) // completion is permanent

	// delete_task removes the id from every other task's dependencies.
	d := s.OK("delete_task", args{"id": b})
	if d.Structured["success"] != true || d.Str("deletedId") != b {
		t.Fatalf("delete: %v", d.Structured)
	}
	if g := s.OK("get_task", args{"id": c}); g.Structured["dependencies"] != nil {
		t.Fatalf("deleted task still a dependency: %v", g.Structured)
	}
	s.Err("get_task", args{"id": b})

	// Filters and paging.
	for i := range 25 {
		s.OK("create_task", args{"title": "bulk " + string(rune('a'+i)), "priority": "low"})
	}
	p1 := s.OK("get_tasks", args{"priority": "low"})
	if p1.Structured["total"] != float64(25) || len(ids(t, p1)) != 20 || p1.Structured["nextOffset"] != float64(20) {
		t.Fatalf("page 1: total %v, %d tasks, next %v", p1.Structured["total"], len(ids(t, p1)), p1.Structured["nextOffset"])
	}
	if len(p1.Text) > 2048 {
		t.Errorf("a page of 20 short tasks is %d bytes of text", len(p1.Text))
	}
	p2 := s.OK("get_tasks", args{"priority": []string{"low"}, "offset": 20})
	if len(ids(t, p2)) != 5 || p2.Structured["nextOffset"] != nil {
		t.Fatalf("page 2: %v", p2.Structured)
	}
	if r := s.OK("get_tasks", args{"status": []string{"done"}}); r.Structured["total"] != float64(1) {
		t.Fatalf("status filter: %v", r.Structured)
	}
	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	if r := s.OK("get_tasks", args{"createdAfter": future}); r.Structured["total"] != float64(0) {
		t.Fatalf("createdAfter filter: %v", r.Structured)
	}
	if r := s.OK("get_tasks", args{"createdBefore": future, "limit": 50}); r.Structured["total"] != float64(27) {
		t.Fatalf("createdBefore filter: %v", r.Structured)
	}
	s.Err("get_tasks", args{"createdAfter": "yesterday"})
	s.Err("get_tasks", args{"limit": 51})
	s.Err("get_tasks", args{"status": "finished"})

	// query_tasks: sort and projection.
	q := s.OK("query_tasks", args{"filters": args{"status": "pending"}, "sort": args{"field": "priority"}, "fields": []string{"id", "priority"}, "limit": 2})
	rows := q.Structured["tasks"].([]any)
	first := rows[0].(map[string]any)
	if first["priority"] != "critical" || first["title"] != nil || len(first) != 2 {
		t.Fatalf("query: %v", rows)
	}
	q = s.OK("query_tasks", args{"sort": args{"field": "created", "order": "desc"}, "limit": 1})
	if q.Structured["tasks"].([]any)[0].(map[string]any)["title"] != "bulk y" {
		t.Fatalf("query desc: %v", q.Structured)
	}
	if r := s.Err("query_tasks", args{"filters": args{"bogus": 1}}); !strings.Contains(r.Text, "filters.bogus") {
		t.Fatalf("nested unknown field: %s", r.Text)
	}
	s.Err("query_tasks", args{"fields": []string{"password"}})
	s.Err("query_tasks", args{"sort": args{"field": "name"}})

	// Stats.
	st := s.OK("get_task_stats", args{})
	if st.Structured["total"] != float64(27) || st.Structured["byStatus"].(map[string]any)["done"] != float64(1) ||
		st.Structured["byPriority"].(map[string]any)["low"] != float64(25) {
		t.Fatalf("stats: %v", st.Structured)
	}
}

func TestPlanSubtasks(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	p := s.OK("create_task", args{"title": "Parent"}).Str("id")
	r := s.OK("add_subtask", args{"parentId": p, "title": "first"})
	if !strings.Contains(r.Text, p+".1") {
		t.Fatalf("add_subtask: %s", r.Text)
	}
	s.OK("add_subtask", args{"parentId": p, "title": "second"})
	s.OK("add_subtask", args{"parentId": p, "title": "third"})

	// The parent cannot be done before its subtasks.
	if r := s.Err("update_task", args{"id": p, "status": "done"}); r.Structured["reason"] != "open_children" {
		t.Fatalf("parent done with open subtasks: %s", r.Text)
	}
	s.OK("update_subtask", args{"subtaskId": p + ".1", "status": "done"})
	s.OK("delete_subtask", args{"subtaskId": p + ".2"})
	// Numbers are stable: .3 still names "third" after .2 went.
	g := s.OK("update_subtask", args{"subtaskId": p + ".3", "title": "third (renamed)"})
	if !strings.Contains(g.Text, "("+p+".3) pending: third (renamed)") || strings.Contains(g.Text, "second") {
		t.Fatalf("after delete and rename: %s", g.Text)
	}
	s.Err("update_subtask", args{"subtaskId": p + ".2", "status": "done"}) // gone
	s.Err("update_subtask", args{"subtaskId": p, "status": "done"})        // not a subtask id
	s.OK("update_subtask", args{"subtaskId": p + ".3", "status": "done"})
	s.OK("update_task", args{"id": p, "status": "done"})

	// Subtasks are children in the same tree: the focus view sees them.
	bp := s.OK("get_big_picture", args{})
	if !strings.Contains(bp.Text, "  [2] first (completed)") {
		t.Fatalf("focus view of subtasks:\n%s", bp.Text)
	}
}

// TestViewsAreOne: the focus stack and the plan are views of one model.
func TestViewsAreOne(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	id := s.OK("create_task", args{"title": "Planned"}).Str("id")
	if bp := s.OK("get_big_picture", args{}); !strings.Contains(bp.Text, "["+id+"] Planned") {
		t.Fatalf("create_task not in the big picture:\n%s", bp.Text)
	}
	// A planned task is not focus until the agent takes it: zen says what to start.
	if z := s.OK("get_current_task", args{}); z.Structured["zen"] != true || z.Str("next_task_id") != id {
		t.Fatalf("before taking focus: %v", z.Structured)
	}
	s.OK("switch_focus", args{"task_id": id})
	cairntest.WantCurrent(t, s, "Planned")
	child := s.OK("create_new_task", newTask("Focused child")).Str("task_id")
	s.OK("complete_current_task", args{})
	if g := s.OK("get_task", args{"id": child}); g.Str("status") != "done" || g.Str("ref") != id+".1" {
		t.Fatalf("completed focus task in the plan: %v", g.Structured)
	}
	if st := s.OK("get_task_stats", args{}); st.Structured["byStatus"].(map[string]any)["done"] != float64(1) {
		t.Fatalf("stats do not count the focus completion: %v", st.Structured)
	}
	// Done through the plan: archived, and focus moves off it.
	s.OK("update_task", args{"id": id, "status": "done"})
	wantZen(t, s)
	if c := s.OK("get_completed_tasks", args{"order": "logical"}); c.Structured["count"] != float64(2) || !strings.Contains(c.Text, "Planned") {
		t.Fatalf("plan completion not archived: %s", c.Text)
	}
}

func TestPlanPrompts(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	a := s.OK("create_task", args{"title": "Alpha", "priority": "high", "description": "the first"}).Str("id")
	s.OK("create_task", args{"title": "Beta", "dependencies": []string{a}})
	s.OK("add_subtask", args{"parentId": a, "title": "alpha sub"})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	list, err := s.Session.ListPrompts(ctx, nil)
	if err != nil || len(list.Prompts) != 7 { // Todori's two, the five working prompts

		t.Fatalf("prompts/list: %v %v", list, err)
	}
	r, err := s.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "session_restore"})
	if err != nil {
		t.Fatal(err)
	}
	text := r.Messages[0].Content.(*mcp.TextContent).Text
	if !strings.Contains(text, "Total tasks: 3") || !strings.Contains(text, "Next task") || !strings.Contains(text, "alpha sub") || len(text) > 2048 {
		t.Fatalf("session_restore (%d bytes):\n%s", len(text), text)
	}
	r, err = s.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "task_context", Arguments: map[string]string{"taskId": a}})
	if err != nil {
		t.Fatal(err)
	}
	text = r.Messages[0].Content.(*mcp.TextContent).Text
	for _, want := range []string{"# Task: Alpha", "Priority: high", "the first", "Beta", "Subtasks (0/1 complete)", "[ ] " + a + ".1 alpha sub"} {
		if !strings.Contains(text, want) {
			t.Fatalf("task_context lacks %q:\n%s", want, text)
		}
	}
	if _, err := s.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "task_context", Arguments: map[string]string{"taskId": "999"}}); err == nil ||
		!strings.Contains(err.Error(), "999") {
		t.Fatalf("task_context of a missing task: %v", err)
	}

	// Argument completion of task ids.
	c, err := s.Session.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "task_context"},
		Argument: mcp.CompleteParamsArgument{Name: "taskId", Value: ""}})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(c.Completion)
	if len(c.Completion.Values) != 3 || c.Completion.Values[0] != a {
		t.Fatalf("completion: %s", b)
	}
}
