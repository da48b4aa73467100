package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// seededProject is a fresh copy of a project with 1,000 tasks, 10,000
// memory entries, the default agent focused on a task in progress, and
// real AGENTS.md, CLAUDE.md, go.mod and Makefile, inside a git work tree
// on branch feat/ledger.
func seededProject(t testing.TB) string {
	t.Helper()
	src, err := benchseed.CachedProject(context.Background(), benchseed.DefaultProject)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := benchseed.Clone(src, dir); err != nil {
		t.Fatal(err)
	}
	if err := benchseed.WriteRepoFiles(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/feat/ledger\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func o200k(t testing.TB) func(string) int {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return func(s string) int {
		ids, _, err := enc.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		return len(ids)
	}
}

// TestBootstrapBudgets: bootstrap on a large seeded project stays within
// 500, 1,500 and 4,000 tokens (o200k, counted here independently), always
// shows the essentials, and says what it left out.
func TestBootstrapBudgets(t *testing.T) {
	dir := seededProject(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,context", "--agent", "claude-code"}})
	count := o200k(t)
	var prevLen int
	for _, budget := range []int{500, 1500, 4000} {
		r := s.OK("bootstrap", map[string]any{"budget_tokens": budget})
		n := count(r.Text)
		t.Logf("budget %d: %d tokens, %d bytes", budget, n, len(r.Text))
		if n > budget {
			t.Errorf("budget %d: the text is %d tokens:\n%s", budget, n, r.Text)
		}
		if got := int(r.Structured["tokens"].(float64)); got != n {
			t.Errorf("budget %d: the answer says %d tokens, the text is %d", budget, got, n)
		}
		for _, want := range []string{"# Cairn: ", "branch feat/ledger", "YOU ARE HERE: [", "Next task: Recommended [", "Session: no open session", "tokens (o200k)."} {
			if !strings.Contains(r.Text, want) {
				t.Errorf("budget %d: no %q in:\n%s", budget, want, r.Text)
			}
		}
		if budget < 4000 && !strings.Contains(r.Text, "Left out: ") {
			t.Errorf("budget %d: nothing said to be left out:\n%s", budget, r.Text)
		}
		if len(r.Text) <= prevLen {
			t.Errorf("budget %d: %d bytes, no more than the smaller budget's %d", budget, len(r.Text), prevLen)
		}
		prevLen = len(r.Text)
		if budget == 1500 {
			for _, want := range []string{"## Project", "Go 1.23", "make test", "## Agent instructions", "AGENTS.md › ", "## Conventions\n- m", "## Mistakes to avoid\n- m", "## Decisions\n- m"} {
				if !strings.Contains(r.Text, want) {
					t.Errorf("budget 1500: no %q in:\n%s", want, r.Text)
				}
			}
			t.Logf("bootstrap at 1500 tokens:\n%s", r.Text)
		}
	}
	// A query biases what is chosen.
	r := s.OK("bootstrap", map[string]any{"query": "migration database"})
	if !strings.Contains(r.Text, "AGENTS.md › Database: ") {
		t.Errorf("the query did not bring the Database section forward:\n%s", r.Text)
	}
}

func TestDetectProject(t *testing.T) {
	dir := cairntest.Project(t)
	write := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/api\n\ngo 1.22\n\nrequire github.com/gin-gonic/gin v1.9.0\n")
	write("web/package.json", `{"name":"web","scripts":{"build":"vite build","test":"vitest"},"dependencies":{"react":"18"},"devDependencies":{"typescript":"5","vitest":"1"}}`)
	write("web/pnpm-lock.yaml", "lockfileVersion: '9.0'\n")
	write("ml/pyproject.toml", "[project]\nname = \"ml\"\ndependencies = [\"fastapi>=0.100\", \"pytest\"]\n\n[tool.uv]\n")
	write("ml/uv.lock", "")
	write("node_modules/x/package.json", `{"name":"x"}`)
	write(".github/workflows/ci.yml", "on: push\n")
	write("Dockerfile", "FROM scratch\n")
	write("AGENTS.md", "# Rules\n- Never push to main.\n")
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "context"}})
	r := s.OK("detect_project", map[string]any{})
	t.Log(r.Text)
	for _, want := range []string{"Go 1.22", "Gin", "- web (web): TypeScript from package.json · React, Vitest · build: pnpm run build · test: pnpm test",
		"- ml (ml): Python from pyproject.toml · FastAPI, pytest · build: uv build · test: uv run pytest", "CI: .github/workflows/ci.yml",
		"containers: Dockerfile", "agent instructions: AGENTS.md"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("no %q in:\n%s", want, r.Text)
		}
	}
	if strings.Contains(r.Text, "node_modules") {
		t.Errorf("node_modules was scanned:\n%s", r.Text)
	}
	// A new module is seen on the next call (the cache follows mtimes).
	write("svc/Cargo.toml", "[package]\nname = \"svc\"\n\n[dependencies]\ntokio = \"1\"\n")
	r = s.OK("detect_project", map[string]any{})
	if !strings.Contains(r.Text, "- svc (svc): Rust from Cargo.toml · Tokio") {
		t.Errorf("the new module is missing:\n%s", r.Text)
	}
}

var _ = exec.Command

func TestGetConfig(t *testing.T) {
	dir := cairntest.Project(t)
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("- Never skip tests.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,context"}, Env: []string{"CAIRN_AGENT=builder"}})
	r := s.OK("get_config", map[string]any{})
	t.Log(r.Text)
	for _, want := range []string{
		"server.toolsets: default,context  [flag --toolsets]",
		"server.read_only: false  [default]",
		"agent: builder  [env CAIRN_AGENT]",
		"project root: " + dir + "  [detected: the nearest .cairn or .git upward from the working directory]",
		"store: SQLite " + filepath.Join(dir, ".cairn", "cairn.db") + "  [default (CAIRN_DATABASE_URL unset)]",
		"embeddings: off: memory search is BM25 only",
		"budgets.bootstrap_tokens: 1500  [default]",
		"agent instructions: CLAUDE.md  [detected]",
	} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("no %q in:\n%s", want, r.Text)
		}
	}
}

// TestSuggestNext: the next steps follow where the agent is, each a tool
// call with its arguments, and say when a tool is not served.
func TestSuggestNext(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,context"}})
	r := s.OK("suggest_next", map[string]any{})
	if !strings.Contains(r.Text, "1. create_new_task {}: zen") || !strings.Contains(r.Text, `session {"action":"start"}`) || !strings.Contains(r.Text, "[in the session toolset: enable it with the toolsets tool") {
		t.Errorf("empty project:\n%s", r.Text)
	}
	s.OK("create_task", map[string]any{"title": "Ship the parser"})
	r = s.OK("suggest_next", map[string]any{})
	if !strings.Contains(r.Text, `1. switch_focus {"task_id":"1"}: zen: no current task. Recommended [1] "Ship the parser"`) {
		t.Errorf("zen with a ready task:\n%s", r.Text)
	}
	s.OK("switch_focus", map[string]any{"task_id": "1"})
	if r := s.OK("suggest_next", map[string]any{}); !strings.Contains(r.Text, "1. update_current_task {}: you are on [1] Ship the parser") || !strings.Contains(r.Text, "(fill in body)") {
		t.Errorf("on a task:\n%s", r.Text)
	}
	s.OK("create_new_task", map[string]any{"title": "Lexer"})
	s.OK("complete_current_task", map[string]any{})
	r = s.OK("suggest_next", map[string]any{})
	if !strings.Contains(r.Text, "1. complete_current_task {}: the 1 subtask of [1] Ship the parser is done") ||
		!strings.Contains(r.Text, `session {"action":"start","goal":"Ship the parser"}`) {
		t.Errorf("subtasks done:\n%s", r.Text)
	}
	sug := r.Structured["suggestions"].([]any)[0].(map[string]any)
	if sug["tool"] != "complete_current_task" {
		t.Errorf("structured: %v", sug)
	}
}

// TestOptimizeContext: within a budget, the most relevant memory, tasks
// and instruction lines; what is dropped is said.
func TestOptimizeContext(t *testing.T) {
	dir := cairntest.Project(t)
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("## Database\n- Never edit a merged migration.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,context"}})
	s.OK("memory_add_decision", map[string]any{"title": "Migrations run in one transaction each", "rationale": "a failed migration leaves no half schema"})
	s.OK("memory_add_mistake", map[string]any{"title": "Edited a merged migration", "fix": "add a new migration instead"})
	s.OK("memory_add_convention", map[string]any{"title": "Handlers stay thin"})
	s.OK("create_task", map[string]any{"title": "Write the accounts migration"})
	r := s.OK("optimize_context", map[string]any{"query": "merged migration", "budget_tokens": 200})
	t.Log(r.Text)
	for _, want := range []string{"- mistake m2 Edited a merged migration", "- AGENTS.md › Database: Never edit a merged migration.", "- [1] Write the accounts migration"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("no %q in:\n%s", want, r.Text)
		}
	}
	if strings.Contains(r.Text, "Handlers stay thin") {
		t.Errorf("an unrelated entry was chosen:\n%s", r.Text)
	}
	// A small budget drops the rest and says so.
	r = s.OK("optimize_context", map[string]any{"query": "merged migration", "budget_tokens": 50})
	if !strings.Contains(r.Text, "over the budget") || int(r.Structured["tokens"].(float64)) > 50 {
		t.Errorf("budget 50:\n%s", r.Text)
	}
	// Named candidates.
	r = s.OK("optimize_context", map[string]any{"query": "migration", "candidates": []string{"m1", "m3", "1"}})
	if !strings.Contains(r.Text, "m1 Migrations run") || strings.Contains(r.Text, "- convention m3") || !strings.Contains(r.Text, "1 matching none") {
		t.Errorf("candidates:\n%s", r.Text)
	}
	e := s.Err("optimize_context", map[string]any{"query": "the and"})
	if !strings.Contains(e.Text, "query") {
		t.Errorf("a query of stop words: %s", e.Text)
	}
}

// TestKnowledgeEmpty: a project without knowledge folders gets answers
// that say so and what to add; a folder added later is read on the next
// call.
func TestKnowledgeEmpty(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "context"}})
	for tool, want := range map[string]string{
		"query_tkb":             "This project has no knowledge base yet: add Markdown files under knowledge/",
		"get_competency_matrix": "This project has no skills or agents yet: add Markdown files under skills/NAME/SKILL.md or .claude/agents/",
		"get_routing_table":     "This project has no routing table",
	} {
		if r := s.OK(tool, map[string]any{}); !strings.HasPrefix(r.Text, want) {
			t.Errorf("%s: %s", tool, r.Text)
		}
	}
	if r := s.OK("classify_task", map[string]any{"description": "add a login page"}); !strings.HasPrefix(r.Text, "This project has no skills, agents, workflows or templates yet") {
		t.Errorf("classify_task: %s", r.Text)
	}
	if r := s.Err("get_agent", map[string]any{"name": "backend"}); !strings.Contains(r.Text, "the project has none yet") {
		t.Errorf("get_agent: %s", r.Text)
	}
	p := filepath.Join(dir, "knowledge", "ops", "deploy.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("---\ntitle: Deploys\ncategory: ops\n---\nBlue-green, never on Fridays.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := s.OK("query_tkb", map[string]any{"query": "deploys fridays"}); !strings.Contains(r.Text, "- knowledge/ops/deploy.md · ops: Deploys") {
		t.Errorf("a knowledge base added later: %s", r.Text)
	}
}
