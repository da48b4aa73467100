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
	// AddUsage appends events.
	AddUsage(ctx context.Context, es []usage.Event) error
	// UsageEvents returns the raw events q selects, oldest first (by time,
	// then by the order they were added).
	UsageEvents(ctx context.Context, q UsageQuery) ([]usage.Event, error)
	// DeleteUsage deletes the raw events before a time and returns how
	// many there were.
	DeleteUsage(ctx context.Context, before time.Time) (int, error)
	// AddUsageDays adds aggregates: a day and key already there gets
	// their counts, sums and histograms added to its own.
	AddUsageDays(ctx context.Context, ds []usage.Day) error
	// UsageDays returns the aggregates of the days q selects (Since and
	// Before bound the day; Kinds and Limit apply), by day then key.
	UsageDays(ctx context.Context, q UsageQuery) ([]usage.Day, error)
}

// UsageQuery selects usage events or days.
type UsageQuery struct {
	Since  time.Time    // at or after; zero: unbounded
	Before time.Time    // before; zero: unbounded
	Kinds  []usage.Kind // any of these; empty: all
	Limit  int          // the newest so many, still oldest first; zero: all
}
