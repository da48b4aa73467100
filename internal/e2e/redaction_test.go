package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestRedactionEverywhere: every tool that stores text passes it through
// the one redaction pass. Each argument carries its own fake secret; after
// the calls, the database file (its FTS tables and WAL included) holds
// none of them.
func TestRedactionEverywhere(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all"}})
	var secrets []string
	sec := func(shape string) string {
		i := len(secrets)
		var v string
		switch shape {
		case "pat":
			v = fmt.Sprintf("ghp_Zq%02da1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6", i)
		case "gitlab":
			v = fmt.Sprintf("glpat-Xy%02dAb34Cd56Ef78Gh90", i)
		case "password":
			v = fmt.Sprintf("correcthorse%cbatterystaple", 'a'+i%26)
		}
		secrets = append(secrets, v)
		return v
	}
	pat := func() string { return "token " + sec("pat") }
	call := func(tool string, a map[string]any) cairntest.Result {
		t.Helper()
		return s.OK(tool, a)
	}

	call("create_new_task", map[string]any{"title": pat(), "body": "DB_PASSWORD=" + sec("password")})
	call("extend_current_task", map[string]any{"title": pat(), "body": pat()})
	call("update_current_task", map[string]any{"body": "use " + sec("gitlab")})
	id := call("create_task", map[string]any{"title": pat(), "description": pat()}).Str("id")
	call("update_task", map[string]any{"id": id, "title": pat(), "description": "PASSWORD=" + sec("password")})
	call("add_subtask", map[string]any{"parentId": id, "title": pat(), "description": pat()})
	call("update_subtask", map[string]any{"subtaskId": id + ".1", "title": pat(), "description": pat()})

	loop := call("loop_start", map[string]any{"objective": pat(), "completion_criteria": pat(), "tags": []string{sec("gitlab")}}).Str("id")
	call("loop_record", map[string]any{"id": loop, "last_action": pat(), "next_steps": []string{pat()}, "message": pat()})
	call("loop_checkpoint", map[string]any{"id": loop, "note": pat()})
	call("loop_complete", map[string]any{"id": loop, "evidence": pat()})
	loop2 := call("loop_start", map[string]any{"objective": "o", "completion_criteria": "c"}).Str("id")
	call("loop_fail", map[string]any{"id": loop2, "message": pat(), "code": sec("gitlab")})

	call("session", map[string]any{"action": "start", "goal": pat(), "branch": "main"})
	call("session", map[string]any{"action": "update", "files_modified": []string{"cfg/" + sec("pat")}, "tasks_completed": []string{pat()}, "tasks_pending": []string{pat()}})
	call("session", map[string]any{"action": "end", "summary": pat(), "outcome": "success"})
	call("branch", map[string]any{"action": "save", "branch": "feature-x", "feature": pat(), "phase": pat(), "notes": pat(),
		"files_modified": []string{pat()}, "tasks_completed": []string{pat()}, "tasks_pending": []string{pat()}})

	lcr := call("lifecycle_init", map[string]any{"task_id": id})
	lc := fmt.Sprint(lcr.Structured["id"])
	call("lifecycle_advance", map[string]any{"id": lc, "hold": true, "evidence": map[string]any{"context_loaded": pat()}})

	call("memory_add_decision", map[string]any{"title": pat(), "content": pat(), "tags": []string{sec("gitlab")}})
	call("observation", map[string]any{"type": "insight", "title": pat(), "content": pat(), "tags": []string{sec("gitlab")}})
	s.Close()

	var stored []byte
	for _, f := range []string{"cairn.db", "cairn.db-wal"} {
		b, err := os.ReadFile(filepath.Join(dir, ".cairn", f))
		if err == nil {
			stored = append(stored, b...)
		}
	}
	if len(stored) == 0 {
		t.Fatal("no database to read")
	}
	for i, v := range secrets {
		if bytes.Contains(stored, []byte(v)) {
			t.Errorf("secret #%d (%s) is stored verbatim", i, v)
		}
	}
	if !bytes.Contains(stored, []byte("[REDACTED:")) {
		t.Error("no redaction markers stored")
	}
}
