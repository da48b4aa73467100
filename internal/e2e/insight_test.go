package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
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
	t.Logf("%d of the 31 calls after the read were written before the kill", after-written)
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

// TestBoardInsightBrowser: the board's Insight page, in headless Chromium,
// on a generated history: the health score and its components, the daily
// line, and the models, tools and phases as SVG bars (no script draws
// them), with the planted slow phase marked.
func TestBoardInsightBrowser(t *testing.T) {
	ctx := browser(t)
	dir := cairntest.Project(t)
	st, err := sqlite.Open(context.Background(), project.DBPath(dir), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := func(name string, pass float64) benchseed.ModelProfile {
		return benchseed.ModelProfile{Name: name, DefaultPass: pass, Unresolved: 0.1, TaskMinutes: 20, CallErrors: 0.2}
	}
	if err := benchseed.SeedHistory(context.Background(), st, benchseed.HistoryShape{Models: []benchseed.ModelProfile{m("model-a", 0.9), m("model-b", 0.6)},
		Sessions: 200, Days: 20, End: time.Now().UTC(), Lifecycles: 20, Seed: 1,
		Phases: []benchseed.PhaseProfile{{Name: "PLAN", Median: time.Hour}, {Name: "BUILD", Median: 4 * time.Hour}, {Name: "SHIP", Median: time.Hour}}}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	srv := cairntest.StartHTTP(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all"}})
	var score string
	var bars, lines int
	run(t, ctx, 20*time.Second, "insight page", chromedp.Navigate(srv.URL+"/insight"), live(),
		chromedp.Text("#health-score", &score, chromedp.ByID),
		mainHas("model-a"), mainHas("model-b"), mainHas("memory_search"), mainHas("Bottleneck:"),
		chromedp.Evaluate(`document.querySelectorAll("svg.bars g.bar").length`, &bars),
		chromedp.Evaluate(`document.querySelectorAll("svg.daily polyline").length`, &lines))
	if n, err := strconv.Atoi(score); err != nil || n <= 0 || n > 100 {
		t.Errorf("health score %q", score)
	}
	// 2 models, 3 tools, 3 phases.
	if bars != 8 || lines != 1 {
		t.Errorf("%d bars and %d daily lines drawn, want 8 and 1", bars, lines)
	}
	var slow string
	run(t, ctx, 5*time.Second, "the slow phase is marked", chromedp.Evaluate(`document.querySelector("g.bar.bad[data-label='BUILD']") ? "BUILD" : ""`, &slow))
	if slow != "BUILD" {
		t.Error("BUILD is not marked as the bottleneck")
	}
	shoot(t, ctx, screenshots(t), "insight")
}
