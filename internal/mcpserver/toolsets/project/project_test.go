package project

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/mcpserver/toolsets/evolution"
	"github.com/cairn-dev/cairn/internal/mcpserver/toolsets/focus"
	"github.com/cairn-dev/cairn/internal/mcpserver/toolsets/hands"
	"github.com/cairn-dev/cairn/internal/mcpserver/toolsets/insight"
	"github.com/cairn-dev/cairn/internal/mcpserver/toolsets/lifecycle"
	"github.com/cairn-dev/cairn/internal/mcpserver/toolsets/loops"
	"github.com/cairn-dev/cairn/internal/mcpserver/toolsets/memory"
	"github.com/cairn-dev/cairn/internal/mcpserver/toolsets/plan"
	"github.com/cairn-dev/cairn/internal/mcpserver/toolsets/session"
	"github.com/cairn-dev/cairn/internal/service/brief"
	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "context", slices.Concat(Tools(), ScaffoldTools()))
}

func TestShapes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := slices.Concat(Tools(), ScaffoldTools())
	tooltest.Shapes(t, tooltest.Call(set, tools), tools, map[string]map[string]any{
		"scaffold": {"dry_run": true}, // every level, nothing written
	})
}

// every is every tool a server can serve, whichever toolset declares it.
func every() []tool.Tool {
	return slices.Concat(focus.Tools(), plan.Tools(), loops.Tools(), memory.Tools(), session.Tools(), Tools(),
		lifecycle.Tools(), insight.Tools(), hands.Tools(), evolution.Tools(), ScaffoldTools())
}

// TestSuggestionsAreCalls: every kind of next step the brief service
// suggests is worded as a call of a tool that exists, with arguments its
// schema takes once the agent fills in what the suggestion says it needs.
func TestSuggestionsAreCalls(t *testing.T) {
	tools := every()
	for _, kind := range brief.SuggestKinds {
		sg, ok := suggestionOf(brief.Suggestion{Kind: kind, Why: "because", TaskID: "3", LoopID: "4", Goal: "ship it", Title: "a slip"})
		if !ok {
			t.Errorf("suggestion %s is not worded as a call", kind)
			continue
		}
		i := slices.IndexFunc(tools, func(d tool.Tool) bool { return d.Def.Name == sg.Tool })
		if i < 0 {
			t.Errorf("suggestion %s calls %s, which no toolset declares", kind, sg.Tool)
			continue
		}
		args := map[string]any{}
		for k, v := range sg.Arguments {
			args[k] = v
		}
		for _, n := range sg.Needs {
			if _, dup := args[n]; dup {
				t.Errorf("suggestion %s fills %s and says it needs it", kind, n)
			}
			args[n] = "filled in by the agent"
		}
		raw, _ := json.Marshal(args)
		if _, err := tools[i].Bind(raw); err != nil {
			t.Errorf("suggestion %s: %s %s is refused: %v", kind, sg.Tool, raw, err)
		}
	}
	if _, ok := suggestionOf(brief.Suggestion{Kind: "no-such-kind"}); ok {
		t.Error("an unknown kind is worded as a call")
	}
}

// TestSuggestNextNamesWhereAToolIs: a suggested tool the server does not
// serve says which toolset has it.
func TestSuggestNextNamesWhereAToolIs(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools() // the plan and focus toolsets are not served
	text, out, err := tooltest.Run(t, tooltest.CallServing(set, tools, every()), tooltest.Find(t, tools, "suggest_next"), nil)
	if err != nil {
		t.Fatal(err)
	}
	o := out.(suggestionsOut)
	if len(o.Suggestions) == 0 {
		t.Fatalf("nothing suggested on an empty plan: %s", text)
	}
	for _, sg := range o.Suggestions {
		ts := tooltest.Find(t, every(), sg.Tool).Toolset
		if sg.NotServed != "in the "+ts+" toolset: enable it with the toolsets tool" {
			t.Errorf("%s is not served, and the suggestion does not say so: %s", sg.Tool, text)
		}
	}
}
