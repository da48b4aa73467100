package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// clientHook runs `cairn hook [--client client] event` on the payload
// testdata/hooks/<client>/<fixture>.json (see testdata/hooks/CLIENTS.md);
// with client "" the hook is told no client, as .claude/settings.json's
// hooks are when VS Code runs them.
func clientHook(t *testing.T, dir, client, dirName, event, fixture string) hookRun {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hooks", dirName, fixture+".json"))
	if err != nil {
		t.Fatal(err)
	}
	args := []string{event}
	if client != "" {
		args = []string{"--client", client, event}
	}
	return runHookRaw(t, dir, bytes.ReplaceAll(b, []byte("{{CWD}}"), []byte(dir)), args...)
}

// hookSpecificContext reads hookSpecificOutput.additionalContext for the
// event (the answer of Codex and VS Code, as of Gemini CLI).
func hookSpecificContext(t *testing.T, r hookRun, event string) string {
	t.Helper()
	var out struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.HookSpecificOutput.HookEventName != event {
		t.Fatalf("%s: stdout is not hookSpecificOutput JSON for the event (%v):\n%s\nstderr: %s", event, err, r.stdout, r.stderr)
	}
	// Codex's output schemas allow no other properties, at either level.
	var keys map[string]map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || len(keys) != 1 || len(keys["hookSpecificOutput"]) != 2 {
		t.Errorf("%s: keys other than hookSpecificOutput {hookEventName, additionalContext}: %s", event, r.stdout)
	}
	return out.HookSpecificOutput.AdditionalContext
}

// clientSession starts the server as the agent the client's hooks speak
// for, with a task in focus and a decision the prompt hook can find.
func clientSession(t *testing.T, agent string) (string, *cairntest.Server, string) {
	t.Helper()
	dir := seededProject(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all", "--agent", agent}})
	s.OK("memory_add_decision", map[string]any{"title": "The ledger database runs SQLite in WAL mode",
		"rationale": "readers never block the writer; journal settings are in store.Open"})
	s.OK("create_task", map[string]any{"title": "Make the ledger's journal settings configurable"})
	next := s.OK("get_next_task", nil)
	id := fmt.Sprint(next.Structured["task"].(map[string]any)["id"])
	s.OK("switch_focus", map[string]any{"task_id": id})
	return dir, s, id
}

func checkBootstrap(t *testing.T, ctx, id string) {
	t.Helper()
	for _, want := range []string{"# Cairn: ", "YOU ARE HERE: [" + id + "]", "## Session\n- s1 open since"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("session-start: no %q in:\n%s", want, ctx)
		}
	}
	if len(ctx) >= 9500 {
		t.Errorf("session-start: %d bytes", len(ctx))
	}
}

// checkRecorded: the session holds the edited files, the test run and, if
// failed, the one redacted failure.
func checkRecorded(t *testing.T, s *cairntest.Server, failed bool) {
	t.Helper()
	sess := s.OK("session", map[string]any{"action": "get"})
	got := sess.Structured["session"].(map[string]any)
	if fm := fmt.Sprint(got["files_modified"]); fm != "[internal/ledger/post_test.go internal/ledger/post.go]" && fm != "[internal/ledger/post.go internal/ledger/post_test.go]" {
		t.Errorf("files modified: %s", fm)
	}
	if tr := fmt.Sprint(got["tests"]); !strings.Contains(tr, "command:go test ./internal/ledger -run TestPosting") || !strings.Contains(tr, "ok:true") {
		t.Errorf("tests run: %s", tr)
	}
	fails, _ := got["failures"].([]any)
	if !failed {
		if len(fails) != 0 {
			t.Errorf("failures: %v", fails)
		}
		return
	}
	if len(fails) != 1 || strings.Contains(fmt.Sprint(fails), "hunter2") || !strings.Contains(fmt.Sprint(fails), `column "currency" already exists`) {
		t.Errorf("failures (redacted, with the line that says what went wrong): %v", got["failures"])
	}
}

// TestHooksCodex: Codex CLI's events, answered as its hook schemas say
// (hookSpecificOutput JSON), recorded for the agent its server runs as.
func TestHooksCodex(t *testing.T) {
	dir, s, id := clientSession(t, "codex")
	hook := func(event, fixture string) hookRun { return clientHook(t, dir, "codex", "codex", event, fixture) }

	checkBootstrap(t, hookSpecificContext(t, hook("session-start", "session-start-startup"), "SessionStart"), id)
	if sess := s.OK("session", map[string]any{"action": "get"}); !strings.Contains(sess.Text, "client: codex session 019a6b2e-") {
		t.Errorf("the hook's session is not the tools' agent's, opened by Codex: %s", sess.Text)
	}
	ctx := hookSpecificContext(t, hook("user-prompt-submit", "user-prompt-submit-match"), "UserPromptSubmit")
	if !strings.Contains(ctx, "The ledger database runs SQLite in WAL mode") || len(ctx) > 1000 {
		t.Errorf("user-prompt-submit (match): %q", ctx)
	}
	if r := hook("user-prompt-submit", "user-prompt-submit-nomatch"); r.stdout != "" || r.stderr != "" {
		t.Errorf("user-prompt-submit (no match) printed %q, stderr %q", r.stdout, r.stderr)
	}
	for _, f := range []string{"post-tool-use-apply-patch", "post-tool-use-bash-read", "post-tool-use-bash-test", "post-tool-use-bash-fail"} {
		if r := hook("post-tool-use", f); r.stdout != "" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", f, r.stdout, r.stderr)
		}
	}
	checkRecorded(t, s, true)
	if cand := s.OK("memory_search", map[string]any{"tag": "mistake-candidate"}); !strings.Contains(cand.Text, "Failed: LEDGER_DB_URL=") {
		t.Errorf("mistake candidate: %s", cand.Text)
	}
	for _, c := range []struct{ event, fixture string }{{"pre-compact", "pre-compact-auto"}, {"stop", "stop"}} {
		if r := hook(c.event, c.fixture); r.stdout != "" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", c.fixture, r.stdout, r.stderr)
		}
	}
}

// TestHooksCursor: Cursor's events, answered as its hooks documentation
// says (JSON; additional_context at session start, {} for the rest), and
// its session ended by sessionEnd.
func TestHooksCursor(t *testing.T) {
	dir, s, id := clientSession(t, "cursor")
	hook := func(event, fixture string) hookRun { return clientHook(t, dir, "cursor", "cursor", event, fixture) }

	r := hook("session-start", "session-start")
	var start struct {
		AdditionalContext string `json:"additional_context"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &start); err != nil {
		t.Fatalf("session-start: not Cursor's JSON (%v): %s\nstderr: %s", err, r.stdout, r.stderr)
	}
	checkBootstrap(t, start.AdditionalContext, id)
	if sess := s.OK("session", map[string]any{"action": "get"}); !strings.Contains(sess.Text, "client: cursor session c3f7a1d2-") {
		t.Errorf("the hook's session is not the tools' agent's, opened by Cursor: %s", sess.Text)
	}
	for _, f := range []string{"post-tool-use-edit", "post-tool-use-write", "post-tool-use-read", "post-tool-use-shell-test", "post-tool-use-failure-shell"} {
		if r := hook("post-tool-use", f); r.stdout != "{}\n" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", f, r.stdout, r.stderr)
		}
	}
	checkRecorded(t, s, true)
	for _, c := range []struct{ event, fixture string }{{"pre-compact", "pre-compact"}, {"stop", "stop"}} {
		if r := hook(c.event, c.fixture); r.stdout != "{}\n" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", c.fixture, r.stdout, r.stderr)
		}
	}
	hook("session-end", "session-end")
	if sess := s.OK("session", map[string]any{"action": "get", "session_id": "s1"}); !strings.Contains(sess.Text, "s1 partial") {
		t.Errorf("session after session-end: %s", sess.Text)
	}
}

// TestHooksVSCode: VS Code's events, answered as its agent hooks
// documentation says, whether the hook names the client (.github/hooks) or
// not (VS Code running .claude/settings.json's hooks).
func TestHooksVSCode(t *testing.T) {
	dir, s, id := clientSession(t, "vscode")
	hook := func(event, fixture string) hookRun { return clientHook(t, dir, "vscode", "vscode", event, fixture) }

	// Without --client: the payload is VS Code's, so is the answer.
	checkBootstrap(t, hookSpecificContext(t, clientHook(t, dir, "", "vscode", "session-start", "session-start"), "SessionStart"), id)
	if sess := s.OK("session", map[string]any{"action": "get"}); !strings.Contains(sess.Text, "client: vscode session 5b8e0c2d-") {
		t.Errorf("the hook's session is not the tools' agent's, opened by VS Code: %s", sess.Text)
	}
	for _, f := range []string{"post-tool-use-replace", "post-tool-use-create", "post-tool-use-read", "post-tool-use-terminal-test"} {
		if r := hook("post-tool-use", f); r.stdout != "{}\n" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", f, r.stdout, r.stderr)
		}
	}
	checkRecorded(t, s, false)
	for _, c := range []struct{ event, fixture string }{{"pre-compact", "pre-compact"}, {"stop", "stop"}} {
		if r := hook(c.event, c.fixture); r.stdout != "{}\n" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", c.fixture, r.stdout, r.stderr)
		}
	}
	// A Claude Code payload without --client is still answered as text.
	if r := runHook(t, dir, "session-start", "session-start-resume"); strings.HasPrefix(strings.TrimSpace(r.stdout), "{") || !strings.Contains(r.stdout, "# Cairn: ") {
		t.Errorf("a Claude Code payload was not answered as text: %q", r.stdout)
	}
}
