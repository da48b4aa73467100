package sqlite

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestWatchOnePoller: however many watchers a store has, one poller reads
// its version, and it stops with the last watcher. It runs in a bubble: the
// poller's ticker and the reads' duration are on the bubble's clock, so the
// test sees each step settle (synctest.Wait) instead of sleeping on it.
func TestWatchOnePoller(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var (
			h                   watchHub
			inFlight, maxFlight atomic.Int32
			calls               atomic.Int64
			v                   atomic.Uint64
		)
		version := func(context.Context) (uint64, error) {
			n := inFlight.Add(1)
			defer inFlight.Add(-1)
			for m := maxFlight.Load(); n > m && !maxFlight.CompareAndSwap(m, n); m = maxFlight.Load() {
			}
			calls.Add(1)
			// A read takes a while (on the bubble's clock): a second
			// poller, if there were one, would read meanwhile.
			time.Sleep(WatchPoll / 2)
			return v.Add(1), nil // every read sees a change: every watcher is woken each time
		}
		ctx, cancel := context.WithCancel(context.Background())
		var chs []<-chan struct{}
		for range 50 {
			chs = append(chs, h.watch(ctx, version))
		}
		time.Sleep(20 * WatchPoll) // twenty polls, on the bubble's clock
		synctest.Wait()
		if n := calls.Load(); n < 20 {
			t.Fatalf("%d version reads in 20 polls' time", n)
		}
		for i, ch := range chs {
			select {
			case <-ch:
			default:
				t.Fatalf("watcher %d was not woken", i)
			}
		}
		h.mu.Lock()
		done := h.done // closed when the poller has returned
		h.mu.Unlock()
		cancel()
		<-done // the bubble reports a deadlock if the poller never stops
		// A read in flight when the last watcher left may finish; the test
		// waits for the poller itself, which then reads no more.
		if m := maxFlight.Load(); m > 1 {
			t.Errorf("%d version reads ran at once: more than one poller for one store", m)
		}
		after := calls.Load()
		time.Sleep(20 * WatchPoll) // on the bubble's clock: the polls a poller left running would make
		synctest.Wait()
		if n := calls.Load(); n != after {
			t.Errorf("the poller kept reading after the last watcher left (%d reads, then %d)", after, n)
		}
	})
}
