package mcpserver

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/lifecycle"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/task"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares the text and structured answer of a renderer with
// testdata/name.golden; -update rewrites it.
func golden(t *testing.T, name, text string, out any) {
	t.Helper()
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := text + "\n---\n" + string(b) + "\n"
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/mcpserver -run %s -update)", err, t.Name())
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("%s differs (-want +got; -update rewrites it):\n%s", path, d)
	}
}

var g0 = time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC)

func TestRenderLifecycle(t *testing.T) {
	story := task.Task{ID: 12, Title: "Export to CSV", Status: task.StatusInProgress, Priority: task.PriorityHigh}
	code := 0
	v := service.LifecycleView{ID: 3, Task: story, Definition: "asdd", Phase: "TEST", PhaseNum: 6, Phases: 8, Status: "open",
		StartedAt: g0, PhaseSince: g0.Add(3 * time.Hour), TimeInPhase: 25 * time.Minute, Goal: "Prove it works.",
		Met: []service.MetCriterion{{Criterion: lifecycle.Criterion{ID: "tests_written", Text: "Tests cover it."},
			Evidence: lifecycle.Evidence{Text: "csv_test.go", At: g0}}},
		Missing: []lifecycle.Criterion{{ID: "tests_pass", Text: "The suite passes.", Gate: true}},
		History: []lifecycle.Transition{
			{From: "SYNC", To: "STORY", At: g0.Add(time.Hour), Spent: time.Hour},
			{From: "STORY", To: "PLAN", At: g0.Add(2 * time.Hour), Spent: time.Hour},
			{From: "PLAN", To: "COMMIT_SPEC", At: g0.Add(2*time.Hour + 10*time.Minute), Spent: 10 * time.Minute},
			{From: "COMMIT_SPEC", To: "EXECUTE", At: g0.Add(2*time.Hour + 20*time.Minute), Spent: 10 * time.Minute},
			{From: "EXECUTE", To: "TEST", At: g0.Add(2*time.Hour + 40*time.Minute), Spent: 20 * time.Minute},
			{From: "TEST", To: "PLAN", At: g0.Add(2*time.Hour + 50*time.Minute), Spent: 10 * time.Minute, Back: true, Reason: "streaming needed"},
		},
		Durations: map[string]time.Duration{"SYNC": time.Hour},
	}
	text, out := lifecycleResult(v)
	golden(t, "lifecycle_status", text, out)

	v.Met = append(v.Met, service.MetCriterion{Criterion: lifecycle.Criterion{ID: "tests_pass", Gate: true},
		Evidence: lifecycle.Evidence{Command: "go test ./...", ExitCode: &code, At: g0}})
	v.Missing, v.Phase, v.PhaseNum, v.Status, v.History = nil, "", 0, "done", v.History[:1]
	text, out = lifecycleResult(v)
	golden(t, "lifecycle_done", text, out)
}

func TestRenderClaim(t *testing.T) {
	tk := task.Task{ID: 7, Title: "Index the docs", Status: task.StatusPending, Priority: task.PriorityMedium}
	prev := task.Claim{TaskID: 7, Agent: "bob", ClaimedAt: g0.Add(-time.Hour), ExpiresAt: g0.Add(-time.Minute)}
	text, out, _ := claimResult("Claimed", service.ClaimResult{Task: tk, Claim: task.Claim{TaskID: 7, Agent: "ann", ClaimedAt: g0, ExpiresAt: g0.Add(15 * time.Minute)},
		Expired: &prev, Skipped: 2})
	golden(t, "claim_task", text, out)
	text, out, _ = claimResult("Claimed", service.ClaimResult{Message: "No ready task is free to claim: agents hold the 4 ready ones.", Skipped: 4})
	golden(t, "claim_task_none", text, out)
}
