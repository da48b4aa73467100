package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestMain lets the test binary run as a fake client window
// (cairntest.StartWindow): a process of its own that is the parent of its
// hooks and its MCP server, as a Claude Code window is.
func TestMain(m *testing.M) {
	cairntest.WindowMain()
	os.Exit(m.Run())
}

// The two windows' Claude Code session ids.
const (
	sessionA = "a7e1c0d2-5b4f-4e8a-9c31-6f2d8b0e4a19"
	sessionB = "b93f0e6c-1a2d-4c7b-8e5f-0d4a9c6b2e73"
)

// claudePayload is the recorded Claude Code payload
// testdata/hooks/<fixture>.json as window sid sends it in dir: its cwd and
// paths under dir, its session id and transcript sid's; set replaces
// top-level fields.
func claudePayload(t *testing.T, dir, sid, fixture string, set map[string]any) []byte {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "hooks", fixture+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(bytes.ReplaceAll(raw, []byte("{{CWD}}"), []byte(dir)), &p); err != nil {
		t.Fatal(err)
	}
	p["session_id"], p["transcript_path"] = sid, "/home/dev/.claude/projects/-work-ledger/"+sid+".jsonl"
	for k, v := range set {
		p[k] = v
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writePayload is window sid's PostToolUse of a Write of file (relative
// to dir).
func writePayload(t *testing.T, dir, sid, file string) []byte {
	path := filepath.Join(dir, file)
	return claudePayload(t, dir, sid, "post-tool-use-write", map[string]any{
		"tool_input":    map[string]any{"file_path": path, "content": "x\n"},
		"tool_response": map[string]any{"type": "create", "filePath": path, "content": "x\n", "structuredPatch": []any{}},
	})
}

// cairnJSON runs `cairn ARGS --json` in dir and decodes what it prints.
func cairnJSON(t *testing.T, dir string, out any, args ...string) {
	t.Helper()
	cmd := exec.Command(cairntest.Binary(t), append(args, "--json")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CAIRN_PROJECT_ROOT=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("cairn %v: %v\n%s", args, err, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("cairn %v: %v\n%s", args, err, stdout.String())
	}
}

// sessionRecord is what `cairn session ID --json` says of a session.
type sessionRecord struct {
	ID             string   `json:"id"`
	Agent          string   `json:"agent"`
	Client         string   `json:"client"`
	ClientSession  string   `json:"client_session"`
	StartedAt      string   `json:"started_at"`
	EndedAt        string   `json:"ended_at"`
	FilesModified  []string `json:"files_modified"`
	TasksCompleted []string `json:"tasks_completed"`
	MemoryWritten  []string `json:"memory_written"`
	Decisions      []struct {
		Decision string `json:"decision"`
	} `json:"decisions"`
	Tests []struct {
		Command string `json:"command"`
		Runner  string `json:"runner"`
		OK      bool   `json:"ok"`
		Passed  int    `json:"passed"`
	} `json:"tests"`
	Failures []struct {
		Command  string `json:"command"`
		Line     string `json:"line"`
		Type     string `json:"type"`
		Resolved string `json:"resolved_at"`
	} `json:"failures"`
	Outcome    string `json:"outcome"`
	OutcomeWhy string `json:"outcome_why"`
	Summary    string `json:"summary"`
}

func getSession(t *testing.T, dir, id string) sessionRecord {
	t.Helper()
	var out struct {
		Session sessionRecord `json:"session"`
	}
	cairnJSON(t, dir, &out, "session", id)
	if out.Session.ID != id {
		t.Fatalf("cairn session %s answered %q", id, out.Session.ID)
	}
	return out.Session
}

// taskID is the id of the task create_new_task created.
func taskID(t *testing.T, r cairntest.Result) string {
	t.Helper()
	id, ok := r.Structured["task_id"]
	if !ok {
		t.Fatalf("no task_id in %s %v", r.Text, r.Structured)
	}
	return fmt.Sprint(id)
}

// section is the part of a bootstrap under heading, up to the next one.
func section(text, heading string) string {
	_, after, ok := strings.Cut(text, heading+"\n")
	if !ok {
		return ""
	}
	body, _, _ := strings.Cut(after, "\n## ")
	return body
}

var openSession = regexp.MustCompile(`## Session\n- (s\d+) open since`)

// youAreHere is the YOU ARE HERE line of a bootstrap.
func youAreHere(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, "YOU ARE HERE") {
			return l
		}
	}
	return ""
}

// TestTwoWindows plays two Claude Code windows on one project, each a
// process with its own stdio server and its own hook commands, their
// events interleaved: each window's session holds exactly what that
// window did (files, commands, failures, test runs, tasks, decisions),
// neither ends or absorbs the other's, and each speaks as its own agent.
func TestTwoWindows(t *testing.T) {
	dir := cairntest.Project(t)
	// One git branch: each session's record is folded into its context.
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/csv-ages\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := func(name string) cairntest.WindowOptions {
		return cairntest.WindowOptions{Name: name, Dir: dir, Args: []string{"--toolsets", "all"}}
	}
	a, b := cairntest.StartWindow(t, opts("A")), cairntest.StartWindow(t, opts("B"))
	hook := func(w *cairntest.Window, event string, payload []byte) cairntest.HookResult {
		t.Helper()
		r := w.Hook(event, payload)
		if r.Stderr != "" {
			t.Errorf("window %s: cairn hook %s: stderr %q", w.Name, event, r.Stderr)
		}
		return r
	}

	// Both windows start; the second does not end the first.
	startA := hook(a, "session-start", claudePayload(t, dir, sessionA, "session-start-startup", nil)).Stdout
	startB := hook(b, "session-start", claudePayload(t, dir, sessionB, "session-start-startup", nil)).Stdout
	ma, mb := openSession.FindStringSubmatch(startA), openSession.FindStringSubmatch(startB)
	if ma == nil || mb == nil || ma[1] == mb[1] {
		t.Fatalf("each window's bootstrap names its own open session:\nA:\n%s\nB:\n%s", startA, startB)
	}
	sA, sB := ma[1], mb[1]
	if s := getSession(t, dir, sA); s.EndedAt != "" {
		t.Fatalf("B's session start ended A's session %s: %+v", sA, s)
	}

	// Their work, interleaved.
	hook(a, "user-prompt-submit", claudePayload(t, dir, sessionA, "user-prompt-submit-nomatch", nil))
	hook(b, "post-tool-use", writePayload(t, dir, sessionB, "b_only.txt"))
	hook(a, "post-tool-use", writePayload(t, dir, sessionA, "a_only.txt"))
	hook(a, "post-tool-use", claudePayload(t, dir, sessionA, "post-tool-use-failure-python", nil))
	hook(b, "post-tool-use", claudePayload(t, dir, sessionB, "post-tool-use-bash-pytest", nil))

	// Over MCP: each window's server speaks for its window.
	taskA := a.OK("create_new_task", map[string]any{"title": "Parse the ages in people.csv as numbers"})
	taskB := b.OK("create_new_task", map[string]any{"title": "Cover csvstats with pytest"})
	idA, idB := taskID(t, taskA), taskID(t, taskB)
	hereA, hereB := youAreHere(a.OK("get_current_task", nil).Text), youAreHere(b.OK("get_current_task", nil).Text)
	if !strings.Contains(hereA, "["+idA+"]") || !strings.Contains(hereB, "["+idB+"]") {
		t.Errorf("each window has its own YOU ARE HERE:\nA: %s\nB: %s", hereA, hereB)
	}
	// A's completion does not move A onto the task B is at.
	a.OK("complete_current_task", nil)
	if here := youAreHere(a.OK("get_current_task", nil).Text); strings.Contains(here, "["+idB+"]") {
		t.Errorf("A's focus moved onto B's task: %s", here)
	}
	dec := b.OK("memory_add_decision", map[string]any{"title": "csvstats reads ages with float() and skips the header row",
		"rationale": "the first row of people.csv is a header; float('name') raised ValueError"})
	decID := fmt.Sprint(dec.Structured["id"])
	if !strings.HasPrefix(decID, "m") {
		t.Fatalf("memory_add_decision: no id in %v", dec.Structured)
	}
	for w, want := range map[*cairntest.Window]string{a: sA, b: sB} {
		got := w.OK("session", map[string]any{"action": "get"})
		if !strings.HasPrefix(got.Text, want+" open") {
			t.Errorf("window %s's session tool shows another session than %s:\n%s", w.Name, want, got.Text)
		}
	}

	// A stops; B ends (and its client quits); A goes on in its session.
	hook(a, "stop", claudePayload(t, dir, sessionA, "stop", nil))
	hook(b, "session-end", claudePayload(t, dir, sessionB, "session-end-prompt_input_exit", nil))
	b.Close()
	if s := getSession(t, dir, sA); s.EndedAt != "" {
		t.Fatalf("B's session end ended A's session %s: %+v", sA, s)
	}
	hook(a, "post-tool-use", writePayload(t, dir, sessionA, "a_after.txt"))
	resumed := hook(a, "session-start", claudePayload(t, dir, sessionA, "session-start-resume", nil)).Stdout
	if m, own := openSession.FindStringSubmatch(resumed), section(resumed, "## Session"); m == nil || m[1] != sA ||
		!strings.Contains(own, "a_only.txt") || strings.Contains(own, "b_only.txt") || strings.Contains(own, "pytest") {
		t.Errorf("A's resume does not show A's session %s and A's files only:\n%s", sA, resumed)
	}
	// The branch context has B's ended session in it; it does not say
	// "0 decisions" while B's decision is in memory.
	if br := section(resumed, "## Branch context"); !strings.Contains(br, "b_only.txt") || strings.Contains(br, "0 decisions") {
		t.Errorf("A's resume, branch context:\n%s", br)
	}
	if here := youAreHere(resumed); strings.Contains(here, "["+idB+"]") {
		t.Errorf("A's resume shows B's YOU ARE HERE: %s\n%s", here, resumed)
	}
	hook(a, "session-end", claudePayload(t, dir, sessionA, "session-end-prompt_input_exit", nil))

	// Two sessions, one a window; each holds exactly its window's work.
	var list struct {
		Sessions []struct {
			ID    string `json:"id"`
			Agent string `json:"agent"`
		} `json:"sessions"`
		Total int `json:"total"`
	}
	cairnJSON(t, dir, &list, "sessions")
	if list.Total != 2 {
		t.Fatalf("want 2 sessions (one a window), got %d: %+v", list.Total, list.Sessions)
	}
	ra, rb := getSession(t, dir, sA), getSession(t, dir, sB)
	if ra.Agent == rb.Agent || ra.Agent == "" || rb.Agent == "" {
		t.Errorf("the windows share an agent: A %q, B %q", ra.Agent, rb.Agent)
	}
	if ra.Client != "claude-code" || rb.Client != "claude-code" || ra.ClientSession != sessionA || rb.ClientSession != sessionB {
		t.Errorf("clients: A %q %q, B %q %q", ra.Client, ra.ClientSession, rb.Client, rb.ClientSession)
	}
	same := func(who, what string, got, want []string) {
		t.Helper()
		got, want = slices.Clone(got), slices.Clone(want)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s's %s: %q, want exactly %q", who, what, got, want)
		}
	}
	same("A", "files", ra.FilesModified, []string{"a_only.txt", "a_after.txt"})
	same("B", "files", rb.FilesModified, []string{"b_only.txt"})
	same("A", "tasks completed", ra.TasksCompleted, []string{idA})
	same("B", "tasks completed", rb.TasksCompleted, nil)
	same("A", "memory written", ra.MemoryWritten, nil)
	same("B", "memory written", rb.MemoryWritten, []string{decID})
	if len(ra.Tests) != 0 {
		t.Errorf("A ran no tests, its record has %+v", ra.Tests)
	}
	if len(rb.Tests) != 1 || rb.Tests[0].Command != "python3 -m pytest tests/test_ok.py" || !rb.Tests[0].OK || rb.Tests[0].Passed != 2 {
		t.Errorf("B's test run: %+v", rb.Tests)
	}
	if len(rb.Failures) != 0 {
		t.Errorf("B had no failure, its record has %+v", rb.Failures)
	}
	if len(ra.Failures) != 1 || ra.Failures[0].Command != "python3 csvstats.py people.csv" ||
		ra.Failures[0].Line != "ValueError: could not convert string to float: 'name'" || ra.Failures[0].Resolved != "" {
		t.Errorf("A's failure, with the line that says what went wrong: %+v", ra.Failures)
	}
	// Neither ended the other: each ended at its own SessionEnd, with an
	// outcome from its own record.
	if rb.EndedAt == "" || ra.EndedAt == "" || ra.EndedAt < rb.EndedAt {
		t.Errorf("A ended %q, B ended %q: each ends at its own SessionEnd, A last", ra.EndedAt, rb.EndedAt)
	}
	if rb.Outcome != "success" || !strings.Contains(rb.OutcomeWhy, "python3 -m pytest") {
		t.Errorf("B's outcome: %s (%s)", rb.Outcome, rb.OutcomeWhy)
	}
	if ra.Outcome != "partial" || !strings.Contains(ra.OutcomeWhy, "1 task(s) completed, but 1 failed command(s) left unresolved") {
		t.Errorf("A's outcome: %s (%s)", ra.Outcome, ra.OutcomeWhy)
	}
	// Each recap says what its window did, B's decision with its id.
	if !strings.Contains(ra.Summary, "a_only.txt") || strings.Contains(ra.Summary, "b_only") || strings.Contains(ra.Summary, decID) {
		t.Errorf("A's recap: %s", ra.Summary)
	}
	if !strings.Contains(rb.Summary, "b_only.txt") || strings.Contains(rb.Summary, "a_only") || !strings.Contains(rb.Summary, "memory written: decision "+decID) {
		t.Errorf("B's recap: %s", rb.Summary)
	}
	// Each window's tools spoke as its session's agent.
	if !strings.Contains(hereA, "agent "+ra.Agent+")") || !strings.Contains(hereB, "agent "+rb.Agent+")") {
		t.Errorf("YOU ARE HERE of agents other than the sessions' %q, %q:\nA: %s\nB: %s", ra.Agent, rb.Agent, hereA, hereB)
	}
}

// TestTwoWindowsClear: /clear in a window gives the client a new session
// id, so Cairn a new session, but the window is the same: it keeps its
// agent, and with it its YOU ARE HERE; the other window is untouched.
// Either window: the first keeps the client's name as its agent, the
// second has one of its own.
func TestTwoWindowsClear(t *testing.T) {
	for _, clearing := range []string{"A", "B"} {
		t.Run(clearing, func(t *testing.T) {
			dir := cairntest.Project(t)
			opts := func(name string) cairntest.WindowOptions {
				return cairntest.WindowOptions{Name: name, Dir: dir, Args: []string{"--toolsets", "all"}}
			}
			a, b := cairntest.StartWindow(t, opts("A")), cairntest.StartWindow(t, opts("B"))
			a.Hook("session-start", claudePayload(t, dir, sessionA, "session-start-startup", nil))
			b.Hook("session-start", claudePayload(t, dir, sessionB, "session-start-startup", nil))
			idA := taskID(t, a.OK("create_new_task", map[string]any{"title": "Parse the ages in people.csv as numbers"}))
			idB := taskID(t, b.OK("create_new_task", map[string]any{"title": "Cover csvstats with pytest"}))
			w, other, sid, id, otherID := a, b, sessionA, idA, idB
			if clearing == "B" {
				w, other, sid, id, otherID = b, a, sessionB, idB, idA
			}
			before := youAreHere(w.OK("get_current_task", nil).Text)

			const cleared = "c41d7e05-9b2a-4f63-8d1e-2a7c5b9e0f38"
			w.Hook("session-end", claudePayload(t, dir, sid, "session-end-clear", nil))
			start := w.Hook("session-start", claudePayload(t, dir, cleared, "session-start-clear", nil)).Stdout
			if here := youAreHere(start); !strings.Contains(here, "["+id+"]") {
				t.Errorf("after /clear, %s's bootstrap lost its YOU ARE HERE [%s] (before: %s):\n%s", clearing, id, before, start)
			}
			if after := youAreHere(w.OK("get_current_task", nil).Text); after != before {
				t.Errorf("after /clear, %s's tools speak as another agent:\nbefore: %s\nafter:  %s", clearing, before, after)
			}
			if here := youAreHere(other.OK("get_current_task", nil).Text); !strings.Contains(here, "["+otherID+"]") {
				t.Errorf("%s's /clear moved the other window: %s", clearing, here)
			}
		})
	}
}
