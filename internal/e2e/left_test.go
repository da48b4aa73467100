package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testutil/cairntest"
)

// TestCurrentTaskListsNearestLeft: an agent deep into a long batch of steps
// gets a YOU ARE HERE of the same size as on its first step: the open
// siblings to its left and the nearest closed ones, and how many more there
// are; list_siblings still lists them all.
func TestCurrentTaskListsNearestLeft(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "all"}})
	batch := s.OK("create_new_task", newTask("Batch")).Str("task_id")
	setup := s.OK("create_new_task", newTask("Set up the fixtures")).Str("task_id")
	// The set-up step stays open, deferred so that focus never lands on it.
	s.OK("update_task", args{"id": setup, "status": "deferred"})
	s.OK("switch_focus", args{"task_id": batch})
	for i := 1; i <= 40; i++ {
		s.OK("create_new_task", newTask(fmt.Sprintf("Step %d of the batch, with a title of a usual length", i)))
		s.OK("complete_current_task", args{})
	}
	s.OK("create_new_task", newTask("Step 41"))

	r := s.OK("get_current_task", args{})
	left, _ := r.Structured["siblings_to_left"].([]any)
	var titles []string
	for _, l := range left {
		titles = append(titles, l.(map[string]any)["title"].(string))
	}
	if len(titles) != 6 || titles[0] != "Set up the fixtures" || !strings.HasPrefix(titles[5], "Step 40 ") || !strings.HasPrefix(titles[1], "Step 36 ") {
		t.Fatalf("siblings_to_left: %q", titles)
	}
	if more := r.Structured["more_to_left"]; more != float64(35) {
		t.Fatalf("more_to_left = %v, want 35", more)
	}
	if !strings.Contains(r.Text, "Set up the fixtures (deferred)") || !strings.Contains(r.Text, "; 35 more closed (list_siblings)") {
		t.Fatalf("YOU ARE HERE:\n%s", r.Text)
	}
	if n := len(r.Text); n > 1000 {
		t.Fatalf("YOU ARE HERE is %d bytes of text:\n%s", n, r.Text)
	}
	if all := s.OK("list_siblings", args{}); all.Structured["count"] != float64(41) {
		t.Fatalf("list_siblings count = %v, want 41", all.Structured["count"])
	}
}
