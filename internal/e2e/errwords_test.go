package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestErrorsAreOneSentence: a refusal reads as what is wrong and what to
// do, in the words of the surface that shows it, with no Go wrapped-error
// chain in front ("cairn: stat /x.json: …"). The tools' refusals are pinned
// in internal/mcpserver/testdata (complete_current_task, add_subtask,
// loop_pause …); this is the CLI's.
func TestErrorsAreOneSentence(t *testing.T) {
	dir := cairntest.Project(t)
	msg := cairn(t, dir, true, "import", "/nonexistent/tasks.json")
	if strings.Contains(msg, "stat ") || !strings.Contains(msg, "/nonexistent/tasks.json") || !strings.Contains(msg, "check the path") {
		t.Errorf("cairn import of a missing file: %q", msg)
	}
	if msg := cairn(t, dir, true, "loop", "1"); strings.Contains(msg, "loop status:") || !strings.Contains(msg, "task 1 not found") {
		t.Errorf("cairn loop 1 in an empty project: %q", msg)
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
