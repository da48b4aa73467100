package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

var memoryAll = []string{"--toolsets", "focus,plan,memory,session"}

// gitProject is a project that is a git work tree on branch.
func gitProject(t *testing.T, branch string) string {
	t.Helper()
	dir := cairntest.Project(t)
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/"+branch+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestMemoryThreeLayers: write each type, find it by search (layer 1), see
// its neighbours (layer 2), read it in full (layer 3).
func TestMemoryThreeLayers(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: gitProject(t, "feat/cache"), Args: memoryAll})
	d := s.OK("memory_add_decision", args{"title": "Cache board by data_version", "content": "The plan's graph is cached until PRAGMA data_version changes.",
		"rationale": "another process's write must invalidate it", "alternatives": []string{"file watcher", "no cache"}, "tags": []string{"cache", "sqlite"}})
	if d.Str("id") != "m1" || d.Str("type") != "decision" {
		t.Fatalf("decision: %v", d.Structured)
	}
	s.OK("memory_add_convention", args{"title": "Errors name the field", "content": "Every tool error says field, problem and fix.", "examples": []string{"title is empty: say in a few words"}})
	m := s.OK("memory_add_mistake", args{"title": "database is locked on first open", "root_cause": "WAL switch returns SQLITE_BUSY without waiting",
		"fix": "retry the open within the busy timeout", "prevention": "test concurrent first opens", "files": []string{"internal/store/sqlite/migrate.go"}})
	if m.Structured["occurrences"] != float64(1) {
		t.Fatalf("mistake: %v", m.Structured)
	}
	s.OK("observation", args{"type": "insight", "title": "Parsing SQL dominates a call", "content": "Prepared statements cut create from 3 ms", "discovery_tokens": 5400, "facts": []string{"modernc parses in tens of µs"}})
	s.OK("observation", args{"type": "tool_outcome", "title": "go test -race found nothing new"})

	// Layer 1: compact, ranked, with snippets; nothing but the index.
	r := s.OK("memory_search", args{"query": "cache data version"})
	hits := r.Structured["hits"].([]any)
	if len(hits) == 0 || hits[0].(map[string]any)["id"] != "m1" || r.Str("mode") != "bm25" {
		t.Fatalf("search: %s", r.Text)
	}
	first := hits[0].(map[string]any)
	if first["snippet"] == "" || first["date"] == "" || first["content"] != nil {
		t.Fatalf("index line: %v", first)
	}
	if !strings.Contains(r.Text, "m1 decision") {
		t.Fatalf("search text: %s", r.Text)
	}
	// Filters: type, tag, branch (recorded from .git/HEAD), paging.
	if r := s.OK("memory_search", args{"type": []string{"mistake"}}); r.Structured["total"] != float64(1) {
		t.Fatalf("type filter: %s", r.Text)
	}
	if r := s.OK("memory_search", args{"tag": "sqlite"}); r.Structured["total"] != float64(1) {
		t.Fatalf("tag filter: %s", r.Text)
	}
	if r := s.OK("memory_search", args{"branch": "feat/cache"}); r.Structured["total"] != float64(5) {
		t.Fatalf("branch filter: %s", r.Text)
	}
	if r := s.OK("memory_search", args{"branch": "main"}); r.Structured["total"] != float64(0) {
		t.Fatalf("other branch: %s", r.Text)
	}
	p := s.OK("memory_search", args{"limit": 2})
	if p.Structured["next_offset"] != float64(2) || p.Structured["total"] != float64(5) || p.Str("mode") != "recent" {
		t.Fatalf("page: %v", p.Structured)
	}
	if got := p.Structured["hits"].([]any)[0].(map[string]any)["id"]; got != "m5" {
		t.Fatalf("newest first: %v", got)
	}
	// Layer 2: the neighbours, oldest first, anchor marked.
	c := s.OK("memory_context", args{"id": "m3", "before": 1, "after": 1})
	if !strings.Contains(c.Text, "> m3 mistake") || len(c.Structured["before"].([]any)) != 1 || len(c.Structured["after"].([]any)) != 1 {
		t.Fatalf("context: %s", c.Text)
	}
	// Layer 3: full entries in the order asked; unknown ids reported.
	g := s.OK("memory_get", args{"ids": []any{"m3", 1, "m99"}})
	es := g.Structured["entries"].([]any)
	if len(es) != 2 || es[0].(map[string]any)["fix"] != "retry the open within the busy timeout" || es[1].(map[string]any)["rationale"] == nil {
		t.Fatalf("get: %v", g.Structured)
	}
	if g.Structured["missing"].([]any)[0] != "m99" || !strings.Contains(g.Text, "root cause: WAL switch") {
		t.Fatalf("get text: %s", g.Text)
	}
	obs := s.OK("memory_get", args{"ids": []string{"m4"}}).Structured["entries"].([]any)[0].(map[string]any)
	if obs["discovery_tokens"] != float64(5400) || obs["branch"] != "feat/cache" {
		t.Fatalf("observation: %v", obs)
	}
}

// TestMemoryMistakeCounts: the same mistake again is counted, not copied,
// and diagnose_error finds it from an error text with its fix.
func TestMemoryMistakeCounts(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: memoryAll})
	s.OK("memory_add_mistake", args{"title": "open /tmp/cairn-123/cairn.db: too many open files", "root_cause": "rows not closed", "fix": "defer rows.Close()"})
	s.OK("memory_add_mistake", args{"title": "nil map write in the board cache", "fix": "make the map in NewBoard"})
	again := s.OK("memory_add_mistake", args{"title": "Open /tmp/cairn-987/cairn.db: too many open files", "prevention": "lint for unclosed rows"})
	if again.Structured["counted"] != true || again.Structured["occurrences"] != float64(2) || again.Str("id") != "m1" {
		t.Fatalf("again: %v", again.Structured)
	}
	if r := s.OK("memory_search", args{"type": "mistake"}); r.Structured["total"] != float64(2) {
		t.Fatalf("a copy was added: %s", r.Text)
	}
	dx := s.OK("diagnose_error", args{"error": "panic: open /var/data/cairn.db: too many open files\ngoroutine 1 [running]:"})
	ms := dx.Structured["matches"].([]any)
	if len(ms) == 0 {
		t.Fatalf("diagnose: %s", dx.Text)
	}
	top := ms[0].(map[string]any)
	if top["id"] != "m1" || top["fix"] != "defer rows.Close()" || top["prevention"] != "lint for unclosed rows" || top["occurrences"] != float64(2) {
		t.Fatalf("diagnose top: %v", top)
	}
	if none := s.OK("diagnose_error", args{"error": "kubernetes pod evicted"}); len(none.Structured["matches"].([]any)) != 0 || !strings.Contains(none.Text, "memory_add_mistake") {
		t.Fatalf("diagnose with no match: %s", none.Text)
	}
}

// TestMemoryPrivacy: private spans and secrets never reach the store, and
// the answer says how many were removed.
func TestMemoryPrivacy(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll})
	r := s.OK("memory_add_decision", args{"title": "Deploy with the staging key",
		"content": "Use the staging account. <private>the prod password is hunter2</private> Then run the smoke tests."})
	if r.Structured["redacted"] != float64(1) || !strings.Contains(r.Text, "Redacted 1") {
		t.Fatalf("redaction not reported: %s", r.Text)
	}
	e := s.OK("memory_get", args{"ids": []string{r.Str("id")}}).Structured["entries"].([]any)[0].(map[string]any)
	if strings.Contains(fmt.Sprint(e), "hunter2") || !strings.Contains(e["content"].(string), "smoke tests") {
		t.Fatalf("stored: %v", e)
	}
	s.Close()
	// Nothing of it is in the database file either (WAL included).
	for _, f := range []string{"cairn.db", "cairn.db-wal"} {
		b, err := os.ReadFile(filepath.Join(dir, ".cairn", f))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "hunter2") {
			t.Fatalf("%s holds the private text", f)
		}
	}
}

// TestMemoryPrune: dry run by default lists and keeps; a real prune removes
// by ids, type or age and nothing else.
func TestMemoryPrune(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: memoryAll})
	for i := range 4 {
		s.OK("observation", args{"type": "insight", "title": fmt.Sprint("insight ", i)})
	}
	s.OK("memory_add_decision", args{"title": "keep me"})
	dry := s.OK("memory_prune", args{"type": "insight"})
	if dry.Structured["dry_run"] != true || dry.Structured["total"] != float64(4) || dry.Structured["deleted"] != float64(0) ||
		!strings.Contains(dry.Text, "dry_run false") {
		t.Fatalf("dry run: %s", dry.Text)
	}
	if r := s.OK("memory_search", args{}); r.Structured["total"] != float64(5) {
		t.Fatalf("a dry run removed entries: %s", r.Text)
	}
	// Nothing is older than a day yet.
	if r := s.OK("memory_prune", args{"older_than_days": 1, "dry_run": false}); r.Structured["deleted"] != float64(0) {
		t.Fatalf("age prune: %s", r.Text)
	}
	r := s.OK("memory_prune", args{"ids": []string{"m1", "m2"}, "dry_run": false})
	if r.Structured["deleted"] != float64(2) {
		t.Fatalf("prune ids: %s", r.Text)
	}
	r = s.OK("memory_prune", args{"type": []string{"insight"}, "dry_run": false})
	if r.Structured["deleted"] != float64(2) {
		t.Fatalf("prune type: %s", r.Text)
	}
	left := s.OK("memory_search", args{})
	if left.Structured["total"] != float64(1) || !strings.Contains(left.Text, "keep me") {
		t.Fatalf("left: %s", left.Text)
	}
	if r := s.OK("memory_search", args{"query": "insight"}); r.Structured["total"] != float64(0) {
		t.Fatalf("pruned entries still indexed: %s", r.Text)
	}
	s.Err("memory_prune", args{})
}

// TestSessionsAndBranches: a session records work, threads across a
// restart, ends into its branch's context; promote makes the branch's
// decisions permanent once; merge folds one branch into another.
func TestSessionsAndBranches(t *testing.T) {
	dir := gitProject(t, "feat/login")
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll})
	st := s.OK("session", args{"action": "start", "goal": "add login", "ai": map[string]any{"provider": "anthropic", "model": "claude", "client": "claude-code"}})
	sess := st.Structured["session"].(map[string]any)
	if sess["id"] != "s1" || sess["thread_id"] != "s1" || sess["branch"] != "feat/login" {
		t.Fatalf("start: %v", sess)
	}
	s.OK("session", args{"action": "update", "decisions": []any{map[string]any{"decision": "Use PKCE", "reasoning": "public client"}},
		"files_modified": []string{"auth.go"}, "tasks_pending": []string{"3"}})
	// An entry written now belongs to the open session.
	e := s.OK("memory_add_convention", args{"title": "Tokens live in the keychain"})
	if got := s.OK("memory_get", args{"ids": []string{e.Str("id")}}).Structured["entries"].([]any)[0].(map[string]any)["session_id"]; got != "s1" {
		t.Fatalf("entry session = %v", got)
	}
	s.Close()

	// A reconnect: the new session continues the thread of the open one.
	s = cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll})
	st = s.OK("session", args{"action": "start"})
	sess = st.Structured["session"].(map[string]any)
	if sess["id"] != "s2" || sess["thread_id"] != "s1" || sess["parent_id"] != "s1" || st.Str("previous_ended") != "s1" {
		t.Fatalf("restart: %v", st.Structured)
	}
	s.OK("session", args{"action": "update", "errors_resolved": []any{map[string]any{"error": "redirect_uri mismatch", "fix": "register localhost"}}})
	end := s.OK("session", args{"action": "end", "outcome": "success", "summary": "login works"})
	if end.Structured["session"].(map[string]any)["outcome"] != "success" {
		t.Fatalf("end: %v", end.Structured)
	}
	if bad := s.Err("session", args{"action": "update", "session_id": "s2", "summary": "late"}); !strings.Contains(bad.Text, "ended") {
		t.Fatalf("update of an ended session: %s", bad.Text)
	}
	list := s.OK("session", args{"action": "list", "thread_id": "s1"})
	if list.Structured["total"] != float64(2) {
		t.Fatalf("thread: %s", list.Text)
	}

	// Both sessions' records are in the branch context: s1's from when s2
	// ended it, s2's from its end.
	b := s.OK("branch", args{"action": "get"})
	bc := b.Structured["branch"].(map[string]any)
	if bc["branch"] != "feat/login" || len(bc["errors_resolved"].([]any)) != 1 || len(bc["decisions"].([]any)) != 1 || bc["sessions"] != float64(2) {
		t.Fatalf("branch get: %s", b.Text)
	}
	s.OK("branch", args{"action": "save", "feature": "login", "decisions": []any{map[string]any{"decision": "Sessions expire after 12h", "reasoning": "security review"}}})
	pr := s.OK("branch", args{"action": "promote"})
	if len(pr.Structured["promoted"].([]any)) != 3 { // two decisions, one resolved error
		t.Fatalf("promote: %s", pr.Text)
	}
	again := s.OK("branch", args{"action": "promote"})
	if p, _ := again.Structured["promoted"].([]any); len(p) != 0 || again.Structured["already_promoted"] != float64(3) {
		t.Fatalf("promote twice: %s", again.Text)
	}
	if r := s.OK("memory_search", args{"query": "sessions expire", "type": "decision"}); r.Structured["total"] != float64(1) {
		t.Fatalf("promoted decision not searchable: %s", r.Text)
	}
	m := s.OK("branch", args{"action": "merge", "into": "main"})
	if mb := m.Structured["branch"].(map[string]any); mb["branch"] != "main" || mb["feature"] != "login" {
		t.Fatalf("merge: %s", m.Text)
	}
	l := s.OK("branch", args{"action": "list"})
	if len(l.Structured["branches"].([]any)) != 2 || !strings.Contains(l.Text, "feat/login") || !strings.Contains(l.Text, "<-- current") {
		t.Fatalf("list: %s", l.Text)
	}
	s.Err("branch", args{"action": "merge"})
	s.Err("branch", args{"action": "get", "into": "main"})
}

// TestMemoryCLI: a person reads the same memory from the shell.
func TestMemoryCLI(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll})
	s.OK("memory_add_decision", args{"title": "Use FTS5 for memory search", "rationale": "always available in SQLite"})
	s.Close()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(cairntest.Binary(t), args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("cairn %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := run("memory", "search", "fts5 search"); !strings.Contains(out, "m1     decision") || !strings.Contains(out, "Use FTS5") {
		t.Fatalf("memory search: %s", out)
	}
	if out := run("memory", "show", "m1"); !strings.Contains(out, "rationale: always available") {
		t.Fatalf("memory show: %s", out)
	}
	// Export writes git-visible files; a teammate's clone imports them.
	if out := run("memory", "export"); !strings.Contains(out, "1 written") {
		t.Fatalf("export: %s", out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, ".cairn", "memory", "decisions", "*.md"))
	if len(files) != 1 {
		t.Fatalf("exported files: %v", files)
	}
	if out := run("memory", "export"); !strings.Contains(out, "0 written, 1 unchanged") {
		t.Fatalf("export again: %s", out)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "rationale: always available in SQLite") {
		t.Fatalf("exported file:\n%s", b)
	}
	other := cairntest.Project(t)
	if err := os.MkdirAll(filepath.Join(other, ".cairn", "memory", "decisions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, ".cairn", "memory", "decisions", filepath.Base(files[0])), b, 0o644); err != nil {
		t.Fatal(err)
	}
	runIn := func(d string, args ...string) string {
		t.Helper()
		cmd := exec.Command(cairntest.Binary(t), args...)
		cmd.Dir = d
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("cairn %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if out := runIn(other, "memory", "import"); !strings.Contains(out, "1 added") {
		t.Fatalf("import: %s", out)
	}
	if out := runIn(other, "memory", "import"); !strings.Contains(out, "0 added, 0 updated, 1 unchanged") {
		t.Fatalf("import again: %s", out)
	}
	// An edited file (newer) updates the entry in place.
	edited := strings.Replace(string(b), "always available in SQLite", "always available, even offline", 1)
	edited = strings.Replace(edited, "updated: ", "updated: 2099-01-01T00:00:00Z\nx: ", 1)
	edited = strings.Replace(edited, "\nx: "+strings.SplitN(strings.SplitN(string(b), "updated: ", 2)[1], "\n", 2)[0], "", 1)
	if err := os.WriteFile(filepath.Join(other, ".cairn", "memory", "decisions", filepath.Base(files[0])), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := runIn(other, "memory", "import"); !strings.Contains(out, "1 updated") {
		t.Fatalf("import edited: %s\n%s", out, edited)
	}
	if out := runIn(other, "memory", "show", "m1"); !strings.Contains(out, "even offline") {
		t.Fatalf("after import: %s", out)
	}
}

// TestSessionReadsUnderReadOnly: --read-only keeps the read actions of the
// session and branch tools (get, list) under their names, and refuses
// their writes with the actions it still has.
func TestSessionReadsUnderReadOnly(t *testing.T) {
	dir := gitProject(t, "feat/ro")
	w := cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll})
	w.OK("session", args{"action": "start", "goal": "read me later"})
	w.OK("branch", args{"action": "save", "feature": "ro"})
	w.Close()

	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: append([]string{"--read-only"}, memoryAll...)})
	if l := s.OK("session", args{"action": "list"}); l.Structured["total"] != float64(1) || !strings.Contains(l.Text, "read me later") {
		t.Fatalf("session list under --read-only: %s", l.Text)
	}
	if g := s.OK("branch", args{"action": "get"}); g.Structured["branch"].(map[string]any)["feature"] != "ro" {
		t.Fatalf("branch get under --read-only: %s", g.Text)
	}
	s.OK("branch", args{"action": "list"})
	if e := s.Err("session", args{"action": "start"}); !strings.Contains(e.Text, "action is \"start\": use get or list") {
		t.Fatalf("session start under --read-only: %s", e.Text)
	}
	if e := s.Err("branch", args{"action": "save", "feature": "x"}); !strings.Contains(e.Text, "use get or list") {
		t.Fatalf("branch save under --read-only: %s", e.Text)
	}
}
