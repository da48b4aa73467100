package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestCurrentTaskListsNearestLeft: an agent deep into a long batch of steps
// gets a YOU ARE HERE of the same size as on its first step: the open
// siblings to its left and the nearest closed ones, and how many more there
// are; list_siblings counts them all.
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

// TestListSiblingsPagesBackFromTheCurrentTask: list_siblings answers a page,
// not the whole level: by default the siblings nearest the current task, in
// position order, and a first line that says how many there are in all,
// which ones are shown and which offset shows the ones before; following
// next_offset walks back to the leftmost. A page with bodies is shorter.
func TestListSiblingsPagesBackFromTheCurrentTask(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	s.OK("create_new_task", newTask("Batch"))
	var ids []string
	for i := 1; i <= 30; i++ {
		body := fmt.Sprintf("notes of step %d", i)
		if i == 2 {
			body = strings.Repeat("a long report. ", 200) // 3,000 bytes
		}
		ids = append(ids, s.OK("create_new_task", args{"title": fmt.Sprintf("Step %d of the batch, with a title of a usual length", i), "body": body}).Str("task_id"))
		s.OK("complete_current_task", args{})
	}
	s.OK("create_new_task", newTask("Step 31"))

	// page reads a page's sibling ids, in order, and its next offset.
	page := func(r cairntest.Result) (got []string, next float64) {
		t.Helper()
		for _, x := range r.Structured["siblings"].([]any) {
			got = append(got, x.(map[string]any)["task_id"].(string))
		}
		next, _ = r.Structured["next_offset"].(float64)
		if r.Structured["count"] != float64(30) {
			t.Fatalf("count = %v, want 30 (every sibling to the left):\n%s", r.Structured["count"], r.Text)
		}
		if !strings.HasPrefix(r.Text, "30 to the left of the current task") {
			t.Fatalf("first line does not give the total:\n%s", r.Text)
		}
		return got, next
	}

	first := s.OK("list_siblings", args{})
	got, next := page(first)
	if strings.Join(got, ",") != strings.Join(ids[20:], ",") || next != 10 {
		t.Fatalf("first page: %v, next offset %v; want the 10 nearest, %v, and 10", got, next, ids[20:])
	}
	if line, _, _ := strings.Cut(first.Text, "\n"); line != "30 to the left of the current task; showing 21-30 from the leftmost; next offset 10 shows 11-20:" {
		t.Fatalf("first line: %q", line)
	}
	raw, _ := json.Marshal(first.Raw.StructuredContent)
	if len(first.Text) > 2000 || len(raw) > 2000 {
		t.Fatalf("the first page is %d bytes of text and %d of structured content, want at most 2,000 each:\n%s", len(first.Text), len(raw), first.Text)
	}

	// next_offset walks back to the leftmost; together the pages are the level.
	all := got
	for next != 0 {
		r := s.OK("list_siblings", args{"offset": next})
		offset := next
		got, next = page(r)
		if want := fmt.Sprintf("showing %d-%d from the leftmost", 30-int(offset)-len(got)+1, 30-int(offset)); !strings.Contains(r.Text, want) {
			t.Fatalf("page at offset %v says not %q:\n%s", offset, want, r.Text)
		}
		all = append(got, all...)
	}
	if strings.Join(all, ",") != strings.Join(ids, ",") {
		t.Fatalf("the pages hold %v, want %v", all, ids)
	}

	// Past the end: nothing, and how to start again.
	r := s.OK("list_siblings", args{"offset": 30})
	if got, next := page(r); len(got) != 0 || next != 0 || !strings.Contains(r.Text, "none at offset 30 (offset 0 shows the nearest)") {
		t.Fatalf("past the end: %v, next %v:\n%s", got, next, r.Text)
	}

	// With bodies, a shorter page; a long body is clipped, and says so.
	r = s.OK("list_siblings", args{"include_body": true})
	if got, next := page(r); strings.Join(got, ",") != strings.Join(ids[27:], ",") || next != 3 || !strings.Contains(r.Text, "notes of step 30") {
		t.Fatalf("a page with bodies: %v, next %v:\n%s", got, next, r.Text)
	}
	r = s.OK("list_siblings", args{"include_body": true, "offset": 27, "limit": 3})
	if got, next := page(r); strings.Join(got, ",") != strings.Join(ids[:3], ",") || next != 0 {
		t.Fatalf("the leftmost page with bodies: %v, next %v:\n%s", got, next, r.Text)
	}
	clipped := r.Structured["siblings"].([]any)[1].(map[string]any)
	if clipped["body_truncated"] != true || !strings.Contains(r.Text, "(body clipped at 2000 bytes; get_task "+ids[1]+" shows it whole)") {
		t.Fatalf("the 3,000-byte body: %v\n%s", clipped["body_truncated"], r.Text)
	}

	// A bad page is refused, naming the field and the fix.
	for _, c := range []struct {
		args args
		want string
	}{
		{args{"offset": -1}, "offset is negative: pass 0 or the next offset of the previous page"},
		{args{"limit": 51}, "limit is 51: pass a limit from 1 to 50"},
		{args{"limit": 51, "include_body": true}, "limit is 51: pass a limit from 1 to 50"},
	} {
		if r := s.Err("list_siblings", c.args); !strings.Contains(r.Text, c.want) {
			t.Errorf("list_siblings(%v): %s; want %q", c.args, r.Text, c.want)
		}
	}
}
