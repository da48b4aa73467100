package service

import (
	"context"
	"time"
)

// ChangeBackstop is how often Changes reads the store's version although
// the store tells it of commits (Store.Watch): should the notifications
// stop (a listener that cannot reconnect, a connection pooler that drops
// LISTEN), changes still show, late.
var ChangeBackstop = 5 * time.Second

// Changes returns a channel that receives the store's version after every
// committed change to the project, by this process or another, until ctx
// ends. Values are coalesced: one receive may stand for many changes. The
// store's Watch (PostgreSQL's LISTEN/NOTIFY, SQLite's one data_version
// poller per open store) wakes it, with a read every ChangeBackstop as a
// backstop. The first
// value is the version when Changes was called, so a caller that
// (re)connects always catches up.
func (s *Set) Changes(ctx context.Context) <-chan uint64 {
	st := s.store
	out := make(chan uint64, 1)
	wake := st.Watch(ctx)
	t := time.NewTicker(ChangeBackstop)
	context.AfterFunc(ctx, t.Stop)
	tick := t.C
	go func() {
		defer close(out)
		var last uint64
		first := true
		for {
			v, err := st.Version(ctx)
			if err == nil && (first || v != last) {
				first, last = false, v
				select {
				case out <- v:
				default: // the reader has one pending: it will re-read anyway
					select {
					case <-out:
					default:
					}
					out <- v
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-tick:
			case <-wake:
			}
		}
	}()
	return out
}

// Version returns the project's store version: it changes with every
// committed change, and Changes sends it.
func (s *Set) Version(ctx context.Context) (uint64, error) { return s.store.Version(ctx) }
