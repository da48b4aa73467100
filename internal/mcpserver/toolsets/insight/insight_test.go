package insight

import (
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/mcpserver/toolsets/session"
	"github.com/cairn-dev/cairn/internal/service/insight"

	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "insight", Tools())
}

func TestShapes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	tooltest.Shapes(t, tooltest.Call(set, tools), tools, map[string]map[string]any{
		"model_recommend": {"task_type": "backend"},
	})
}

// TestFeedback: a rating lands on the agent's open session, given by the
// agent unless said otherwise; the same feedback given again is counted,
// and the user's, relayed, is feedback of its own.
func TestFeedback(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := slices.Concat(Tools(), session.Tools())
	c := tooltest.Call(set, tools)
	if _, _, err := tooltest.Run(t, c, tooltest.Find(t, tools, "session"), map[string]any{"action": "start", "goal": "ship login"}); err != nil {
		t.Fatal(err)
	}
	fb := tooltest.Find(t, tools, "feedback")
	_, out, err := tooltest.Run(t, c, fb, map[string]any{"rating": insight.Good, "tool": "memory_search"})
	if err != nil {
		t.Fatal(err)
	}
	o := out.(feedbackOut)
	if o.By != insight.ByAgent || o.Target != "memory_search" || o.Session == "" || o.Count != 1 {
		t.Errorf("first rating %+v", o)
	}
	text, out, err := tooltest.Run(t, c, fb, map[string]any{"rating": insight.Good, "tool": "memory_search"})
	if err != nil {
		t.Fatal(err)
	}
	if o := out.(feedbackOut); o.Count != 2 || !strings.Contains(text, "given 2 times") {
		t.Errorf("the same rating again %+v: %s", o, text)
	}
	_, out, err = tooltest.Run(t, c, fb, map[string]any{"rating": insight.Bad, "tool": "memory_search", "by": insight.ByPerson})
	if err != nil {
		t.Fatal(err)
	}
	if o := out.(feedbackOut); o.By != insight.ByPerson || o.Rating != insight.Bad || o.Count != 1 {
		t.Errorf("the user's rating %+v", o)
	}
}
