package plan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "plan", Tools())
}

// planned is a call over a plan of a parent task with a subtask, and their
// ids.
func planned(t *testing.T) (c tool.Call, parent, sub string) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	c = tooltest.Call(set, tools)
	_, out, err := tooltest.Run(t, c, tooltest.Find(t, tools, "create_task"), map[string]any{"title": "Ship login", "priority": "high"})
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ ID string }
	if err := json.Unmarshal([]byte(tooltest.Text(out)), &p); err != nil || p.ID == "" {
		t.Fatalf("create_task answered %s", tooltest.Text(out))
	}
	if _, _, err := tooltest.Run(t, c, tooltest.Find(t, tools, "add_subtask"), map[string]any{"parentId": p.ID, "title": "Write the form"}); err != nil {
		t.Fatal(err)
	}
	return c, p.ID, p.ID + ".1"
}

// TestShapes runs the tools over tasks that exist, so that each value
// reaches the rules that read it rather than a missing task.
func TestShapes(t *testing.T) {
	c, parent, sub := planned(t)
	base := map[string]map[string]any{}
	for _, d := range Tools() {
		args := map[string]any{}
		for name := range d.Schema().Properties {
			switch name {
			case "id", "parentId":
				args[name] = parent
			case "subtaskId":
				args[name] = sub
			}
		}
		base[d.Def.Name] = args
	}
	tooltest.Shapes(t, c, Tools(), base)
}

// TestQueryNamesAreArguments: a refusal the plan service words with its
// own field name is renamed to an argument query_tasks declares.
func TestQueryNamesAreArguments(t *testing.T) {
	// The full schema of the arguments: tools/list words filters as a
	// description.
	s, err := jsonschema.For[QueryTasksArgs](nil)
	if err != nil {
		t.Fatal(err)
	}
	for field, arg := range queryNames {
		p := s
		for name := range strings.SplitSeq(arg, ".") {
			if p = p.Properties[name]; p == nil {
				t.Errorf("%s is renamed %s, which query_tasks does not declare", field, arg)
				break
			}
		}
	}
	c, _, _ := planned(t)
	_, _, err = tooltest.Run(t, c, tooltest.Find(t, Tools(), "query_tasks"), map[string]any{"filters": map[string]any{"createdAfter": "last week"}})
	if !tooltest.Refused(err, "filters.createdAfter") {
		t.Errorf("a bad createdAfter is refused as %v, want it named filters.createdAfter", err)
	}
}

// TestEveryFieldProjects: each field query_tasks offers is filled in for a
// task that has it (a field added to the list without its value would
// show "-" for every task).
func TestEveryFieldProjects(t *testing.T) {
	c, parent, sub := planned(t)
	tools := Tools()
	if _, _, err := tooltest.Run(t, c, tooltest.Find(t, tools, "update_subtask"), map[string]any{"subtaskId": sub, "status": "done"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := tooltest.Run(t, c, tooltest.Find(t, tools, "create_task"), map[string]any{"title": "Announce", "dependencies": []string{parent}, "description": "after login ships"}); err != nil {
		t.Fatal(err)
	}
	text, out, err := tooltest.Run(t, c, tooltest.Find(t, tools, "query_tasks"), map[string]any{"fields": fieldNames})
	if err != nil {
		t.Fatal(err)
	}
	rows := out.(queryOut).Tasks
	for _, f := range fieldNames {
		found := false
		for _, r := range rows {
			if v, ok := r[f]; ok && v != "" {
				found = true
			}
		}
		if !found {
			t.Errorf("no task shows %s:\n%s", f, text)
		}
	}
}
