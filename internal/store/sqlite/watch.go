package sqlite

import (
	"context"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
)

// WatchPoll is how often a store with watchers reads PRAGMA data_version to
// notice another process's commits: one cheap read per open store, however
// many watchers it has. This process's own commits wake watchers at once.
var WatchPoll = 100 * time.Millisecond

var _ store.Store = (*Store)(nil)

// watchHub fans one data_version poller out to every watcher of a store.
// The poller runs while there is a watcher and stops with the last one.
type watchHub struct {
	mu     sync.Mutex
	subs   map[*watchSub]struct{}
	stop   context.CancelFunc // the running poller's; nil: none
	done   chan struct{}      // closed when that poller has stopped
	closed bool
}

type watchSub struct{ ch chan struct{} }

func (w *watchSub) wake() {
	select {
	case w.ch <- struct{}{}:
	default: // one is pending: coalesce
	}
}

// Watch implements store.Store: the channel receives a value after a
// commit by this store (at once) or by another process (within WatchPoll).
func (s *Store) Watch(ctx context.Context) <-chan struct{} {
	return s.hub.watch(ctx, s.Version)
}

func (h *watchHub) watch(ctx context.Context, version func(context.Context) (uint64, error)) <-chan struct{} {
	sub := &watchSub{ch: make(chan struct{}, 1)}
	h.mu.Lock()
	if h.closed || ctx.Err() != nil {
		h.mu.Unlock()
		return sub.ch
	}
	if h.subs == nil {
		h.subs = map[*watchSub]struct{}{}
	}
	h.subs[sub] = struct{}{}
	if h.stop == nil {
		// The version a change is measured from is read before Watch
		// returns, so that a commit right after it is caught.
		start, err := version(ctx)
		pctx, cancel := context.WithCancel(context.Background())
		h.stop, h.done = cancel, make(chan struct{})
		go h.poll(pctx, h.done, version, start, err == nil)
	}
	h.mu.Unlock()
	context.AfterFunc(ctx, func() {
		h.mu.Lock()
		delete(h.subs, sub)
		var done chan struct{}
		if len(h.subs) == 0 && h.stop != nil {
			h.stop()
			h.stop, done = nil, h.done
		}
		h.mu.Unlock()
		if done != nil {
			<-done
		}
	})
	return sub.ch
}

func (h *watchHub) poll(ctx context.Context, done chan struct{}, version func(context.Context) (uint64, error), last uint64, known bool) {
	defer close(done)
	t := time.NewTicker(WatchPoll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if ctx.Err() != nil { // both were ready, and select chose the tick
				return
			}
		}
		v, err := version(ctx)
		if err != nil {
			continue // closed, or a passing fault: the next tick tries again
		}
		if known && v == last {
			continue
		}
		last, known = v, true
		h.changed()
	}
}

// changed wakes every watcher: a change was committed.
func (h *watchHub) changed() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.subs) == 0 {
		return
	}
	for sub := range h.subs {
		sub.wake()
	}
}

// close stops the poller; watchers hear nothing more.
func (h *watchHub) close() {
	h.mu.Lock()
	h.closed = true
	var done chan struct{}
	if h.stop != nil {
		h.stop()
		h.stop, done = nil, h.done
	}
	h.subs = nil
	h.mu.Unlock()
	if done != nil {
		<-done
	}
}
