package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testutil/cairntest"
)

// TestTaskAnswersStaySmall: a task with hundreds of subtasks, or that
// hundreds of tasks wait on, is answered with twenty of each (the open ones
// first, then the latest closed) and a count of the rest, by get_task and by
// every subtask tool that answers with the parent; before, each add_subtask
// on a large parent answered with every subtask, and grew with each one.
func TestTaskAnswersStaySmall(t *testing.T) {
	t.Parallel()
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	p := s.OK("create_task", args{"title": "Parent with many steps"}).Str("id")
	var last cairntest.Result
	for i := 1; i <= 60; i++ {
		last = s.OK("add_subtask", args{"parentId": p, "title": fmt.Sprintf("step %d of the migration", i), "description": "a short note"})
	}
	for i := 1; i <= 57; i++ { // 3 stay open: 58, 59, 60
		s.OK("update_subtask", args{"subtaskId": fmt.Sprintf("%s.%d", p, i), "status": "done"})
	}
	base := s.OK("create_task", args{"title": "Shared base"}).Str("id")
	for i := 1; i <= 30; i++ {
		s.OK("create_task", args{"title": fmt.Sprintf("needs the base %d", i), "dependencies": []string{base}})
	}

	// The last add_subtask answered with 20 of 60, all open then.
	if n := len(last.Structured["parent"].(map[string]any)["subtasks"].([]any)); n != 20 {
		t.Errorf("add_subtask's answer lists %d subtasks, want 20", n)
	}
	if !strings.Contains(last.Text, "subtasks (20 of 60: 40 more, all open):") {
		t.Errorf("add_subtask's text does not count what it leaves out:\n%s", last.Text)
	}

	g := s.OK("get_task", args{"id": p})
	subs := g.Structured["subtasks"].([]any)
	var refs []string
	for _, x := range subs {
		refs = append(refs, x.(map[string]any)["ref"].(string))
	}
	// The three open ones, then the 17 latest done (41-57), in position order.
	var want []string
	for i := 41; i <= 60; i++ {
		want = append(want, fmt.Sprintf("%s.%d", p, i))
	}
	if strings.Join(refs, " ") != strings.Join(want, " ") {
		t.Errorf("get_task lists subtasks %v, want %v", refs, want)
	}
	if g.Structured["subtasksMore"] != float64(40) || !strings.Contains(g.Text, "subtasks (20 of 60: 40 more, all closed):") {
		t.Errorf("get_task does not count the subtasks it leaves out: %v\n%s", g.Structured["subtasksMore"], g.Text)
	}
	b := s.OK("get_task", args{"id": base})
	if n := len(b.Structured["dependents"].([]any)); n != 20 || b.Structured["dependentsMore"] != float64(10) ||
		!strings.Contains(b.Text, "dependents (20 of 30: 10 more, all open):") {
		t.Errorf("get_task lists %d dependents (more %v):\n%s", n, b.Structured["dependentsMore"], b.Text)
	}
	for _, r := range []cairntest.Result{last, g, b, s.OK("update_subtask", args{"subtaskId": p + ".58", "title": "step 58, renamed"})} {
		structured, _ := json.Marshal(r.Structured)
		t.Logf("answer: %d bytes of text, %d structured", len(r.Text), len(structured))
		if len(r.Text) > 2048 || len(structured) > 3072 {
			t.Errorf("an answer of %d bytes of text and %d structured, want about 2 KB:\n%s", len(r.Text), len(structured), r.Text)
		}
	}
	// The prompt of a task lists as many, with its counts.
	res, err := s.Session.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "task_context", Arguments: map[string]string{"taskId": p}})
	if err != nil {
		t.Fatal(err)
	}
	pr := res.Messages[0].Content.(*mcp.TextContent).Text
	if !strings.Contains(pr, "## Subtasks (57/60 complete)") || !strings.Contains(pr, "(40 more, all closed)") || strings.Count(pr, "\n- [") != 20 {
		t.Errorf("the task prompt:\n%s", pr)
	}
}
