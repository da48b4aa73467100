package e2e

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/wait"
)

// hookRun is one `cairn hook EVENT` run.
type hookRun struct {
	stdout, stderr string
	took           time.Duration
}

// runHook feeds the recorded payload testdata/hooks/<fixture>.json (its
// {{CWD}} replaced with dir) to `cairn hook event` and requires exit 0.
func runHook(t *testing.T, dir, event, fixture string) hookRun {
	t.Helper()
	var payload []byte
	if fixture != "" {
		b, err := os.ReadFile(filepath.Join("testdata", "hooks", fixture+".json"))
		if err != nil {
			t.Fatal(err)
		}
		payload = bytes.ReplaceAll(b, []byte("{{CWD}}"), []byte(dir))
	}
	return runHookRaw(t, dir, payload, event)
}

func runHookRaw(t *testing.T, dir string, stdin []byte, args ...string) hookRun {
	t.Helper()
	return runHookEnv(t, dir, nil, stdin, args...)
}

// runHookEnv is runHookRaw with env added to the process's environment.
func runHookEnv(t *testing.T, dir string, env []string, stdin []byte, args ...string) hookRun {
	t.Helper()
	cmd := exec.Command(cairntest.Binary(t), append([]string{"hook"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "CAIRN_PROJECT_ROOT="), env...)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("cairn hook %v: %v (a hook must exit 0)\nstderr: %s", args, err, errb.String())
	}
	return hookRun{out.String(), errb.String(), time.Since(start)}
}

// TestHooks feeds every event's recorded payloads, in the order a Claude
// Code session sends them, to the real binary on a seeded project, and
// checks each answer's form and size and what the store recorded.
func TestHooks(t *testing.T) {
	dir := seededProject(t)
	// The tools speak for the agent the hooks speak for: Claude Code's
	// client name.
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all", "--agent", "claude-code"}})
	s.OK("memory_add_decision", map[string]any{"title": "The ledger database runs SQLite in WAL mode",
		"rationale": "readers never block the writer; journal settings are in store.Open"})

	// SessionStart, startup: the bootstrap on stdout, well under the cap.
	r := runHook(t, dir, "session-start", "session-start-startup")
	if r.stderr != "" || !strings.HasPrefix(r.stdout, "# Cairn: ") || len(r.stdout) >= 9500 {
		t.Fatalf("session-start: %d bytes, stderr %q:\n%s", len(r.stdout), r.stderr, r.stdout)
	}
	for _, want := range []string{"YOU ARE HERE: [", "Next task: ", "## Session\n- s1 open since", "## Agent instructions", "of 1500 tokens (estimated)."} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("session-start: no %q in:\n%s", want, r.stdout)
		}
	}
	// The hook estimates tokens (a new process would spend most of its time
	// building the o200k encoder); the estimate is an upper bound.
	if n := o200k(t)(r.stdout); n > 1500 {
		t.Errorf("session-start: %d o200k tokens, over the 1,500 budget", n)
	}
	// Whatever the budget asked for and the instructions hold, the text
	// stays under the client's cap.
	f, err := os.OpenFile(filepath.Join(dir, "CLAUDE.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2000 {
		fmt.Fprintf(f, "- Never call `legacy.Post%d` directly; always go through the ledger service, which must validate every posting first.\n", i)
	}
	f.Close()
	big, _ := os.ReadFile(filepath.Join("testdata", "hooks", "session-start-resume.json"))
	r = runHookRaw(t, dir, bytes.ReplaceAll(big, []byte("{{CWD}}"), []byte(dir)), "session-start", "--budget", "20000")
	if len(r.stdout) >= 9500 || !strings.Contains(r.stdout, "Left out: ") {
		t.Errorf("session-start --budget 20000: %d bytes:\n%s", len(r.stdout), r.stdout)
	}
	sess := s.OK("session", map[string]any{"action": "get"})
	if !strings.Contains(sess.Text, "s1 open") || !strings.Contains(sess.Text, "anthropic claude-sonnet-4-5-20250929 via claude-code") {
		t.Errorf("the session was not opened with the client's model: %s", sess.Text)
	}

	// UserPromptSubmit: a few index lines when memory matches well,
	// nothing otherwise.
	r = runHook(t, dir, "user-prompt-submit", "user-prompt-submit-match")
	if !strings.Contains(r.stdout, "decision m10001 The ledger database runs SQLite in WAL mode") || strings.Count(r.stdout, "\n- ") > 3 || len(r.stdout) > 1000 {
		t.Errorf("user-prompt-submit (match): %q", r.stdout)
	}
	if r := runHook(t, dir, "user-prompt-submit", "user-prompt-submit-nomatch"); r.stdout != "" || r.stderr != "" {
		t.Errorf("user-prompt-submit (no match) printed %q, stderr %q", r.stdout, r.stderr)
	}

	// PostToolUse and PostToolUseFailure: recorded, nothing printed.
	for _, f := range []string{"post-tool-use-edit", "post-tool-use-write", "post-tool-use-write-outside", "post-tool-use-read", "post-tool-use-bash-test", "post-tool-use-failure-bash"} {
		if r := runHook(t, dir, "post-tool-use", f); r.stdout != "" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", f, r.stdout, r.stderr)
		}
	}
	sess = s.OK("session", map[string]any{"action": "get"})
	if !strings.Contains(sess.Text, "files modified: internal/ledger/post_test.go, internal/ledger/post.go\n") {
		t.Errorf("files modified, newest first (and nothing outside the project): %s", sess.Text)
	}
	got := sess.Structured["session"].(map[string]any)
	if tr, _ := got["tests"].([]any); len(tr) != 1 || tr[0].(map[string]any)["command"] != "go test ./internal/ledger -run TestPosting" || tr[0].(map[string]any)["ok"] != true {
		t.Errorf("tests run: %v", got["tests"])
	}
	failed, _ := got["failures"].([]any)
	if len(failed) != 1 || strings.Contains(fmt.Sprint(failed), "hunter2") || !strings.Contains(failed[0].(map[string]any)["command"].(string), "make migrate-check") ||
		!strings.Contains(failed[0].(map[string]any)["line"].(string), `column "currency" already exists`) {
		t.Errorf("failures (redacted, with the line that says what went wrong): %v", got["failures"])
	}
	cand := s.OK("memory_search", map[string]any{"tag": "mistake-candidate"})
	if !strings.Contains(cand.Text, "Failed: LEDGER_DB_URL=") || strings.Contains(cand.Text, "hunter2") {
		t.Errorf("mistake candidate: %s", cand.Text)
	}
	// The same failure again updates the candidate instead of adding one.
	runHook(t, dir, "post-tool-use", "post-tool-use-failure-bash")
	if again := s.OK("memory_search", map[string]any{"tag": "mistake-candidate"}); strings.Count(again.Text, "Failed: ") != 1 {
		t.Errorf("a repeated failure added a second candidate: %s", again.Text)
	}

	// PreCompact: nothing to fold, the record is in the store as it
	// happens; the session goes on. SessionStart after compaction carries
	// on the same session.
	for _, f := range []string{"pre-compact-auto", "pre-compact-manual"} {
		if r := runHook(t, dir, "pre-compact", f); r.stdout != "" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", f, r.stdout, r.stderr)
		}
	}
	for _, src := range []string{"compact", "resume"} {
		r = runHook(t, dir, "session-start", "session-start-"+src)
		if !strings.Contains(r.stdout, "- s1 open since") || !strings.Contains(r.stdout, "files modified: internal/ledger/post_test.go, internal/ledger/post.go") || len(r.stdout) >= 9500 {
			t.Errorf("session-start %s did not carry on s1 with its record:\n%s", src, r.stdout)
		}
	}
	// Stop writes nothing; an active stop hook does nothing either.
	for _, f := range []string{"stop", "stop-active"} {
		if r := runHook(t, dir, "stop", f); r.stdout != "" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", f, r.stdout, r.stderr)
		}
	}
	// SessionEnd ends the session, its outcome worked out from its record
	// (its tests passed, but the failed migration check was not run
	// again), and notes its summary in the branch.
	runHook(t, dir, "session-end", "session-end-prompt_input_exit")
	sess = s.OK("session", map[string]any{"action": "get", "session_id": "s1"})
	if !strings.Contains(sess.Text, "s1 partial") || !strings.Contains(sess.Text, "partial: tests passed, but 1 failed command(s) were not run again successfully") ||
		!strings.Contains(sess.Text, "(recorded) s1, ") {
		t.Errorf("session after session-end: %s", sess.Text)
	}
	br := s.OK("branch", map[string]any{"action": "get"})
	if !strings.Contains(br.Text, "· 1 session") || !strings.Contains(br.Text, "(recorded) s1, ") || strings.Count(br.Text, "files modified: internal/ledger/post.go, internal/ledger/post_test.go") != 1 {
		t.Errorf("branch after session-end: %s", br.Text)
	}
	// The client's session has ended: the end events have nothing to do.
	for _, f := range []string{"session-end-clear", "session-end-logout", "session-end-other"} {
		if r := runHook(t, dir, "session-end", f); r.stdout != "" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", f, r.stdout, r.stderr)
		}
	}
	// /clear gives the client a new session id: a new session.
	r = runHook(t, dir, "session-start", "session-start-clear")
	if !strings.Contains(r.stdout, "- s2 open since") {
		t.Errorf("session-start clear: %s", r.stdout)
	}
}

// geminiHook runs `cairn hook --client gemini event` on the payload
// testdata/hooks/gemini/<fixture>.json, written from Gemini CLI's hooks
// reference (its {{CWD}} replaced with dir).
func geminiHook(t *testing.T, dir, event, fixture string) hookRun {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hooks", "gemini", fixture+".json"))
	if err != nil {
		t.Fatal(err)
	}
	return runHookRaw(t, dir, bytes.ReplaceAll(b, []byte("{{CWD}}"), []byte(dir)), "--client", "gemini", event)
}

// geminiContext reads the context a Gemini CLI hook gives the model: JSON,
// hookSpecificOutput.additionalContext, for the event it answered.
func geminiContext(t *testing.T, r hookRun, event string) string {
	t.Helper()
	var out struct {
		HookSpecificOutput struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.HookSpecificOutput.HookEventName != event {
		t.Fatalf("%s: stdout is not Gemini CLI's hook JSON for the event (%v):\n%s", event, err, r.stdout)
	}
	return out.HookSpecificOutput.AdditionalContext
}

// TestHooksGemini: Gemini CLI's events, in the order a session sends them,
// answered as Gemini CLI wants (JSON on stdout, context in
// additionalContext) for the agent its server runs as (cairn init writes
// serve --agent gemini-cli), so the hooks and the tools share YOU ARE HERE.
func TestHooksGemini(t *testing.T) {
	dir := seededProject(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all", "--agent", "gemini-cli"}})
	s.OK("memory_add_decision", map[string]any{"title": "The ledger database runs SQLite in WAL mode",
		"rationale": "readers never block the writer; journal settings are in store.Open"})
	s.OK("create_task", map[string]any{"title": "Make the ledger's journal settings configurable"})
	next := s.OK("get_next_task", nil)
	id := fmt.Sprint(next.Structured["task"].(map[string]any)["id"])
	s.OK("switch_focus", map[string]any{"task_id": id})

	ctx := geminiContext(t, geminiHook(t, dir, "session-start", "session-start-startup"), "SessionStart")
	for _, want := range []string{"# Cairn: ", "YOU ARE HERE: [" + id + "]", "## Session\n- s1 open since"} {
		if !strings.Contains(ctx, want) {
			t.Errorf("session-start: no %q in:\n%s", want, ctx)
		}
	}
	if len(ctx) >= 9500 {
		t.Errorf("session-start: %d bytes", len(ctx))
	}
	if sess := s.OK("session", map[string]any{"action": "get"}); !strings.Contains(sess.Text, "s1 open") || !strings.Contains(sess.Text, "client: gemini-cli session 8d2f61c4-") {
		t.Errorf("the hook's session is not the tools' agent's, opened by Gemini CLI: %s", sess.Text)
	}

	ctx = geminiContext(t, geminiHook(t, dir, "user-prompt-submit", "before-agent-match"), "BeforeAgent")
	if !strings.Contains(ctx, "The ledger database runs SQLite in WAL mode") || len(ctx) > 1000 {
		t.Errorf("user-prompt-submit (match): %q", ctx)
	}
	if r := geminiHook(t, dir, "user-prompt-submit", "before-agent-nomatch"); r.stdout != "" || r.stderr != "" {
		t.Errorf("user-prompt-submit (no match) printed %q, stderr %q", r.stdout, r.stderr)
	}

	for _, f := range []string{"after-tool-replace", "after-tool-write", "after-tool-read", "after-tool-shell-test", "after-tool-shell-fail"} {
		if r := geminiHook(t, dir, "post-tool-use", f); r.stdout != "" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", f, r.stdout, r.stderr)
		}
	}
	sess := s.OK("session", map[string]any{"action": "get"})
	got := sess.Structured["session"].(map[string]any)
	if fm := fmt.Sprint(got["files_modified"]); fm != "[internal/ledger/post_test.go internal/ledger/post.go]" {
		t.Errorf("files modified: %s", fm)
	}
	if tr := fmt.Sprint(got["tests"]); !strings.Contains(tr, "command:go test ./internal/ledger -run TestPosting") || !strings.Contains(tr, "ok:true") {
		t.Errorf("tests run: %s", tr)
	}
	failed, _ := got["failures"].([]any)
	if len(failed) != 1 || strings.Contains(fmt.Sprint(failed), "hunter2") || !strings.Contains(fmt.Sprint(failed), `column "currency" already exists`) {
		t.Errorf("failures (redacted, with the line that says what went wrong): %v", got["failures"])
	}
	if cand := s.OK("memory_search", map[string]any{"tag": "mistake-candidate"}); !strings.Contains(cand.Text, "Failed: LEDGER_DB_URL=") {
		t.Errorf("mistake candidate: %s", cand.Text)
	}

	for _, c := range []struct{ event, fixture string }{{"pre-compact", "pre-compress-auto"}, {"stop", "after-agent"}} {
		if r := geminiHook(t, dir, c.event, c.fixture); r.stdout != "" || r.stderr != "" {
			t.Errorf("%s printed %q, stderr %q", c.fixture, r.stdout, r.stderr)
		}
	}
	geminiHook(t, dir, "session-end", "session-end-exit")
	if sess := s.OK("session", map[string]any{"action": "get", "session_id": "s1"}); !strings.Contains(sess.Text, "s1 partial") {
		t.Errorf("session after session-end: %s", sess.Text)
	}
	if br := s.OK("branch", map[string]any{"action": "get"}); !strings.Contains(br.Text, "internal/ledger/post.go") {
		t.Errorf("branch after session-end: %s", br.Text)
	}
	// A client the hook does not know: one line on stderr, nothing else.
	if r := runHookRaw(t, dir, nil, "--client", "zed", "session-start"); r.stdout != "" || !strings.Contains(r.stderr, `--client "zed": use one of claude-code, gemini, codex, cursor, vscode`) {
		t.Errorf("--client zed: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

// TestHookNeverFails: whatever goes wrong, a hook exits 0 with one line on
// stderr and prints nothing the client would add to the context.
func TestHookNeverFails(t *testing.T) {
	dir := cairntest.Project(t)
	noProject := t.TempDir()
	cases := []struct {
		name  string
		dir   string
		stdin string
		args  []string
	}{
		{"bad JSON", dir, "{not json", []string{"session-start"}},
		{"a JSON array", dir, "[1,2]", []string{"post-tool-use"}},
		{"no project", noProject, `{"hook_event_name":"SessionStart","source":"startup","cwd":"` + noProject + `"}`, []string{"session-start"}},
		{"unknown event", dir, "{}", []string{"bogus"}},
		{"no event", dir, "{}", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runHookRaw(t, c.dir, []byte(c.stdin), c.args...)
			if r.stdout != "" {
				t.Errorf("stdout %q", r.stdout)
			}
			if strings.Count(r.stderr, "\n") != 1 || !strings.HasPrefix(r.stderr, "cairn hook") {
				t.Errorf("stderr is not one line: %q", r.stderr)
			}
		})
	}
	// A flag a later version adds is ignored, not an error.
	if r := runHookRaw(t, dir, []byte("{}"), "stop", "--bogus"); r.stdout != "" || r.stderr != "" {
		t.Errorf("unknown flag: stdout %q, stderr %q", r.stdout, r.stderr)
	}
}

// TestHookOutlivesNoDeadline: with another process holding the store's
// write lock, a hook waited out the store's 10 s busy timeout, past the
// client's own 10 s (issue 34, attack 15). It now exits 0 at its deadline
// with one line on stderr, and SIGTERM ends it at once the same way.
func TestHookOutlivesNoDeadline(t *testing.T) {
	dir := cairntest.Project(t)
	runHook(t, dir, "session-start", "session-start-startup")
	db, err := sql.Open("sqlite", filepath.Join(dir, ".cairn", "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK")
	payload, err := os.ReadFile(filepath.Join("testdata", "hooks", "post-tool-use-write.json"))
	if err != nil {
		t.Fatal(err)
	}
	payload = bytes.ReplaceAll(payload, []byte("{{CWD}}"), []byte(dir))
	r := runHookRaw(t, dir, payload, "post-tool-use", "--deadline", "300ms")
	if !strings.Contains(r.stderr, "took over 300ms") || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("a hook blocked by a lock: stderr %q", r.stderr)
	}

	// SIGTERM, with a deadline far off: under load the default 8 s could
	// pass before the signal is sent, and that is the case above.
	cmd := exec.Command(cairntest.Binary(t), "hook", "post-tool-use", "--deadline", "10m")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CAIRN_PROJECT_ROOT=")
	cmd.Stdin = bytes.NewReader(payload)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill() // if the test fails before the signal
	// Once the hook has the store open it waits on the lock, its guard set
	// long before: poll the open files of the hook, another process.
	wait.Until(t, time.Minute, "the hook to open the store", func() bool {
		fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", cmd.Process.Pid))
		for _, fd := range fds {
			if l, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", cmd.Process.Pid, fd.Name())); strings.HasSuffix(l, "cairn.db") {
				return true
			}
		}
		return false
	})
	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil || !strings.Contains(errb.String(), "stopped by terminated") {
		t.Fatalf("SIGTERM: %v (a hook must exit 0, saying why)\nstderr: %s", err, errb.String())
	}
}
