package hands

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "hands", Tools())
}

// TestEveryCheckHasItsTool: each check of the hands service has a tool,
// and that tool runs that check (not another one's): inline content is
// read by the check the tool names, and by no other.
func TestEveryCheckHasItsTool(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	c := tooltest.Call(set, tools)
	named := map[string]bool{}
	for _, k := range hands.Kinds {
		name := ToolOf(k.Check)
		if name == "" {
			t.Errorf("check %s has no tool", k.Check)
			continue
		}
		if named[name] {
			t.Errorf("%s runs two checks", name)
		}
		named[name] = true
		_, out, err := tooltest.Run(t, c, tooltest.Find(t, tools, name), map[string]any{"content": "x = 1\n"})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		v, ok := out.(render.CheckView)
		if !ok {
			t.Fatalf("%s answers %T", name, out)
		}
		if !slices.Equal(v.Checks, []string{k.Check}) || v.Inline != k.Inline {
			t.Errorf("%s ran %v over %q, want [%s] over %q", name, v.Checks, v.Inline, k.Check, k.Inline)
		}
	}
	if len(checkTools) != len(hands.Kinds) {
		t.Errorf("checkTools names %d tools for %d checks", len(checkTools), len(hands.Kinds))
	}
}

func TestShapes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	tooltest.Shapes(t, tooltest.Call(set, tools), tools, map[string]map[string]any{
		"ci_diff_check": {"diff": "--- a/x.go\n+++ b/x.go\n@@ -0,0 +1 @@\n+package x\n"},
	})
}

// TestCheckParams: a check gets its own params, as strings, and not the
// arguments every hands tool shares; a param left empty is not passed.
func TestCheckParams(t *testing.T) {
	js := 12.5
	for _, c := range []struct {
		in   any
		want map[string]string
	}{
		{sqlArgs{checkArgs: checkArgs{Path: "db", Content: "select 1", Name: "q.sql", Offset: 2, Limit: 3}, Dialect: "postgres"},
			map[string]string{"dialect": "postgres"}},
		{perfArgs{JSBudget: &js}, map[string]string{"js_budget": "12.5"}},
		{secretsArgs{Scope: "  ", Allow: "vendor/**"}, map[string]string{"allow": "vendor/**"}},
		{mermaidArgs{checkArgs{Path: "docs"}}, map[string]string{}},
	} {
		if diff := cmp.Diff(c.want, checkParams(c.in)); diff != "" {
			t.Errorf("checkParams(%+v) (-want +got):\n%s", c.in, diff)
		}
	}
}

func TestSplitOnly(t *testing.T) {
	if got := splitOnly(" sql, ,mermaid ,"); !slices.Equal(got, []string{"sql", "mermaid"}) {
		t.Errorf("splitOnly = %q", got)
	}
	if got := splitOnly(""); got != nil {
		t.Errorf("splitOnly(\"\") = %q, want nil (every check)", got)
	}
}
