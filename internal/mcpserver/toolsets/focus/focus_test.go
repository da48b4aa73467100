package focus

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service/focus"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "focus", Tools())
}

func TestShapes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	tooltest.Shapes(t, tooltest.Call(set, tools), tools, nil)
}

// TestNest: a window of the outline becomes a tree again; a task whose
// parent fell outside the window is a root that names its parent; the
// current task is marked, whatever its status.
func TestNest(t *testing.T) {
	e := func(id, parent task.ID, status task.Status) task.Entry {
		return task.Entry{Task: task.Task{ID: id, ParentID: parent, Title: "t" + id.String(), Status: status}}
	}
	// The window starts inside task 1's subtree: 1 itself is on the page before.
	page := []task.Entry{e(3, 1, task.StatusDone), e(4, 3, task.StatusPending), e(5, 0, task.StatusInProgress), e(6, 5, task.StatusInProgress)}
	roots := nest(page, 6, map[task.ID]string{5: "TEST"})
	if len(roots) != 2 || roots[0].TaskID != "3" || roots[1].TaskID != "5" {
		t.Fatalf("roots %+v, want 3 and 5", roots)
	}
	if roots[0].ParentID != "1" || roots[1].ParentID != "" {
		t.Errorf("root parents %q and %q, want 1 (outside the window) and none", roots[0].ParentID, roots[1].ParentID)
	}
	if len(roots[0].SubTasks) != 1 || roots[0].SubTasks[0].TaskID != "4" || roots[0].SubTasks[0].ParentID != "" {
		t.Errorf("3's subtasks %+v, want 4 nested without a parent id", roots[0].SubTasks)
	}
	cur := roots[1].SubTasks[0]
	if !cur.IsCurrent || cur.Status != "current" || roots[1].Phase != "TEST" {
		t.Errorf("current %+v, phase of 5 %q", cur, roots[1].Phase)
	}
	if roots[0].Status != "completed" || roots[0].SubTasks[0].Status != "pending" {
		t.Errorf("statuses %q, %q, want completed, pending", roots[0].Status, roots[0].SubTasks[0].Status)
	}
}

// TestPassedText names at most a few held tasks, and counts the rest.
func TestPassedText(t *testing.T) {
	if text, out := passedText(nil); text != "" || out != nil {
		t.Errorf("nothing passed over: %q %v", text, out)
	}
	until := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	var hs []focus.HeldTask
	for i := range passedShown + 2 {
		id := task.ID(i + 1)
		hs = append(hs, focus.HeldTask{Task: task.Task{ID: id, Title: "held"}, Claim: task.Claim{TaskID: id, Agent: "other", ExpiresAt: until}})
	}
	text, out := passedText(hs)
	if len(out) != passedShown || !strings.HasSuffix(text, ", 2 more.") {
		t.Errorf("passed %d, text %q", len(out), text)
	}
	if !slices.ContainsFunc(out, func(h heldOut) bool { return h.Agent == "other" && h.Until == "2026-03-01T10:00:00Z" }) {
		t.Errorf("held %+v", out)
	}
}
