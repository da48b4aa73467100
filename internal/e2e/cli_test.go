package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testutil/cairntest"
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
