package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// hookPayload is the recorded payload testdata/hooks/<fixture>.json for dir,
// with its tool_input's fields replaced by set.
func hookPayload(t *testing.T, dir, fixture string, set map[string]any) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "hooks", fixture+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(bytes.ReplaceAll(b, []byte("{{CWD}}"), []byte(dir)), &p); err != nil {
		t.Fatal(err)
	}
	in := p["tool_input"].(map[string]any)
	for k, v := range set {
		in[k] = v
	}
	out, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestInsightSignals drives a Claude Code session through the real binary's
// hooks (an edit, the edit undone, a commit reverted), rates it with the
// feedback tool and `cairn feedback`, and reads the signals back from
// session get, model_performance and project_health.
func TestInsightSignals(t *testing.T) {
	dir := seededProject(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all", "--agent", "claude-code"}})
	runHook(t, dir, "session-start", "session-start-startup")
	runHook(t, dir, "post-tool-use", "post-tool-use-edit")
	undo := hookPayload(t, dir, "post-tool-use-edit", map[string]any{"old_string": "return fmt.Errorf(\"post entry %s: %w\", id, err)", "new_string": "return nil"})
	runHookRaw(t, dir, undo, "post-tool-use")
	revert := hookPayload(t, dir, "post-tool-use-bash-test", map[string]any{"command": "git revert --no-edit 4f2a9c1"})
	runHookRaw(t, dir, revert, "post-tool-use")

	sess := s.OK("session", map[string]any{"action": "get"})
	for _, want := range []string{"revert internal/ledger/post.go: an edit put back the text an edit of", "revert 4f2a9c1: git revert 4f2a9c1"} {
		if !strings.Contains(sess.Text, want) {
			t.Errorf("session get: no %q in\n%s", want, sess.Text)
		}
	}
	s.OK("feedback", map[string]any{"rating": "bad", "tool": "memory_search", "note": "nothing about WAL"})
	if out := runCairn(t, dir, "feedback", "good", "--note", "the fix held"); !strings.Contains(out, "Recorded: session of s1 rated good") {
		t.Errorf("cairn feedback: %s", out)
	}
	if err := s.Err("feedback", map[string]any{"rating": "good", "note": strings.Repeat("x", 501)}); !strings.Contains(err.Text, "note is 501 characters") {
		t.Errorf("a long note: %s", err.Text)
	}

	runHook(t, dir, "session-end", "session-end-prompt_input_exit")
	if ended := s.OK("session", map[string]any{"action": "get", "session_id": "s1"}); !strings.Contains(ended.Text, `reverted 2 time(s): "4f2a9c1", "internal/ledger/post.go"`) {
		t.Errorf("the outcome's evidence does not name the reverts:\n%s", ended.Text)
	}
	p := s.OK("model_performance", nil)
	if !strings.Contains(p.Text, "claude-sonnet-4-5-20250929: 1 session") || !strings.Contains(p.Text, "reverted work in 100%") ||
		!strings.Contains(p.Text, "(1 commits, 1 edits undone)") || !strings.Contains(p.Text, "feedback 1 good, 0 bad (answers 0 good, 1 bad)") {
		t.Errorf("model_performance:\n%s", p.Text)
	}
	h := s.OK("project_health", nil)
	if !strings.Contains(h.Text, "feedback 50 ×2: 1 of 2 ratings good") || !strings.Contains(h.Text, "1 commits reverted, 1 edits undone") {
		t.Errorf("project_health:\n%s", h.Text)
	}
}
