package e2e

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// cairn runs the binary in dir and returns its stdout; it fails the test on
// a non-zero exit unless wantErr.
func cairn(t *testing.T, dir string, wantErr bool, args ...string) string {
	t.Helper()
	cmd := exec.Command(cairntest.Binary(t), args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if (err != nil) != wantErr {
		t.Fatalf("cairn %s: err=%v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out, stderr.String())
	}
	if wantErr {
		return stderr.String()
	}
	return string(out)
}

func TestPlanCLI(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir})
	a := s.OK("create_task", args{"title": "Schema", "priority": "high", "description": "tables and indexes"}).Str("id")
	b := s.OK("create_task", args{"title": "Migrations", "dependencies": []string{a}}).Str("id")
	s.OK("add_subtask", args{"parentId": a, "title": "sketch"})
	s.OK("create_task", args{"title": "Old work", "status": "done"})

	out := cairn(t, dir, false, "tasks")
	for _, want := range []string{"ID", "STATUS", "Schema", "Migrations", a + ".1", "sketch"} {
		if !strings.Contains(out, want) {
			t.Fatalf("cairn tasks lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Old work") {
		t.Fatalf("cairn tasks shows done tasks by default:\n%s", out)
	}
	if out := cairn(t, dir, false, "tasks", "--all", "--status", "done"); !strings.Contains(out, "Old work") || strings.Contains(out, "Schema") {
		t.Fatalf("cairn tasks --status done:\n%s", out)
	}
	if out := cairn(t, dir, false, "tasks", "--priority", "high", "--json"); !strings.Contains(out, `"total": 1`) {
		t.Fatalf("cairn tasks --json:\n%s", out)
	}
	cairn(t, dir, true, "tasks", "--status", "finished")

	out = cairn(t, dir, false, "next")
	if !strings.Contains(out, "sketch") || !strings.Contains(out, "Recommended") {
		t.Fatalf("cairn next:\n%s", out)
	}
	out = cairn(t, dir, false, "show", b)
	if !strings.Contains(out, "Migrations") || !strings.Contains(out, "Depends on") || !strings.Contains(out, "Schema") {
		t.Fatalf("cairn show:\n%s", out)
	}
	if out := cairn(t, dir, false, "show", a+".1"); !strings.Contains(out, "subtask "+a+".1") {
		t.Fatalf("cairn show subtask:\n%s", out)
	}
	if msg := cairn(t, dir, true, "show", "999"); !strings.Contains(msg, "999 not found") {
		t.Fatalf("cairn show 999: %s", msg)
	}
}

func TestLoopsCLI(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: loopsOnly})
	id := s.OK("loop_start", args{"objective": "Green build", "completion_criteria": "make test passes"}).Str("id")
	s.OK("loop_record", args{"id": id, "last_action": "fixed lint", "percentage": 50, "message": "half way"})
	out := cairn(t, dir, false, "loops")
	if !strings.Contains(out, "Green build") || !strings.Contains(out, "[#####.....]  50%") || !strings.Contains(out, "1/200") {
		t.Fatalf("cairn loops:\n%s", out)
	}
	out = cairn(t, dir, false, "loop", id, "--history")
	for _, want := range []string{"Loop " + id + ": Green build", "50%", "running, iteration 1 of 200", "half way", "History (2)", "iteration"} {
		if !strings.Contains(out, want) {
			t.Fatalf("cairn loop lacks %q:\n%s", want, out)
		}
	}
	s.OK("loop_cancel", args{"id": id})
	if out := cairn(t, dir, false, "loops"); !strings.Contains(out, "No loops") {
		t.Fatalf("finished loop listed by default:\n%s", out)
	}
	if out := cairn(t, dir, false, "loops", "--all"); !strings.Contains(out, "cancelled") {
		t.Fatalf("cairn loops --all:\n%s", out)
	}
}

// TestClaimsCLI: the people's view shows who holds a task, until when, and
// the phase of its lifecycle.
func TestClaimsCLI(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--agent", "ann", "--toolsets", "default,lifecycle"}})
	id := s.OK("create_task", args{"title": "Export"}).Str("id")
	until := s.OK("claim_task", args{"id": id}).Structured["claim"].(map[string]any)["until"].(string)
	s.OK("lifecycle_init", args{"task_id": id})
	at, err := time.Parse(time.RFC3339, until)
	if err != nil {
		t.Fatalf("claim until %q: %v", until, err)
	}
	// The CLI shows local time to the minute, the same in every table.
	when := at.Local().Format("2006-01-02 15:04")
	want := "Export [phase SYNC, lifecycle 1] [claimed by ann until " + when + "]"
	if out := cairn(t, dir, false, "tasks"); !strings.Contains(out, want) || strings.Contains(out, "Z]") {
		t.Errorf("cairn tasks lacks %q (or mixes in a UTC marker):\n%s", want, out)
	}
	if out := cairn(t, dir, false, "show", id); !strings.Contains(out, "[phase SYNC, lifecycle 1] [claimed by ann until "+when+"]") {
		t.Errorf("cairn show lacks the claim and phase:\n%s", out)
	}
	if out := cairn(t, dir, false, "tasks", "--json"); !strings.Contains(out, `"agent": "ann"`) || !strings.Contains(out, `"until": "`+until+`"`) || !strings.Contains(out, `"phase": "SYNC"`) {
		t.Errorf("cairn tasks --json lacks the claim and phase:\n%s", out)
	}
	s.OK("lifecycle_advance", args{"id": 1, "evidence": map[string]string{"context_loaded": "read", "branch_synced": "abc"}})
	s.OK("lifecycle_advance", args{"id": 1, "to": "SYNC", "reason": "main moved"})
	if out := cairn(t, dir, false, "lifecycles"); !strings.Contains(out, "asdd") || !strings.Contains(out, "SYNC") || !strings.Contains(out, "Export") {
		t.Errorf("cairn lifecycles:\n%s", out)
	}
	out := cairn(t, dir, false, "lifecycle", "1")
	for _, want := range []string{"Lifecycle 1 (asdd) on task " + id, "phase SYNC (1 of 8)", "missing  branch_synced", "SYNC → STORY", "STORY → SYNC", "(loop back: main moved)"} {
		if !strings.Contains(out, want) {
			t.Errorf("cairn lifecycle 1 lacks %q:\n%s", want, out)
		}
	}
	if msg := cairn(t, dir, true, "lifecycle", "9"); !strings.Contains(msg, "lifecycle 9 not found") {
		t.Errorf("cairn lifecycle 9: %s", msg)
	}
	if msg := cairn(t, dir, true, "lifecycles", "--status", "finished"); !strings.Contains(msg, "status") {
		t.Errorf("cairn lifecycles --status finished: %s", msg)
	}
}
