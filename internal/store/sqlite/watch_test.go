package sqlite

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestWatchOnePoller: however many watchers a store has, one poller reads
// its version, and it stops with the last watcher.
func TestWatchOnePoller(t *testing.T) {
	defer func(p time.Duration) { WatchPoll = p }(WatchPoll)
	WatchPoll = time.Millisecond
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
		time.Sleep(200 * time.Microsecond)
		return v.Add(1), nil // every read sees a change: every watcher is woken each time
	}
	ctx, cancel := context.WithCancel(context.Background())
	var chs []<-chan struct{}
	for range 50 {
		chs = append(chs, h.watch(ctx, version))
	}
	for calls.Load() < 20 {
		time.Sleep(time.Millisecond)
	}
	for i, ch := range chs {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("watcher %d was not woken", i)
		}
	}
	h.mu.Lock()
	done := h.done // closed when the poller has returned
	h.mu.Unlock()
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the poller did not stop when the last watcher left")
	}
	// A read in flight when the last watcher left may finish; the test
	// waits for the poller itself, which then reads no more.
	if m := maxFlight.Load(); m > 1 {
		t.Errorf("%d version reads ran at once: more than one poller for one store", m)
	}
	after := calls.Load()
	time.Sleep(20 * time.Millisecond)
	if n := calls.Load(); n != after {
		t.Errorf("the poller kept reading after the last watcher left (%d reads, then %d)", after, n)
	}
}
