package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestDiagnoseErrorHonest (issue 27, point 7): diagnose_error calls a past
// entry similar only on a real match, searches the failed commands the
// hooks recorded as well as mistakes and says which is which, says why
// each matched, and says "no similar past mistake" otherwise. Before, a
// FileNotFoundError for sample2.csv returned a mistake about blank lines in
// CSV files (one shared word, "csv"), and the recorded failure with the
// same FileNotFoundError was not searched.
func TestDiagnoseErrorHonest(t *testing.T) { onBothStores(t, testDiagnoseHonest) }

func testDiagnoseHonest(t *testing.T, env []string) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: memoryAll, Env: env})
	s.OK("memory_add_mistake", args{"title": "Blank lines between rows in the exported CSV", "root_cause": "csv.writer on a file opened without newline=''",
		"fix": "open the file with newline=''", "files": []string{"analytics/export.py"}})
	s.OK("memory_add_mistake", args{"title": "KeyError: 'user_id' after merging the events and users frames", "fix": "merge on user_id"})
	// A failed command, as the post-tool-use hook records it.
	trace := "Traceback (most recent call last):\n  File \"" + dir + "/analytics/analyze.py\", line 31, in <module>\n    events = pd.read_csv(\"data/sample2.csv\")\n" +
		"FileNotFoundError: [Errno 2] No such file or directory: 'data/sample2.csv'\nExit code 1"
	payload, err := json.Marshal(map[string]any{"session_id": "5e1f", "cwd": dir, "hook_event_name": "PostToolUseFailure", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "python analytics/analyze.py --week 12"}, "error": trace})
	if err != nil {
		t.Fatal(err)
	}
	if r := runHookEnv(t, dir, env, payload, "post-tool-use"); r.stdout != "" || r.stderr != "" {
		t.Fatalf("post-tool-use printed %q, stderr %q", r.stdout, r.stderr)
	}

	d := s.OK("diagnose_error", args{"error": strings.Replace(trace, "line 31", "line 40", 1)})
	ms := d.Structured["matches"].([]any)
	if len(ms) != 1 {
		t.Fatalf("diagnose_error: %d matches, want the recorded failure alone:\n%s", len(ms), d.Text)
	}
	m := ms[0].(map[string]any)
	why, _ := m["why"].(string)
	if m["source"] != "recorded_failure" || !strings.HasPrefix(m["title"].(string), "Failed: python analytics/analyze.py") ||
		!strings.Contains(why, "same error type FileNotFoundError") || !strings.Contains(why, "sample2.csv") {
		t.Errorf("the match: %v", m)
	}
	for _, want := range []string{"1 similar recorded failure, best first (read as FileNotFoundError, ENOENT; naming ",
		"recorded failure (a failed command a hook recorded, not yet a confirmed mistake): Failed: python analytics/analyze.py", "\nsimilar: ",
		"once fixed, record it with memory_add_mistake"} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("diagnose_error's text lacks %q:\n%s", want, d.Text)
		}
	}
	if strings.Contains(d.Text, "Blank lines") {
		t.Errorf("the CSV mistake, which shares only the word csv, is called similar:\n%s", d.Text)
	}
	small(t, "diagnose_error", d, 2048, 2048)

	// The same type of error about another file: nothing similar, and the
	// entries of the same type are named as such.
	none := s.OK("diagnose_error", args{"error": "FileNotFoundError: [Errno 2] No such file or directory: 'models/forecast.pkl'"})
	if len(none.Structured["matches"].([]any)) != 0 || !strings.HasPrefix(none.Text, "No similar past mistake or recorded failure (read as FileNotFoundError, ENOENT; naming forecast.pkl") ||
		!strings.Contains(none.Text, "record it with memory_add_mistake") || !strings.Contains(none.Text, "state the same type of error but share nothing else distinctive") {
		t.Errorf("another file: %s", none.Text)
	}
	// The same KeyError about the same column: the mistake.
	k := s.OK("diagnose_error", args{"error": "Traceback (most recent call last):\n  File \"weekly.py\", line 40, in build\n    active = df[df['user_id'].isin(ids)]\nKeyError: 'user_id'"})
	if ms := k.Structured["matches"].([]any); len(ms) != 1 || ms[0].(map[string]any)["source"] != "mistake" || !strings.Contains(k.Text, "1 similar past mistake, best first") {
		t.Errorf("KeyError: %s", k.Text)
	}
}
