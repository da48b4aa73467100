package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
)

func addMemory(t *testing.T, s store.Store, e memory.Entry) memory.Entry {
	t.Helper()
	if e.CreatedAt.IsZero() {
		e.CreatedAt, e.UpdatedAt = t0, t0
	}
	var out memory.Entry
	update(t, s, func(tx store.Tx) (err error) {
		out, err = tx.PutMemory(context.Background(), e)
		return err
	})
	return out
}

func testMemoryAddAndRead(t *testing.T, s store.Store) {
	ctx := context.Background()
	in := memory.Entry{Type: memory.Decision, Title: "Use WAL", Content: "readers never block the writer",
		Facts: []string{"f1", "f2"}, Tags: []string{"sqlite", "durability"}, Files: []string{"store.go"},
		SessionID: "s1", Branch: "main", Rationale: "concurrency", Alternatives: []string{"rollback journal"},
		DiscoveryTokens: 1200, CreatedAt: t0, UpdatedAt: t0}
	got := addMemory(t, s, in)
	if got.ID == 0 || got.UID == "" {
		t.Fatalf("PutMemory of a new entry gave id %d uid %q", got.ID, got.UID)
	}
	second := addMemory(t, s, memory.Entry{Type: memory.Mistake, Title: "x", UID: "fixeduid0001", RootCause: "r", Fix: "f", Prevention: "p", Occurrences: 1, Examples: nil})
	if second.ID <= got.ID || second.UID != "fixeduid0001" {
		t.Fatalf("second entry: id %d after %d, uid %q", second.ID, got.ID, second.UID)
	}
	view(t, s, func(tx store.Tx) error {
		es, err := store.Memories(ctx, tx, []memory.ID{second.ID, 999, got.ID}, 0)
		if err != nil {
			return err
		}
		want := in
		want.ID, want.UID = got.ID, got.UID
		if len(es) != 2 || es[0].ID != second.ID {
			t.Fatalf("Memories = %d entries, want 2 in the order asked", len(es))
		}
		if d := cmp.Diff(want, es[1]); d != "" {
			t.Errorf("read back (-want +got):\n%s", d)
		}
		byUID, ok, err := store.MemoryByUID(ctx, tx, "fixeduid0001")
		if err != nil || !ok || byUID.ID != second.ID {
			t.Errorf("MemoryByUID = %v %v %v", byUID.ID, ok, err)
		}
		if _, ok, err := store.MemoryByUID(ctx, tx, "nope"); ok || err != nil {
			t.Errorf("MemoryByUID(nope) = %v, %v", ok, err)
		}
		return nil
	})
	// Update rewrites the entry and its index.
	got.Title, got.Content, got.Tags = "Use WAL mode", "a different text entirely", []string{"journal"}
	update(t, s, func(tx store.Tx) error { _, err := tx.PutMemory(ctx, got); return err })
	view(t, s, func(tx store.Tx) error {
		hits, _, err := searchMem(ctx, tx, store.MemoryQuery{Text: "readers block"})
		if err != nil {
			return err
		}
		if len(hits) != 0 {
			t.Errorf("old text still indexed: %+v", hits)
		}
		hits, _, err = searchMem(ctx, tx, store.MemoryQuery{Text: "different", Tags: []string{"journal"}})
		if err != nil {
			return err
		}
		if len(hits) != 1 || hits[0].Entry.Title != "Use WAL mode" {
			t.Errorf("new text not indexed: %+v", hits)
		}
		return nil
	})
	err := s.Update(ctx, func(tx store.Tx) error {
		_, err := tx.PutMemory(ctx, memory.Entry{ID: 999, UID: "zzzzzzzzzz", Type: memory.Insight, Title: "t"})
		return err
	})
	if !problem.Is(err, problem.NotFound) {
		t.Errorf("PutMemory of entry 999 = %v, want not found", err)
	}
}

func testMemorySearch(t *testing.T, s store.Store) {
	ctx := context.Background()
	mk := func(typ memory.Type, title, content, session, branch string, tags []string, day int) memory.Entry {
		at := t0.Add(time.Duration(day) * 24 * time.Hour)
		return addMemory(t, s, memory.Entry{Type: typ, Title: title, Content: content, SessionID: session, Branch: branch, Tags: tags, CreatedAt: at, UpdatedAt: at})
	}
	a := mk(memory.Decision, "Retry on SQLITE_BUSY", "opening a store retries while another process migrates", "s1", "main", []string{"sqlite"}, 0)
	b := mk(memory.Mistake, "Forgot the busy timeout", "writers failed with database is locked", "s1", "feat", []string{"sqlite", "locking"}, 1)
	c := mk(memory.Convention, "Errors name the field", "every tool error says field, problem and fix", "s2", "main", []string{"errors"}, 2)
	mk(memory.Insight, "Tokens cost money", "compact answers keep agents cheap; the store is fine", "s2", "main", nil, 3)

	search := func(q store.MemoryQuery) ([]memory.ID, int) {
		t.Helper()
		var ids []memory.ID
		var total int
		view(t, s, func(tx store.Tx) error {
			hits, n, err := searchMem(ctx, tx, q)
			for _, h := range hits {
				ids = append(ids, h.Entry.ID)
				if h.Entry.Content != "" {
					t.Errorf("hit %s carries content", h.Entry.ID)
				}
				if q.Text != "" && (h.Score <= 0 || h.Snippet == "") {
					t.Errorf("hit %s: score %v snippet %q", h.Entry.ID, h.Score, h.Snippet)
				}
			}
			total = n
			return err
		})
		return ids, total
	}
	for _, tc := range []struct {
		name  string
		q     store.MemoryQuery
		want  []memory.ID
		total int
	}{
		{"title outranks body", store.MemoryQuery{Text: "busy"}, []memory.ID{b.ID, a.ID}, 2},
		{"stemming", store.MemoryQuery{Text: "retrying"}, []memory.ID{a.ID}, 1},
		{"any word", store.MemoryQuery{Text: "locked field"}, nil, 2},
		{"syntax is plain text", store.MemoryQuery{Text: `"busy" AND (NOT) NEAR* col:x`}, nil, -1},
		{"type", store.MemoryQuery{Text: "sqlite busy", Types: []memory.Type{memory.Mistake}}, []memory.ID{b.ID}, 1},
		{"tag", store.MemoryQuery{Tags: []string{"locking", "errors"}}, []memory.ID{c.ID, b.ID}, 2},
		{"session", store.MemoryQuery{SessionID: "s1"}, []memory.ID{b.ID, a.ID}, 2},
		{"branch", store.MemoryQuery{Branch: "feat"}, []memory.ID{b.ID}, 1},
		{"dates", store.MemoryQuery{After: t0.Add(24 * time.Hour), Before: t0.Add(72 * time.Hour)}, []memory.ID{c.ID, b.ID}, 2},
		{"newest first, paged", store.MemoryQuery{Offset: 1, Limit: 2}, []memory.ID{c.ID, b.ID}, 4},
		{"no match", store.MemoryQuery{Text: "kubernetes"}, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ids, total := search(tc.q)
			if tc.want != nil && fmt.Sprint(ids) != fmt.Sprint(tc.want) {
				t.Errorf("ids = %v, want %v", ids, tc.want)
			}
			if tc.total >= 0 && total != tc.total {
				t.Errorf("total = %d, want %d", total, tc.total)
			}
		})
	}
}

func testMemoryMistakeFingerprint(t *testing.T, s store.Store) {
	ctx := context.Background()
	m := addMemory(t, s, memory.Entry{Type: memory.Mistake, Title: "open /tmp/x1: too many files", Occurrences: 1})
	err := s.Update(ctx, func(tx store.Tx) error {
		_, err := tx.PutMemory(ctx, memory.Entry{Type: memory.Mistake, Title: "Open /tmp/x22: too many files", CreatedAt: t0, UpdatedAt: t0})
		return err
	})
	if !errors.Is(err, store.ErrDuplicate) {
		t.Fatalf("second identical mistake: %v, want ErrDuplicate", err)
	}
	// The same title as another type is not a mistake duplicate.
	addMemory(t, s, memory.Entry{Type: memory.Insight, Title: "open /tmp/x1: too many files"})
	view(t, s, func(tx store.Tx) error {
		got, ok, err := store.MistakeByFingerprint(ctx, tx, memory.Fingerprint("OPEN /tmp/x9: too many files"))
		if err != nil || !ok || got.ID != m.ID {
			t.Errorf("MistakeByFingerprint = %v %v %v, want %s", got.ID, ok, err, m.ID)
		}
		return nil
	})
}

func testMemoryTimeline(t *testing.T, s store.Store) {
	ctx := context.Background()
	var ids []memory.ID
	for i := range 7 {
		session := "s1"
		if i%2 == 1 {
			session = "s2"
		}
		ids = append(ids, addMemory(t, s, memory.Entry{Type: memory.Insight, Title: fmt.Sprint("e", i), SessionID: session}).ID)
	}
	view(t, s, func(tx store.Tx) error {
		older, newer, err := store.MemoryTimeline(ctx, tx, ids[3], 2, 2, false)
		if err != nil {
			return err
		}
		if fmt.Sprint(entryIDs(older), entryIDs(newer)) != fmt.Sprint(ids[1:3], ids[4:6]) {
			t.Errorf("timeline = %v %v", entryIDs(older), entryIDs(newer))
		}
		older, newer, err = store.MemoryTimeline(ctx, tx, ids[2], 5, 1, true)
		if err != nil {
			return err
		}
		if fmt.Sprint(entryIDs(older), entryIDs(newer)) != fmt.Sprint([]memory.ID{ids[0]}, []memory.ID{ids[4]}) {
			t.Errorf("same-session timeline = %v %v", entryIDs(older), entryIDs(newer))
		}
		if _, _, err := store.MemoryTimeline(ctx, tx, 999, 1, 1, false); !problem.Is(err, problem.NotFound) {
			t.Errorf("timeline of 999: %v", err)
		}
		return nil
	})
}

func entryIDs(es []memory.Entry) []memory.ID {
	out := []memory.ID{}
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

func testMemorySelectDelete(t *testing.T, s store.Store) {
	ctx := context.Background()
	var es []memory.Entry
	for i, typ := range []memory.Type{memory.Insight, memory.Decision, memory.Insight, memory.Pattern} {
		at := t0.Add(time.Duration(i) * time.Hour)
		es = append(es, addMemory(t, s, memory.Entry{Type: typ, Title: fmt.Sprint("entry ", i), Content: "searchable", Tags: []string{"x"}, CreatedAt: at, UpdatedAt: at}))
	}
	update(t, s, func(tx store.Tx) error { return tx.SetMemoryVector(ctx, es[0].ID, "m", []float32{1, 0}) })
	view(t, s, func(tx store.Tx) error {
		got, total, err := tx.SelectMemories(ctx, store.MemorySelector{Types: []memory.Type{memory.Insight}, Before: t0.Add(90 * time.Minute)})
		if err != nil {
			return err
		}
		if total != 1 || len(got) != 1 || got[0].ID != es[0].ID {
			t.Errorf("select insight before 1:30 = %v (total %d)", entryIDs(got), total)
		}
		got, total, err = tx.SelectMemories(ctx, store.MemorySelector{IDs: []memory.ID{es[3].ID, es[1].ID, 999}, Limit: 1})
		if err != nil {
			return err
		}
		if total != 2 || len(got) != 1 || got[0].ID != es[1].ID {
			t.Errorf("select ids, limit 1 = %v (total %d)", entryIDs(got), total)
		}
		return nil
	})
	update(t, s, func(tx store.Tx) error {
		n, err := tx.DeleteMemories(ctx, []memory.ID{es[0].ID, es[2].ID, 999})
		if n != 2 {
			t.Errorf("deleted %d, want 2", n)
		}
		return err
	})
	view(t, s, func(tx store.Tx) error {
		hits, total, err := searchMem(ctx, tx, store.MemoryQuery{Text: "searchable", Tags: []string{"x"}})
		if err != nil {
			return err
		}
		if total != 2 || len(hits) != 2 {
			t.Errorf("after delete, search finds %d (total %d), want 2", len(hits), total)
		}
		with, all, err := CountVectors(ctx, tx, "m")
		if with != 0 || all != 2 {
			t.Errorf("CountVectors = %d/%d, want 0/2", with, all)
		}
		return err
	})
}

func testMemoryVectors(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := addMemory(t, s, memory.Entry{Type: memory.Insight, Title: "a", Branch: "main"})
	b := addMemory(t, s, memory.Entry{Type: memory.Insight, Title: "b", Branch: "main"})
	c := addMemory(t, s, memory.Entry{Type: memory.Decision, Title: "c", Branch: "feat"})
	update(t, s, func(tx store.Tx) error {
		for _, v := range []struct {
			id  memory.ID
			vec []float32
		}{{a.ID, []float32{1, 0, 0}}, {b.ID, []float32{0.6, 0.8, 0}}, {c.ID, []float32{0, 0, 1}}} {
			if err := tx.SetMemoryVector(ctx, v.id, "model-a", v.vec); err != nil {
				return err
			}
		}
		// Writing again replaces.
		return tx.SetMemoryVector(ctx, a.ID, "model-a", []float32{0, 1, 0})
	})
	err := s.Update(ctx, func(tx store.Tx) error { return tx.SetMemoryVector(ctx, 999, "model-a", []float32{1}) })
	if !problem.Is(err, problem.NotFound) {
		t.Errorf("vector for a missing entry: %v", err)
	}
	view(t, s, func(tx store.Tx) error {
		got, err := nearest(ctx, tx, "model-a", []float32{0, 1, 0}, store.MemorySelector{HideSuperseded: true}, 2)
		if err != nil {
			return err
		}
		if len(got) != 2 || got[0].ID != a.ID || got[1].ID != b.ID || got[0].Score < 0.99 || got[1].Score > got[0].Score {
			t.Errorf("nearest = %+v", got)
		}
		got, err = nearest(ctx, tx, "model-a", []float32{0, 1, 0}, store.MemorySelector{Branch: "feat", HideSuperseded: true}, 5)
		if err != nil {
			return err
		}
		if len(got) != 1 || got[0].ID != c.ID {
			t.Errorf("nearest on feat = %+v", got)
		}
		if got, _ := nearest(ctx, tx, "model-b", []float32{0, 1, 0}, store.MemorySelector{HideSuperseded: true}, 5); len(got) != 0 {
			t.Errorf("another model's vectors are used: %+v", got)
		}
		missing, _, err := tx.SelectMemories(ctx, store.MemorySelector{WithoutVector: "model-b", Limit: 2, SkipCount: true})
		if err != nil {
			return err
		}
		if fmt.Sprint(entryIDs(missing)) != fmt.Sprint([]memory.ID{a.ID, b.ID}) {
			t.Errorf("missing for model-b = %v", entryIDs(missing))
		}
		if m, _, _ := tx.SelectMemories(ctx, store.MemorySelector{WithoutVector: "model-a", Limit: 5, SkipCount: true}); len(m) != 0 {
			t.Errorf("missing for model-a = %v", entryIDs(m))
		}
		return nil
	})
}

func testSessions(t *testing.T, s store.Store) {
	ctx := context.Background()
	var first, child memory.Session
	update(t, s, func(tx store.Tx) (err error) {
		first, err = tx.PutSession(ctx, memory.Session{Agent: "a", Branch: "main", Goal: "g", StartedAt: t0,
			AI:     memory.Provider{Provider: "anthropic", Model: "m", Client: "claude-code"},
			Client: memory.Client{Name: "claude-code", SessionID: "2f6c1a9e", Proc: memory.Proc{PID: 4242, Start: 99}}})
		if err != nil {
			return err
		}
		child, err = tx.PutSession(ctx, memory.Session{ParentID: first.ID, ThreadID: first.ThreadID, Branch: "feat", StartedAt: t0.Add(time.Hour)})
		return err
	})
	if first.ID == 0 || first.ThreadID != first.ID || child.ThreadID != first.ID || child.ID == first.ID {
		t.Fatalf("ids: first %+v child %+v", first, child)
	}
	first.EndedAt, first.Outcome, first.OutcomeWhy = t0.Add(30*time.Minute), "success", "tests passed"
	first.TasksPending = []string{"7"}
	update(t, s, func(tx store.Tx) error { _, err := tx.PutSession(ctx, first); return err })
	view(t, s, func(tx store.Tx) error {
		got, err := store.Session(ctx, tx, first.ID)
		if err != nil {
			return err
		}
		if d := cmp.Diff(first, got); d != "" {
			t.Errorf("session (-want +got):\n%s", d)
		}
		for _, id := range []memory.SessionID{999, 0} {
			if _, err := store.Session(ctx, tx, id); !problem.Is(err, problem.NotFound) {
				t.Errorf("Session(%d) = %v", id, err)
			}
		}
		list, total, err := tx.Sessions(ctx, store.SessionQuery{ThreadID: first.ID})
		if err != nil || total != 2 || len(list) != 2 || list[0].ID != child.ID {
			t.Errorf("thread list = %d %d %v", len(list), total, err)
		}
		list, total, _ = tx.Sessions(ctx, store.SessionQuery{OpenOnly: true})
		if total != 1 || list[0].ID != child.ID {
			t.Errorf("open sessions = %d", total)
		}
		if _, total, _ = tx.Sessions(ctx, store.SessionQuery{Agent: "a", OpenOnly: true}); total != 0 {
			t.Errorf("agent a has %d open sessions, want 0", total)
		}
		list, total, _ = tx.Sessions(ctx, store.SessionQuery{Branch: "main"})
		if total != 1 || list[0].ID != first.ID {
			t.Errorf("sessions on main = %d", total)
		}
		list, total, _ = tx.Sessions(ctx, store.SessionQuery{ClientKey: "claude-code:2f6c1a9e"})
		if total != 1 || list[0].ID != first.ID {
			t.Errorf("sessions of the client's key = %d", total)
		}
		list, total, _ = tx.Sessions(ctx, store.SessionQuery{Procs: []memory.Proc{{PID: 1, Start: 1}, {PID: 4242, Start: 99}}})
		if total != 1 || list[0].ID != first.ID {
			t.Errorf("sessions of the client's process = %d", total)
		}
		if _, total, _ = tx.Sessions(ctx, store.SessionQuery{Procs: []memory.Proc{{PID: 4242, Start: 100}}}); total != 0 {
			t.Errorf("a reused pid (another start time) matched %d sessions", total)
		}
		return nil
	})
	if err := s.Update(ctx, func(tx store.Tx) error { _, err := tx.PutSession(ctx, memory.Session{ID: 999}); return err }); !problem.Is(err, problem.NotFound) {
		t.Errorf("UpdateSession(999) = %v", err)
	}
}

// testSessionEvents: events are counted again, not repeated; a page of each
// kind comes newest first with every kind's total; failures resolve, and a
// failure seen again after it was resolved is unresolved again.
func testSessionEvents(t *testing.T, s store.Store) {
	ctx := context.Background()
	var a, b memory.Session
	update(t, s, func(tx store.Tx) (err error) {
		if a, err = tx.PutSession(ctx, memory.Session{Agent: "a", StartedAt: t0}); err != nil {
			return err
		}
		b, err = tx.PutSession(ctx, memory.Session{Agent: "b", StartedAt: t0})
		return err
	})
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	events := []memory.Event{
		{Session: a.ID, Kind: memory.EventFile, Key: "a.go", Subject: "a.go", At: at(1)},
		{Session: a.ID, Kind: memory.EventFile, Key: "b.go", Subject: "b.go", At: at(2)},
		{Session: a.ID, Kind: memory.EventFile, Key: "a.go", Subject: "a.go", At: at(3)}, // counted again
		{Session: a.ID, Kind: memory.EventTest, Key: "go test ./...", Subject: "go test ./...", Detail: "failed",
			Test: &memory.TestResult{Runner: "go", Failed: 1, Passed: 4, Counted: true, Failing: []string{"TestX"}}, At: at(4)},
		{Session: a.ID, Kind: memory.EventFailure, Key: "go test\nf1", Subject: "go test ./...", Detail: "--- FAIL: TestX",
			Tail: []string{"x_test.go:12: want 2, got 3"}, Type: "FAIL", At: at(4)},
		{Session: a.ID, Kind: memory.EventDecision, Key: "d1", Detail: "use WAL", Note: "readers never wait", At: at(5)},
		{Session: b.ID, Kind: memory.EventFile, Key: "c.go", Subject: "c.go", At: at(6)},
	}
	update(t, s, func(tx store.Tx) error {
		for _, e := range events {
			if err := tx.RecordEvent(ctx, e); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx store.Tx) error {
		es, totals, err := tx.Events(ctx, store.EventQuery{Sessions: []memory.SessionID{a.ID}, PerKind: 1})
		if err != nil {
			return err
		}
		want := map[memory.EventKind]int{memory.EventFile: 2, memory.EventTest: 1, memory.EventFailure: 1, memory.EventDecision: 1}
		if d := cmp.Diff(want, totals.Of(a.ID)); d != "" {
			t.Errorf("totals (-want +got):\n%s", d)
		}
		var files []memory.Event
		for _, e := range es {
			if e.Kind == memory.EventFile {
				files = append(files, e)
			}
		}
		if len(files) != 1 || files[0].Subject != "a.go" || files[0].Count != 2 || !files[0].At.Equal(at(3)) || !files[0].FirstAt.Equal(at(1)) {
			t.Errorf("the newest file event = %+v; want a.go, counted twice, first at 1 min, last at 3", files)
		}
		for _, e := range es {
			switch e.Kind {
			case memory.EventTest:
				if e.Test == nil || e.Test.Passed != 4 || e.Test.Failed != 1 || !slices.Equal(e.Test.Failing, []string{"TestX"}) {
					t.Errorf("test event = %+v", e.Test)
				}
			case memory.EventFailure:
				if e.Detail != "--- FAIL: TestX" || len(e.Tail) != 1 || e.Type != "FAIL" || !e.ResolvedAt.IsZero() {
					t.Errorf("failure event = %+v", e)
				}
			case memory.EventDecision:
				if e.Detail != "use WAL" || e.Note != "readers never wait" {
					t.Errorf("decision event = %+v", e)
				}
			}
		}
		_, totals, err = tx.Events(ctx, store.EventQuery{Sessions: []memory.SessionID{a.ID, b.ID}, Kinds: []memory.EventKind{memory.EventFile}, TotalsOnly: true})
		if err != nil {
			return err
		}
		if totals.Of(a.ID)[memory.EventFile] != 2 || totals.Of(b.ID)[memory.EventFile] != 1 {
			t.Errorf("totals by session = %v", totals)
		}
		return nil
	})
	var n int
	update(t, s, func(tx store.Tx) (err error) {
		n, err = tx.ResolveEvents(ctx, a.ID, memory.EventFailure, "go test ./...", at(7))
		return err
	})
	if n != 1 {
		t.Errorf("resolved %d failures, want 1", n)
	}
	unresolved := func() int {
		var k int
		view(t, s, func(tx store.Tx) error {
			es, _, err := tx.Events(ctx, store.EventQuery{Kinds: []memory.EventKind{memory.EventFailure}, Unresolved: true})
			k = len(es)
			return err
		})
		return k
	}
	if k := unresolved(); k != 0 {
		t.Errorf("%d unresolved failures after the resolution, want 0", k)
	}
	update(t, s, func(tx store.Tx) error { return tx.RecordEvent(ctx, events[4]) })
	if k := unresolved(); k != 1 {
		t.Errorf("%d unresolved failures after it failed again, want 1", k)
	}
}

func testBranchContexts(t *testing.T, s store.Store) {
	ctx := context.Background()
	a := memory.BranchContext{Branch: "feat/x", Feature: "x", Decisions: []memory.Note{{Decision: "d"}}, UpdatedAt: t0}
	b := memory.BranchContext{Branch: "main", Notes: "n", UpdatedAt: t0.Add(time.Hour)}
	update(t, s, func(tx store.Tx) error {
		if err := tx.SetBranchContext(ctx, a); err != nil {
			return err
		}
		return tx.SetBranchContext(ctx, b)
	})
	a.Phase, a.UpdatedAt = "review", t0.Add(2*time.Hour)
	update(t, s, func(tx store.Tx) error { return tx.SetBranchContext(ctx, a) })
	view(t, s, func(tx store.Tx) error {
		got, ok, err := store.BranchContext(ctx, tx, "feat/x")
		if err != nil || !ok {
			t.Fatalf("BranchContext = %v %v", ok, err)
		}
		if d := cmp.Diff(a, got); d != "" {
			t.Errorf("branch (-want +got):\n%s", d)
		}
		for _, b := range []string{"nope", ""} {
			if _, ok, err := store.BranchContext(ctx, tx, b); ok || err != nil {
				t.Errorf("BranchContext(%q) = %v %v", b, ok, err)
			}
		}
		if two, err := tx.BranchContexts(ctx, "feat/x", "nope", "main"); err != nil || len(two) != 2 {
			t.Errorf("BranchContexts(feat/x, nope, main) = %d, %v; want 2", len(two), err)
		}
		all, err := tx.BranchContexts(ctx)
		if err != nil || len(all) != 2 || all[0].Branch != "feat/x" {
			t.Errorf("BranchContexts = %v %v", all, err)
		}
		return nil
	})
}

func searchMem(ctx context.Context, tx store.Tx, q store.MemoryQuery) ([]store.MemoryHit, int, error) {
	r, err := store.SearchMemory(ctx, tx, q)
	return r.Hits, r.Total, err
}

// Occurrences returns up to n recorded occurrences of the mistake id,
// newest first: its Recent, as store.Memories reads it.
func Occurrences(ctx context.Context, tx store.MemoryTx, id memory.ID, n int) ([]memory.Occurrence, error) {
	es, err := store.Memories(ctx, tx, []memory.ID{id}, n)
	if err != nil || len(es) == 0 {
		return nil, err
	}
	return es[0].Recent, nil
}

// CountVectors returns how many entries have a vector for model, and how
// many entries there are.
func CountVectors(ctx context.Context, tx store.MemoryTx, model string) (with, total int, err error) {
	if total, err = store.CountMemories(ctx, tx, store.MemorySelector{}); err != nil {
		return 0, 0, err
	}
	without, err := store.CountMemories(ctx, tx, store.MemorySelector{WithoutVector: model})
	return total - without, total, err
}

// nearest is the Nearest of the index over the entries s selects.
func nearest(ctx context.Context, tx store.Tx, model string, vec []float32, s store.MemorySelector, limit int) ([]store.ScoredID, error) {
	idx, err := tx.MemoryIndex(ctx, s)
	if err != nil {
		return nil, err
	}
	return idx.Nearest(ctx, model, vec, limit)
}
