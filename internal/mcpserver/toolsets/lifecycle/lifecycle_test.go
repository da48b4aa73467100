package lifecycle

import (
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "lifecycle", Tools())
}

func TestShapes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	tooltest.Shapes(t, tooltest.Call(set, tools), tools, nil)
}

// TestWithoutLifecycles: a project without the lifecycles service answers
// each lifecycle tool with an Unavailable refusal, not a crash.
func TestWithoutLifecycles(t *testing.T) {
	set, _ := tooltest.Services(t)
	set.Lifecycles = nil
	tools := Tools()
	c := tooltest.Call(set, tools)
	if _, err := RequireLifecycles(c); !problem.Is(err, problem.Unavailable) {
		t.Errorf("RequireLifecycles: %v", err)
	}
	for _, d := range tools {
		args := map[string]any{}
		for _, r := range d.Schema().Required {
			args[r] = "1"
		}
		if _, _, err := tooltest.Run(t, c, d, args); !problem.Is(err, problem.Unavailable) {
			t.Errorf("%s: %v, want Unavailable", d.Def.Name, err)
		}
	}
}
