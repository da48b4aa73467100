package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// newPlan makes the six tasks of a fresh plan through create_task: 3
// depends on 2, 5 on 1, 3 and 4, 6 on 5.
func newPlan(t *testing.T, s *cairntest.Server) {
	t.Helper()
	for _, c := range []args{
		{"title": "Set up CI"},
		{"title": "Write schema"},
		{"title": "Migrate data", "dependencies": []string{"2"}},
		{"title": "Write docs"},
		{"title": "Release build", "dependencies": []string{"1", "3", "4"}},
		{"title": "Deploy to staging", "dependencies": []string{"5"}},
	} {
		s.OK("create_task", c)
	}
}

// TestNewPlanIsZen: an agent that never took focus is in zen, and is told
// what get_next_task would give and how to start it, instead of being put
// at the end of the plan.
func TestNewPlanIsZen(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	newPlan(t, s)

	r := s.OK("get_current_task", args{})
	if r.Structured["zen"] != true || strings.Contains(r.Text, "YOU ARE HERE") {
		t.Fatalf("get_current_task on a new plan: want zen, got:\n%s", r.Text)
	}
	for _, want := range []string{"[1] Set up CI", "switch_focus"} {
		if !strings.Contains(r.Text, want) {
			t.Fatalf("zen answer lacks %q:\n%s", want, r.Text)
		}
	}
	if r.Str("next_task_id") != "1" {
		t.Fatalf("zen answer's next_task_id = %v, want 1", r.Structured)
	}
	if bp := cairntest.BigPicture(t, s); strings.Contains(bp, "YOU ARE HERE") || strings.Contains(bp, "all tasks completed") {
		t.Fatalf("big picture of a new plan:\n%s", bp)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p, err := s.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "session_restore"})
	if err != nil {
		t.Fatal(err)
	}
	text := p.Messages[0].Content.(*mcp.TextContent).Text
	if strings.Contains(text, "YOU ARE HERE\n[6]") || !strings.Contains(text, "Zen") {
		t.Fatalf("session_restore puts the agent at the end of the plan:\n%s", text)
	}
	if !strings.Contains(text, "[1] Set up CI") {
		t.Fatalf("session_restore lacks the next task:\n%s", text)
	}

	// create_new_task in zen starts a root task, not a child of task 6.
	c := s.OK("create_new_task", newTask("Spike"))
	if c.Str("parent_id") != "" {
		t.Fatalf("create_new_task in zen made a child of %s", c.Str("parent_id"))
	}
}

// TestCompleteRefusesOpenDependencies: no tool marks a task done while a
// task it depends on is open, unless force is given.
func TestCompleteRefusesOpenDependencies(t *testing.T) {
	onEachStore(t, testCompleteRefusesOpenDependencies)
}

func testCompleteRefusesOpenDependencies(t *testing.T, o cairntest.Options) {
	s := cairntest.Start(t, o)
	newPlan(t, s)

	s.OK("switch_focus", args{"task_id": "6"})
	e := s.Err("complete_current_task", args{})
	for _, want := range []string{"[5] Release build", "force"} {
		if !strings.Contains(e.Text, want) {
			t.Fatalf("complete_current_task refusal lacks %q:\n%s", want, e.Text)
		}
	}
	e = s.Err("update_task", args{"id": "6", "status": "done"})
	if !strings.Contains(e.Text, "[5] Release build") || !strings.Contains(e.Text, "force") {
		t.Fatalf("update_task refusal:\n%s", e.Text)
	}
	e = s.Err("create_task", args{"title": "Done already", "status": "done", "dependencies": []string{"5"}})
	if !strings.Contains(e.Text, "[5] Release build") {
		t.Fatalf("create_task refusal:\n%s", e.Text)
	}
	// In progress since switch_focus; the refusals left it so.
	if got := s.OK("get_task", args{"id": "6"}).Str("status"); got != "in-progress" {
		t.Fatalf("task 6 is %s after refused completions", got)
	}
	if n := s.OK("get_completed_tasks", args{}).Structured["count"]; n != float64(0) {
		t.Fatalf("refused completions archived %v tasks", n)
	}

	// Cancelled dependencies do not hold a task back.
	s.OK("update_task", args{"id": "2", "status": "cancelled"})
	s.OK("update_task", args{"id": "3", "status": "done"})

	// force completes anyway, and says so.
	r := s.OK("complete_current_task", args{"force": true})
	if !strings.Contains(r.Text, "Completed [6]") {
		t.Fatalf("forced completion: %s", r.Text)
	}
	s.OK("update_task", args{"id": "5", "status": "done", "force": true})
}

// TestFocusSearchLandsOnReadyTask: when completion leaves no open sibling
// and no open parent, the search from the end of the outline skips tasks
// that cannot be worked on now.
func TestFocusSearchLandsOnReadyTask(t *testing.T) {
	onEachStore(t, testFocusSearchLandsOnReadyTask)
}

func testFocusSearchLandsOnReadyTask(t *testing.T, o cairntest.Options) {
	s := cairntest.Start(t, o)
	s.OK("create_task", args{"title": "Someday", "status": "deferred"})         // 1
	s.OK("create_task", args{"title": "Stuck", "status": "blocked"})            // 2
	s.OK("create_task", args{"title": "Set up CI"})                             // 3
	s.OK("create_task", args{"title": "Deploy", "dependencies": []string{"3"}}) // 4: waits on 3
	s.OK("create_new_task", newTask("Quick fix"))                               // 5, focused
	r := s.OK("complete_current_task", args{})
	if r.Str("current_task_id") != "3" {
		t.Fatalf("after completing 5, focus = %v, want 3 (1 is deferred, 2 blocked, 4 waits on 3)\n%s", r.Structured, r.Text)
	}
	r = s.OK("complete_current_task", args{})
	if r.Str("current_task_id") != "4" {
		t.Fatalf("after completing 3, focus = %v, want 4, now ready", r.Structured)
	}
	r = s.OK("complete_current_task", args{})
	if r.Structured["zen"] != true || !strings.Contains(r.Text, "2 open") {
		t.Fatalf("with only deferred and blocked tasks left: want zen naming what is open, got %s", r.Text)
	}
}

// TestStdioAgentsFromClientName: two stdio clients with different names on
// one project each keep their own YOU ARE HERE; --agent (or CAIRN_AGENT)
// overrides the client's name.
func TestStdioAgentsFromClientName(t *testing.T) {
	dir := cairntest.Project(t)
	a := cairntest.Start(t, cairntest.Options{Dir: dir, ClientName: "editor-a"})
	b := cairntest.Start(t, cairntest.Options{Dir: dir, ClientName: "editor-b"})

	a.OK("create_new_task", newTask("A's work"))
	r := b.OK("get_current_task", args{})
	if r.Structured["zen"] != true || r.Str("agent") != "editor-b" || !strings.Contains(r.Text, "editor-b") {
		t.Fatalf("editor-b sees another client's focus: %v", r.Structured)
	}
	b.OK("create_new_task", newTask("B's work"))
	r = a.OK("get_current_task", args{})
	if r.Str("title") != "A's work" || r.Str("agent") != "editor-a" || !strings.Contains(r.Text, "agent editor-a") {
		t.Fatalf("editor-a's focus moved: %v\n%s", r.Structured, r.Text)
	}
	if r := b.OK("get_current_task", args{}); r.Str("title") != "B's work" || r.Str("agent") != "editor-b" {
		t.Fatalf("editor-b: %v", r.Structured)
	}

	// --agent and CAIRN_AGENT name the agent whatever the client says.
	c := cairntest.Start(t, cairntest.Options{Dir: dir, ClientName: "editor-c", Args: []string{"--agent", "editor-a"}})
	if r := c.OK("get_current_task", args{}); r.Str("title") != "A's work" {
		t.Fatalf("--agent editor-a: %v", r.Structured)
	}
	d := cairntest.Start(t, cairntest.Options{Dir: dir, ClientName: "editor-d", Env: []string{"CAIRN_AGENT=editor-b"}})
	if r := d.OK("get_current_task", args{}); r.Str("title") != "B's work" {
		t.Fatalf("CAIRN_AGENT=editor-b: %v", r.Structured)
	}
}

// runCairn runs the real binary with args in dir and returns its stdout.
func runCairn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command(cairntest.Binary(t), args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CAIRN_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("cairn %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// TestImportIDsAndFiles: an import says which Cairn id each task of the
// file became, the task remembers its file id, skipped dependencies say
// whose numbering they use, and a second file never updates the first
// file's tasks.
func TestImportIDsAndFiles(t *testing.T) {
	dir := cairntest.Project(t)
	if help := runCairn(t, dir, "import", "--help"); strings.Contains(help, "Ids,") || !strings.Contains(help, "file id → Cairn id") {
		t.Fatalf("import --help:\n%s", help)
	}
	a := filepath.Join(dir, ".taskmaster", "tasks", "tasks.json")
	os.MkdirAll(filepath.Dir(a), 0o755)
	os.WriteFile(a, []byte(`{"master": {"tasks": [
		{"id": 1, "title": "Scaffold", "subtasks": [{"id": 1, "title": "go mod init"}, {"id": 2, "title": "CI"}]},
		{"id": 2, "title": "Schema"},
		{"id": 3, "title": "API", "dependencies": [2, 42]},
		{"id": 4, "title": "Someday", "status": "deferred"}]}}`), 0o644)
	out := runCairn(t, dir, "import", a)
	for _, want := range []string{"file id → Cairn id", "3 → 5", "1.2 → 3", "file task 3 depends on file task 42: not in the file"} {
		if !strings.Contains(out, want) {
			t.Fatalf("import output lacks %q:\n%s", want, out)
		}
	}
	// The file id is on the task, for people and for agents.
	if show := runCairn(t, dir, "show", "5"); !strings.Contains(show, "imported from .taskmaster/tasks/tasks.json (taskmaster:master) task 3") {
		t.Fatalf("cairn show 5:\n%s", show)
	}
	s := cairntest.Start(t, cairntest.Options{Dir: dir})
	if g := s.OK("get_task", args{"id": "5"}); !strings.Contains(g.Text, "imported from .taskmaster/tasks/tasks.json (taskmaster:master) task 3") {
		t.Fatalf("get_task 5:\n%s", g.Text)
	}
	// After an import the agent is in zen, pointed at the next task, not
	// at the deferred task at the end of the file.
	if r := s.OK("get_current_task", args{}); r.Structured["zen"] != true || r.Str("next_task_id") != "2" {
		t.Fatalf("focus after import: %v", r.Structured)
	}

	// Another file with the same tag and ids: its own tasks.
	b := filepath.Join(dir, "other.json")
	os.WriteFile(b, []byte(`{"master": {"tasks": [{"id": 1, "title": "Something else"}]}}`), 0o644)
	out = runCairn(t, dir, "import", b)
	if !strings.Contains(out, "created 1, updated 0") {
		t.Fatalf("second file:\n%s", out)
	}
	if g := s.OK("get_task", args{"id": "1"}); g.Str("title") != "Scaffold" {
		t.Fatalf("a second file updated the first file's task 1: %v", g.Structured)
	}
	// The first file again: unchanged.
	if out = runCairn(t, dir, "import", a); !strings.Contains(out, "created 0, updated 0, unchanged 6") {
		t.Fatalf("re-import of the first file:\n%s", out)
	}
}

// TestStdioFinishesBeforeExit: requests still in flight when stdin closes
// are answered (and their writes made) before the server exits.
func TestStdioFinishesBeforeExit(t *testing.T) {
	dir := cairntest.Project(t)
	cmd := exec.Command(cairntest.Binary(t), "serve")
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CAIRN_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	// Everything at once, then end of input: what a client piping a script
	// into the server does.
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"create_new_task","arguments":{"title":"Piped in"}}}
`)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cairn serve: %v\nstderr:\n%s", err, stderr.String())
	}
	ids := map[float64]bool{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err == nil && m["error"] == nil {
			if id, ok := m["id"].(float64); ok {
				ids[id] = true
			}
		}
	}
	if !ids[1] || !ids[2] {
		t.Fatalf("answers for ids %v, want 1 and 2; stdout:\n%s\nstderr:\n%s", ids, out, stderr.String())
	}
	s := cairntest.Start(t, cairntest.Options{Dir: dir})
	if bp := cairntest.BigPicture(t, s); !strings.Contains(bp, "Piped in") {
		t.Fatalf("the piped call's task is not in the store:\n%s", bp)
	}
}

// TestQueryPriorityOrder: desc means most important first, as people read
// it; without an order, priority sorts most important first too.
func TestQueryPriorityOrder(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	for _, p := range []string{"low", "critical", "medium", "high"} {
		s.OK("create_task", args{"title": p, "priority": p})
	}
	order := func(sort args) string {
		r := s.OK("query_tasks", args{"sort": sort, "fields": []string{"title"}})
		var got []string
		for _, x := range r.Structured["tasks"].([]any) {
			got = append(got, x.(map[string]any)["title"].(string))
		}
		return strings.Join(got, " ")
	}
	for _, tc := range []struct {
		sort args
		want string
	}{
		{args{"field": "priority", "order": "desc"}, "critical high medium low"},
		{args{"field": "priority", "order": "asc"}, "low medium high critical"},
		{args{"field": "priority"}, "critical high medium low"},
	} {
		if got := order(tc.sort); got != tc.want {
			t.Errorf("query_tasks sort %v: %s, want %s", tc.sort, got, tc.want)
		}
	}
}

// TestLoopPriorityVocabulary: loops speak the tasks' priorities; the old
// loop word "normal" is still accepted, as medium.
func TestLoopPriorityVocabulary(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all"}})
	id := s.OK("loop_start", args{"objective": "o", "completion_criteria": "c", "priority": "medium"}).Str("id")
	old := s.OK("loop_start", args{"objective": "o2", "completion_criteria": "c", "priority": "normal"}).Str("id")
	for _, l := range []string{id, old} {
		r := s.OK("loop_status", args{"id": l})
		if m, _ := r.Structured["metadata"].(map[string]any); m == nil || m["priority"] != "medium" {
			t.Fatalf("loop %s: metadata %v, want priority medium", l, r.Structured["metadata"])
		}
	}
	if e := s.Err("loop_start", args{"objective": "o", "completion_criteria": "c", "priority": "urgent"}); !strings.Contains(e.Text, "critical, high, medium or low") {
		t.Fatalf("bad loop priority: %s", e.Text)
	}
	// One priority: the task's, whichever tool changed it.
	s.OK("update_task", args{"id": id, "priority": "high"})
	if m, _ := s.OK("loop_status", args{"id": id}).Structured["metadata"].(map[string]any); m["priority"] != "high" {
		t.Fatalf("loop priority after update_task: %v", m)
	}
	if out := runCairn(t, dir, "loop", id); !strings.Contains(out, "priority high") {
		t.Fatalf("cairn loop %s:\n%s", id, out)
	}
}

// TestDeleteNamesReleasedTasks: delete_task names the tasks that lost a
// dependency, and says which of them are now ready.
func TestDeleteNamesReleasedTasks(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	s.OK("create_task", args{"title": "Old plan"})                                  // 1
	s.OK("create_task", args{"title": "Other"})                                     // 2
	s.OK("create_task", args{"title": "Build", "dependencies": []string{"1", "2"}}) // 3: still waits on 2
	s.OK("create_task", args{"title": "Ship", "dependencies": []string{"1"}})       // 4: ready after
	s.OK("create_task", args{"title": "Unrelated"})                                 // 5
	r := s.OK("delete_task", args{"id": "1"})
	for _, want := range []string{"[3] Build", "[4] Ship", "Now ready: [4]"} {
		if !strings.Contains(r.Text, want) {
			t.Fatalf("delete_task answer lacks %q:\n%s", want, r.Text)
		}
	}
	if ready, _ := r.Structured["ready"].([]any); strings.Contains(r.Text, "Unrelated") || len(ready) != 1 || ready[0] != "4" {
		t.Fatalf("delete_task answer:\n%s", r.Text)
	}
	if got := r.Structured["released"]; len(got.([]any)) != 2 {
		t.Fatalf("released: %v", r.Structured)
	}
	if r := s.OK("delete_task", args{"id": "5"}); !strings.Contains(r.Text, "no task depended on it") {
		t.Fatalf("delete_task of a task nothing depends on:\n%s", r.Text)
	}
}

// TestInstructionsCoverMemory: the default toolsets include memory, and the
// instructions say briefly when to use it; they stay short.
func TestInstructionsCoverMemory(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	in := s.Session.InitializeResult().Instructions
	for _, want := range []string{"memory_search", "memory_add_decision", "memory_add_mistake", "diagnose_error", "get_next_task"} {
		if !strings.Contains(in, want) {
			t.Errorf("instructions lack %s:\n%s", want, in)
		}
	}
	if len(in) > 1000 {
		t.Errorf("instructions are %d bytes; keep them under 1000:\n%s", len(in), in)
	}
	// Without the memory toolset, they do not name its tools.
	f := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "focus,plan"}})
	if in := f.Session.InitializeResult().Instructions; strings.Contains(in, "memory_") {
		t.Errorf("instructions without the memory toolset name memory tools:\n%s", in)
	}
}

// TestLoopCompleteRefusesOpenDependencies: completing a loop completes its
// task, so the same rule holds.
func TestLoopCompleteRefusesOpenDependencies(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "all"}})
	dep := s.OK("create_task", args{"title": "Provision the runner"}).Str("id")
	id := s.OK("loop_start", args{"objective": "green CI", "completion_criteria": "all jobs pass"}).Str("id")
	s.OK("update_task", args{"id": id, "dependencies": []string{dep}})
	s.OK("loop_record", args{"id": id, "last_action": "ran the jobs"})
	e := s.Err("loop_complete", args{"id": id, "evidence": "all green"})
	if !strings.Contains(e.Text, "["+dep+"] Provision the runner") || e.Structured["code"] != float64(-32008) {
		t.Fatalf("loop_complete with an open dependency: %s %v", e.Text, e.Structured)
	}
	if st := s.OK("loop_status", args{"id": id}).Structured["status"]; st == "completed" {
		t.Fatalf("a refused loop_complete completed the loop")
	}
	if r := s.OK("loop_complete", args{"id": id, "evidence": "all green", "force": true}); r.Structured["status"] != "completed" {
		t.Fatalf("forced loop_complete: %v", r.Structured)
	}
}

// TestReleaseDoneRefusesOpenDependencies: release_task with status done
// follows the same rule, and takes force like the other tools.
func TestReleaseDoneRefusesOpenDependencies(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	dep := s.OK("create_task", args{"title": "Schema"}).Str("id")
	id := s.OK("create_task", args{"title": "Migrate", "dependencies": []string{dep}}).Str("id")
	s.OK("claim_task", args{"id": id})
	e := s.Err("release_task", args{"id": id, "status": "done"})
	if !strings.Contains(e.Text, "["+dep+"] Schema") || !strings.Contains(e.Text, "force") {
		t.Fatalf("release_task done with an open dependency: %s", e.Text)
	}
	if g := s.OK("get_task", args{"id": id}); g.Str("status") == "done" {
		t.Fatalf("a refused release completed the task")
	}
	s.OK("release_task", args{"id": id, "status": "done", "force": true})
	if g := s.OK("get_task", args{"id": id}); g.Str("status") != "done" {
		t.Fatalf("forced release: %v", g.Structured)
	}
}
