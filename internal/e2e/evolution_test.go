package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestEvolutionThroughTheBinary: over a planted history in the project's
// store, the real server's evolution_analyze applies the confident
// changes to files on disk, the next bootstrap announces them,
// evolution_revert restores the bytes, and a draft made by hand is
// approved into the project and another rejected.
func TestEvolutionThroughTheBinary(t *testing.T) {
	t.Parallel()
	dir := cairntest.Project(t)
	st, err := sqlite.Open(context.Background(), project.DBPath(dir), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := benchseed.DefaultEvolutionShape(3)
	h.End = time.Now().UTC()
	p, err := benchseed.SeedEvolution(context.Background(), st, h)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,context,evolution"}})
	dry := s.OK("evolution_analyze", args{"dry_run": true})
	if !strings.Contains(dry.Text, "rule:"+p.MistakeFingerprint) || !strings.Contains(dry.Text, "workflow:plan_next>run_tests>record_outcome") {
		t.Fatalf("the dry run misses planted patterns:\n%s", dry.Text)
	}
	r := s.OK("evolution_analyze", nil)
	if !strings.Contains(r.Text, "Applied change 1") {
		t.Fatalf("nothing applied:\n%s", r.Text)
	}
	rules, _ := filepath.Glob(filepath.Join(dir, "knowledge", "rules", "*.md"))
	if len(rules) != 1 {
		t.Fatalf("rule files on disk: %v", rules)
	}
	if b := s.OK("bootstrap", nil); !strings.Contains(b.Text, "Evolution applied on its own") {
		t.Fatalf("bootstrap does not announce the change:\n%s", b.Text)
	}
	if h := runHook(t, dir, "session-start", "session-start-startup"); !strings.Contains(h.stdout, "Evolution applied on its own") {
		t.Fatalf("the session-start hook does not announce the change:\n%s", h.stdout)
	}
	// Revert every applied change: the rule file is gone again.
	for _, line := range strings.Split(r.Text, "\n") {
		if rest, ok := strings.CutPrefix(line, "Applied change "); ok {
			seq, _, _ := strings.Cut(rest, ":")
			n, _ := strconv.Atoi(seq)
			s.OK("evolution_revert", args{"seq": n})
		}
	}
	if _, err := os.Stat(rules[0]); !os.IsNotExist(err) {
		t.Fatalf("the rule survived its revert: %v", err)
	}
	s.OK("draft_create", args{"kind": "workflow", "title": "Release", "content": "1. tests\n2. tag\n"})
	s.OK("draft_approve", args{"id": "workflow-release"})
	if b, err := os.ReadFile(filepath.Join(dir, "workflows", "release.md")); err != nil || string(b) != "1. tests\n2. tag\n" {
		t.Fatalf("approved workflow: %q %v", b, err)
	}
	s.OK("draft_create", args{"kind": "rule", "title": "No sleeps", "content": "never sleep in tests"})
	s.OK("draft_reject", args{"id": "rule-no-sleeps"})
	if l := s.OK("draft_list", args{"status": "rejected"}); !strings.Contains(l.Text, "rule-no-sleeps") {
		t.Fatalf("draft_list: %s", l.Text)
	}
	if st := s.OK("evolution_status", nil); !strings.Contains(st.Text, "log entries") {
		t.Fatalf("status: %s", st.Text)
	}
}

// TestEvolutionFromRealHooks builds its history through the real hooks: in
// six Claude Code sessions the same migration fails (its temp path
// differs each time), in two others a one-off error; evolution_analyze
// finds the recurring one with its six sessions, drafts a rule for it and
// proposes nothing from the one-offs; the draft is approved into the
// knowledge folder.
func TestEvolutionFromRealHooks(t *testing.T) {
	t.Parallel()
	dir := cairntest.Project(t)
	// The analysis is asked for below, not run by the session-end hook.
	if err := os.WriteFile(filepath.Join(dir, ".cairn", "config.toml"), []byte("[evolution]\nlearning_sessions = 0\nanalyze_on_session_end = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hookSessions(t, dir, 0, 6, 2)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,evolution"}})
	r := s.OK("evolution_analyze", nil)
	cands, _ := r.Structured["candidates"].([]any)
	var rule map[string]any
	for _, c := range cands {
		c := c.(map[string]any)
		if c["action"] != "pending" && c["kind"] != "rule" {
			t.Errorf("proposed from noise: %v", c["key"])
		}
		if c["kind"] == "rule" {
			if rule != nil {
				t.Errorf("two rule candidates: %v and %v", rule["key"], c["key"])
			}
			rule = c
		}
	}
	if rule == nil {
		t.Fatalf("no rule for the recurring failure:\n%s", r.Text)
	}
	if ev := rule["evidence"].(map[string]any); num(ev["count"]) != 6 || rule["action"] != "draft" {
		t.Fatalf("rule candidate: %d sessions, action %v (want 6, draft):\n%s", num(ev["count"]), rule["action"], r.Text)
	}
	drafted, _ := r.Structured["drafted"].([]any)
	if len(drafted) != 1 {
		t.Fatalf("drafted %v", drafted)
	}
	id := drafted[0].(string)
	s.OK("draft_approve", args{"id": id})
	rules, _ := filepath.Glob(filepath.Join(dir, "knowledge", "rules", "*.md"))
	if len(rules) != 1 {
		t.Fatalf("approved rule files: %v", rules)
	}
	if b, _ := os.ReadFile(rules[0]); !strings.Contains(string(b), "recurred in 6 sessions") {
		t.Fatalf("the rule: %s", b)
	}
	// Found again, it is not proposed again.
	if again := s.OK("evolution_analyze", args{"dry_run": true}); !strings.Contains(again.Text, "already drafted") {
		t.Fatalf("second analysis:\n%s", again.Text)
	}
}

// TestBoardDraftsBrowser: the board's Drafts page in headless Chromium
// lists the drafts with their evidence; a read-only token sees no
// controls and its POST is refused; a read-write token approves one (the
// file lands in the project) and rejects another, through the same
// service as the tools.
func TestBoardDraftsBrowser(t *testing.T) {
	ctx := browser(t)
	dir := cairntest.Project(t)
	st, err := sqlite.Open(context.Background(), project.DBPath(dir), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := benchseed.DefaultEvolutionShape(4)
	h.End = time.Now().UTC()
	if _, err := benchseed.SeedEvolution(context.Background(), st, h); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// Nothing clears the auto bar: every proposal is a draft.
	if err := os.WriteFile(filepath.Join(dir, ".cairn", "config.toml"), []byte("[evolution]\nauto_confidence = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := cairntest.StartHTTP(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,evolution"},
		Env: []string{"CAIRN_TOKENS=" + boardRW + ":*:rw;" + boardRO + ":*:ro"}})
	agent := srv.Connect(cairntest.Client{Name: "claude", Header: http.Header{"Authorization": {"Bearer " + boardRW}}})
	r := agent.OK("evolution_analyze", nil)
	var rule, workflow string
	for _, d := range r.Structured["drafted"].([]any) {
		switch id := d.(string); {
		case strings.HasPrefix(id, "rule-"):
			rule = id
		case strings.HasPrefix(id, "workflow-"):
			workflow = id
		}
	}
	if rule == "" || workflow == "" {
		t.Fatalf("drafts: %v\n%s", r.Structured["drafted"], r.Text)
	}
	shots := screenshots(t)
	var forms, items int
	run(t, ctx, 15*time.Second, "drafts, read-only", chromedp.Navigate(srv.URL+"/#token="+boardRO), live(),
		chromedp.Navigate(srv.URL+"/drafts"), live(), mainHas("recurring mistake"), mainHas("12 of"),
		chromedp.Evaluate(`document.querySelectorAll("main form").length`, &forms),
		chromedp.Evaluate(`document.querySelectorAll("li.draft").length`, &items))
	if forms != 0 || items != 4 {
		t.Errorf("read-only drafts page: %d forms, %d drafts (want 0 and 4)", forms, items)
	}
	var status int
	run(t, ctx, 10*time.Second, "post anyway", chromedp.Evaluate(`fetch("/draft/`+rule+`/approve", {method: "POST"}).then(r => r.status)`, &status,
		func(p *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return p.WithAwaitPromise(true) }))
	if status != http.StatusForbidden {
		t.Errorf("a read-only board's approve: status %d, want 403", status)
	}
	shoot(t, ctx, shots, "drafts-read-only")
	// The clicks submit forms, so they go through submit (a navigation under
	// them is their answer) and only waits and reads through run, which
	// starts over when the page changes under it.
	run(t, ctx, 20*time.Second, "drafts, read-write", chromedp.Navigate(srv.URL+"/#token="+boardRW), live(),
		chromedp.Navigate(srv.URL+"/drafts"), live(), chromedp.WaitVisible("#draft-"+rule+" button.approve", chromedp.ByQuery))
	submit(t, ctx, "#draft-"+rule+" button.approve")
	run(t, ctx, 20*time.Second, "approve", chromedp.WaitNotPresent("#draft-"+rule, chromedp.ByQuery), live(),
		chromedp.WaitVisible("#draft-"+workflow+" button.reject", chromedp.ByQuery),
		chromedp.SetValue("#draft-"+workflow+" input[name=reason]", "not our way", chromedp.ByQuery))
	submit(t, ctx, "#draft-"+workflow+" button.reject")
	run(t, ctx, 20*time.Second, "reject", chromedp.WaitNotPresent("#draft-"+workflow, chromedp.ByQuery), live(),
		chromedp.Evaluate(`document.querySelectorAll("li.draft").length`, &items))
	if items != 2 {
		t.Errorf("%d drafts still awaiting, want 2", items)
	}
	shoot(t, ctx, shots, "drafts")
	rules, _ := filepath.Glob(filepath.Join(dir, "knowledge", "rules", "*.md"))
	if len(rules) != 1 {
		t.Errorf("approved from the board: rule files %v", rules)
	}
	if l := agent.OK("draft_list", args{"status": "rejected"}); !strings.Contains(l.Text, workflow) {
		t.Errorf("the rejection did not reach the service: %s", l.Text)
	}
}

// hookSessions runs Claude Code sessions through the real hooks: in the
// first recurring (numbered from from) the same migration fails (its temp path differs each
// time), in the next oneOffs a one-off error each.
func hookSessions(t *testing.T, dir string, from, recurring, oneOffs int) {
	t.Helper()
	hook := func(event, id string, fields map[string]any) {
		payload := map[string]any{"session_id": id, "cwd": dir, "transcript_path": "/tmp/t.jsonl", "permission_mode": "default"}
		for k, v := range fields {
			payload[k] = v
		}
		b, err := json.Marshal(payload)
		if err != nil {
			t.Fatal(err)
		}
		runHookRaw(t, dir, b, event)
	}
	fail := func(id, command, errText string) {
		hook("post-tool-use", id, map[string]any{"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "tool_use_id": "toolu_" + id,
			"tool_input": map[string]any{"command": command}, "error": errText, "is_interrupt": false})
	}
	for i := range recurring + oneOffs {
		id := fmt.Sprintf("%08d-7d3b-4c1e-9a55-0b8e2d4f6a71", from+i)
		hook("session-start", id, map[string]any{"hook_event_name": "SessionStart", "source": "startup", "model": "claude-sonnet-4-5"})
		if i < recurring {
			fail(id, "make migrate-check", fmt.Sprintf("Exit code 2\nmigrate: open /tmp/mig-%d/0007_accounts.sql: column \"currency\" already exists\nmake: *** [Makefile:14: migrate-check] Error 1", 1000+i*37))
		} else {
			fail(id, "go vet ./...", fmt.Sprintf("Exit code 1\nvet: pkg%d/x.go:3:1: unreachable code number %d", i, i))
		}
		hook("session-end", id, map[string]any{"hook_event_name": "SessionEnd", "reason": "other"})
	}
}

// TestEvolutionAfterSessionEnd: with nothing but the hooks, the
// session-end hook's analysis drafts the rule once the mistake has
// recurred in five sessions (the draft bar), with those five as evidence.
func TestEvolutionAfterSessionEnd(t *testing.T) {
	t.Parallel()
	dir := cairntest.Project(t)
	if err := os.WriteFile(filepath.Join(dir, ".cairn", "config.toml"), []byte("[evolution]\nlearning_sessions = 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hookSessions(t, dir, 0, 4, 0)
	if drafts, _ := filepath.Glob(filepath.Join(dir, ".cairn", "drafts", "rules", "*.md")); len(drafts) != 0 {
		t.Fatalf("drafted after 4 sessions: %v", drafts)
	}
	hookSessions(t, dir, 4, 1, 0)
	drafts, _ := filepath.Glob(filepath.Join(dir, ".cairn", "drafts", "rules", "*.md"))
	if len(drafts) != 1 {
		t.Fatalf("after the fifth session: drafts %v", drafts)
	}
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,evolution"}})
	l := s.OK("draft_list", nil)
	ds, _ := l.Structured["drafts"].([]any)
	if len(ds) != 1 || num(ds[0].(map[string]any)["evidence"].(map[string]any)["count"]) != 5 {
		t.Fatalf("draft_list: %s", l.Text)
	}
}
