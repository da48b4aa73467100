package e2e

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// usageCalls is how many tool calls tool_usage counts.
func usageCalls(t *testing.T, s *cairntest.Server) int {
	t.Helper()
	r := s.OK("tool_usage", args{"days": 1})
	return num(r.Structured["calls"])
}

// TestInsightKill: usage events buffered when the server is killed are
// lost, at most the batch not yet written; what was written stays, and the
// store opens and works.
func TestInsightKill(t *testing.T) {
	t.Parallel()
	dir := cairntest.Project(t)
	opts := cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,insight"}, Env: []string{"CAIRN_MODEL=model-x"}}
	s := cairntest.Start(t, opts)
	for range 20 {
		s.OK("get_current_task", nil)
	}
	written := usageCalls(t, s) // reading flushes: the 20 are written
	if written < 20 {
		t.Fatalf("tool_usage counts %d calls after 20", written)
	}
	for range 30 {
		s.OK("get_current_task", nil)
	}
	if err := s.Kill(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = cairntest.Start(t, opts)
	after := usageCalls(t, s)
	// Written before the kill: the 20 and the first tool_usage; at most the
	// 30 after it.
	if after < written || after > written+1+30 {
		t.Errorf("after kill -9: %d calls recorded; want %d to %d", after, written, written+31)
	}
	t.Logf("%d of the 30 calls made just before the kill were written", after-written-1)
	probeWritable(t, s, "after the kill")
	noErrors(t, "the restarted server", s.Log())
}

// TestInsightModelKnown: the model a client names reaches the analyses: a
// Claude Code hook's session start names it for the session, CAIRN_MODEL
// for a stdio server's calls; a client that names none is "unknown".
func TestInsightModelKnown(t *testing.T) {
	t.Parallel()
	dir := cairntest.Project(t)
	payload, err := os.ReadFile(filepath.Join("testdata", "hooks", "session-start-startup.json"))
	if err != nil {
		t.Fatal(err)
	}
	runHookRaw(t, dir, bytes.ReplaceAll(payload, []byte("{{CWD}}"), []byte(dir)), "session-start")
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all"}, ClientName: "claude-code"})
	// A session of another agent, whose model is unknown.
	s.OK("session", args{"action": "start", "goal": "fix the login form layout"})
	r := s.OK("model_performance", nil)
	text := r.Text
	for _, want := range []string{"claude-sonnet-4-5-20250929: 1 session", "unknown: 1 session"} {
		if !strings.Contains(text, want) {
			t.Errorf("model_performance lacks %q:\n%s", want, text)
		}
	}
	u := s.OK("tool_usage", nil)
	if bc, _ := u.Structured["by_client"].(map[string]any); num(bc["claude-code"]) < 2 {
		t.Errorf("tool_usage by client: %v, want claude-code's calls", u.Structured["by_client"])
	}
	h := s.OK("project_health", nil)
	if !strings.Contains(h.Text, "Project health") || num(h.Structured["score"]) <= 0 {
		t.Errorf("project_health: %s", h.Text)
	}
	rec := s.OK("model_recommend", args{"task": "fix the login form layout"})
	if rec.Structured["abstain"] != true {
		t.Errorf("model_recommend on 2 sessions: %s; want an abstention", rec.Text)
	}
}
