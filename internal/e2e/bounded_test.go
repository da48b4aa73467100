package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// small fails the test when an answer is far from the "about 2 KB" an
// agent can afford.
func small(t *testing.T, what string, r cairntest.Result, text, structured int) {
	t.Helper()
	b, _ := json.Marshal(r.Structured)
	t.Logf("%s: %d bytes of text, %d structured", what, len(r.Text), len(b))
	if len(r.Text) > text || len(b) > structured {
		t.Errorf("%s answers %d bytes of text and %d structured, want at most %d and %d:\n%.3000s", what, len(r.Text), len(b), text, structured, r.Text)
	}
}

// boundedLong is a long text, 5.7 KB.
var boundedLong = strings.Repeat("the cache returned a stale entry after the eviction ran; ", 100)

// boundedItems is a list of 30 files.
func boundedItems() []string {
	var items []string
	for i := 0; i < 30; i++ {
		items = append(items, fmt.Sprintf("internal/cache/shard%d.go", i))
	}
	return items
}

// TestPlanAnswersCapWhatATaskReleases: deleting a task 60 tasks depend on
// lists 20 of those it releases and 20 of those now ready, and counts the
// rest; get_next_task lists 20 of the tasks its pick unblocks. Before, both
// listed them all.
func TestPlanAnswersCapWhatATaskReleases(t *testing.T) {
	t.Parallel()
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	base := s.OK("create_task", args{"title": "Shared base", "priority": "critical"}).Str("id")
	for i := 1; i <= 60; i++ {
		s.OK("create_task", args{"title": fmt.Sprintf("needs the base %d", i), "dependencies": []string{base}})
	}
	n := s.OK("get_next_task", args{})
	if n.Structured["task"].(map[string]any)["id"] != base || len(n.Structured["unblocks"].([]any)) != 20 || n.Structured["unblocksMore"] != float64(40) {
		t.Errorf("get_next_task: unblocks %v, more %v", n.Structured["unblocks"], n.Structured["unblocksMore"])
	}
	small(t, "get_next_task", n, 2048, 2048)
	d := s.OK("delete_task", args{"id": base})
	if len(d.Structured["released"].([]any)) != 20 || d.Structured["releasedMore"] != float64(40) ||
		len(d.Structured["ready"].([]any)) != 20 || d.Structured["readyMore"] != float64(40) ||
		!strings.Contains(d.Text, "and 50 more (get_next_task picks among them)") {
		t.Errorf("delete_task: released %d (more %v), ready %d (more %v):\n%s", len(d.Structured["released"].([]any)), d.Structured["releasedMore"],
			len(d.Structured["ready"].([]any)), d.Structured["readyMore"], d.Text)
	}
	small(t, "delete_task", d, 1024, 2560)
}

// TestDiagnoseErrorClipsPastMistakes: diagnose_error shows each past
// mistake clipped (texts at 500 bytes, lists at 5 items) and says memory_get
// shows it whole; before, each match was whole, up to 64 KiB of content and
// lists of 50 items.
func TestDiagnoseErrorClipsPastMistakes(t *testing.T) {
	t.Parallel()
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	items := boundedItems()
	var first string
	for i := 0; i < 3; i++ {
		id := s.OK("memory_add_mistake", args{"title": fmt.Sprintf("stale cache entry %d after eviction", i), "content": boundedLong,
			"root_cause": boundedLong, "fix": "evict under the lock", "files": items, "facts": items}).Str("id")
		if first == "" {
			first = id
		}
	}
	g := s.OK("diagnose_error", args{"error": "stale cache entry after eviction"})
	ms := g.Structured["matches"].([]any)
	if len(ms) != 3 || !strings.Contains(g.Text, "memory_get "+first+" shows it whole") {
		t.Errorf("diagnose_error: %d matches, or no word on where the whole is:\n%s", len(ms), g.Text)
	}
	for _, m := range ms {
		m := m.(map[string]any)
		clipped, _ := m["clipped"].(string)
		if len(m["files"].([]any)) != 5 || m["fix"] != "evict under the lock" || !strings.Contains(clipped, "memory_get") {
			t.Errorf("diagnose_error's match %v: files %d, fix %q, clipped %q", m["id"], len(m["files"].([]any)), m["fix"], clipped)
		}
	}
	small(t, "diagnose_error", g, 6144, 6144)
	// What it leaves out is where it says.
	if whole := s.OK("memory_get", args{"ids": []string{first}}); !strings.Contains(whole.Text, strings.TrimSpace(boundedLong)) {
		t.Errorf("memory_get does not show the mistake whole")
	}
	// A short mistake is shown whole, with no word of clipping.
	s.OK("memory_add_mistake", args{"title": "short mistake about the eviction lock", "content": "nil map", "fix": "make it"})
	if g := s.OK("diagnose_error", args{"error": "short mistake about the eviction lock", "limit": 1}); strings.Contains(g.Text, "clipped") {
		t.Errorf("diagnose_error clips a short mistake:\n%s", g.Text)
	}
}

// TestLoopCheckpointsPaged: loop_checkpoints answers a page, newest first;
// before, a loop checkpointed at each iteration answered with every one.
func TestLoopCheckpointsPaged(t *testing.T) {
	t.Parallel()
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "all"}})
	lp := s.OK("loop_start", args{"objective": "Make the cache fast", "completion_criteria": "p99 under 1 ms"}).Str("id")
	for i := 1; i <= 60; i++ {
		s.OK("loop_record", args{"id": lp, "last_action": fmt.Sprintf("tuned shard %d", i)})
		s.OK("loop_checkpoint", args{"id": lp, "note": fmt.Sprintf("after shard %d", i)})
	}
	c := s.OK("loop_checkpoints", args{"id": lp})
	cps := c.Structured["checkpoints"].([]any)
	if len(cps) != 20 || c.Structured["total"] != float64(61) || c.Structured["next_offset"] != float64(20) ||
		cps[0].(map[string]any)["note"] != "after shard 60" || !strings.Contains(c.Text, "(next offset 20)") {
		t.Errorf("loop_checkpoints: %d of %v, next %v:\n%s", len(cps), c.Structured["total"], c.Structured["next_offset"], c.Text)
	}
	small(t, "loop_checkpoints", c, 2048, 4096)
	last := s.OK("loop_checkpoints", args{"id": lp, "offset": 40, "limit": 50})
	// 61: the loop made the first itself, when it started.
	if cps := last.Structured["checkpoints"].([]any); len(cps) != 21 || cps[19].(map[string]any)["note"] != "after shard 1" ||
		cps[20].(map[string]any)["note"] != "loop started" || last.Structured["next_offset"] != nil {
		t.Errorf("loop_checkpoints' last page:\n%s", last.Text)
	}
	s.Err("loop_checkpoints", args{"id": lp, "limit": 51})
}

// TestSessionListIsIndexLines: the session list counts each session's
// lists and clips its goal and summary; before, it answered with every
// session's every decision, file and task, and goals and summaries whole.
func TestSessionListIsIndexLines(t *testing.T) {
	t.Parallel()
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "all"}})
	items := boundedItems()
	goal := strings.Repeat("find why the cache misses on cold start; ", 25) // 1 KB
	for i := 0; i < 25; i++ {
		s.OK("session", args{"action": "start", "goal": fmt.Sprintf("session %d: ", i) + goal})
		s.OK("session", args{"action": "update", "files_modified": items, "tasks_pending": []string{"1", "2", "3"}})
		s.OK("session", args{"action": "end", "outcome": "success", "summary": boundedLong[:3000]})
	}
	l := s.OK("session", args{"action": "list"})
	ss := l.Structured["sessions"].([]any)
	if len(ss) != 20 || ss[0].(map[string]any)["files_modified"] != float64(30) || !strings.Contains(l.Text, "session get with session_id shows one whole") {
		t.Errorf("session list: %d sessions, the first %v:\n%s", len(ss), ss[0], l.Text)
	}
	small(t, "session list", l, 4096, 10240)
	// session get shows one whole.
	id := ss[0].(map[string]any)["id"].(string)
	if g := s.OK("session", args{"action": "get", "session_id": id}); !strings.Contains(g.Text, strings.TrimSpace(goal)) ||
		!strings.Contains(g.Text, boundedLong[:3000]) || g.Structured["session"].(map[string]any)["goal"] != "session 24: "+strings.TrimSpace(goal) {
		t.Errorf("session get does not show the goal and summary whole:\n%.500s", g.Text)
	}
}

// TestSessionAndBranchWritesAnswerInBrief: a session update or end, and a
// branch save or merge, answer with the record's counts, not the record:
// it grows with every update, and each answer carried it whole.
func TestSessionAndBranchWritesAnswerInBrief(t *testing.T) {
	t.Parallel()
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "all"}})
	items := boundedItems()
	id := s.OK("session", args{"action": "start", "goal": "make the cache fast", "branch": "main"}).Structured["session"].(map[string]any)["id"]
	var u, b cairntest.Result
	for i := 0; i < 10; i++ {
		var decisions []any
		for j := 0; j < 10; j++ {
			decisions = append(decisions, map[string]any{"decision": fmt.Sprintf("shard %d.%d keeps its own lock", i, j), "reasoning": boundedLong[:200]})
		}
		u = s.OK("session", args{"action": "update", "decisions": decisions, "files_modified": items})
		b = s.OK("branch", args{"action": "save", "branch": "main", "notes": "cache work", "decisions": decisions})
	}
	if u.Structured["session"].(map[string]any)["decisions"] != float64(100) || !strings.Contains(u.Text, "session get shows its record") {
		t.Errorf("session update: %v\n%s", u.Structured, u.Text)
	}
	small(t, "session update", u, 1024, 1024)
	if b.Structured["branch"].(map[string]any)["decisions"] != float64(100) || !strings.Contains(b.Text, "100 decisions (branch get shows them)") {
		t.Errorf("branch save: %v\n%s", b.Structured, b.Text)
	}
	small(t, "branch save", b, 1024, 1024)
	e := s.OK("session", args{"action": "end", "outcome": "success", "summary": "sharded the cache"})
	small(t, "session end", e, 1024, 1024)
	if l := s.OK("branch", args{"action": "list"}); len(l.Structured["branches"].([]any)) != 1 {
		t.Errorf("branch list: %s", l.Text)
	} else {
		small(t, "branch list", l, 1024, 1024)
	}
	// The whole record is where the answers say.
	// session get shows the newest of each list and counts them all;
	// its limit shows more.
	g := s.OK("session", args{"action": "get", "session_id": id})
	if v := g.Structured["session"].(map[string]any); len(v["decisions"].([]any)) != 20 || v["totals"].(map[string]any)["decision"] != float64(100) ||
		!strings.Contains(g.Text, "20 of 100 decision)") {
		t.Errorf("session get: %v\n%s", v["totals"], g.Text)
	}
	small(t, "session get", g, 8192, 8192)
	if g := s.OK("session", args{"action": "get", "session_id": id, "limit": 200}); len(g.Structured["session"].(map[string]any)["decisions"].([]any)) != 100 {
		t.Errorf("session get with limit 200 does not show the whole record")
	}
	if g := s.OK("branch", args{"action": "get", "branch": "main", "limit": 200}); len(g.Structured["branch"].(map[string]any)["decisions"].([]any)) < 100 {
		t.Errorf("branch get does not show the whole record")
	}
}

// TestCompletedTasksClipBodies: get_completed_tasks shows each body up to
// 500 bytes and says get_task shows it whole; before, a default page of 20
// long bodies was over 40 KB (each clipped at 2,000 bytes).
func TestCompletedTasksClipBodies(t *testing.T) {
	t.Parallel()
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	s.OK("create_new_task", args{"title": "Release", "body": ""})
	var first string
	for i := 1; i <= 25; i++ {
		id := s.OK("create_new_task", args{"title": fmt.Sprintf("step %d", i), "body": fmt.Sprintf("result %d: ", i) + boundedLong}).Str("task_id")
		if first == "" {
			first = id
		}
		s.OK("complete_current_task", args{})
	}
	s.OK("create_new_task", args{"title": "short one", "body": "done quickly"})
	s.OK("complete_current_task", args{})
	c := s.OK("get_completed_tasks", args{})
	small(t, "get_completed_tasks", c, 12800, 12800)
	ts := c.Structured["tasks"].([]any)
	if len(ts) != 20 || c.Structured["count"] != float64(26) {
		t.Fatalf("get_completed_tasks: %d of %v", len(ts), c.Structured["count"])
	}
	if x := ts[0].(map[string]any); x["task_id"] != first || x["body_truncated"] != true || len(x["body"].(string)) != 500+len("…") ||
		!strings.Contains(c.Text, "(body clipped at 500 bytes; get_task "+first+" shows it whole)") {
		t.Errorf("the first completed task: %v\n%.2000s", x, c.Text)
	}
	last := s.OK("get_completed_tasks", args{"offset": 20})
	if x := last.Structured["tasks"].([]any)[5].(map[string]any); x["body"] != "done quickly" || x["body_truncated"] != nil {
		t.Errorf("a short body: %v", x)
	}
	if g := s.OK("get_task", args{"id": first}); !strings.Contains(g.Text, strings.TrimSpace(boundedLong)) {
		t.Errorf("get_task %s does not show the body whole:\n%.300s", first, g.Text)
	}
}

// TestTaskDependingOnManyListsTwenty: a task that depends on 60 lists 20 of
// them (the open first, then the latest closed) with a count of the rest,
// in get_task, in create_task's and update_task's answers and in the task
// prompt, as it lists its subtasks and dependents; its dependencies field
// still has every id. Before, each listed all 60 with their titles.
func TestTaskDependingOnManyListsTwenty(t *testing.T) {
	t.Parallel()
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t)})
	var deps []string
	for i := 1; i <= 60; i++ {
		st := "done"
		if i > 55 {
			st = "pending"
		}
		deps = append(deps, s.OK("create_task", args{"title": fmt.Sprintf("prerequisite %d with a realistic title", i), "status": st}).Str("id"))
	}
	c := s.OK("create_task", args{"title": "Needs them all", "dependencies": deps})
	id := c.Str("id")
	u := s.OK("update_task", args{"id": id, "title": "Needs them all, renamed"})
	g := s.OK("get_task", args{"id": id})
	for _, r := range []cairntest.Result{c, u, g} {
		if n := len(r.Structured["dependsOn"].([]any)); n != 20 || r.Structured["dependsOnMore"] != float64(40) || len(r.Structured["dependencies"].([]any)) != 60 {
			t.Errorf("lists %d dependencies (more %v), ids %d", n, r.Structured["dependsOnMore"], len(r.Structured["dependencies"].([]any)))
		}
		small(t, "a task on 60", r, 2048, 3072)
	}
	// The five open ones first, then the 15 latest done.
	first := g.Structured["dependsOn"].([]any)[0].(map[string]any)
	if first["id"] != deps[40] || !strings.Contains(g.Text, "depends on (20 of 60: 40 more, all closed):") {
		t.Errorf("get_task's first dependency %v:\n%s", first, g.Text)
	}
	res, err := s.Session.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "task_context", Arguments: map[string]string{"taskId": id}})
	if err != nil {
		t.Fatal(err)
	}
	if pr := res.Messages[0].Content.(*mcp.TextContent).Text; strings.Count(pr, "\n- [") != 20 || !strings.Contains(pr, "- (40 more, all closed)") {
		t.Errorf("the task prompt:\n%s", pr)
	}
}

// TestBranchGetPagesItsLists: a branch's context gathers every session's
// record on it; branch get shows the newest 20 of each list with the
// totals, and offset pages back. Before, after 100 sessions it answered
// with all 500 decisions and files (50 KB of text, 82 KB structured).
func TestBranchGetPagesItsLists(t *testing.T) {
	t.Parallel()
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "all"}})
	for i := 0; i < 30; i++ {
		s.OK("session", args{"action": "start", "goal": "work", "branch": "main"})
		s.OK("session", args{"action": "update", "decisions": []any{map[string]any{"decision": fmt.Sprintf("decision %d: keep the shard lock short", i), "reasoning": "contention"}},
			"files_modified": []string{fmt.Sprintf("internal/pkg%d/a.go", i), fmt.Sprintf("internal/pkg%d/b.go", i)}})
		s.OK("session", args{"action": "end", "outcome": "success", "summary": "ok"})
	}
	g := s.OK("branch", args{"action": "get", "branch": "main"})
	small(t, "branch get", g, 2048, 4096)
	b := g.Structured["branch"].(map[string]any)
	ds, fs := b["decisions"].([]any), b["files_modified"].([]any)
	tot := g.Structured["totals"].(map[string]any)
	if len(ds) != 20 || len(fs) != 20 || tot["decisions"] != float64(30) || tot["files_modified"] != float64(60) || g.Structured["next_offset"] != float64(20) ||
		ds[19].(map[string]any)["decision"] != "decision 29: keep the shard lock short" || fs[19] != "internal/pkg29/b.go" ||
		!strings.Contains(g.Text, "(the newest 20 of each list of 30 decisions, 60 files modified; next offset 20 shows older)") || !strings.Contains(g.Text, "next offset 20 shows older") {
		t.Errorf("branch get: %d decisions, %d files, totals %v, next %v:\n%s", len(ds), len(fs), tot, g.Structured["next_offset"], g.Text)
	}
	older := s.OK("branch", args{"action": "get", "branch": "main", "offset": 20, "limit": 200})
	ob := older.Structured["branch"].(map[string]any)
	if ds := ob["decisions"].([]any); len(ds) != 10 || ds[0].(map[string]any)["decision"] != "decision 0: keep the shard lock short" ||
		len(ob["files_modified"].([]any)) != 40 || older.Structured["next_offset"] != nil {
		t.Errorf("branch get at offset 20: %v", older.Structured)
	}
	// All on one page: no totals, as before.
	if all := s.OK("branch", args{"action": "get", "branch": "main", "limit": 200}); all.Structured["totals"] != nil || len(all.Structured["branch"].(map[string]any)["files_modified"].([]any)) != 60 {
		t.Errorf("branch get, limit 200: %v", all.Structured["totals"])
	}
	s.Err("branch", args{"action": "get", "branch": "main", "limit": 201})
	s.Err("branch", args{"action": "save", "branch": "main", "limit": 5})
}

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
	small(t, "add_subtask", last, 2048, 3072)
	small(t, "get_task of the parent", g, 2048, 3072)
	small(t, "get_task of the base", b, 2048, 3072)
	small(t, "update_subtask", s.OK("update_subtask", args{"subtaskId": p + ".58", "title": "step 58, renamed"}), 2048, 3072)
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
