package insight

import (
	"testing"

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
