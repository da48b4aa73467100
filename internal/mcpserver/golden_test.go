package mcpserver_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// update regenerates the golden files: go test ./internal/mcpserver -run TestGolden -update
var update = flag.Bool("update", false, "rewrite testdata/*.golden from this run")

// step is one call of the golden scenario.
type step struct {
	tool string
	args map[string]any
}

type args = map[string]any

// scenario exercises every tool on a small project, on a clock that moves
// one minute a call, so every answer's text is the same on every run.
var scenario = []step{
	{"get_current_task", nil},
	{"complete_current_task", nil},
	{"update_current_task", args{"body": "x"}},
	{"extend_current_task", args{"title": "x"}},
	{"get_big_picture", nil},
	{"create_new_task", args{"title": "Ship the login page", "body": "OAuth with PKCE"}},
	{"create_new_task", args{"title": "Write the handler", "body": "net/http, no framework"}},
	{"extend_current_task", args{"title": "Test the handler", "body": "table tests first"}},
	{"update_current_task", args{"body": "table tests first; then the e2e"}},
	{"get_current_task", nil},
	{"peek_context", args{"include_body": true}},
	{"list_siblings", nil},
	{"switch_focus", args{"task_id": "2"}},
	{"complete_current_task", nil},
	{"get_stack_overview", nil},
	{"get_big_picture", nil},
	{"get_big_picture", args{"format": "json", "limit": 2}},
	{"get_completed_tasks", nil},
	{"create_task", args{"title": "Set up CI", "priority": "high"}},
	{"create_task", args{"title": "Deploy to staging", "dependencies": []any{4}, "description": "after CI"}},
	{"create_task", args{"title": "Old idea", "priority": "low"}},
	{"get_tasks", nil},
	{"get_tasks", args{"status": "pending", "limit": 1}},
	{"get_task", args{"id": "5"}},
	{"update_task", args{"id": "6", "status": "deferred"}},
	{"query_tasks", args{"filters": args{"priority": []any{"high", "low"}}, "fields": []any{"id", "title", "priority", "dependencies"}, "sort": args{"field": "priority"}}},
	{"get_next_task", nil},
	{"get_task_stats", nil},
	{"add_subtask", args{"parentId": "4", "title": "Pick a runner"}},
	{"add_subtask", args{"parentId": "2", "title": "Too late"}},
	{"update_subtask", args{"subtaskId": "4.1", "status": "done"}},
	{"delete_subtask", args{"subtaskId": "4.1"}},
	{"delete_task", args{"id": "6"}},
	{"remove_task", args{"task_id": "3"}},
	{"get_task", args{"id": "99"}},
	{"loop_start", args{"objective": "Make the tests pass", "completion_criteria": "go test ./... passes", "max_iterations": 5}},
	{"loop_record", args{"id": "8", "last_action": "fixed the parser", "next_steps": []any{"fix the lexer"}, "percentage": 40, "message": "parser done"}},
	{"loop_checkpoint", args{"id": "8", "note": "parser green"}},
	{"loop_record", args{"id": "8", "last_action": "fixed the lexer"}},
	{"loop_checkpoints", args{"id": "8"}},
	{"loop_pause", args{"id": "8"}},
	{"loop_resume", args{"id": "8"}},
	{"loop_status", args{"id": "8", "history": true}},
	{"loop_complete", args{"id": "8", "evidence": "ok  ./... 3.1s"}},
	{"loop_pause", args{"id": "8"}},
	{"loop_start", args{"objective": "Flaky test hunt", "completion_criteria": "100 green runs"}},
	{"loop_fail", args{"id": "9", "message": "runner died", "recoverable": false}},
	{"loop_start", args{"objective": "Tidy imports", "completion_criteria": "gofmt -l is empty"}},
	{"loop_cancel", args{"id": "10"}},
	{"loop_pause", args{"id": "10"}},
	{"loop_list", args{"status": []any{"completed", "failed", "cancelled"}}},
	{"memory_add_decision", args{"title": "Use PKCE for the login", "content": "public client", "rationale": "no client secret in a SPA", "tags": []any{"auth"}}},
	{"memory_add_mistake", args{"title": "Redirect URI mismatch", "content": "400 from the provider", "root_cause": "localhost port", "fix": "register :8080"}},
	{"memory_add_mistake", args{"title": "redirect uri mismatch", "content": "again, on CI"}},
	{"memory_add_convention", args{"title": "Tokens live in the keychain", "examples": []any{"keyring.Set"}}},
	{"observation", args{"type": "insight", "title": "The provider caches discovery for an hour"}},
	{"memory_search", args{"query": "redirect"}},
	{"memory_search", nil},
	{"memory_context", args{"id": "m2", "before": 1, "after": 1}},
	{"memory_get", args{"ids": []any{"m1", "m2", "m9"}}},
	{"diagnose_error", args{"error": "error: redirect_uri mismatch (400)"}},
	{"memory_prune", args{"type": "insight"}},
	{"memory_prune", args{"type": "insight", "dry_run": false}},
	{"session", args{"action": "start", "goal": "login page"}},
	{"session", args{"action": "update", "decisions": []any{args{"decision": "Use PKCE", "reasoning": "public client"}}, "files_modified": []any{"auth.go"}}},
	{"session", args{"action": "get"}},
	{"session", args{"action": "end", "summary": "login works"}},
	{"session", args{"action": "list"}},
	{"branch", args{"action": "save", "feature": "login", "notes": "behind a flag"}},
	{"branch", args{"action": "get"}},
	{"branch", args{"action": "list"}},
	{"branch", args{"action": "promote"}},
	{"branch", args{"action": "merge", "into": "release"}},
	{"bootstrap", nil},
	{"bootstrap", args{"budget_tokens": 300, "query": "redirect login"}},
	{"detect_project", nil},
	{"optimize_context", args{"query": "login redirect", "budget_tokens": 100}},
	{"get_config", nil},
	{"suggest_next", nil},
	{"query_tkb", args{"query": "sqlite locking"}},
	{"query_tkb", args{"category": "frontend"}},
	{"get_tkb_entry", args{"entry": "knowledge/go/sqlite.md"}},
	{"get_agent", args{"name": "backend"}},
	{"get_competency_matrix", nil},
	{"classify_task", args{"description": "Fix the login bug in the backend handler"}},
	{"get_routing_table", nil},
	{"apply_heuristics", args{"decision": "Use PKCE for the login instead of a client secret"}},
	{"tech_compatibility", nil},
	{"tech_compatibility", args{"stack": []any{"Go", "Redis"}}},
	{"claim_task", nil},
	{"claim_task", args{"id": "5", "lease_seconds": 600}},
	{"get_next_task", nil},
	{"renew_claim", args{"id": "5"}},
	{"get_tasks", nil},
	{"release_task", args{"id": "5", "status": "blocked"}},
	{"claim_task", args{"id": "2"}},
	{"lifecycle_get", nil},
	{"lifecycle_get", args{"definition": "asdd6"}},
	{"lifecycle_init", args{"task_id": "1"}},
	{"lifecycle_advance", args{"id": "1", "evidence": args{"context_loaded": "read the memory"}}},
	{"lifecycle_advance", args{"id": "1", "evidence": args{"context_loaded": "read the memory"}, "hold": true}},
	{"lifecycle_advance", args{"id": "1", "evidence": args{"branch_synced": "main at abc123"}}},
	{"lifecycle_advance", args{"id": "1", "to": "SYNC", "reason": "main moved on"}},
	{"lifecycle_status", args{"id": "1"}},
	{"lifecycle_list", nil},
	{"get_task", args{"id": "1"}},
	{"get_big_picture", nil},
	// Pages of the siblings to the left, counted back from the current task.
	{"switch_focus", args{"task_id": "9"}},
	{"list_siblings", args{"limit": 2}},
	{"list_siblings", args{"offset": 2, "limit": 2, "include_body": true}},
	{"list_siblings", args{"offset": 4}},
	{"list_siblings", args{"limit": 51}},
	{"list_siblings", args{"offset": -1}},
	// A page that does not show YOU ARE HERE says where it is.
	{"get_big_picture", args{"limit": 2}},
}

// TestGolden pins the text of every tool's answer on the scenario above,
// driven through the real server over the SDK's client, on a real SQLite
// file. Each tool's answers are in testdata/<tool>.golden; review changes
// to them in diffs, and regenerate with -update.
func TestGolden(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	compareGolden(t, runGolden(t, st), *update)
}

// TestGoldenPostgres plays the golden scenario on PostgreSQL: every answer
// must be the one the embedded store gives, word for word.
func TestGoldenPostgres(t *testing.T) {
	st, err := postgres.Open(context.Background(), pgtest.URL(t), postgres.Options{Project: pgtest.Project(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	compareGolden(t, runGolden(t, st), false)
}

// runGolden plays the scenario on st and returns each tool's answers.
func runGolden(t *testing.T, st store.Store) map[string]*strings.Builder {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	clock := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	now := func() time.Time { return clock }
	root := filepath.Join(t.TempDir(), "demo")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/demo\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("# Rules\n\n## Login\n- Never log a token.\n- Run `go test ./...` before committing.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for rel, text := range map[string]string{
		"knowledge/go/sqlite.md":     "---\ntitle: SQLite in WAL mode\ncategory: storage\nmaturity: adopted\nuse_cases: [embedded store, tests]\ndescription: One writer, many readers; busy timeout 5 s.\n---\nOpen with journal_mode=WAL and a busy timeout; take the write lock up front (BEGIN IMMEDIATE).\n",
		"knowledge/web/htmx.md":      "---\ntitle: htmx\ncategory: frontend\nmaturity: trial\n---\nServer-rendered fragments.\n",
		"skills/backend/SKILL.md":    "---\nname: backend\ndescription: Go HTTP handlers, services and the store\nexpertise: [go, http, sqlite, login]\n---\n# Backend\nKeep handlers thin.\n",
		".claude/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews a change before it is committed\ntools: Read, Grep\n---\nRead the whole diff.\n",
		"workflows/bugfix.md":        "---\nname: bugfix\ndescription: Reproduce, fix, test a bug\ntriggers: [bug, regression, fix]\n---\n1. Write a failing test.\n",
		"templates/adr.md":           "---\nname: adr\ndescription: An architecture decision record\n---\n# Decision\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for rel, text := range handsFiles {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set := service.New(st, service.Options{Root: root, Memory: memories.MemoryOptions{Branch: func() string { return "feat/login" }}, Now: now})
	srv, err := mcpserver.New(mcpserver.Options{Version: "golden", Toolsets: []string{"all"},
		Services: func(context.Context) (*service.Set, error) { return set, nil }, Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	ct, sst := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, sst, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "golden", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	got := map[string]*strings.Builder{}
	for i, s := range scenario {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: s.tool, Arguments: s.args})
		if err != nil {
			t.Fatalf("step %d %s: %v", i, s.tool, err)
		}
		clock = clock.Add(time.Minute)
		b := got[s.tool]
		if b == nil {
			b = &strings.Builder{}
			got[s.tool] = b
		}
		a, _ := json.Marshal(s.args)
		if s.args == nil {
			a = []byte("{}")
		}
		fmt.Fprintf(b, "### %s %s\n", s.tool, a)
		if res.IsError {
			b.WriteString("(isError)\n")
		}
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		casing(t, s.tool, res.StructuredContent)
		b.WriteString("\n\n")
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, tl := range tools.Tools {
		if got[tl.Name] == nil {
			missing = append(missing, tl.Name)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the golden scenario never calls %s: add a step for each", strings.Join(missing, ", "))
	}
	return got
}

// compareGolden compares each tool's answers with its golden file, or
// writes them there (update).
func compareGolden(t *testing.T, got map[string]*strings.Builder, update bool) {
	t.Helper()
	names := make([]string, 0, len(got))
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		path := filepath.Join("testdata", n+".golden")
		if update {
			if err := os.WriteFile(path, []byte(got[n].String()), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run go test ./internal/mcpserver -run TestGolden -update)", path, err)
			continue
		}
		if string(want) != got[n].String() {
			t.Errorf("%s differs (- golden, + now):\n%s\nIf the change is intended, review it and run go test ./internal/mcpserver -run TestGolden -update",
				path, lineDiff(string(want), got[n].String()))
		}
	}
}

// casing checks a tool's structured answer speaks one casing: no Go field
// names (Path, UseCases), and snake_case and camelCase (the plan
// specification's) not mixed in one answer.
func casing(t *testing.T, tool string, v any) {
	t.Helper()
	b, _ := json.Marshal(v)
	var doc any
	if json.Unmarshal(b, &doc) != nil {
		return
	}
	var snake, camel []string
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				switch {
				case strings.ToUpper(k) == k:
					// a name that is data (a phase such as STORY), not a field
				case k[0] >= 'A' && k[0] <= 'Z':
					t.Errorf("%s answers with the Go field name %q; give it a json tag", tool, k)
				case strings.Contains(k, "_"):
					snake = append(snake, k)
				case strings.ToLower(k) != k:
					camel = append(camel, k)
				}
				if tool == "get_config" || k == "arguments" || k == "metadata" {
					continue // values that are data, not the tool's own fields
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(doc)
	if len(snake) > 0 && len(camel) > 0 {
		t.Errorf("%s mixes snake_case (%s) and camelCase (%s) in one answer", tool, snake[0], camel[0])
	}
}
