package wait

import (
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestFor: a condition that comes true is seen, one that never does is
// given up on at the deadline, and the polls back off rather than spin.
func TestFor(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		start := time.Now()
		if !For(time.Second, func() bool { return calls.Add(1) == 4 }) {
			t.Fatal("a condition true on its fourth poll was not seen")
		}
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Errorf("four polls took %v on the bubble's clock; want the first intervals short", d)
		}
		calls.Store(0)
		start = time.Now()
		if For(10*time.Second, func() bool { calls.Add(1); return false }) {
			t.Fatal("a condition never true was reported true")
		}
		if d := time.Since(start); d != 10*time.Second {
			t.Errorf("gave up after %v, want the 10s deadline", d)
		}
		if n := calls.Load(); n > 60 {
			t.Errorf("%d polls in 10s: the interval does not back off", n)
		}
	})
}
