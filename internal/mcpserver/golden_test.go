package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// update regenerates the golden files: go test ./internal/mcpserver -run TestGolden -update
var update = flag.Bool("update", false, "rewrite testdata/*.txtar from this run")

// step is one call of the golden scenario.
type step struct {
	tool string
	args map[string]any
}

// rivalClaims is a step that is not a call: another agent, "rival", claims
// the task args["id"] names for an hour, through the service.
const rivalClaims = "(rival claims)"

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
	{"loop_start", args{"objective": "Flaky test hunt", "completion_criteria": "100 green runs", "metadata": args{"priority": "high"}}},
	{"loop_start", args{"objective": "Flaky test hunt", "completion_criteria": "100 green runs",
		"description": "TestCheckout fails about once in 30 runs on CI, never locally.", "metadata": args{"ticket": "CI-412", "runs": args{"ci": 30, "local": 0}}}},
	{"loop_fail", args{"id": "9", "message": "runner died", "recoverable": false}},
	{"loop_status", args{"id": "9"}},
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
	{"feedback", args{"rating": "good", "tool": "memory_search", "note": "found the PKCE decision"}},
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
	{"lifecycle_advance", args{"id": "1"}},
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
	// Insight over the calls above (their latencies are real time, so
	// tool_usage is asked about a tool never called).
	{"model_performance", nil},
	{"model_performance", args{"by": "agent", "task_type": "frontend"}},
	{"model_compare", args{"models": []any{"m1", "m2"}}},
	{"model_recommend", args{"task": "style the login form"}},
	{"model_recommend", nil},
	{"feedback", args{"rating": "bad", "session_id": "s1", "by": "person", "note": "slow"}},
	{"feedback", args{"rating": "meh"}},
	{"model_performance", args{"class": "unknown"}},
	{"project_health", nil},
	{"tool_usage", args{"tool": "no_such_tool"}},
	// Evolution: too few sessions to learn from; a draft by hand,
	// approved, reviewed and reverted; another rejected.
	{"evolution_status", nil},
	{"evolution_analyze", args{"dry_run": true}},
	{"draft_create", args{"kind": "workflow", "title": "Release checklist", "content": "---\nname: release\n---\n1. tests\n2. tag\n"}},
	{"draft_create", args{"kind": "rule", "title": "No sleeps in tests", "content": "Wait on a condition, never on time."}},
	{"draft_create", args{"kind": "nonsense"}},
	{"draft_list", args{"kind": "workflow"}},
	{"draft_approve", args{"id": "workflow-release-checklist"}},
	{"draft_approve", args{"id": "workflow-release-checklist"}},
	{"draft_reject", args{"id": "rule-no-sleeps-in-tests", "reason": "covered by the style guide"}},
	{"evolution_review", nil},
	{"evolution_revert", args{"seq": 1}},
	{"evolution_revert", args{"seq": 1}},
	{"draft_list", nil},
	// One name in common with a past mistake, and another type of error:
	// not similar.
	{"diagnose_error", args{"error": "Traceback (most recent call last):\n  File \"auth.py\", line 9, in callback\n    uri = params['redirect_uri']\nKeyError: 'redirect_uri'"}},
	// Focus on a task that waits names what it waits on; completing it
	// is refused for the same.
	{"create_task", args{"title": "Write release notes"}},
	{"create_task", args{"title": "Publish", "dependencies": []any{11}}},
	{"switch_focus", args{"task_id": "12"}},
	{"complete_current_task", nil},
	// Another agent's claim: focus passes over its task, and writes to it
	// are refused unless forced.
	{rivalClaims, args{"id": "1"}},
	{"switch_focus", args{"task_id": "11"}},
	{"complete_current_task", nil},
	{"update_task", args{"id": "1", "title": "Ship it"}},
	{"delete_task", args{"id": "1"}},
	{"switch_focus", args{"task_id": "1"}},
	{"get_current_task", nil},
	{"bootstrap", args{"budget_tokens": 300}},
	{"update_task", args{"id": "1", "priority": "high", "force": true}},
	{"scaffold", args{"level": "full", "dry_run": true}},
}

// TestGolden pins every tool's answers on the scenario above, their text
// and their structuredContent, driven through the real server over the
// SDK's client, on a real SQLite file. Each tool's answers are a txtar
// archive, testdata/<tool>.txtar, as the SDK pins its conformance
// exchanges: for each call its arguments, its text and its
// structuredContent. Review changes to them in diffs, and regenerate with
// -update.
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
func runGolden(t *testing.T, st store.Store) map[string]*archive {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// The clock is read by the services' background work too (the insight
	// recorder stamps events), hence atomic.
	var clock atomic.Int64
	clock.Store(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC).UnixNano())
	now := func() time.Time { return time.Unix(0, clock.Load()).UTC() }
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

	got := map[string]*archive{}
	for i, s := range scenario {
		if s.tool == rivalClaims {
			if _, err := set.Plan.Claim(ctx, plan.ClaimRequest{Agent: "rival", Ref: s.args["id"].(string), LeaseSeconds: 3600}); err != nil {
				t.Fatalf("step %d: rival claims %v: %v", i, s.args["id"], err)
			}
			continue
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: s.tool, Arguments: s.args})
		if err != nil {
			t.Fatalf("step %d %s: %v", i, s.tool, err)
		}
		clock.Add(int64(time.Minute))
		ar := got[s.tool]
		if ar == nil {
			ar = &archive{Comment: []byte(s.tool + ": its answers in the golden scenario (golden_test.go), the same on SQLite and PostgreSQL.\n" +
				"For each call: its arguments, its text and its structuredContent.\n" +
				"Regenerate with go test ./internal/mcpserver -run TestGolden -update, and review the diff.\n")}
			got[s.tool] = ar
		}
		n := len(ar.Files)/3 + 1
		ar.Files = append(ar.Files, goldenCall(t, s, n, res)...)
		casing(t, s.tool, res.StructuredContent)
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var missing []string
	for _, tl := range tools.Tools {
		// toolsets answers with token costs that move with every
		// description: TestToolsetsCall tests it instead.
		if got[tl.Name] == nil && tl.Name != "toolsets" {
			missing = append(missing, tl.Name)
		}
	}
	if len(missing) > 0 {
		t.Errorf("the golden scenario never calls %s: add a step for each", strings.Join(missing, ", "))
	}
	return got
}

// goldenCall is one call's files in its tool's archive: "call N" holds the
// arguments, "call N text" the text (marked isError for a refusal) and
// "call N structuredContent" the structured result, indented.
func goldenCall(t *testing.T, s step, n int, res *mcp.CallToolResult) []file {
	t.Helper()
	args, err := json.Marshal(s.args)
	if err != nil {
		t.Fatal(err)
	}
	if s.args == nil {
		args = []byte("{}")
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if marker.MatchString(text.String()) {
		t.Fatalf("%s call %d: a line of its text reads as a txtar file marker: %q", s.tool, n, text.String())
	}
	var structured bytes.Buffer
	scrubUIDs(t, res.StructuredContent)
	enc := json.NewEncoder(&structured)
	enc.SetEscapeHTML(false) // "<-- YOU ARE HERE" as the client reads it
	enc.SetIndent("", "  ")
	if err := enc.Encode(res.StructuredContent); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("call %d", n)
	textName := name + " text"
	if res.IsError {
		textName += " (isError)"
	}
	return []file{
		{Name: name, Data: append(args, '\n')},
		{Name: textName, Data: []byte(text.String() + "\n")},
		{Name: name + " structuredContent", Data: structured.Bytes()},
	}
}

// scrubUIDs replaces each memory entry's uid in a structured answer, random
// by design (memory.NewUID), with a placeholder, once it has checked its
// shape: the archives pin that it is there, not its value.
func scrubUIDs(t *testing.T, v any) {
	t.Helper()
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && k == "uid" {
				if !memory.ValidUID(s) {
					t.Errorf("uid %q is not one memory.NewUID makes", s)
				}
				x[k] = "(a random uid)"
				continue
			}
			scrubUIDs(t, e)
		}
	case []any:
		for _, e := range x {
			scrubUIDs(t, e)
		}
	}
}

// An archive is a txtar archive (golang.org/x/tools/txtar, the format of
// the SDK's conformance files): a comment, then files, each a line
// "-- name --" and its lines.
type archive struct {
	Comment []byte
	Files   []file
}

type file struct {
	Name string
	Data []byte
}

// format is the archive as txtar.Format writes it: every part ends with a
// newline.
func (a *archive) format() []byte {
	var b bytes.Buffer
	nl := func(d []byte) {
		b.Write(d)
		if len(d) > 0 && d[len(d)-1] != '\n' {
			b.WriteByte('\n')
		}
	}
	nl(a.Comment)
	for _, f := range a.Files {
		fmt.Fprintf(&b, "-- %s --\n", f.Name)
		nl(f.Data)
	}
	return b.Bytes()
}

// marker is a line that txtar would take for the start of a file.
var marker = regexp.MustCompile(`(?m)^-- .* --$`)

// compareGolden compares each tool's answers with its golden file, or
// writes them there (update).
func compareGolden(t *testing.T, got map[string]*archive, update bool) {
	t.Helper()
	names := make([]string, 0, len(got))
	for n := range got {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		path := filepath.Join("testdata", n+".txtar")
		now := got[n].format()
		if update {
			if err := os.WriteFile(path, now, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run go test ./internal/mcpserver -run TestGolden -update)", path, err)
			continue
		}
		if string(want) != string(now) {
			t.Errorf("%s differs (- golden, + now):\n%s\nIf the change is intended, review it and run go test ./internal/mcpserver -run TestGolden -update",
				path, lineDiff(string(want), string(now)))
		}
	}
	if update {
		// A tool the scenario no longer calls leaves no stale archive.
		files, _ := filepath.Glob(filepath.Join("testdata", "*.txtar"))
		for _, f := range files {
			if got[strings.TrimSuffix(filepath.Base(f), ".txtar")] == nil {
				if err := os.Remove(f); err != nil {
					t.Fatal(err)
				}
			}
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
