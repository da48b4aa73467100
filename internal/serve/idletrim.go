package serve

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// A server's heap grows while it answers a burst of calls (a session
// creating a plan, an import), and the collector keeps what it freed for
// the next burst: the heap target is twice the live heap on stdio, the
// live heap plus 64 MiB over HTTP (httpGCHeadroom). An agent's server is
// idle most of its life, between turns, so when a burst ends and the server
// stays idle for a tick, trimWhenIdle collects and gives that memory back
// to the system once (debug.FreeOSMemory): the resident set returns to
// what is live. A server that keeps working is never trimmed.

// idleTick is how often trimWhenIdle looks; idle means less than idleAllocs
// bytes were allocated in a tick (the watchers and the change feed of an
// idle server allocate a few KiB).
const (
	idleTick   = 10 * time.Second
	idleAllocs = 256 << 10
	// trimAbove is the heap held beyond the live heap that is worth a
	// collection to give back.
	trimAbove = 2 << 20
)

// idleTrimmer decides, tick by tick, when to trim.
type idleTrimmer struct {
	lastAllocs uint64
	started    bool
	busy       bool // allocated since the last trim
}

// tick takes the heap's cumulative allocations and the heap it holds
// beyond the live heap (garbage and free pages not yet returned to the
// system) and says whether to trim now: after a tick of activity, at the
// first idle tick, if enough is held.
func (t *idleTrimmer) tick(allocs, excess uint64) bool {
	if !t.started {
		t.started, t.lastAllocs, t.busy = true, allocs, true
		return false
	}
	d := allocs - t.lastAllocs
	t.lastAllocs = allocs
	if d >= idleAllocs {
		t.busy = true
		return false
	}
	if !t.busy || excess < trimAbove {
		return false
	}
	t.busy = false
	return true
}

// trimWhenIdle runs until ctx ends, giving the heap a burst left behind back
// to the system when the server falls idle.
func trimWhenIdle(ctx context.Context) {
	samples := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}, {Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/memory/classes/heap/unused:bytes"}, {Name: "/memory/classes/heap/free:bytes"}}
	var t idleTrimmer
	tk := time.NewTicker(idleTick)
	defer tk.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tk.C:
		}
		metrics.Read(samples)
		var v [5]uint64
		for i, s := range samples {
			if s.Value.Kind() != metrics.KindUint64 {
				return // a runtime without these metrics: never trim
			}
			v[i] = s.Value.Uint64()
		}
		held := v[2] + v[3] + v[4]
		if t.tick(v[0], held-min(held, v[1])) {
			debug.FreeOSMemory()
			// The collection allocates a little; it is not activity.
			metrics.Read(samples[:1])
			t.lastAllocs = samples[0].Value.Uint64()
		}
	}
}
