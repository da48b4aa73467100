package memory

import (
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "memory", Tools())
}

func TestShapes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	tooltest.Shapes(t, tooltest.Call(set, tools), tools, nil)
}

// TestClipEntry: texts clip at n bytes, lists at items items, each item at
// n bytes, and the entry the store gave is left as it was.
func TestClipEntry(t *testing.T) {
	long := strings.Repeat("x", 40)
	files := []string{"a.go", long, "c.go", "d.go"}
	e := memory.Entry{Content: long, Fix: "short", Files: files, Facts: []string{"one"}}
	got, clipped := clipEntry(e, 10, 3)
	if !clipped {
		t.Error("not reported clipped")
	}
	if len(got.Content) > 10+len("…") || got.Fix != "short" {
		t.Errorf("content %q, fix %q", got.Content, got.Fix)
	}
	if len(got.Files) != 3 || len(got.Files[1]) > 10+len("…") || got.Files[0] != "a.go" {
		t.Errorf("files %q", got.Files)
	}
	if files[1] != long || len(e.Files) != 4 {
		t.Errorf("the entry's own files changed: %q", files)
	}
	if _, clipped := clipEntry(memory.Entry{Content: "fits", Facts: []string{"a", "b"}}, 10, 3); clipped {
		t.Error("an entry that fits is reported clipped")
	}
}

// TestObservationTypes: the observation tool offers exactly the types that
// are observations, each of which it records.
func TestObservationTypes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	c := tooltest.Call(set, tools)
	offered := observationTypes()
	for _, ty := range memory.Types {
		if slices.Contains(offered, any(string(ty))) != ty.Observation() {
			t.Errorf("type %s: offered %v, an observation %v", ty, slices.Contains(offered, any(string(ty))), ty.Observation())
		}
	}
	for _, ty := range offered {
		_, out, err := tooltest.Run(t, c, tooltest.Find(t, tools, "observation"), map[string]any{"type": ty, "title": "seen " + ty.(string), "content": "it was so"})
		if err != nil {
			t.Errorf("observation type %s: %v", ty, err)
			continue
		}
		if !strings.Contains(tooltest.Text(out), `"type":"`+ty.(string)+`"`) {
			t.Errorf("observation type %s recorded %s", ty, tooltest.Text(out))
		}
	}
}
