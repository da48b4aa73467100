package task

import (
	"maps"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestTaskMap: a TaskMap edited change after change (its overlay growing
// and folded in) reads as a plain map given the same changes, and every
// TaskMap it came from still reads as it did.
func TestTaskMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	read := func(m TaskMap) map[ID]*Task {
		out := map[ID]*Task{}
		for id, x := range m.All() {
			if out[id] != nil {
				t.Fatalf("All yields %v twice", id)
			}
			out[id] = x
		}
		if len(out) != m.Len() {
			t.Fatalf("Len %d; All yields %d tasks", m.Len(), len(out))
		}
		for id, x := range out {
			if m.Get(id) != x || !m.Has(id) {
				t.Fatalf("Get(%v) = %p; All yields %p", id, m.Get(id), x)
			}
		}
		return out
	}
	for round := range 20 {
		plain := map[ID]*Task{}
		for id := ID(1); id <= ID(rng.IntN(300)); id++ {
			plain[id] = &Task{ID: id}
		}
		m := NewTaskMap(maps.Clone(plain))
		type snap struct {
			m    TaskMap
			want map[ID]*Task
		}
		var past []snap
		for step := range 200 {
			e := m.edit(4)
			for range rng.IntN(6) {
				id := ID(1 + rng.IntN(400))
				if rng.IntN(3) == 0 {
					e.del(id)
					delete(plain, id)
				} else {
					x := &Task{ID: id, Title: "changed"}
					e.set(x)
					plain[id] = x
				}
				if got := e.get(id); got != plain[id] {
					t.Fatalf("round %d step %d: get(%v) while editing = %p; want %p", round, step, id, got, plain[id])
				}
			}
			m = e.done()
			// maps.Equal first: cmp.Diff on every step made this test
			// take over a minute under -race.
			if got := read(m); !maps.Equal(plain, got) {
				t.Fatalf("round %d step %d: TaskMap differs from the plain map (-want +got):\n%s", round, step, cmp.Diff(plain, got))
			}
			past = append(past, snap{m, maps.Clone(plain)})
		}
		for i, p := range past {
			if got := read(p.m); !maps.Equal(p.want, got) {
				t.Fatalf("round %d: TaskMap of step %d changed since (-then +now):\n%s", round, i, cmp.Diff(p.want, got))
			}
		}
		if len(m.over) > 16+m.n/64 {
			t.Fatalf("round %d: the overlay has %d tasks; it should have been folded in", round, len(m.over))
		}
	}
}
