package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// runImport runs the real `cairn import` in dir and returns its stdout and
// stderr.
func runImport(t *testing.T, dir string, wantOK bool, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(cairntest.Binary(t), append([]string{"import"}, args...)...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CAIRN_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if (err == nil) != wantOK {
		t.Fatalf("cairn import %v: %v\nstdout:\n%s\nstderr:\n%s", args, err, stdout.String(), stderr.String())
	}
	return stdout.String(), stderr.String()
}

// importMapping reads `cairn import --json` into external id → Cairn id,
// per source.
func importMapping(t *testing.T, out string) (map[string]string, map[string]any) {
	t.Helper()
	var r struct {
		Tasks []struct {
			Source, ExternalID, ID, Action string
		} `json:"tasks"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("--json output: %v\n%s", err, out)
	}
	var whole map[string]any
	json.Unmarshal([]byte(out), &whole)
	m := map[string]string{}
	for _, x := range r.Tasks {
		m[x.Source+" "+x.ExternalID] = x.ID
	}
	return m, whole
}

func copyFixture(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "importer", "testdata", from))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func strList(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

// TestImportTaskmaster: the real binary imports a tagged tasks.json; the
// server then shows the same ids, subtasks, dependencies and statuses, and
// importing again, even while the server runs, duplicates nothing.
func TestImportTaskmaster(t *testing.T) {
	dir := cairntest.Project(t)
	copyFixture(t, "taskmaster_tagged.json", filepath.Join(dir, ".taskmaster", "tasks", "tasks.json"))
	out, _ := runImport(t, dir, true, ".taskmaster", "--json")
	m, whole := importMapping(t, out)
	if whole["created"] != float64(17) || whole["format"] != "taskmaster" || len(m) != 17 {
		t.Fatalf("first import: %s", out)
	}
	skipped := whole["skippedDependencies"].([]any)
	if len(skipped) != 1 || skipped[0].(map[string]any)["dependency"] != "99" {
		t.Fatalf("skipped dependencies: %v", skipped)
	}
	if notes := whole["notes"].([]any); len(notes) != 1 || !strings.Contains(notes[0].(string), `"review"`) {
		t.Fatalf("notes: %v", notes)
	}
	out, _ = runImport(t, dir, true, ".taskmaster/tasks/tasks.json")
	if !strings.Contains(out, "created 0, updated 0, unchanged 17; 1 dependency skipped") || !strings.Contains(out, "file task 4 depends on file task 99: not in the file") {
		t.Fatalf("second import:\n%s", out)
	}

	s := cairntest.Start(t, cairntest.Options{Dir: dir})
	all := s.OK("get_tasks", args{"limit": 50})
	if all.Structured["total"] != float64(17) {
		t.Fatalf("get_tasks after two imports: total %v", all.Structured["total"])
	}
	id := func(ext string) string { return m["taskmaster:master "+ext] }

	// Task 3: in progress, its dependencies (a task and another task's
	// subtask), its four subtasks in order with their statuses.
	g := s.OK("get_task", args{"id": id("3")})
	if g.Str("status") != "in-progress" || g.Str("priority") != "high" || g.Str("title") != "Implement user API" {
		t.Fatalf("task 3: %v", g.Structured)
	}
	if deps := strList(g.Structured["dependencies"]); !slices.Equal(deps, []string{id("1.2"), id("2")}) { // in id order
		t.Fatalf("task 3 depends on %v, want %s and %s", deps, id("2"), id("1.2"))
	}
	if !strings.Contains(g.Str("description"), "CRUD endpoints for users.\n\n## Details\nREST over net/http") ||
		!strings.Contains(g.Str("description"), "## Test strategy\nTable-driven handler tests") {
		t.Fatalf("task 3 description: %q", g.Str("description"))
	}
	var subs []string
	for i, x := range g.Structured["subtasks"].([]any) {
		sub := x.(map[string]any)
		if sub["id"] != id("3."+string(rune('1'+i))) {
			t.Fatalf("subtask %d is %v, want %s", i+1, sub["id"], id("3."+string(rune('1'+i))))
		}
		subs = append(subs, sub["ref"].(string)+" "+sub["status"].(string))
	}
	want := []string{id("3") + ".1 done", id("3") + ".2 in-progress", id("3") + ".3 pending", id("3") + ".4 in-progress"}
	if !slices.Equal(subs, want) {
		t.Fatalf("task 3 subtasks %v, want %v", subs, want)
	}
	// Subtask dependencies on siblings, by the plan's "parent.N" reference.
	g = s.OK("get_task", args{"id": id("3") + ".4"})
	if deps := strList(g.Structured["dependencies"]); !slices.Equal(deps, []string{id("3.2"), id("3.3")}) {
		t.Fatalf("3.4 depends on %v", deps)
	}
	if deps := strList(s.OK("get_task", args{"id": id("4")}).Structured["dependencies"]); !slices.Equal(deps, []string{id("3")}) {
		t.Fatalf("4 depends on %v (99 is not in the file)", deps)
	}
	for ext, status := range map[string]string{"1": "done", "1.1": "done", "2": "done", "5": "deferred", "6": "cancelled", "7": "blocked"} {
		if got := s.OK("get_task", args{"id": id(ext)}).Str("status"); got != status {
			t.Errorf("task %s is %s, want %s", ext, got, status)
		}
	}
	if g := s.OK("get_task", args{"id": id("1")}); g.Str("completedAt") == "" {
		t.Errorf("done task 1 has no completion time: %v", g.Structured)
	}
	// The done tasks are in the archive.
	if c := s.OK("get_completed_tasks", args{}); c.Structured["count"] != float64(5) {
		t.Errorf("archive after import: %s", c.Text)
	}
	// The other tag is its own set of tasks, ids and all.
	fa := s.OK("get_task", args{"id": m["taskmaster:feature-auth 1"]})
	if fa.Str("title") != "OAuth provider integration" || len(fa.Structured["subtasks"].([]any)) != 2 {
		t.Fatalf("feature-auth 1: %v", fa.Structured)
	}
	if deps := strList(s.OK("get_task", args{"id": m["taskmaster:feature-auth 1.2"]}).Structured["dependencies"]); !slices.Equal(deps, []string{m["taskmaster:feature-auth 1.1"]}) {
		t.Fatalf("feature-auth 1.2 depends on %v", deps)
	}

	// A third import while the server runs: still nothing duplicated.
	out, _ = runImport(t, dir, true, ".taskmaster/tasks/tasks.json", "--json")
	if m2, w := importMapping(t, out); w["unchanged"] != float64(17) || m2["taskmaster:master 3.4"] != id("3.4") {
		t.Fatalf("third import: %s", out)
	}
	if all := s.OK("get_tasks", args{"limit": 50}); all.Structured["total"] != float64(17) {
		t.Fatalf("get_tasks after three imports: total %v", all.Structured["total"])
	}

	// A file with a cycle is refused, named, and changes nothing.
	cyc := filepath.Join(dir, "cycle.json")
	os.WriteFile(cyc, []byte(`{"master": {"tasks": [
		{"id": 1, "title": "Set up project scaffolding", "dependencies": [2]},
		{"id": 2, "title": "Design database schema", "dependencies": [1]},
		{"id": 50, "title": "Brand new"}]}}`), 0o644)
	_, stderr := runImport(t, dir, false, cyc)
	if !strings.Contains(stderr, "dependency cycle in taskmaster:master: 2 → 1 → 2") || !strings.Contains(stderr, "nothing was imported") {
		t.Fatalf("cycle: %s", stderr)
	}
	if all := s.OK("get_tasks", args{"limit": 50}); all.Structured["total"] != float64(17) {
		t.Fatalf("a refused import changed the task count: %v", all.Structured["total"])
	}
	if g := s.OK("get_task", args{"id": id("1")}); g.Str("title") != "Set up project scaffolding" || g.Structured["dependencies"] != nil {
		t.Fatalf("a refused import changed task 1: %v", g.Structured)
	}
}

// TestImportTodori: a Todori tasks.yaml, found from the project root.
func TestImportTodori(t *testing.T) {
	dir := cairntest.Project(t)
	copyFixture(t, "todori_tasks.yaml", filepath.Join(dir, ".todori", "tasks.yaml"))
	out, _ := runImport(t, dir, true, ".", "--json")
	m, whole := importMapping(t, out)
	if whole["created"] != float64(5) || whole["format"] != "todori" {
		t.Fatalf("import: %s", out)
	}
	const server = "todori 6f1c2b4e-0d3a-4c55-9a7e-1b2c3d4e5f60"
	s := cairntest.Start(t, cairntest.Options{Dir: dir})
	g := s.OK("get_task", args{"id": m[server]})
	if g.Str("status") != "in-progress" || !strings.HasPrefix(g.Str("createdAt"), "2025-12-14T10:00:00") ||
		!slices.Equal(strList(g.Structured["dependencies"]), []string{m["todori 0b9e8c1a-7f2d-4e3b-8a6c-5d4e3f2a1b0c"]}) {
		t.Fatalf("server task: %v", g.Structured)
	}
	sub := s.OK("get_task", args{"id": m[server] + ".2"})
	if sub.Str("id") != m[server+".2"] || !slices.Equal(strList(sub.Structured["dependencies"]), []string{m[server+".1"]}) {
		t.Fatalf("subtask 2: %v", sub.Structured)
	}
	done := s.OK("get_task", args{"id": m["todori 0b9e8c1a-7f2d-4e3b-8a6c-5d4e3f2a1b0c"]})
	if done.Str("status") != "done" || !strings.HasPrefix(done.Str("completedAt"), "2025-12-11T17:30:00") {
		t.Fatalf("done task: %v", done.Structured)
	}
	runImport(t, dir, true, ".todori/tasks.yaml")
	if all := s.OK("get_tasks", args{"limit": 50}); all.Structured["total"] != float64(5) {
		t.Fatalf("after a second import: total %v", all.Structured["total"])
	}
}
