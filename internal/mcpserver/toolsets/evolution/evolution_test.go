package evolution

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/evolution"
	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "evolution", Tools())
}

func TestShapes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	tooltest.Shapes(t, tooltest.Call(set, tools), tools, nil)
}

// TestDraftLifecycle: a draft written by hand is listed as a draft; once
// rejected it is listed under rejected and no longer under draft.
func TestDraftLifecycle(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	c := tooltest.Call(set, tools)
	_, out, err := tooltest.Run(t, c, tooltest.Find(t, tools, "draft_create"),
		map[string]any{"kind": evolution.Kinds[0], "title": "Run the linter first", "content": "Run golangci-lint before the tests.\n"})
	if err != nil {
		t.Fatal(err)
	}
	d, ok := out.(render.DraftView)
	if !ok || d.ID == "" || d.Status != evolution.StatusDraft {
		t.Fatalf("draft_create answered %s", tooltest.Text(out))
	}
	listed := func(status string) bool {
		_, out, err := tooltest.Run(t, c, tooltest.Find(t, tools, "draft_list"), map[string]any{"status": status})
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(tooltest.Text(out), `"id":"`+d.ID+`"`)
	}
	if !listed(evolution.StatusDraft) || listed(evolution.StatusRejected) {
		t.Errorf("a new draft: listed as draft %v, as rejected %v", listed(evolution.StatusDraft), listed(evolution.StatusRejected))
	}
	if _, _, err := tooltest.Run(t, c, tooltest.Find(t, tools, "draft_reject"), map[string]any{"id": d.ID, "reason": "we lint in CI"}); err != nil {
		t.Fatal(err)
	}
	if listed(evolution.StatusDraft) || !listed(evolution.StatusRejected) {
		t.Errorf("a rejected draft: listed as draft %v, as rejected %v", listed(evolution.StatusDraft), listed(evolution.StatusRejected))
	}
}
