package serve

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestGCPercentFor(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live uint64
		want int
	}{
		{0, maxGCPercent},
		{1, maxGCPercent}, // a nearly empty heap: bounded
		{16 * mib, 400},   // 64 MiB of headroom is 400% of 16
		{32 * mib, 200},   // both rules agree
		{200 * mib, 200},  // a large heap: the least percent, never a squeeze
		{64 * mib * 100 / maxGCPercent, maxGCPercent},
	} {
		if got := gcPercentFor(c.live, 200, 64*mib); got != c.want {
			t.Errorf("gcPercentFor(%d MiB): %d; want %d", c.live/mib, got, c.want)
		}
	}
}

// TestTuneGC: after a collection the target is raised for this test's
// small heap, and stop puts the least target back.
func TestTuneGC(t *testing.T) {
	old := debug.SetGCPercent(100)
	defer debug.SetGCPercent(old)
	adjusted := make(chan int, 1)
	stop := startGCTuner(150, 1<<30, func(p int) {
		select {
		case adjusted <- p:
		default: // the test reads the first
		}
	})
	defer stop()
	runtime.GC()
	select {
	case <-adjusted: // the tuner ran after a collection
	case <-time.After(10 * time.Second):
		t.Fatal("the tuner did not run within 10s of a collection")
	}
	p := debug.SetGCPercent(-1) // reads the percent
	debug.SetGCPercent(p)
	if p <= 150 {
		t.Fatalf("GC percent %d after a collection; want it raised above 150 for a heap far under 1 GiB", p)
	}
	stop()
	if p := debug.SetGCPercent(old); p != 150 {
		t.Errorf("GC percent %d after stop; want 150", p)
	}
}
