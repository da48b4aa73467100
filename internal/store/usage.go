package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn/internal/usage"
)

// UsageTx holds what Cairn measures of its own use (package usage): raw
// events, and the daily aggregates they roll up into. Rolling up is the
// insight service's; a store keeps rows.
type UsageTx interface {
	// WriteUsage deletes the raw events before w.DeleteBefore (zero: none)
	// and returns how many there were, then adds w.Days (a day and key
	// already there gets their counts, sums and histograms added to its
	// own) and appends w.Events.
	WriteUsage(ctx context.Context, w UsageWrite) (deleted int, err error)
	// Usage returns the raw events q selects, oldest first (by time, then
	// by the order they were added); with q.Days, the aggregates of the
	// days it selects instead (Since and Before bound the day), by day
	// then key.
	Usage(ctx context.Context, q UsageQuery) ([]usage.Event, []usage.Day, error)
}

// UsageWrite is one write of usage rows.
type UsageWrite struct {
	DeleteBefore time.Time
	Days         []usage.Day
	Events       []usage.Event
}

// UsageQuery selects usage events or days.
type UsageQuery struct {
	Since  time.Time    // at or after; zero: unbounded
	Before time.Time    // before; zero: unbounded
	Kinds  []usage.Kind // any of these; empty: all
	Limit  int          // the newest so many, still oldest first; zero: all
	Days   bool         // the daily aggregates rather than the raw events
}
