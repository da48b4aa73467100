package postgres

import (
	"context"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// listener holds one dedicated connection LISTENing on notifyChannel for a
// DB and wakes the watchers of the project each notification names. It
// starts with the first watcher and reconnects (with backoff) when the
// connection drops; after a reconnect it wakes every watcher, since a change
// may have been missed in between.
type listener struct {
	cfg *pgx.ConnConfig
	log *slog.Logger

	mu       sync.Mutex
	watchers map[int64]map[*watcher]struct{}
	started  bool
	cancel   context.CancelFunc
	done     chan struct{}
}

type watcher struct{ ch chan struct{} }

func (w *watcher) wake() {
	select {
	case w.ch <- struct{}{}:
	default: // a wake is already pending: coalesce
	}
}

func newListener(cfg *pgx.ConnConfig, log *slog.Logger) *listener {
	return &listener{cfg: cfg.Copy(), log: log, watchers: map[int64]map[*watcher]struct{}{}}
}

// watch registers a watcher of project until ctx ends.
func (l *listener) watch(ctx context.Context, project int64) <-chan struct{} {
	w := &watcher{ch: make(chan struct{}, 1)}
	l.mu.Lock()
	if l.watchers[project] == nil {
		l.watchers[project] = map[*watcher]struct{}{}
	}
	l.watchers[project][w] = struct{}{}
	if !l.started {
		l.started = true
		var lctx context.Context
		lctx, l.cancel = context.WithCancel(context.Background())
		l.done = make(chan struct{})
		ready := make(chan struct{})
		go l.run(lctx, ready)
		l.mu.Unlock()
		// Wait (briefly) for the first LISTEN, so that a change committed
		// after Watch returns is heard.
		select {
		case <-ready:
		case <-ctx.Done():
		case <-time.After(5 * time.Second):
		}
	} else {
		l.mu.Unlock()
	}
	go func() {
		<-ctx.Done()
		l.mu.Lock()
		delete(l.watchers[project], w)
		if len(l.watchers[project]) == 0 {
			delete(l.watchers, project)
		}
		l.mu.Unlock()
	}()
	return w.ch
}

func (l *listener) wake(project int64, all bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if all {
		for _, ws := range l.watchers {
			for w := range ws {
				w.wake()
			}
		}
		return
	}
	for w := range l.watchers[project] {
		w.wake()
	}
}

func (l *listener) run(ctx context.Context, ready chan struct{}) {
	defer close(l.done)
	backoff := 50 * time.Millisecond
	first := true
	for ctx.Err() == nil {
		conn, err := pgx.ConnectConfig(ctx, l.cfg)
		if err == nil {
			if _, err = conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
				conn.Close(context.Background())
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			l.log.Warn("postgres change listener: cannot connect; retrying", "error", err, "in", backoff)
			select {
			case <-ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, 5*time.Second)
			continue
		}
		backoff = 50 * time.Millisecond
		if first {
			close(ready)
			first = false
		} else {
			l.log.Info("postgres change listener: reconnected")
			l.wake(0, true)
		}
		for {
			n, err := conn.WaitForNotification(ctx)
			if err != nil {
				if ctx.Err() == nil {
					l.log.Warn("postgres change listener: connection lost; reconnecting", "error", err)
				}
				break
			}
			if id, err := strconv.ParseInt(n.Payload, 10, 64); err == nil {
				l.wake(id, false)
			}
		}
		conn.Close(context.Background())
	}
}

// close stops the listener and waits for it.
func (l *listener) close() {
	l.mu.Lock()
	started, cancel, done := l.started, l.cancel, l.done
	l.mu.Unlock()
	if started {
		cancel()
		<-done
	}
}
