package insight_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/insight"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/usage"
)

// TestSignals drives one session through what the hooks and tools see (an
// edit undone, a commit reverted, feedback, a retried and a failed call, a
// classified task) and reads each signal back from model_performance and
// project_health, with its evidence.
func TestSignals(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	mem := memories.NewMemory(st, memories.MemoryOptions{Root: dir, Alive: func(memory.Proc) bool { return true }})
	ins := insight.New(st, insight.Options{})
	defer ins.Close()

	s1, err := mem.StartSession(ctx, "a", "", "", memories.SessionPatch{AI: memory.Provider{Model: "m1"}})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := mem.StartSession(ctx, "b", "", "", memories.SessionPatch{AI: memory.Provider{Model: "m1"}})
	if err != nil {
		t.Fatal(err)
	}
	use := func(agent string, u memories.ToolUse) memories.ToolUseRecorded {
		t.Helper()
		u.Agent = agent
		r, err := mem.RecordToolUse(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	f := filepath.Join(dir, "post.go")
	edit := func(agent, old, new string) memories.ToolUseRecorded {
		return use(agent, memories.ToolUse{Tool: "Edit", Files: []string{f}, Edits: []memories.Edit{{Path: f, Old: old, New: new}}})
	}
	if r := edit("a", "return nil", "return err"); len(r.Reverts) != 0 {
		t.Fatalf("a first edit reverts %v", r.Reverts)
	}
	if r := edit("a", "x := 1", "x := 2"); len(r.Reverts) != 0 {
		t.Fatalf("an unrelated edit reverts %v", r.Reverts)
	}
	// The same text put back in another file, or by another session, undoes nothing.
	if r := use("a", memories.ToolUse{Tool: "Edit", Files: []string{filepath.Join(dir, "other.go")}, Edits: []memories.Edit{{Path: filepath.Join(dir, "other.go"), Old: "return err", New: "return nil"}}}); len(r.Reverts) != 0 {
		t.Fatalf("an edit of another file reverts %v", r.Reverts)
	}
	if r := edit("b", "return err", "return nil"); len(r.Reverts) != 0 {
		t.Fatalf("another session's edit reverts %v", r.Reverts)
	}
	if r := edit("a", "return err", "return nil"); !slices.Equal(r.Reverts, []string{"edit of post.go"}) {
		t.Fatalf("undoing edit: reverts %v, want the edit of post.go", r.Reverts)
	}
	if r := use("a", memories.ToolUse{Tool: "Bash", Command: "git revert --no-edit abc123"}); !slices.Equal(r.Reverts, []string{"commit abc123"}) {
		t.Fatalf("git revert: reverts %v", r.Reverts)
	}
	if r := use("a", memories.ToolUse{Tool: "Bash", Command: "git revert def456", Failed: true, Error: "conflict"}); len(r.Reverts) != 0 {
		t.Fatalf("a failed git revert reverts %v", r.Reverts)
	}

	// Feedback: validated, redacted, counted.
	for _, c := range []struct {
		f     insight.Feedback
		field string
	}{
		{insight.Feedback{Rating: "meh", By: insight.ByAgent}, "rating"},
		{insight.Feedback{Rating: "good", By: "robot"}, "by"},
		{insight.Feedback{Rating: "good", By: insight.ByAgent, Tool: "two words"}, "tool"},
		{insight.Feedback{Rating: "good", By: insight.ByAgent, Note: strings.Repeat("x", 501)}, "note"},
		{insight.Feedback{Rating: "good", By: insight.ByAgent, Session: "x9"}, "session_id"},
		{insight.Feedback{Rating: "good", By: insight.ByAgent, Session: "s99"}, "session_id"},
	} {
		_, err := ins.Give(ctx, "a", c.f)
		var fe *problem.FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || fe.Fix == "" {
			t.Errorf("Give(%+v) = %v, want a field error on %s", c.f, err, c.field)
		}
	}
	if _, err := ins.Give(ctx, "nobody", insight.Feedback{Rating: "good", By: insight.ByAgent}); err == nil {
		t.Error("feedback from an agent with no open session was taken")
	}
	if _, err := ins.Give(ctx, "a", insight.Feedback{Rating: "good", By: insight.ByPerson}); err != nil {
		t.Fatal(err)
	}
	secret := "sk-ant-api03-" + strings.Repeat("A", 48)
	var last insight.FeedbackResult
	for range 2 {
		if last, err = ins.Give(ctx, "a", insight.Feedback{Rating: "BAD", Tool: "memory_search", Note: "wrong entry, key " + secret, By: insight.ByAgent}); err != nil {
			t.Fatal(err)
		}
	}
	if last.Count != 2 || last.Redacted == 0 || strings.Contains(last.Note, secret) || last.Session != s1.Session.ID || last.Target != "memory_search" {
		t.Fatalf("feedback given twice = %+v", last)
	}
	if r, err := ins.Give(ctx, "", insight.Feedback{Rating: "good", By: insight.ByPerson, Session: s2.Session.ID.String()}); err != nil || r.Session != s2.Session.ID {
		t.Fatalf("a person's feedback on %s = %+v, %v", s2.Session.ID, r, err)
	}

	// Calls: a search retried at once with other arguments, a failed call,
	// a classification.
	t0 := time.Now().UTC().Add(-time.Minute)
	sid := int64(s1.Session.ID)
	callAt := func(d time.Duration, name, args, outcome string) usage.Event {
		return usage.Event{At: t0.Add(d), Kind: usage.KindCall, Name: name, Toolset: "memory", Agent: "a", Session: sid, Outcome: outcome, Subject: usage.ArgsDigest([]byte(args))}
	}
	for _, e := range []usage.Event{
		callAt(0, "memory_search", `{"query":"wal"}`, usage.OK),
		callAt(time.Second, "memory_search", `{"query":"journal mode"}`, usage.OK), // retries the first
		callAt(2*time.Second, "memory_get", `{"ids":["m1"]}`, usage.OK),
		callAt(3*time.Second, "memory_get", `{"ids":["m1"]}`, usage.OK), // the same arguments: no retry
		callAt(4*time.Second, "task_update", `{}`, "invalid_argument"),
		{At: t0.Add(5 * time.Second), Kind: usage.KindClass, Name: "classify_task", Agent: "a", Session: sid, Outcome: usage.OK, Subject: "backend-dev"},
	} {
		ins.Record(e)
	}

	p, err := ins.Performance(ctx, insight.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Groups) != 1 || p.Groups[0].Key != "m1" {
		t.Fatalf("groups %+v", p.Groups)
	}
	g := p.Groups[0]
	if g.Commits != 1 || g.Edits != 1 || g.Revert.K != 1 || g.Revert.N != 2 || len(g.Evidence) != 2 {
		t.Errorf("reverts: commits %d edits %d rate %+v evidence %q", g.Commits, g.Edits, g.Revert, g.Evidence)
	}
	if want := (insight.FeedbackCounts{Good: 2, AnswersBad: 2}); g.Feedback != want {
		t.Errorf("feedback %+v, want %+v", g.Feedback, want)
	}
	if want := (insight.Answers{Calls: 5, Errored: 1, Retried: 1}); g.Answers != want || g.BadAnswers.K != 2 {
		t.Errorf("answers %+v (bad %+v), want %+v", g.Answers, g.BadAnswers, want)
	}
	if m, ok := g.ByClass["backend-dev"]; !ok || m.Sessions != 1 || g.ByClass[usage.Unknown].Sessions != 1 {
		t.Errorf("by class %+v", g.ByClass)
	}
	for class, want := range map[string]int{"backend-dev": 1, usage.Unknown: 1, "frontend-dev": 0} {
		p, err := ins.Performance(ctx, insight.Query{Class: class})
		if err != nil || p.Sessions != want {
			t.Errorf("class %s: %d sessions, %v; want %d", class, p.Sessions, err, want)
		}
	}
	u, err := ins.ToolUsage(ctx, 30, "memory_search", 10)
	if err != nil || len(u.Tools) != 1 || u.Tools[0].Retried != 1 || u.Tools[0].Bad.K != 1 {
		t.Errorf("tool usage of memory_search: %+v, %v", u.Tools, err)
	}

	h, err := ins.Health(ctx, 30)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]insight.Component{}
	for _, c := range h.Components {
		got[c.Name] = c
	}
	if c := got["feedback"]; !c.HasData || c.N != 4 || c.Value != 0.5 || !strings.Contains(c.Detail, "answers 0 good, 2 bad") {
		t.Errorf("feedback component %+v", c)
	}
	if c := got["reverts"]; !c.HasData || c.N != 2 || c.Value != 0.5 || !strings.Contains(c.Detail, "1 commits reverted, 1 edits undone") {
		t.Errorf("reverts component %+v", c)
	}
}
