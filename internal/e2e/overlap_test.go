package e2e

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestCreateTaskUnderParent: create_task takes a parent as well as
// dependencies (create_new_task's parent is the current task), with
// add_subtask's checks, in one write: a bad parent or dependency changes
// nothing.
func TestCreateTaskUnderParent(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	ci := s.OK("create_task", args{"title": "Set up CI"}).Str("id")
	img := s.OK("create_task", args{"title": "Pick an image"}).Str("id")
	r := s.OK("create_task", args{"title": "Write the workflow", "parentId": ci, "dependencies": []string{img}})
	if !strings.Contains(r.Text, "Write the workflow") {
		t.Fatalf("create_task under a parent: %s", r.Text)
	}
	got := s.OK("get_task", args{"id": ci})
	if !strings.Contains(got.Text, "Write the workflow") {
		t.Errorf("the parent does not list its new subtask: %s", got.Text)
	}
	sub := s.OK("get_task", args{"id": r.Str("id")})
	if !strings.Contains(sub.Text, "Pick an image") {
		t.Errorf("the subtask lacks its dependency: %s", sub.Text)
	}
	before := s.OK("get_stack_overview", nil).Text
	if e := s.Err("create_task", args{"title": "Orphan", "parentId": "99"}); !strings.Contains(e.Text, "task 99 not found") {
		t.Errorf("a missing parent: %s", e.Text)
	}
	if e := s.Err("create_task", args{"title": "Blocked", "parentId": ci, "dependencies": []string{"98"}}); !strings.Contains(e.Text, "98") {
		t.Errorf("a missing dependency: %s", e.Text)
	}
	if after := s.OK("get_stack_overview", nil).Text; after != before {
		t.Errorf("a refused create_task changed the plan:\n%s\n---\n%s", before, after)
	}
}
