package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service/plan"
)

// flat renders a set one task a line: "id status/priority title <- deps",
// subtasks indented, so a table can say what a parse should give.
func flat(s plan.ImportSet) []string {
	var out []string
	var walk func(ts []plan.ImportTask, depth int)
	walk = func(ts []plan.ImportTask, depth int) {
		for _, t := range ts {
			line := strings.Repeat("  ", depth) + t.ExternalID + " " + string(t.Status) + "/" + string(t.Priority) + " " + t.Title
			if len(t.Deps) > 0 {
				line += " <- " + strings.Join(t.Deps, ",")
			}
			out = append(out, line)
			walk(t.Subtasks, depth+1)
		}
	}
	walk(s.Tasks, 0)
	return out
}

func find(s plan.ImportSet, id string) *plan.ImportTask {
	var found *plan.ImportTask
	var walk func(ts []plan.ImportTask)
	walk = func(ts []plan.ImportTask) {
		for i := range ts {
			if ts[i].ExternalID == id {
				found = &ts[i]
			}
			walk(ts[i].Subtasks)
		}
	}
	walk(s.Tasks)
	return found
}

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestImportParse(t *testing.T) {
	const (
		u1 = "6f1c2b4e-0d3a-4c55-9a7e-1b2c3d4e5f60"
		u2 = "0b9e8c1a-7f2d-4e3b-8a6c-5d4e3f2a1b0c"
		u3 = "9d8c7b6a-5e4f-4a3b-2c1d-0e9f8a7b6c5d"
		ul = "aaaaaaaa-0000-4000-8000-000000000001"
	)
	tests := []struct {
		name   string
		file   string
		format string
		opts   Options
		sets   map[string][]string // source → flat
		notes  []string            // substrings, one per note, in order
	}{
		{
			name: "taskmaster tagged", file: "taskmaster_tagged.json", format: Taskmaster,
			sets: map[string][]string{
				"taskmaster:master": {
					"1 done/high Set up project scaffolding",
					"  1.1 done/medium Initialize Go module",
					"  1.2 done/medium Add CI workflow <- 1.1",
					"2 done/high Design database schema <- 1",
					"3 in-progress/high Implement user API <- 2,1.2",
					"  3.1 done/medium Define routes",
					"  3.2 in-progress/medium Write handlers <- 3.1",
					"  3.3 pending/medium Add input validation <- 3.2",
					"  3.4 in-progress/medium Integration tests <- 3.2,3.3",
					"4 pending/medium Frontend login page <- 3,99",
					"5 deferred/low Write documentation <- 3,4",
					"6 cancelled/low Drop legacy endpoint",
					"7 blocked/medium Performance review <- 5",
				},
				"taskmaster:feature-auth": {
					"1 pending/high OAuth provider integration",
					"  1.1 pending/medium Register the OAuth app",
					"  1.2 pending/medium Callback handler <- 1.1",
					"2 pending/medium Session refresh <- 1",
				},
			},
			notes: []string{`status "review" is not a Cairn status: imported as in-progress (3.4)`},
		},
		{
			name: "taskmaster one tag", file: "taskmaster_tagged.json", format: Taskmaster, opts: Options{Tags: []string{"feature-auth"}},
			sets: map[string][]string{
				"taskmaster:feature-auth": {
					"1 pending/high OAuth provider integration",
					"  1.1 pending/medium Register the OAuth app",
					"  1.2 pending/medium Callback handler <- 1.1",
					"2 pending/medium Session refresh <- 1",
				},
			},
		},
		{
			name: "taskmaster legacy", file: "taskmaster_legacy.json", format: Taskmaster,
			sets: map[string][]string{
				"taskmaster:master": {
					"1 done/medium Parse the PRD",
					"2 pending/critical Ship it <- 1",
				},
			},
			notes: []string{`priority "urgent" imported as critical (2)`},
		},
		{
			name: "todori object", file: "todori_tasks.yaml", format: Todori,
			sets: map[string][]string{
				"todori": {
					u1 + " in-progress/high Implement MCP server <- " + u2,
					"  " + u1 + ".1 done/medium Stdio transport",
					"  " + u1 + ".2 pending/medium Tool handlers <- " + u1 + ".1",
					u2 + " done/high Set up project root detection",
					u3 + " pending/low Write README <- " + u1 + "," + u2 + ",11111111-2222-4333-8444-555555555555",
				},
			},
		},
		{
			name: "todori list", file: "todori_list.yaml", format: Todori,
			sets: map[string][]string{
				"todori": {
					ul + " in-progress/medium Only task",
					"  " + ul + ".1 pending/medium First step",
					"  " + ul + ".2 pending/medium Second step <- " + ul + ".1",
				},
			},
			notes: []string{`status "active" is not a Cairn status: imported as in-progress (` + ul + `)`,
				`priority "someday" is unknown: imported as medium (` + ul + `)`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data := read(t, tc.file)
			format, err := Detect(tc.file, data)
			if err != nil || format != tc.format {
				t.Fatalf("Detect: %q, %v; want %q", format, err, tc.format)
			}
			if format, err := Detect("tasks", data); err != nil || format != tc.format { // by content
				t.Fatalf("Detect by content: %q, %v; want %q", format, err, tc.format)
			}
			r, err := Parse(format, data, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Sets) != len(tc.sets) {
				t.Fatalf("%d sets, want %d", len(r.Sets), len(tc.sets))
			}
			for _, s := range r.Sets {
				want, ok := tc.sets[s.Source]
				if !ok {
					t.Fatalf("unexpected set %q", s.Source)
				}
				if got := flat(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%s:\n got:\n%s\nwant:\n%s", s.Source, strings.Join(got, "\n"), strings.Join(want, "\n"))
				}
			}
			if len(r.Notes) != len(tc.notes) {
				t.Fatalf("notes %q, want %d", r.Notes, len(tc.notes))
			}
			for i, n := range tc.notes {
				if !strings.Contains(r.Notes[i], n) {
					t.Errorf("note %d is %q, want it to say %q", i, r.Notes[i], n)
				}
			}
		})
	}
}

func TestImportTaskmasterSetOrderAndBody(t *testing.T) {
	r, err := ParseTaskmaster(read(t, "taskmaster_tagged.json"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Sets[0].Source != "taskmaster:master" || r.Sets[1].Source != "taskmaster:feature-auth" {
		t.Fatalf("tags out of file order: %s, %s", r.Sets[0].Source, r.Sets[1].Source)
	}
	if r.Count() != 17 {
		t.Fatalf("Count = %d, want 17", r.Count())
	}
	got := find(r.Sets[0], "2").Description
	want := "Tables for users, sessions and audit events.\n\n" +
		"## Details\nUse SQLite with WAL. Every table has created_at and updated_at.\n\n" +
		"## Test strategy\nMigration tests apply every migration to an empty database."
	if got != want {
		t.Errorf("body:\n%s\nwant:\n%s", got, want)
	}
	if got := find(r.Sets[0], "4").Description; got != "Login form with error states." {
		t.Errorf("empty sections kept: %q", got)
	}
	if got := find(r.Sets[0], "3.2").Description; !strings.HasSuffix(got, "## Details\nReturn 404 with a JSON error body for a missing user.") {
		t.Errorf("subtask details: %q", got)
	}
}

func TestImportTodoriTimes(t *testing.T) {
	r, err := ParseTodori(read(t, "todori_tasks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := r.Sets[0]
	a := find(s, "6f1c2b4e-0d3a-4c55-9a7e-1b2c3d4e5f60") // metadata
	b := find(s, "0b9e8c1a-7f2d-4e3b-8a6c-5d4e3f2a1b0c") // createdAt/updatedAt
	for _, c := range []struct {
		got  time.Time
		want string
	}{
		{a.CreatedAt, "2025-12-14T10:00:00Z"}, {a.UpdatedAt, "2025-12-14T12:00:00Z"},
		{b.CreatedAt, "2025-12-10T09:00:00Z"}, {b.UpdatedAt, "2025-12-11T17:30:00Z"},
	} {
		if c.got.Format(time.RFC3339) != c.want {
			t.Errorf("time %s, want %s", c.got.Format(time.RFC3339), c.want)
		}
	}
	if a.Description != "Build stdio transport and tool handlers." {
		t.Errorf("description %q", a.Description)
	}
}

func TestImportParseErrors(t *testing.T) {
	tests := []struct {
		name, format, data string
		opts               Options
		want               string
	}{
		{"json syntax", Taskmaster, `{"master": {"tasks": [}`, Options{}, "not a valid Taskmaster file"},
		{"not an object", Taskmaster, `[1, 2]`, Options{}, "top level is not an object"},
		{"no tags", Taskmaster, `{"config": {"x": 1}}`, Options{}, "not a Taskmaster tasks.json"},
		{"missing tag", Taskmaster, `{"master": {"tasks": []}}`, Options{Tags: []string{"dev"}}, `tag "dev" is not in the file; it has master`},
		{"bad id", Taskmaster, `{"tasks": [{"id": {"x": 1}, "title": "a"}]}`, Options{}, "id must be a number or a string"},
		{"yaml syntax", Todori, "tasks: [\n  - id: a\n    title: [unclosed\n", Options{}, "not a valid Todori file"},
		{"yaml scalar", Todori, "hello", Options{}, "not a Todori tasks.yaml"},
		{"yaml no tasks", Todori, "version: 1\n", Options{}, "not a Todori tasks.yaml"},
		{"tags on todori", Todori, "[]", Options{Tags: []string{"x"}}, "tags are Taskmaster's"},
		{"unknown format", "trello", "{}", Options{}, `unknown format "trello"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.format, []byte(tc.data), tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to say %q", err, tc.want)
			}
		})
	}
}

func TestImportDetectAndLocate(t *testing.T) {
	for _, c := range []struct{ path, data, want string }{
		{"x.yml", "", Todori},
		{"TASKS.JSON", "", Taskmaster},
		{"tasks", "  {\"tasks\": []}", Taskmaster},
		{"tasks", "- id: a\n", Todori},
		{"tasks", "version: 1\ntasks: []\n", Todori},
	} {
		if got, err := Detect(c.path, []byte(c.data)); err != nil || got != c.want {
			t.Errorf("Detect(%q, %q) = %q, %v; want %q", c.path, c.data, got, err, c.want)
		}
	}
	if _, err := Detect("tasks", []byte("hello")); err == nil || !strings.Contains(err.Error(), "--format") {
		t.Errorf("undetectable: %v", err)
	}

	root := t.TempDir()
	if _, err := Locate(root); err == nil {
		t.Fatal("Locate found a file in an empty directory")
	}
	tm := filepath.Join(root, ".taskmaster", "tasks", "tasks.json")
	if err := os.MkdirAll(filepath.Dir(tm), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tm, []byte(`{"tasks": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{root, filepath.Join(root, ".taskmaster"), tm} {
		if got, err := Locate(dir); err != nil || got != tm {
			t.Errorf("Locate(%s) = %s, %v; want %s", dir, got, err, tm)
		}
	}
}

// TestImportSubtaskPlainDeps: a subtask's plain number names a sibling when there
// is one, else (or when it would name the subtask itself) a top-level task.
func TestImportSubtaskPlainDeps(t *testing.T) {
	r, err := ParseTaskmaster([]byte(`{"master": {"tasks": [
		{"id": 1, "title": "A"},
		{"id": 2, "title": "B", "subtasks": [
			{"id": 1, "title": "B1", "dependencies": [1]},
			{"id": 2, "title": "B2", "dependencies": [1, "3", 7]},
			{"id": 3, "title": "B3", "dependencies": ["1.1", "2.2"]}]}]}}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"1 pending/medium A",
		"2 pending/medium B",
		"  2.1 pending/medium B1 <- 1",
		"  2.2 pending/medium B2 <- 2.1,2.3,7",
		"  2.3 pending/medium B3 <- 1.1,2.2",
	}
	if got := flat(r.Sets[0]); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
