// Package boardcache keeps one project's plan board (every visible task
// without its body, and the dependencies between them) for the services that
// read it, and brings it up to date from the store's change feed: a read of
// the plan costs one statement that returns what changed since the cached
// board beside the rows the caller asked for, never a read of every task.
//
// The board is loaded whole once (and again only when the feed cannot be
// followed), by one caller at a time: callers that find no board join the
// load in progress.
package boardcache

import (
	"context"
	"errors"
	"sync/atomic"

	"golang.org/x/sync/singleflight"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// Snapshot is a board and the plan revision it reflects.
type Snapshot struct {
	Board *task.Board
	Rev   uint64
}

// Cache is the board of one store.
type Cache struct {
	st    store.Store
	cur   atomic.Pointer[Snapshot] // nil until the first load
	loads singleflight.Group
}

// New returns the cache of st's board, empty until the first read.
func New(st store.Store) *Cache { return &Cache{st: st} }

// maxReloads bounds how often one Read loads the board whole: a store whose
// feed cannot be followed even from a board just loaded (its database file
// replaced again and again meanwhile) is answered with an error, not a
// loop.
const maxReloads = 3

// errUnsettled is Read's error when the plan would not hold still.
var errUnsettled = errors.New("the plan's change feed could not be followed after reloading it; retry")

// Read answers r with the board as of the same snapshot: the store reads
// the rows r names and the plan's changes since the cached board in one
// statement, so the board is exactly the plan that snapshot holds. The
// board is cached unless a newer one is already. r.Since is the cache's to
// set.
func (c *Cache) Read(ctx context.Context, r store.PlanRead) (store.PlanReadResult, *task.Board, error) {
	for range maxReloads {
		s, err := c.Load(ctx)
		if err != nil {
			return store.PlanReadResult{}, nil, err
		}
		r.Since = s.Rev
		res, err := c.st.ReadPlan(ctx, r)
		if err != nil {
			return store.PlanReadResult{}, nil, err
		}
		if !res.Reload {
			b := s.Board.Apply(res.Changes)
			if res.Rev != s.Rev {
				c.keep(&Snapshot{Board: b, Rev: res.Rev}, false)
			}
			return res, b, nil
		}
		// The changes cannot bring this board up to date: load it whole,
		// unless another caller did meanwhile.
		c.cur.CompareAndSwap(s, nil)
	}
	return store.PlanReadResult{}, nil, errUnsettled
}

// Board returns the plan's board as of now.
func (c *Cache) Board(ctx context.Context) (*task.Board, error) {
	_, b, err := c.Read(ctx, store.PlanRead{})
	return b, err
}

// Latest returns the cached board, which may be behind the store, or nil
// when none is loaded yet. A write answers from it with its own changes read
// on top (see store.PlanRead), which makes it exact.
func (c *Cache) Latest() *Snapshot { return c.cur.Load() }

// Load returns the cached board, loading it whole first when there is none.
// Callers that find none while a load runs wait for it rather than load
// again. The load runs in the goroutine and on the context of the caller
// that started it, so that a server closing down cancels it and waits for
// it like any call; a waiting caller whose own context is still live starts
// another when that one is cancelled.
func (c *Cache) Load(ctx context.Context) (*Snapshot, error) {
	for {
		if s := c.cur.Load(); s != nil {
			return s, nil
		}
		v, err, _ := c.loads.Do("", func() (any, error) {
			if s := c.cur.Load(); s != nil {
				return s, nil
			}
			return c.loadWhole(ctx)
		})
		if err == nil {
			return v.(*Snapshot), nil
		}
		if ctx.Err() == nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
			continue // the caller that ran it went away; this one has not
		}
		return nil, err
	}
}

// loadWhole reads every visible task and dependency, and caches the board.
func (c *Cache) loadWhole(ctx context.Context) (*Snapshot, error) {
	res, err := c.st.ReadPlan(ctx, store.PlanRead{Whole: true})
	if err != nil {
		return nil, err
	}
	s := Snapshot{Board: (*task.Board)(nil).Apply(res.Changes), Rev: res.Rev}
	// A board read whole replaces any: the revisions of another database
	// file that took this one's place are no guide.
	c.keep(&s, true)
	return &s, nil
}

// keep caches next unless a board as new is cached already (with full, a
// board read whole, it replaces any).
func (c *Cache) keep(next *Snapshot, full bool) {
	for {
		cur := c.cur.Load()
		if !full && cur != nil && cur.Rev >= next.Rev || c.cur.CompareAndSwap(cur, next) {
			return
		}
	}
}
