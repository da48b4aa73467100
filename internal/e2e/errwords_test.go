package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testutil/cairntest"
)

// TestErrorsAreOneSentence pins that a refusal reads as what is wrong and
// what to do, in the words of the surface that shows it, with no Go
// wrapped-error chain in front ("complete task: no current task: …").
func TestErrorsAreOneSentence(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all"}})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"complete_current_task", nil, "no current task, so there is nothing to complete; start one with create_new_task"},
		{"update_current_task", map[string]any{"body": "x"}, "no current task, so there is nothing to update; start one with create_new_task"},
		{"extend_current_task", map[string]any{"title": "x"}, "no current task, so there is nothing to extend; start one with create_new_task"},
	} {
		if got := s.Err(tc.tool, tc.args).Text; got != "error: "+tc.want {
			t.Errorf("%s: got %q, want %q", tc.tool, got, "error: "+tc.want)
		}
	}
	a := s.OK("create_task", map[string]any{"title": "a"}).Str("id")
	s.OK("update_task", map[string]any{"id": a, "status": "done"})
	if got := s.Err("add_subtask", map[string]any{"parentId": a, "title": "x"}).Text; got != "error: task "+a+" is done; add subtasks only to open tasks" {
		t.Errorf("add_subtask on a done task: %q", got)
	}
	lp := s.OK("loop_start", map[string]any{"objective": "o", "completion_criteria": "c"}).Str("id")
	s.OK("loop_cancel", map[string]any{"id": lp})
	if got := s.Err("loop_pause", map[string]any{"id": lp}).Text; got != "error: cannot pause: the loop is cancelled; it is finished; start a new loop with loop_start" {
		t.Errorf("loop_pause on a cancelled loop: %q", got)
	}

	msg := cairn(t, dir, true, "import", "/nonexistent/tasks.json")
	if strings.Contains(msg, "stat ") || !strings.Contains(msg, "/nonexistent/tasks.json") || !strings.Contains(msg, "check the path") {
		t.Errorf("cairn import of a missing file: %q", msg)
	}
}

// TestNumericIDsAndEmptySchemas: ids may be sent as numbers wherever ids
// are taken, a wrong item names itself without contradicting its field's
// kind, and a tool without arguments declares "properties": {}.
func TestNumericIDsAndEmptySchemas(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	a := s.OK("create_task", map[string]any{"title": "a"}).Str("id")
	b := s.OK("create_task", map[string]any{"title": "b", "dependencies": []any{1}})
	if deps := b.Structured["dependencies"].([]any); len(deps) != 1 || deps[0] != a {
		t.Fatalf("dependencies [1]: %v", b.Structured)
	}
	s.OK("update_task", map[string]any{"id": 2, "dependencies": []any{}})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"create_task", map[string]any{"title": "c", "dependencies": []any{true}}, "dependencies[0] is a boolean, not an id string or integer"},
		{"get_tasks", map[string]any{"status": []any{"pending", 3}}, "status[1] is the number 3, not a string"},
	} {
		got := s.Err(tc.tool, tc.args).Text
		if !strings.Contains(got, tc.want) || strings.Contains(got, "an array, not an array") {
			t.Errorf("%s %v: %q, want %q", tc.tool, tc.args, got, tc.want)
		}
	}
	tools, err := s.Session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		b, _ := json.Marshal(tl.InputSchema)
		if !strings.Contains(string(b), `"properties":`) {
			t.Errorf("%s declares no properties: %s", tl.Name, b)
		}
	}
}
