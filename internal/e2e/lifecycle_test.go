package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// The lifecycle toolset end to end over stdio: a story through the eight
// phases with evidence, a refused advance that changes nothing, a loop back
// from TEST to PLAN, and a project's own definition from YAML next to a
// malformed one.

const reviewYAML = `name: review
description: Draft, then check.
phases:
  - name: DRAFT
    exit:
      - id: draft_written
        text: The draft is written.
  - name: CHECK
    exit:
      - id: tests_pass
        text: The suite passes.
        gate: true
`

// brokenYAML has a phase without exit criteria on line 4.
const brokenYAML = `name: broken
phases:
  - name: ONE
  - name: TWO
    exit:
      - id: x
        text: t
`

// lifecycleState is what lifecycle_status shows, without the clock.
func lifecycleState(t *testing.T, s *cairntest.Server, id string) string {
	t.Helper()
	r := s.OK("lifecycle_status", args{"id": id})
	delete(r.Structured, "secondsInPhase")
	b, _ := json.Marshal(r.Structured)
	return string(b)
}

// evidenceFor gives evidence for every exit criterion of a phase, as a
// passing check for the gates.
func evidenceFor(phase map[string]any) (map[string]string, map[string]any) {
	ev, checks := map[string]string{}, map[string]any{}
	for _, c := range phase["exit"].([]any) {
		c := c.(map[string]any)
		id := c["id"].(string)
		if c["gate"] == true {
			checks[id] = map[string]any{"command": "go test ./...", "exit_code": 0}
		} else {
			ev[id] = "done for " + id + ", see commit abc123"
		}
	}
	return ev, checks
}

func TestLifecycle(t *testing.T) {
	dir := cairntest.Project(t)
	lc := filepath.Join(dir, ".cairn", "lifecycles")
	if err := os.MkdirAll(lc, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(lc, "review.yaml"), []byte(reviewYAML), 0o644)
	os.WriteFile(filepath.Join(lc, "broken.yaml"), []byte(brokenYAML), 0o644)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,lifecycle"}})

	story := s.OK("create_task", args{"title": "Story: export to CSV"}).Str("id")

	// The definitions: two built in, the project's own, the malformed one
	// named with its file and line.
	r := s.OK("lifecycle_get", args{})
	for _, want := range []string{"asdd (built-in): SYNC → STORY → PLAN → COMMIT_SPEC → EXECUTE → TEST → VERIFY → COMMIT_IMPL",
		"asdd6 (built-in): UNDERSTAND → PLAN → SPEC → BUILD → VERIFY → SHIP", "review (.cairn/lifecycles/review.yaml): DRAFT → CHECK",
		"malformed, skipped: .cairn/lifecycles/broken.yaml:3: phase ONE has no exit criteria"} {
		if !strings.Contains(r.Text, want) {
			t.Errorf("lifecycle_get lacks %q:\n%s", want, r.Text)
		}
	}
	e := s.Err("lifecycle_get", args{"definition": "broken"})
	if e.Str("reason") != "invalid_definition" || !strings.Contains(e.Str("message"), ".cairn/lifecycles/broken.yaml:3: phase ONE has no exit criteria") {
		t.Errorf("malformed definition: %s", e.Text)
	}
	s.Err("lifecycle_init", args{"task_id": story, "definition": "broken"})

	def := s.OK("lifecycle_get", args{"definition": "asdd"})
	phases := def.Structured["phases"].([]any)
	if len(phases) != 8 {
		t.Fatalf("asdd has %d phases", len(phases))
	}
	phase := func(name string) map[string]any {
		for _, p := range phases {
			if p.(map[string]any)["name"] == name {
				return p.(map[string]any)
			}
		}
		t.Fatalf("no phase %s", name)
		return nil
	}

	init := s.OK("lifecycle_init", args{"task_id": story})
	id := init.Text[len("Started lifecycle "):strings.Index(init.Text, ";")]
	if init.Str("phase") != "SYNC" || len(init.Structured["missing"].([]any)) != 2 {
		t.Fatalf("lifecycle_init: %s", init.Text)
	}
	if e := s.Err("lifecycle_init", args{"task_id": story}); !strings.Contains(e.Str("message"), "open lifecycle "+id) {
		t.Errorf("second lifecycle on one task: %s", e.Text)
	}

	// An advance with no evidence is refused, names what is missing and
	// changes nothing.
	before := lifecycleState(t, s, id)
	e = s.Err("lifecycle_advance", args{"id": id})
	if e.Str("reason") != "criteria_missing" || !strings.Contains(e.Str("message"), "phase SYNC cannot end: no evidence for context_loaded, branch_synced") ||
		!strings.Contains(e.Text, "hold") {
		t.Errorf("refused advance: %s", e.Text)
	}
	if after := lifecycleState(t, s, id); after != before {
		t.Errorf("a refused advance changed the lifecycle:\nbefore %s\nafter  %s", before, after)
	}
	// One with evidence for one of two criteria keeps it, stays, and says
	// which criterion still lacks evidence and that hold records without
	// advancing.
	r = s.OK("lifecycle_advance", args{"id": id, "evidence": map[string]string{"context_loaded": "read the memory"}})
	if r.Str("phase") != "SYNC" || r.Structured["notAdvanced"] != true || !strings.Contains(r.Text, "Not advanced: SYNC still lacks evidence for branch_synced") ||
		!strings.Contains(r.Text, "hold") || !strings.Contains(r.Text, "met context_loaded: read the memory") {
		t.Errorf("advance with half the evidence: %s", r.Text)
	}
	if met := r.Structured["met"].([]any); len(met) != 1 || met[0].(map[string]any)["id"] != "context_loaded" {
		t.Errorf("the evidence given is not recorded against its criterion: %v", r.Structured["met"])
	}
	if hist, _ := r.Structured["history"].([]any); len(hist) != 0 {
		t.Errorf("staying in SYNC added history: %v", hist)
	}
	// Evidence can be recorded first (hold), then the rest given.
	r = s.OK("lifecycle_advance", args{"id": id, "evidence": map[string]string{"context_loaded": "read the memory"}, "hold": true})
	if r.Str("phase") != "SYNC" || len(r.Structured["met"].([]any)) != 1 || !strings.Contains(r.Text, "missing branch_synced") {
		t.Errorf("hold: %s", r.Text)
	}
	r = s.OK("lifecycle_advance", args{"id": id, "evidence": map[string]string{"branch_synced": "main at abc123"}})
	if r.Str("phase") != "STORY" || !strings.Contains(r.Text, "Advanced from SYNC to STORY") {
		t.Fatalf("advance: %s", r.Text)
	}

	// The phase shows on the task, in the big picture and in session_restore.
	if g := s.OK("get_task", args{"id": story}); !strings.Contains(g.Text, "[phase STORY, lifecycle "+id+"]") {
		t.Errorf("get_task does not show the phase: %s", g.Text)
	}
	if g := s.OK("get_big_picture", args{}); !strings.Contains(g.Text, "[phase STORY]") {
		t.Errorf("get_big_picture does not show the phase: %s", g.Text)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pr, err := s.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "session_restore"})
	if err != nil {
		t.Fatal(err)
	}
	if text := pr.Messages[0].Content.(*mcp.TextContent).Text; !strings.Contains(text, "Story: export to CSV: phase STORY (lifecycle "+id+", asdd)") {
		t.Errorf("session_restore does not show the lifecycle:\n%s", text)
	}

	advance := func(from, to string) {
		t.Helper()
		ev, checks := evidenceFor(phase(from))
		a := args{"id": id, "evidence": ev}
		if len(checks) > 0 {
			a["checks"] = checks
		}
		r := s.OK("lifecycle_advance", a)
		if r.Str("from") != from || r.Str("phase") != to {
			t.Fatalf("advance from %s: %s", from, r.Text)
		}
	}
	for _, p := range [][2]string{{"STORY", "PLAN"}, {"PLAN", "COMMIT_SPEC"}, {"COMMIT_SPEC", "EXECUTE"}, {"EXECUTE", "TEST"}} {
		advance(p[0], p[1])
	}
	// A gate is not met by words, nor by a failing command: the phase stays.
	r = s.OK("lifecycle_advance", args{"id": id, "evidence": map[string]string{"tests_written": "csv_test.go", "tests_pass": "they pass"}})
	if r.Str("phase") != "TEST" || !strings.Contains(r.Text, "missing tests_pass (gate") {
		t.Errorf("gate met by words: %s", r.Text)
	}
	r = s.OK("lifecycle_advance", args{"id": id, "evidence": map[string]string{"tests_written": "csv_test.go"},
		"checks": map[string]any{"tests_pass": map[string]any{"command": "go test ./...", "exit_code": 1}}})
	if r.Str("phase") != "TEST" || !strings.Contains(r.Text, "missing tests_pass (gate: checks with exit_code 0; `go test ./...` exited 1)") {
		t.Errorf("gate met by a failing command: %s", r.Text)
	}
	// TEST finds a divergence from the plan: back to PLAN, with the reason.
	r = s.OK("lifecycle_advance", args{"id": id, "to": "PLAN", "reason": "the export needs streaming; the plan loads everything in memory"})
	if r.Str("phase") != "PLAN" || !strings.Contains(r.Text, "Looped back from TEST to PLAN") || !strings.Contains(r.Text, "loop back: the export needs streaming") {
		t.Fatalf("loop back: %s", r.Text)
	}
	if len(r.Structured["missing"].([]any)) != 2 {
		t.Errorf("PLAN's evidence was kept after looping back to it: %s", r.Text)
	}
	for _, p := range [][2]string{{"PLAN", "COMMIT_SPEC"}, {"COMMIT_SPEC", "EXECUTE"}, {"EXECUTE", "TEST"}, {"TEST", "VERIFY"}, {"VERIFY", "COMMIT_IMPL"}} {
		advance(p[0], p[1])
	}
	ev, _ := evidenceFor(phase("COMMIT_IMPL"))
	r = s.OK("lifecycle_advance", args{"id": id, "evidence": ev})
	if r.Str("status") != "done" || !strings.Contains(r.Text, "Finished COMMIT_IMPL") {
		t.Fatalf("last phase: %s", r.Text)
	}
	hist := r.Structured["history"].([]any)
	if len(hist) != 12 { // 5 forward, 1 back, 5 forward again, 1 to done
		t.Errorf("history has %d entries, want 12: %s", len(hist), r.Text)
	}
	back := hist[5].(map[string]any)
	if back["from"] != "TEST" || back["to"] != "PLAN" || back["loopBack"] != true || !strings.Contains(back["reason"].(string), "streaming") {
		t.Errorf("the loop-back entry: %v", back)
	}
	if d := r.Structured["secondsByPhase"].(map[string]any); len(d) != 8 {
		t.Errorf("durations by phase: %v", d)
	}
	l := s.OK("lifecycle_list", args{"status": "done"})
	if l.Structured["total"] != float64(1) || !strings.Contains(l.Text, "loop-backs: 1") {
		t.Errorf("lifecycle_list done: %s", l.Text)
	}
	if g := s.OK("get_task", args{"id": story}); strings.Contains(g.Text, "[phase") {
		t.Errorf("a finished lifecycle still shows on the task: %s", g.Text)
	}
	s.Err("lifecycle_advance", args{"id": id, "hold": true})

	// The project's own definition, with its gate.
	other := s.OK("create_task", args{"title": "Review the docs"}).Str("id")
	r = s.OK("lifecycle_init", args{"task_id": other, "definition": "review"})
	rid := r.Text[len("Started lifecycle "):strings.Index(r.Text, ";")]
	if r.Str("phase") != "DRAFT" || r.Structured["phases"] != float64(2) {
		t.Fatalf("custom lifecycle: %s", r.Text)
	}
	s.OK("lifecycle_advance", args{"id": rid, "evidence": map[string]string{"draft_written": "docs/csv.md"}})
	r = s.OK("lifecycle_advance", args{"id": rid, "checks": map[string]any{"tests_pass": map[string]any{"command": "make test", "exit_code": 0}}})
	if r.Str("status") != "done" {
		t.Errorf("custom lifecycle did not finish: %s", r.Text)
	}
	if l := s.OK("lifecycle_list", args{"phase": "DRAFT"}); l.Structured["total"] != float64(0) {
		t.Errorf("lifecycle_list by phase: %s", l.Text)
	}
}
