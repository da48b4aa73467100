package plan

import (
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "plan", Tools())
}

func TestShapes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	tooltest.Shapes(t, tooltest.Call(set, tools), tools, nil)
}
