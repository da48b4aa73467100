package serve

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// tuneGC sets the collector's target after each collection so that the
// heap may grow by at least headroom bytes past what is live, and by no
// less than minPercent of it, until the returned stop is called: a small
// live heap is collected as if GOGC were higher, a large one with
// minPercent. Memory stays bounded by the larger of live+headroom and
// live*(1+minPercent/100), so a growing live heap never makes the
// collector thrash, as a fixed memory limit near it would.
func tuneGC(minPercent int, headroom uint64) (stop func()) {
	return startGCTuner(minPercent, headroom, nil)
}

// startGCTuner is tuneGC with a hook that, if set, hears each percent the
// tuner computes, on the finalizer goroutine, after setting it: tests wait
// on it rather than for the finalizer to have run.
func startGCTuner(minPercent int, headroom uint64, adjusted func(percent int)) (stop func()) {
	t := &gcTuner{min: minPercent, headroom: headroom, last: -1, adjusted: adjusted}
	t.arm()
	return func() {
		t.stopped.Store(true)
		debug.SetGCPercent(minPercent)
	}
}

type gcTuner struct {
	min      int
	headroom uint64
	stopped  atomic.Bool
	last     int // the percent set last; only the finalizer goroutine uses it
	sample   [1]metrics.Sample
	adjusted func(percent int) // see startGCTuner
}

// gcCycle is garbage as soon as it is made: its finalizer runs after each
// collection, adjusts the target and makes the next one.
type gcCycle struct{ _ *int }

func (t *gcTuner) arm() {
	runtime.SetFinalizer(&gcCycle{}, func(*gcCycle) {
		if t.stopped.Load() {
			return
		}
		t.adjust()
		t.arm()
	})
}

func (t *gcTuner) adjust() {
	t.sample[0].Name = "/gc/heap/live:bytes"
	metrics.Read(t.sample[:])
	if t.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	p := gcPercentFor(t.sample[0].Value.Uint64(), t.min, t.headroom)
	// Set only on a change of more than a tenth: each set recomputes the
	// collector's pacing.
	if t.last < 0 || p*10 < t.last*9 || p*10 > t.last*11 {
		debug.SetGCPercent(p)
		t.last = p
	}
	if t.adjusted != nil {
		t.adjusted(p)
	}
}

// maxGCPercent bounds the target for a nearly empty heap.
const maxGCPercent = 10000

// gcPercentFor is the GC percent that lets a heap with live bytes live grow
// by headroom, at least minPercent.
func gcPercentFor(live uint64, minPercent int, headroom uint64) int {
	if live == 0 {
		return maxGCPercent
	}
	p := headroom * 100 / live
	if p > maxGCPercent {
		return maxGCPercent
	}
	return max(minPercent, int(p))
}
