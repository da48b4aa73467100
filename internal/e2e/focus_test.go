// Package e2e drives the real cairn binary over real stdio with the official
// Go MCP SDK client.
package e2e

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

type args = map[string]any

func newTask(title string) args { return args{"title": title, "body": ""} }

func wantZen(t *testing.T, s *cairntest.Server) {
	t.Helper()
	r := s.OK("get_current_task", args{})
	if r.Structured["zen"] != true {
		t.Fatalf("want zen, got current task %v", r.Structured)
	}
	if strings.Contains(cairntest.BigPicture(t, s), "YOU ARE HERE") {
		t.Fatalf("zen big picture marks a task:\n%s", cairntest.BigPicture(t, s))
	}
}

// onEachStore runs f on the embedded default (a project directory of its
// own) and on PostgreSQL (a project of its own in the test database): o is
// what to start cairn serve with.
func onEachStore(t *testing.T, f func(t *testing.T, o cairntest.Options)) {
	t.Run("sqlite", func(t *testing.T) { f(t, cairntest.Options{Dir: cairntest.Project(t)}) })
	t.Run("postgres", func(t *testing.T) {
		project := strings.ReplaceAll(pgtest.Project(t), "/", "-")
		f(t, cairntest.Options{Dir: cairntest.Project(t), Env: []string{"CAIRN_DATABASE_URL=" + pgtest.URL(t), "CAIRN_PROJECT=" + project}})
	})
}

// TestScenario plays the focus specification's 10-step use case, on each
// store.
func TestScenario(t *testing.T) {
	onEachStore(t, testScenario)
}

func testScenario(t *testing.T, o cairntest.Options) {
	s := cairntest.Start(t, o)
	wantZen(t, s)

	s.OK("create_new_task", newTask("Design new feature")) // 1
	cairntest.WantCurrent(t, s, "Design new feature")
	s.OK("create_new_task", newTask("Research requirements")) // 2
	cairntest.WantCurrent(t, s, "Research requirements")
	s.OK("create_new_task", newTask("Interview users")) // 3
	cairntest.WantCurrent(t, s, "Interview users")
	s.OK("extend_current_task", newTask("Analyze competitor solutions")) // 4
	cairntest.WantCurrent(t, s, "Analyze competitor solutions")

	// Each task took focus as it was made: each is in progress.
	const mid = `[1] Design new feature (in-progress)
  [2] Research requirements (in-progress)
    [3] Interview users (in-progress)
    [4] Analyze competitor solutions (current) <-- YOU ARE HERE`
	if got := cairntest.BigPicture(t, s); got != mid {
		t.Fatalf("big picture after step 4:\n%s\nwant:\n%s", got, mid)
	}

	s.OK("complete_current_task", args{}) // 5: focus moves left
	cairntest.WantCurrent(t, s, "Interview users")
	s.OK("complete_current_task", args{}) // 6: back to the parent
	cairntest.WantCurrent(t, s, "Research requirements")
	s.OK("complete_current_task", args{}) // 7
	cairntest.WantCurrent(t, s, "Design new feature")
	s.OK("extend_current_task", newTask("Create specification")) // 8
	cairntest.WantCurrent(t, s, "Create specification")
	s.OK("complete_current_task", args{}) // 9: focus moves left
	cairntest.WantCurrent(t, s, "Design new feature")
	r := s.OK("complete_current_task", args{}) // 10: zen
	if r.Structured["zen"] != true {
		t.Fatalf("step 10: want zen, got %v", r.Structured)
	}
	wantZen(t, s)

	const end = `[1] Design new feature (completed)
  [2] Research requirements (completed)
    [3] Interview users (completed)
    [4] Analyze competitor solutions (completed)
[5] Create specification (completed)
(all tasks completed: zen)`
	if got := cairntest.BigPicture(t, s); got != end {
		t.Fatalf("living document at the end:\n%s\nwant:\n%s", got, end)
	}

	// The archive, in both orders.
	titles := func(order string) []string {
		r := s.OK("get_completed_tasks", args{"order": order})
		var out []string
		for _, x := range r.Structured["tasks"].([]any) {
			out = append(out, x.(map[string]any)["title"].(string))
		}
		if int(r.Structured["count"].(float64)) != 5 {
			t.Fatalf("count = %v, want 5", r.Structured["count"])
		}
		return out
	}
	chrono := []string{"Analyze competitor solutions", "Interview users", "Research requirements", "Create specification", "Design new feature"}
	if got := titles("chronological"); strings.Join(got, "|") != strings.Join(chrono, "|") {
		t.Fatalf("chronological = %q, want %q", got, chrono)
	}
	for i, j := 0, len(chrono)-1; i < j; i, j = i+1, j-1 {
		chrono[i], chrono[j] = chrono[j], chrono[i]
	}
	if got := titles("logical"); strings.Join(got, "|") != strings.Join(chrono, "|") {
		t.Fatalf("logical = %q, want %q", got, chrono)
	}

	// In zen, extending is an error and creating starts a new root.
	s.Err("extend_current_task", newTask("nope"))
	s.OK("create_new_task", newTask("Next feature"))
	cairntest.WantCurrent(t, s, "Next feature")
}

func TestTitleLimit(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	s.OK("create_new_task", newTask(strings.Repeat("é", 256)))
	r := s.Err("create_new_task", newTask(strings.Repeat("x", 257)))
	if !strings.Contains(r.Text, "title") || !strings.Contains(r.Text, "257") {
		t.Fatalf("error should name the field and the length: %s", r.Text)
	}
	if got := s.OK("get_stack_overview", args{}).Structured["count"]; got != float64(1) {
		t.Fatalf("a refused create changed the store: %v tasks", got)
	}
}

func TestParentRule(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	parent := s.OK("create_new_task", newTask("parent")).Str("task_id")
	child := s.OK("create_new_task", newTask("child")).Str("task_id")
	s.OK("switch_focus", args{"task_id": parent})
	r := s.Err("complete_current_task", args{})
	if r.Structured["reason"] != "open_children" || !strings.Contains(r.Text, "child") {
		t.Fatalf("want open_children naming the child, got %s", r.Text)
	}
	cairntest.WantCurrent(t, s, "parent") // nothing changed
	s.OK("switch_focus", args{"task_id": child})
	s.OK("complete_current_task", args{})
	cairntest.WantCurrent(t, s, "parent")
	s.OK("complete_current_task", args{})
	wantZen(t, s)
	// Completion is permanent: a completed task cannot take focus again.
	if r := s.Err("switch_focus", args{"task_id": parent}); r.Structured["reason"] != "closed" {
		t.Fatalf("switch to completed: %s", r.Text)
	}
}

func TestSwitchFocus(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	a := s.OK("create_new_task", newTask("A")).Str("task_id")
	s.OK("create_new_task", newTask("A.1"))
	s.OK("extend_current_task", newTask("A.2"))
	r := s.OK("switch_focus", args{"task_id": a})
	if r.Str("previous_task_id") == "" || r.Structured["success"] != true {
		t.Fatalf("switch result: %v", r.Structured)
	}
	cairntest.WantCurrent(t, s, "A")
	// A number is accepted for an id, and an unknown id is a clear error.
	s.OK("switch_focus", args{"task_id": 2})
	cairntest.WantCurrent(t, s, "A.1")
	s.OK("switch_focus", args{"task_id": a + ".2"}) // the plan's subtask form names the same task
	cairntest.WantCurrent(t, s, "A.2")
	s.OK("switch_focus", args{"task_id": 2})
	r = s.Err("switch_focus", args{"task_id": "999"})
	if r.Structured["code"] != float64(-32000) || !strings.Contains(r.Text, "999") {
		t.Fatalf("unknown id: %s", r.Text)
	}
	cairntest.WantCurrent(t, s, "A.1")
	// Peek: the parent and the sibling before; list_siblings: the left side.
	s.OK("switch_focus", args{"task_id": "3"})
	p := s.OK("peek_context", args{"include_body": true})
	if p.Structured["parent_context"].(map[string]any)["title"] != "A" ||
		p.Structured["immediate_context"].(map[string]any)["title"] != "A.1" {
		t.Fatalf("peek_context: %v", p.Structured)
	}
	if l := s.OK("list_siblings", args{}); l.Structured["count"] != float64(1) {
		t.Fatalf("list_siblings: %v", l.Structured)
	}
}

func TestRemoveKeepsArchive(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	root := s.OK("create_new_task", newTask("root")).Str("task_id")
	s.OK("create_new_task", newTask("done child"))
	s.OK("complete_current_task", args{})
	s.OK("create_new_task", newTask("open child"))
	r := s.OK("remove_task", args{"task_id": root})
	if r.Structured["removed"] != float64(3) || r.Structured["archived_kept"] != float64(1) {
		t.Fatalf("remove: %v", r.Structured)
	}
	wantZen(t, s)
	if got := s.OK("get_stack_overview", args{}).Structured["count"]; got != float64(0) {
		t.Fatalf("removed tasks still visible: %v", got)
	}
	c := s.OK("get_completed_tasks", args{})
	if c.Structured["count"] != float64(1) || !strings.Contains(c.Text, "done child") {
		t.Fatalf("archive lost the removed completed task: %s", c.Text)
	}
	s.Err("remove_task", args{"task_id": root}) // already gone
}

func TestUpdateAndPersistAcrossRestart(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir})
	s.OK("create_new_task", newTask("persist me"))
	s.OK("update_current_task", args{"body": "notes: β"})
	s.OK("create_new_task", newTask("and me"))
	s.OK("complete_current_task", args{})
	before := cairntest.BigPicture(t, s)
	s.Close()

	s2 := cairntest.Start(t, cairntest.Options{Dir: dir})
	if after := cairntest.BigPicture(t, s2); after != before {
		t.Fatalf("after restart:\n%s\nbefore:\n%s", after, before)
	}
	r := s2.OK("get_current_task", args{})
	if r.Str("title") != "persist me" || r.Str("body") != "notes: β" {
		t.Fatalf("current after restart: %v", r.Structured)
	}
	if c := s2.OK("get_completed_tasks", args{}); c.Structured["count"] != float64(1) {
		t.Fatalf("archive after restart: %v", c.Structured)
	}
}

func TestAgentsKeepTheirOwnFocus(t *testing.T) {
	onEachStore(t, func(t *testing.T, o cairntest.Options) {
		a := cairntest.Start(t, cairntest.Options{Dir: o.Dir, Env: o.Env, Args: []string{"--agent", "alice"}})
		b := cairntest.Start(t, cairntest.Options{Dir: o.Dir, Env: append(o.Env, "CAIRN_AGENT=bob")})
		testAgentsKeepTheirOwnFocus(t, a, b)
	})
}

func testAgentsKeepTheirOwnFocus(t *testing.T, a, b *cairntest.Server) {
	a.OK("create_new_task", newTask("alice's task"))
	b.OK("create_new_task", newTask("bob's task")) // bob starts from the fallback: alice's open task
	b.OK("switch_focus", args{"task_id": "2"})
	a.OK("create_new_task", newTask("alice deeper"))
	cairntest.WantCurrent(t, a, "alice deeper")
	cairntest.WantCurrent(t, b, "bob's task")
}

func TestNoProject(t *testing.T) {
	dir := t.TempDir() // no .cairn, no .git
	s := cairntest.Start(t, cairntest.Options{Dir: dir})
	r := s.Err("get_current_task", args{})
	if r.Structured["code"] != float64(-32002) || !strings.Contains(r.Text, "cairn init") || !strings.Contains(r.Text, "CAIRN_PROJECT_ROOT") {
		t.Fatalf("no project: %s", r.Text)
	}
	// With the root given in the environment, it works.
	s2 := cairntest.Start(t, cairntest.Options{Dir: dir, Env: []string{"CAIRN_PROJECT_ROOT=" + dir}})
	s2.OK("create_new_task", newTask("works"))
}
