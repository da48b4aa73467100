package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

// testMemoryDetails: every type's own fields, the file hashes and the
// expiry read back as written, and an update rewrites them.
func testMemoryDetails(t *testing.T, s store.Store) {
	ctx := context.Background()
	in := []memory.Entry{
		{Type: memory.Decision, Title: "d", Rationale: "why", Alternatives: []string{"a", "b"}, DiscoveryTokens: 3},
		{Type: memory.Mistake, Title: "m", RootCause: "rc", Fix: "fx", Prevention: "pv", Occurrences: 1},
		{Type: memory.Convention, Title: "c", Examples: []string{"e1"}},
		{Type: memory.Context, Title: "ctx", Content: "free-form", Files: []string{"a.go", "b/c.go"},
			FileHashes: map[string]string{"a.go": "0123456789abcdef", "b/c.go": "fedcba9876543210"}},
		{Type: memory.Insight, Title: "i", DiscoveryTokens: 99, ExpiresAt: t0.Add(48 * time.Hour)},
	}
	var ids []memory.ID
	for i := range in {
		in[i].CreatedAt, in[i].UpdatedAt = t0, t0
		got := addMemory(t, s, in[i])
		in[i].ID, in[i].UID = got.ID, got.UID
		ids = append(ids, got.ID)
	}
	view(t, s, func(tx store.Tx) error {
		got, err := store.Memories(ctx, tx, ids, 0)
		if err != nil {
			return err
		}
		if d := cmp.Diff(in, got); d != "" {
			t.Errorf("read back (-want +got):\n%s", d)
		}
		// A search hit carries what the index line needs: file hashes
		// (to say stale) and the expiry.
		r, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: "free-form"})
		if err != nil {
			return err
		}
		if len(r.Hits) != 1 || len(r.Hits[0].Entry.FileHashes) != 2 {
			t.Errorf("hit without its file hashes: %+v", r.Hits)
		}
		return nil
	})
	e := in[0]
	e.Rationale, e.Alternatives, e.DiscoveryTokens = "", nil, 0
	update(t, s, func(tx store.Tx) error { _, err := tx.PutMemory(ctx, e); return err })
	view(t, s, func(tx store.Tx) error {
		got, err := store.Memories(ctx, tx, ids[:1], 0)
		if err != nil {
			return err
		}
		if d := cmp.Diff(e, got[0]); d != "" {
			t.Errorf("after clearing the details (-want +got):\n%s", d)
		}
		return nil
	})
}

// testMemoryOccurrences: a mistake's occurrences are its own rows, newest
// first, and go with the entry.
func testMemoryOccurrences(t *testing.T, s store.Store) {
	ctx := context.Background()
	m := addMemory(t, s, memory.Entry{Type: memory.Mistake, Title: "boom", Occurrences: 3})
	other := addMemory(t, s, memory.Entry{Type: memory.Mistake, Title: "bang", Occurrences: 1})
	note := addMemory(t, s, memory.Entry{Type: memory.Insight, Title: "no occurrences"})
	update(t, s, func(tx store.Tx) error {
		// Occurrences go with a write of the entry: the first with its
		// addition, the others with its updates.
		var err error
		for n := 1; n <= 3; n++ {
			o := memory.Occurrence{N: n, At: t0.Add(time.Duration(n) * time.Minute), SessionID: "s1", Branch: "b", Title: "Boom", Content: "run"}
			if n == 2 {
				o.RootCause, o.Fix = "its cause", "its fix"
			}
			if m, err = tx.PutMemory(ctx, m, o); err != nil {
				return err
			}
		}
		_, err = tx.PutMemory(ctx, other, memory.Occurrence{N: 1, At: t0, Title: "Bang"})
		return err
	})
	view(t, s, func(tx store.Tx) error {
		got, err := Occurrences(ctx, tx, m.ID, 2)
		if err != nil {
			return err
		}
		want := []memory.Occurrence{
			{N: 3, At: t0.Add(3 * time.Minute), SessionID: "s1", Branch: "b", Title: "Boom", Content: "run"},
			{N: 2, At: t0.Add(2 * time.Minute), SessionID: "s1", Branch: "b", Title: "Boom", Content: "run", RootCause: "its cause", Fix: "its fix"},
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("occurrences (-want +got):\n%s", d)
		}
		// Recent is per mistake, whatever the others have; none for an
		// entry of another type.
		es, err := store.Memories(ctx, tx, []memory.ID{other.ID, note.ID, m.ID}, 1)
		if err != nil {
			return err
		}
		if len(es) != 3 || len(es[0].Recent) != 1 || es[0].Recent[0].Title != "Bang" || es[1].Recent != nil ||
			len(es[2].Recent) != 1 || es[2].Recent[0].N != 3 {
			t.Errorf("Recent 1 of three entries: %+v", es)
		}
		return nil
	})
	update(t, s, func(tx store.Tx) error {
		_, err := tx.PutMemory(ctx, memory.Entry{ID: 9999, UID: "zzzzzzzzzy", Type: memory.Mistake, Title: "x"}, memory.Occurrence{N: 1, At: t0, Title: "x"})
		if m, ok := memory.MissingOf(err); !ok || m.What != "entry" {
			t.Errorf("occurrence of a missing entry: %v, want the entry not found", err)
		}
		_, err = tx.DeleteMemories(ctx, []memory.ID{m.ID})
		return err
	})
	view(t, s, func(tx store.Tx) error {
		if got, err := Occurrences(ctx, tx, m.ID, 10); err != nil || len(got) != 0 {
			t.Errorf("occurrences of a deleted entry: %v %v", got, err)
		}
		return nil
	})
}

// testMemorySupersedeExpire: a superseded entry is left out of searches,
// nearest-vector lists and timelines unless asked for; Memories says both
// directions; deleting the newer entry makes the older current again. An
// expired entry is left out of searches at Now.
func testMemorySupersedeExpire(t *testing.T, s store.Store) {
	ctx := context.Background()
	old := addMemory(t, s, memory.Entry{Type: memory.Decision, Title: "use redis for sessions"})
	mid := addMemory(t, s, memory.Entry{Type: memory.Insight, Title: "between"})
	nw := addMemory(t, s, memory.Entry{Type: memory.Decision, Title: "use memory for sessions"})
	exp := addMemory(t, s, memory.Entry{Type: memory.Insight, Title: "sessions are slow this week", ExpiresAt: t0.Add(time.Hour)})
	old.SupersededBy = nw.ID
	update(t, s, func(tx store.Tx) error {
		if _, err := tx.PutMemory(ctx, old); err != nil {
			return err
		}
		for _, e := range []memory.Entry{old, nw} {
			if err := tx.SetMemoryVector(ctx, e.ID, "m", []float32{1, 0}); err != nil {
				return err
			}
		}
		return nil
	})
	ids := func(hs []store.MemoryHit) []memory.ID {
		var out []memory.ID
		for _, h := range hs {
			out = append(out, h.Entry.ID)
		}
		return out
	}
	view(t, s, func(tx store.Tx) error {
		for _, tc := range []struct {
			q    store.MemoryQuery
			want []memory.ID
		}{
			{store.MemoryQuery{Text: "sessions"}, []memory.ID{nw.ID, exp.ID}},
			{store.MemoryQuery{Text: "sessions", IncludeSuperseded: true}, []memory.ID{old.ID, nw.ID, exp.ID}},
			{store.MemoryQuery{Text: "sessions", Now: t0.Add(2 * time.Hour)}, []memory.ID{nw.ID}},
			{store.MemoryQuery{Text: "sessions", Now: t0.Add(time.Minute)}, []memory.ID{nw.ID, exp.ID}},
			{store.MemoryQuery{Types: []memory.Type{memory.Decision}}, []memory.ID{nw.ID}},
		} {
			r, err := store.SearchMemory(ctx, tx, tc.q)
			if err != nil {
				return err
			}
			got := ids(r.Hits)
			if !sameIDs(got, tc.want) || r.Total != len(tc.want) {
				t.Errorf("search %+v = %v (total %d), want %v", tc.q, got, r.Total, tc.want)
			}
		}
		r, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: "redis", IncludeSuperseded: true})
		if err != nil {
			return err
		}
		if len(r.Hits) != 1 || r.Hits[0].Entry.SupersededBy != nw.ID {
			t.Errorf("a superseded hit does not say by what: %+v", r.Hits)
		}
		near, err := nearest(ctx, tx, "m", []float32{1, 0}, store.MemorySelector{HideSuperseded: true}, 10)
		if err != nil {
			return err
		}
		if len(near) != 1 || near[0].ID != nw.ID {
			t.Errorf("nearest without superseded: %v", near)
		}
		older, _, err := store.MemoryTimeline(ctx, tx, mid.ID, 5, 0, false)
		if err != nil {
			return err
		}
		if len(older) != 0 {
			t.Errorf("timeline lists the superseded entry: %v", entryIDs(older))
		}
		es, err := store.Memories(ctx, tx, []memory.ID{old.ID, nw.ID}, 0)
		if err != nil {
			return err
		}
		if es[0].SupersededBy != nw.ID || len(es[1].Supersedes) != 1 || es[1].Supersedes[0] != old.ID {
			t.Errorf("directions: old superseded by %s, new supersedes %v", es[0].SupersededBy, es[1].Supersedes)
		}
		return nil
	})
	update(t, s, func(tx store.Tx) error {
		_, err := tx.DeleteMemories(ctx, []memory.ID{nw.ID})
		return err
	})
	view(t, s, func(tx store.Tx) error {
		es, err := store.Memories(ctx, tx, []memory.ID{old.ID}, 0)
		if err != nil {
			return err
		}
		if es[0].SupersededBy != 0 {
			t.Errorf("deleting the newer entry left the older superseded by %s", es[0].SupersededBy)
		}
		return nil
	})
}

func sameIDs(a, b []memory.ID) bool {
	if len(a) != len(b) {
		return false
	}
	seen := map[memory.ID]int{}
	for _, x := range a {
		seen[x]++
	}
	for _, x := range b {
		seen[x]--
	}
	for _, n := range seen {
		if n != 0 {
			return false
		}
	}
	return true
}

// testMemorySelectorKeys: a selector names an entry by its UID or a
// mistake by its title's fingerprint (with its other filters), fills
// Supersedes, and counts without listing (CountOnly); the index's Hidden
// lists the entries its HideSuperseded and Now leave out, and only those.
func testMemorySelectorKeys(t *testing.T, s store.Store) {
	ctx := context.Background()
	m := addMemory(t, s, memory.Entry{UID: "keyuid000001", Type: memory.Mistake, Title: "Lost the lock", CreatedAt: t0, UpdatedAt: t0})
	n := addMemory(t, s, memory.Entry{Type: memory.Insight, Title: "Lost the lock", CreatedAt: t0, UpdatedAt: t0})
	expired := addMemory(t, s, memory.Entry{Type: memory.Insight, Title: "gone", ExpiresAt: t0.Add(time.Hour), CreatedAt: t0, UpdatedAt: t0})
	m.SupersededBy = n.ID
	update(t, s, func(tx store.Tx) (err error) {
		m, err = tx.PutMemory(ctx, m)
		return err
	})
	view(t, s, func(tx store.Tx) error {
		got, _, err := tx.SelectMemories(ctx, store.MemorySelector{UID: "keyuid000001", SkipCount: true})
		if err != nil || len(got) != 1 || got[0].ID != m.ID {
			t.Errorf("by UID: %v %v", got, err)
		}
		fp := memory.Fingerprint("lost the LOCK")
		got, total, err := tx.SelectMemories(ctx, store.MemorySelector{Fingerprint: fp})
		if err != nil || total != 1 || len(got) != 1 || got[0].ID != m.ID {
			t.Errorf("by fingerprint: %v (%d) %v", got, total, err)
		}
		if got, _, err := tx.SelectMemories(ctx, store.MemorySelector{Fingerprint: fp, HideSuperseded: true}); err != nil || len(got) != 0 {
			t.Errorf("by fingerprint, superseded hidden: %v %v", got, err)
		}
		got, _, err = tx.SelectMemories(ctx, store.MemorySelector{IDs: []memory.ID{n.ID, m.ID}, Supersedes: true, SkipCount: true})
		if err != nil || len(got) != 2 || len(got[1].Supersedes) != 1 || got[1].Supersedes[0] != m.ID || got[0].Supersedes != nil {
			t.Errorf("Supersedes: %+v %v", got, err)
		}
		got, total, err = tx.SelectMemories(ctx, store.MemorySelector{HideSuperseded: true, CountOnly: true})
		if err != nil || got != nil || total != 2 {
			t.Errorf("CountOnly = %v, %d, %v; want none and 2", got, total, err)
		}
		idx, err := tx.MemoryIndex(ctx, store.MemorySelector{HideSuperseded: true, Now: t0.Add(2 * time.Hour)})
		if err != nil {
			return err
		}
		hidden, err := idx.Hidden(ctx, 10)
		slices.Sort(hidden)
		if want := []memory.ID{m.ID, expired.ID}; err != nil || !slices.Equal(hidden, want) {
			t.Errorf("Hidden = %v %v, want %v", hidden, err, want)
		}
		if hidden, err := idx.Hidden(ctx, 1); err != nil || len(hidden) != 1 {
			t.Errorf("Hidden(1) = %v %v, want one", hidden, err)
		}
		return nil
	})
}
