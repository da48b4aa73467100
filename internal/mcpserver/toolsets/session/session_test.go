package session

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "session", Tools())
}

func TestShapes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	tooltest.Shapes(t, tooltest.Call(set, tools), tools, nil)
}

// TestEveryArgumentHasAnAction: each argument a multi-action tool declares
// is taken by at least one of its actions (one that none takes would be
// refused on every call).
func TestEveryArgumentHasAnAction(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	c := tooltest.Call(set, tools)
	for _, d := range tools {
		s := d.Schema()
		for name, p := range s.Properties {
			if name == "action" {
				continue
			}
			taken := false
			for _, action := range s.Properties["action"].Enum {
				v := any("x")
				switch p.Type {
				case "integer":
					v = 1
				case "boolean":
					v = true
				case "array":
					v = []any{}
				case "object":
					v = map[string]any{}
				}
				if len(p.Enum) > 0 {
					v = p.Enum[0]
				}
				_, _, err := tooltest.Run(t, c, d, map[string]any{"action": action, name: v})
				fe, ok := errors.AsType[*problem.FieldError](err)
				if !ok || fe.Field != name || !strings.Contains(fe.Problem, "does not apply") {
					taken = true
					break
				}
			}
			if !taken {
				t.Errorf("%s: no action takes %s", d.Def.Name, name)
			}
		}
	}
}

// TestRecordItemsAreStrict: a misspelt key in a decision, a resolved error
// or the AI description is refused naming its argument, not dropped.
func TestRecordItemsAreStrict(t *testing.T) {
	d := tooltest.Find(t, Tools(), "session")
	for _, c := range []struct {
		args  string
		field string
	}{
		{`{"action": "update", "decisions": [{"decision": "use WAL", "reason": "readers"}]}`, "decisions"},
		{`{"action": "update", "errors_resolved": [{"error": "locked", "fixed": "busy timeout"}]}`, "errors_resolved"},
		{`{"action": "start", "ai": {"provider": "anthropic", "modle": "claude"}}`, "ai"},
	} {
		_, err := d.Bind(json.RawMessage(c.args))
		if !tooltest.Refused(err, c.field) {
			t.Errorf("%s: %v, want it refused naming %s", c.args, err, c.field)
		}
		fixed := strings.NewReplacer(`"reason"`, `"reasoning"`, `"fixed"`, `"fix"`, `"modle"`, `"model"`).Replace(c.args)
		if _, err := d.Bind(json.RawMessage(fixed)); err != nil {
			t.Errorf("%s: %v", fixed, err)
		}
	}
}

// TestPatch: what a session call records: text trimmed, an empty pending
// list kept (it clears the list) and an absent one left out.
func TestPatch(t *testing.T) {
	empty := tool.IDList{}
	in := SessionArgs{Outcome: " partial ", AI: &aiArg{Provider: " anthropic ", Model: "claude\n"},
		recordArgs: recordArgs{Decisions: []noteArg{{Decision: "WAL", Reasoning: "readers"}}, TasksPending: &empty}}
	p := in.patch()
	if p.Outcome != "partial" || p.AI.Provider != "anthropic" || p.AI.Model != "claude" {
		t.Errorf("patch %+v", p)
	}
	if p.TasksPending == nil || len(p.TasksPending) != 0 {
		t.Errorf("an empty tasks_pending became %#v, want an empty list", p.TasksPending)
	}
	if len(p.Decisions) != 1 || p.Decisions[0].Reasoning != "readers" {
		t.Errorf("decisions %+v", p.Decisions)
	}
	if (SessionArgs{}).patch().TasksPending != nil {
		t.Error("an absent tasks_pending is recorded")
	}
}
