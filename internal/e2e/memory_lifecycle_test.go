package e2e

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tiktoken-go/tokenizer"
	_ "modernc.org/sqlite"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// onBothStores runs fn against the embedded store and, when the test
// database is configured, a PostgreSQL project of its own.
func onBothStores(t *testing.T, fn func(t *testing.T, env []string)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, nil) })
	t.Run("postgres", func(t *testing.T) {
		fn(t, []string{"CAIRN_DATABASE_URL=" + pgtest.URL(t), "CAIRN_PROJECT=" + pgtest.Project(t)})
	})
}

func hitIDs(r cairntest.Result) []string {
	var out []string
	hits, _ := r.Structured["hits"].([]any)
	for _, h := range hits {
		out = append(out, h.(map[string]any)["id"].(string))
	}
	return out
}

func hasID(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// TestMemoryMistakeOccurrences (issue 15 item 2): recording a known mistake
// again keeps the first analysis and each occurrence's own words; the
// answer says what was merged into what; memory_get shows the occurrences.
func TestMemoryMistakeOccurrences(t *testing.T) { onBothStores(t, testMistakeOccurrences) }

func testMistakeOccurrences(t *testing.T, env []string) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: memoryAll, Env: env})
	first := s.OK("memory_add_mistake", args{"title": "Migration fails on /tmp/run-41/db: disk I/O error", "content": "first seen locally",
		"root_cause": "tmpfs full", "fix": "clean tmp", "prevention": "check free space"})
	id := first.Str("id")
	again := s.OK("memory_add_mistake", args{"title": "migration fails on /tmp/run-97/db: Disk I/O error", "content": "again, on CI", "root_cause": "same"})
	if again.Str("id") != id || again.Structured["occurrence"] != float64(2) || again.Structured["counted"] != true {
		t.Fatalf("second recording: %v", again.Structured)
	}
	if !strings.Contains(again.Text, "occurrence 2 of "+id) || !strings.Contains(again.Text, "first analysis is kept") {
		t.Fatalf("answer does not say what was merged into what: %s", again.Text)
	}
	third := s.OK("memory_add_mistake", args{"title": "Migration fails on /tmp/x/db: disk I/O error", "content": "third", "fix": "mount a bigger tmpfs", "replace_analysis": true})
	if !strings.Contains(third.Text, "occurrence 3 of "+id) || !strings.Contains(third.Text, "replaced its fix") {
		t.Fatalf("third: %s", third.Text)
	}
	g := s.OK("memory_get", args{"ids": []string{id}})
	e := g.Structured["entries"].([]any)[0].(map[string]any)
	if e["root_cause"] != "tmpfs full" || e["prevention"] != "check free space" || e["fix"] != "mount a bigger tmpfs" || e["content"] != "first seen locally" {
		t.Fatalf("analysis not kept (or not replaced on request): %v", e)
	}
	if e["occurrences"] != float64(3) {
		t.Fatalf("occurrences: %v", e["occurrences"])
	}
	recent := e["recent_occurrences"].([]any)
	if len(recent) != 3 || recent[0].(map[string]any)["n"] != float64(3) || recent[1].(map[string]any)["root_cause"] != "same" ||
		recent[1].(map[string]any)["content"] != "again, on CI" {
		t.Fatalf("recent occurrences: %v", recent)
	}
	for _, want := range []string{"seen 3 times", "latest occurrences (3 of 3)", "again, on CI", "(its root cause: same)", "root cause: tmpfs full"} {
		if !strings.Contains(g.Text, want) {
			t.Errorf("memory_get text lacks %q:\n%s", want, g.Text)
		}
	}
	// What the answer costs, in o200k_base tokens (text and structured).
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	structured, _ := json.Marshal(g.Structured)
	textTokens, _, _ := enc.Encode(g.Text)
	jsonTokens, _, _ := enc.Encode(string(structured))
	t.Logf("memory_get of a mistake seen 3 times: text %d bytes, %d tokens; structuredContent %d bytes, %d tokens:\n%s",
		len(g.Text), len(textTokens), len(structured), len(jsonTokens), g.Text)
}

// TestMemoryConcurrentMistakes: four real processes on one project record
// the same mistake and 400 distinct ones at once: no occurrence is lost,
// no two distinct titles merge.
func TestMemoryConcurrentMistakes(t *testing.T) {
	dir := cairntest.Project(t)
	const procs, each = 4, 100
	servers := make([]*cairntest.Server, procs)
	for i := range servers {
		servers[i] = cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll})
	}
	var wg sync.WaitGroup
	errs := make(chan string, procs*each*2)
	for p, s := range servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				n := p*each + i
				if r := s.Call("memory_add_mistake", args{"title": fmt.Sprintf("flaky test %d in worker", n), "content": fmt.Sprintf("run %d", n)}); r.IsError {
					errs <- r.Text
				}
				if r := s.Call("memory_add_mistake", args{"title": fmt.Sprintf("Deadlock at pool.go:%d:%d after %dms", n, p, n*3),
					"content": fmt.Sprintf("proc %d call %d", p, i), "root_cause": fmt.Sprintf("cause from %d", n)}); r.IsError {
					errs <- r.Text
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatalf("a recording failed: %s", e)
	}
	s := servers[0]
	all := s.OK("memory_search", args{"type": "mistake", "limit": 1})
	if all.Structured["total"] != float64(procs*each+1) {
		t.Fatalf("mistakes: %v, want %d distinct flaky tests and one deadlock", all.Structured["total"], procs*each+1)
	}
	d := s.OK("memory_search", args{"query": "deadlock pool", "type": "mistake"})
	ids := hitIDs(d)
	if len(ids) != 1 {
		t.Fatalf("deadlock entries: %v", ids)
	}
	g := s.OK("memory_get", args{"ids": ids})
	e := g.Structured["entries"].([]any)[0].(map[string]any)
	if e["occurrences"] != float64(procs*each) {
		t.Fatalf("deadlock counted %v times, want %d", e["occurrences"], procs*each)
	}
	// Every occurrence has its own row with its own words.
	db, err := sql.Open("sqlite", filepath.Join(dir, ".cairn", "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var rows, distinct int
	if err := db.QueryRow(`SELECT count(*), count(DISTINCT o.content) FROM memory_occurrences o JOIN memory_entries e ON e.id = o.entry_id WHERE e.title LIKE 'Deadlock%'`).Scan(&rows, &distinct); err != nil {
		t.Fatal(err)
	}
	if rows != procs*each || distinct != procs*each {
		t.Fatalf("occurrence rows %d (%d distinct contents), want %d", rows, distinct, procs*each)
	}
}

// TestMemorySupersede: the old entry is kept but hidden from search,
// memory_context and diagnose_error; include_superseded shows it; memory_get
// shows both directions.
func TestMemorySupersede(t *testing.T) { onBothStores(t, testSupersede) }

func testSupersede(t *testing.T, env []string) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: memoryAll, Env: env})
	old := s.OK("memory_add_decision", args{"title": "Cache sessions in Redis", "rationale": "fast"}).Str("id")
	oldMistake := s.OK("memory_add_mistake", args{"title": "Redis timeout on login", "fix": "raise the timeout"}).Str("id")
	nw := s.OK("memory_add_decision", args{"title": "Cache sessions in process memory", "content": "Redis is gone", "supersedes": old})
	if nw.Str("supersedes") != old || !strings.Contains(nw.Text, old+" is now superseded by "+nw.Str("id")) {
		t.Fatalf("supersede answer: %s", nw.Text)
	}
	s.OK("memory_add_mistake", args{"title": "Login timeout from the session cache", "fix": "drop the Redis call", "supersedes": oldMistake})

	if ids := hitIDs(s.OK("memory_search", args{"query": "cache sessions"})); hasID(ids, old) || !hasID(ids, nw.Str("id")) {
		t.Fatalf("search shows the superseded entry (or not the new one): %v", ids)
	}
	r := s.OK("memory_search", args{"query": "cache sessions", "include_superseded": true})
	if ids := hitIDs(r); !hasID(ids, old) {
		t.Fatalf("include_superseded: %v", ids)
	}
	if !strings.Contains(r.Text, "[superseded by "+nw.Str("id")+"]") {
		t.Fatalf("superseded hit not marked: %s", r.Text)
	}
	if d := s.OK("diagnose_error", args{"error": "Redis timeout on login"}); strings.Contains(d.Text, oldMistake+" mistake") {
		t.Fatalf("diagnose_error lists the superseded mistake: %s", d.Text)
	}
	c := s.OK("memory_context", args{"id": nw.Str("id")})
	if strings.Contains(c.Text, old+" ") {
		t.Fatalf("memory_context lists the superseded entry: %s", c.Text)
	}
	g := s.OK("memory_get", args{"ids": []string{old, nw.Str("id")}})
	es := g.Structured["entries"].([]any)
	if es[0].(map[string]any)["superseded_by"] != nw.Str("id") || es[1].(map[string]any)["supersedes"].([]any)[0] != old {
		t.Fatalf("memory_get directions: %v", es)
	}
	if !strings.Contains(g.Text, "SUPERSEDED by "+nw.Str("id")) || !strings.Contains(g.Text, "supersedes "+old) {
		t.Fatalf("memory_get text: %s", g.Text)
	}
}

// TestMemoryStaleFiles: an entry naming files remembers them, and the
// parts of them it points at (lines, symbols its text names as code). A
// search hit and memory_get say it is stale only when such a part changed
// or the file is gone; a file it names as a whole that changed is "file
// changed since", whatever else changed is not news, and lines that moved
// say where they are now.
func TestMemoryStaleFiles(t *testing.T) {
	dir := cairntest.Project(t)
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const z = "package z\n\nfunc Parse(s string) int {\n\treturn len(s)\n}\n\nfunc Other() int { return 1 }\n"
	write("internal/x.go", "package x\n")
	write("internal/y.go", "package y\n")
	write("internal/z.go", z)
	write("README.md", "hello\n")
	write("docs/notes.md", "one\ntwo\nthree\nfour\n")
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll})
	id := s.OK("memory_add_convention", args{"title": "Stores wrap errors with the verb", "files": []string{"internal/x.go", "internal/y.go", "README.md", "missing.go"}}).Str("id")
	parse := s.OK("memory_add_decision", args{"title": "Parse counts bytes", "content": "`Parse` returns the length in bytes, not runes", "files": []string{"internal/z.go"}}).Str("id")
	notes := s.OK("observation", args{"type": "context", "title": "The notes name the steps", "files": []string{"docs/notes.md:2-3"}}).Str("id")
	if r := s.OK("memory_search", args{"query": "stores wrap errors"}); strings.Contains(r.Text, "stale") || strings.Contains(r.Text, "changed") {
		t.Fatalf("fresh entry marked: %s", r.Text)
	}
	write("internal/x.go", "package x // changed\n")
	if err := os.Remove(filepath.Join(dir, "internal/y.go")); err != nil {
		t.Fatal(err)
	}
	write("internal/z.go", strings.Replace(z, "return 1", "return 2", 1))
	write("docs/notes.md", "zero\none\ntwo\nthree\nfour\n")
	r := s.OK("memory_search", args{"query": "stores wrap errors"})
	hit := r.Structured["hits"].([]any)[0].(map[string]any)
	if fmt.Sprint(hit["stale"]) != "[internal/y.go: gone]" || fmt.Sprint(hit["files_changed"]) != "[internal/x.go]" ||
		!strings.Contains(r.Text, "[stale: internal/y.go: gone]") || !strings.Contains(r.Text, "[file changed since "+hit["date"].(string)+": internal/x.go]") {
		t.Fatalf("stale hit: %v\n%s", hit, r.Text)
	}
	g := s.OK("memory_get", args{"ids": []string{id}})
	if !strings.Contains(g.Text, "STALE: what it points at changed or is gone since recorded: internal/y.go: gone") ||
		!strings.Contains(g.Text, "file changed since ") || !strings.Contains(g.Text, ": internal/x.go (it names no lines or symbol there") {
		t.Fatalf("memory_get: %s", g.Text)
	}
	// Another function of z.go changed: the decision still holds.
	if g := s.OK("memory_get", args{"ids": []string{parse}}); strings.Contains(g.Text, "STALE") || strings.Contains(g.Text, "changed since") {
		t.Fatalf("another function changed, and the entry is marked: %s", g.Text)
	}
	write("internal/z.go", strings.Replace(z, "len(s)", "utf8.RuneCountInString(s)", 1))
	if g := s.OK("memory_get", args{"ids": []string{parse}}); !strings.Contains(g.Text, "STALE: what it points at changed or is gone since recorded: internal/z.go: func Parse changed") {
		t.Fatalf("Parse changed: %s", g.Text)
	}
	// The lines a name gives moved down one: where they are now.
	if g := s.OK("memory_get", args{"ids": []string{notes}}); strings.Contains(g.Text, "STALE") || !strings.Contains(g.Text, "moved since recorded: docs/notes.md:2-3: lines 2-3 now lines 3-4") {
		t.Fatalf("moved lines: %s", g.Text)
	}
}

// TestMemoryExpiry: an observation with expires_in_days leaves search
// once its time has passed; memory_get still shows it, marked expired.
func TestMemoryExpiry(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll})
	id := s.OK("observation", args{"type": "insight", "title": "The staging database is read-only this week", "expires_in_days": 7}).Str("id")
	s.OK("observation", args{"type": "insight", "title": "The staging database lives in eu-west"})
	if ids := hitIDs(s.OK("memory_search", args{"query": "staging database"})); !hasID(ids, id) {
		t.Fatalf("unexpired observation not found: %v", ids)
	}
	if g := s.OK("memory_get", args{"ids": []string{id}}); !strings.Contains(g.Text, "expires ") {
		t.Fatalf("memory_get: %s", g.Text)
	}
	// A week passes: move the expiry into the past, as the clock would.
	db, err := sql.Open("sqlite", filepath.Join(dir, ".cairn", "cairn.db")+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE memory_entries SET expires_at = ? WHERE id = ?`, time.Now().Add(-time.Hour).UnixMicro(), strings.TrimPrefix(id, "m")); err != nil {
		t.Fatal(err)
	}
	if ids := hitIDs(s.OK("memory_search", args{"query": "staging database"})); hasID(ids, id) || len(ids) != 1 {
		t.Fatalf("expired observation still searched: %v", ids)
	}
	g := s.OK("memory_get", args{"ids": []string{id}})
	if !strings.Contains(g.Text, "EXPIRED") || g.Structured["entries"].([]any)[0].(map[string]any)["expired"] != true {
		t.Fatalf("memory_get of an expired entry: %s", g.Text)
	}
}

// TestMemoryContextType: free-form project context is stored with the
// observation tool and found again in the three layers.
func TestMemoryContextType(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: memoryAll})
	id := s.OK("observation", args{"type": "context", "title": "How billing talks to the ledger", "content": "billing posts events to ledger over NATS; ledger owns balances"}).Str("id")
	r := s.OK("memory_search", args{"query": "ledger balances", "type": "context"})
	if ids := hitIDs(r); len(ids) != 1 || ids[0] != id || !strings.Contains(r.Text, id+" context") {
		t.Fatalf("search: %s", r.Text)
	}
	s.OK("memory_context", args{"id": id})
	if g := s.OK("memory_get", args{"ids": []string{id}}); !strings.Contains(g.Text, "NATS") {
		t.Fatalf("get: %s", g.Text)
	}
}

// TestMemoryWorktrees (issue 11): two real git worktrees of one repository
// share one store: a decision recorded in one is found from the other, and
// keeps the branch it was recorded on.
func TestMemoryWorktrees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	git := func(dir string, a ...string) {
		t.Helper()
		cmd := exec.CommandContext(context.Background(), "git", a...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", a, err, out)
		}
	}
	if err := os.Mkdir(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(repo, "init", "-q", "-b", "main")
	git(repo, "commit", "-q", "--allow-empty", "-m", "first")
	wtA, wtB := filepath.Join(base, "wt-a"), filepath.Join(base, "wt-b")
	git(repo, "worktree", "add", "-q", "-b", "feat-a", wtA)
	git(repo, "worktree", "add", "-q", "-b", "feat-b", wtB)
	if err := os.Mkdir(filepath.Join(wtB, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}

	a := cairntest.Start(t, cairntest.Options{Dir: wtA, Args: memoryAll})
	id := a.OK("memory_add_decision", args{"title": "Retry uploads with jittered backoff", "rationale": "the CDN throttles bursts"}).Str("id")
	a.Close()
	b := cairntest.Start(t, cairntest.Options{Dir: filepath.Join(wtB, "sub"), Args: memoryAll})
	r := b.OK("memory_search", args{"query": "jittered backoff"})
	if ids := hitIDs(r); len(ids) != 1 || ids[0] != id {
		t.Fatalf("from the other worktree: %s", r.Text)
	}
	if ids := hitIDs(b.OK("memory_search", args{"query": "jittered backoff", "branch": "feat-a"})); len(ids) != 1 {
		t.Fatalf("branch filter feat-a: %v", ids)
	}
	if ids := hitIDs(b.OK("memory_search", args{"query": "jittered backoff", "branch": "feat-b"})); len(ids) != 0 {
		t.Fatalf("branch filter feat-b: %v", ids)
	}
	if g := b.OK("memory_get", args{"ids": []string{id}}); !strings.Contains(g.Text, "branch feat-a") {
		t.Fatalf("branch kept: %s", g.Text)
	}
	if _, err := os.Stat(filepath.Join(repo, ".cairn", "cairn.db")); err != nil {
		t.Fatalf("the store is not the main worktree's: %v", err)
	}
	for _, wt := range []string{wtA, wtB} {
		if _, err := os.Stat(filepath.Join(wt, ".cairn", "cairn.db")); err == nil {
			t.Fatalf("%s has a store of its own", wt)
		}
	}
}
