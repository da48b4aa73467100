package service_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/service/loops"
	"github.com/cairn-dev/cairn/internal/service/page"
)

// TestLoopCheckpointsItself: seed 001's loop takes a checkpoint when it is
// created and a final one when it completes, each the state of that
// moment; the description and metadata it was started with stay with it
// (secrets in them redacted), and bad metadata changes nothing.
func TestLoopCheckpointsItself(t *testing.T) {
	ctx := context.Background()
	l := loops.NewLoops(openStore(t), nil)
	if _, err := l.Start(ctx, loops.Start{Objective: "x", Criteria: "y", Metadata: map[string]any{"a b": 1.0}}); err == nil {
		t.Fatal("bad metadata was taken")
	}
	if all, _ := l.All(ctx); len(all) != 0 {
		t.Fatalf("a refused start left %d loops", len(all))
	}
	lp, err := l.Start(ctx, loops.Start{Objective: "Fix the flaky checkout test", Criteria: "100 green runs",
		Description: "Fails once in 30 runs on CI.",
		Metadata:    map[string]any{"ticket": "CI-412", "env": map[string]any{"DB": "postgres://app:hunter2hunter2@db/app"}}})
	if err != nil {
		t.Fatal(err)
	}
	if lp.State.Progress.Checkpoints != 1 || lp.State.Description != "Fails once in 30 runs on CI." {
		t.Fatalf("started: %+v", lp.State)
	}
	got, err := l.Get(ctx, lp.ID.String())
	if err != nil {
		t.Fatal(err)
	}
	if got.State.Metadata.Extra["ticket"] != "CI-412" || strings.Contains(got.State.Metadata.Extra["env"].(map[string]any)["DB"].(string), "hunter2") {
		t.Fatalf("metadata stored: %+v", got.State.Metadata.Extra)
	}
	if !strings.Contains(got.Task.Body, "Fails once in 30 runs on CI.") {
		t.Errorf("the loop's task does not carry the description: %q", got.Task.Body)
	}
	if _, err := l.Record(ctx, lp.ID.String(), loops.Record{LastAction: "ran it 50 times"}); err != nil {
		t.Fatal(err)
	}
	done, err := l.Complete(ctx, lp.ID.String(), "100 runs green", false)
	if err != nil {
		t.Fatal(err)
	}
	if done.State.Progress.Checkpoints != 2 {
		t.Errorf("checkpoints after completion: %d", done.State.Progress.Checkpoints)
	}
	_, cps, err := l.Checkpoints(ctx, lp.ID.String(), page.Page{})
	if err != nil {
		t.Fatal(err)
	}
	if cps.Total != 2 {
		t.Fatalf("checkpoints: %+v", cps)
	}
	final, first := cps.Checkpoints[0], cps.Checkpoints[1]
	if first.Note != "loop started" || first.State.Status != loop.Pending || first.State.Iteration != 0 {
		t.Errorf("the start checkpoint: %q %s %d", first.Note, first.State.Status, first.State.Iteration)
	}
	if final.Note != "loop completed" || final.State.Status != loop.Completed || final.State.Iteration != 1 || final.State.Evidence != "100 runs green" {
		t.Errorf("the final checkpoint: %q %s %d %q", final.Note, final.State.Status, final.State.Iteration, final.State.Evidence)
	}
	_, h, err := l.Status(ctx, lp.ID.String(), loops.StatusQuery{History: true})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range h.Events {
		kinds = append(kinds, e.Kind+": "+e.Detail)
	}
	if hist := strings.Join(kinds, "\n"); !strings.Contains(hist, "start: max_iterations 200; checkpoint 1") || !strings.Contains(hist, "complete: 100 runs green; checkpoint 2") {
		t.Errorf("history:\n%s", hist)
	}
}
