package claims

import (
	"bufio"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// Claims that mean something, and focus that agrees with status, as two
// agents see them: two `cairn serve` processes over stdio on one project,
// each its own agent. B claims a task; A's completion passes over it and
// says why; A's writes to it are refused (-32009) naming B until A passes
// force; focusing a pending task starts it (get_tasks and the board's
// In progress column show it); focusing a task that waits on another names
// it. On SQLite and PostgreSQL.
func TestClaimsAndFocusTwoAgents(t *testing.T) {
	for _, b := range claimBackends {
		t.Run(b.name, func(t *testing.T) {
			var env []string
			if b.env != nil {
				env = b.env(t)
			}
			dir := cairntest.Project(t)
			a := cairntest.Start(t, cairntest.Options{Dir: dir, Env: env, Args: []string{"--agent", "agent-a", "--toolsets", "all"}})
			bb := cairntest.Start(t, cairntest.Options{Dir: dir, Env: env, Args: []string{"--agent", "agent-b"}})
			testClaimsAndFocus(t, dir, env, a, bb)
		})
	}
}

func testClaimsAndFocus(t *testing.T, dir string, env []string, a, b *cairntest.Server) {
	for _, title := range []string{"Spec", "Schema", "Fixtures"} {
		a.OK("create_task", args{"title": title, "status": "done"})
	}
	ci := a.OK("create_task", args{"title": "Set up CI"}).Str("id")
	deploy := a.OK("create_task", args{"title": "Deploy to staging"}).Str("id")
	a.OK("create_task", args{"title": "Announce", "dependencies": []string{deploy}})
	if ci != "4" || deploy != "5" {
		t.Fatalf("tasks 4 and 5 are %s and %s", ci, deploy)
	}

	// B claims task 5: it starts.
	if r := b.OK("claim_task", args{"id": deploy}); !strings.Contains(r.Text, "5 in-progress medium: Deploy to staging") {
		t.Errorf("claim of a pending task: %s", r.Text)
	}
	// A focuses task 4 (pending: it starts) and completes it; the focus
	// rules would go to 5, which B holds: A is told, and not moved there.
	if r := a.OK("switch_focus", args{"task_id": ci}); r.Str("status") != "in-progress" || !strings.Contains(r.Text, "[4] Set up CI (now in-progress)") {
		t.Errorf("switch_focus on a pending task: %s", r.Text)
	}
	done := a.OK("complete_current_task", args{})
	if done.Str("current_task_id") == deploy || done.Str("next_task_id") == deploy {
		t.Fatalf("A was moved onto B's task: %s", done.Text)
	}
	passed, _ := done.Structured["passed_held"].([]any)
	if len(passed) != 1 || passed[0].(map[string]any)["task_id"] != deploy || passed[0].(map[string]any)["agent"] != "agent-b" ||
		!strings.Contains(done.Text, "Passed over [5] Deploy to staging (agent-b holds it until ") ||
		!strings.Contains(done.Text, "other agents hold every ready task (1)") {
		t.Errorf("the completion does not say it passed over B's task: %s", done.Text)
	}

	// A's writes to task 5 are refused with -32009 naming B, and change
	// nothing.
	before := a.OK("get_task", args{"id": deploy}).Text
	a.OK("switch_focus", args{"task_id": deploy})
	if cur := a.OK("get_current_task", args{}); !strings.Contains(cur.Text, "Claim: held by agent-b until ") {
		t.Errorf("YOU ARE HERE on B's task does not name B: %s", cur.Text)
	}
	if boot := a.OK("bootstrap", args{}); !strings.Contains(boot.Text, "[5] Deploy to staging (in-progress, medium priority)\n  held by agent-b until ") {
		t.Errorf("bootstrap's YOU ARE HERE on B's task does not name B: %s", boot.Text)
	}
	for _, w := range []struct {
		tool string
		args args
	}{
		{"complete_current_task", args{}},
		{"update_task", args{"id": deploy, "title": "Deploy (A)"}},
		{"update_task", args{"id": deploy, "status": "done"}},
		{"delete_task", args{"id": deploy}},
		{"remove_task", args{"task_id": deploy}},
	} {
		e := a.Err(w.tool, w.args)
		if code, _ := e.Structured["code"].(float64); code != -32009 || e.Str("reason") != "claimed" ||
			!strings.Contains(e.Text, "task 5 is claimed by agent-b until ") || !strings.Contains(e.Text, "force: true") {
			t.Errorf("%s %v on B's task: %s (%v)", w.tool, w.args, e.Text, e.Structured)
		}
	}
	if after := a.OK("get_task", args{"id": deploy}).Text; after != before {
		t.Errorf("refused writes changed task 5:\nbefore: %s\nafter:  %s", before, after)
	}
	// B's own writes go through; A's with force too.
	b.OK("update_task", args{"id": deploy, "description": "blue/green"})
	if r := a.OK("update_task", args{"id": deploy, "title": "Deploy to staging (A)", "force": true}); !strings.Contains(r.Text, "Deploy to staging (A)") {
		t.Errorf("forced update: %s", r.Text)
	}
	if r := a.OK("complete_current_task", args{"force": true}); !strings.Contains(r.Text, "Completed [5]") {
		t.Errorf("forced completion: %s", r.Text)
	}

	// Focusing a task with an open dependency names it.
	notes := a.OK("create_task", args{"title": "Write release notes"}).Str("id")
	publish := a.OK("create_task", args{"title": "Publish", "dependencies": []string{notes}}).Str("id")
	sw := a.OK("switch_focus", args{"task_id": publish})
	waits, _ := sw.Structured["waits_on"].([]any)
	if len(waits) != 1 || waits[0].(map[string]any)["id"] != notes ||
		!strings.Contains(sw.Text, "It waits on ["+notes+"] Write release notes (pending)") {
		t.Errorf("switch_focus on a task that waits: %s", sw.Text)
	}
	if e := a.Err("complete_current_task", args{}); !strings.Contains(e.Text, notes) {
		t.Errorf("completion refused without naming what switch_focus named: %s", e.Text)
	}
	// The focused task is in progress, for get_tasks and for the board.
	list := a.OK("get_tasks", args{"status": "in-progress"})
	if !regexp.MustCompile(`(?m)^` + publish + ` in-progress medium: Publish`).MatchString(list.Text) {
		t.Errorf("get_tasks in-progress does not list the focused task %s: %s", publish, list.Text)
	}
	col := boardPage(t, dir, env, "plan?status=in-progress")
	if !strings.Contains(col, `data-id="`+publish+`"`) || !strings.Contains(col, "YOU ARE HERE · agent-a") {
		t.Errorf("the board's In progress column does not show task %s with A's YOU ARE HERE", publish)
	}
}

// boardPage starts `cairn board` on dir and returns the page at path.
func boardPage(t *testing.T, dir string, env []string, path string) string {
	t.Helper()
	cmd := exec.Command(cairntest.Binary(t), "board", "--no-open")
	cmd.Dir = dir
	for _, kv := range cmd.Environ() { // as cairntest starts servers: no Cairn settings of the shell's
		if !strings.HasPrefix(kv, "CAIRN_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	u := regexp.MustCompile(`http://127\.0\.0\.1:\d+/\S*`).FindString(line)
	if u == "" {
		t.Fatalf("no URL in %q", line)
	}
	resp, body := cairntest.Get(t, strings.TrimSuffix(u, "/")+"/"+path, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", path, resp.StatusCode)
	}
	return body
}
