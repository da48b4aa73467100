package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/usage"
)

func usageEvents(t *testing.T, s store.Store, q store.UsageQuery) []usage.Event {
	t.Helper()
	var out []usage.Event
	view(t, s, func(tx store.Tx) (err error) {
		out, _, err = tx.Usage(context.Background(), q)
		return err
	})
	return out
}

// testUsage: events come back as added, oldest first, selected by time and
// kind, the newest ones with a limit; deleting takes those before a time.
func testUsage(t *testing.T, s store.Store) {
	ctx := context.Background()
	var es []usage.Event
	for i := range 6 {
		e := usage.Event{At: t0.Add(time.Duration(i) * time.Minute), Kind: usage.KindCall, Name: "get_current_task", Toolset: "focus",
			Agent: "claude-code", Session: int64(i % 2), Client: "claude-code", ClientVersion: "2.1.3", Model: "claude-opus-4-5",
			Duration: time.Duration(i+1) * 1500 * time.Microsecond, Outcome: usage.OK, Bytes: 100 * i, Subject: "ü subject"}
		if i == 3 {
			e.Kind, e.Name, e.Outcome, e.Toolset = usage.KindHook, "post-tool-use", "invalid", ""
		}
		es = append(es, e)
	}
	// Two batches, the second one first in time: the order is by time.
	update(t, s, func(tx store.Tx) error { _, err := tx.WriteUsage(ctx, store.UsageWrite{Events: es[3:]}); return err })
	update(t, s, func(tx store.Tx) error {
		if _, err := tx.WriteUsage(ctx, store.UsageWrite{Events: nil}); err != nil {
			return err
		}
		_, err := tx.WriteUsage(ctx, store.UsageWrite{Events: es[:3]})
		return err
	})
	if diff := cmp.Diff(es, usageEvents(t, s, store.UsageQuery{})); diff != "" {
		t.Fatalf("all events (-want +got):\n%s", diff)
	}
	got := usageEvents(t, s, store.UsageQuery{Since: es[1].At, Before: es[5].At, Kinds: []usage.Kind{usage.KindCall}})
	if diff := cmp.Diff([]usage.Event{es[1], es[2], es[4]}, got); diff != "" {
		t.Errorf("window and kind (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(es[4:], usageEvents(t, s, store.UsageQuery{Limit: 2})); diff != "" {
		t.Errorf("the newest two, oldest first (-want +got):\n%s", diff)
	}
	var n int
	update(t, s, func(tx store.Tx) (err error) {
		n, err = tx.WriteUsage(ctx, store.UsageWrite{DeleteBefore: es[2].At})
		return err
	})
	if n != 2 {
		t.Errorf("WriteUsage deleting before the third = %d, want 2", n)
	}
	if diff := cmp.Diff(es[2:], usageEvents(t, s, store.UsageQuery{})); diff != "" {
		t.Errorf("after delete (-want +got):\n%s", diff)
	}
}

// testUsageDays: days add up when the same day and key come again (a
// rollup run twice over its halves), and are selected by day.
func testUsageDays(t *testing.T, s store.Store) {
	ctx := context.Background()
	mk := func(day int, dur time.Duration, model string) usage.Event {
		return usage.Event{At: t0.AddDate(0, 0, day).Add(time.Hour), Kind: usage.KindCall, Name: "memory_search", Toolset: "memory",
			Agent: "a", Client: "c", Model: model, Duration: dur, Outcome: usage.OK, Bytes: 10}
	}
	first := []usage.Event{mk(0, time.Millisecond, "m1"), mk(0, 3*time.Millisecond, "m1"), mk(1, time.Second, "m1")}
	second := []usage.Event{mk(0, 5*time.Millisecond, "m1"), mk(0, time.Millisecond, "m2")}
	update(t, s, func(tx store.Tx) error {
		_, err := tx.WriteUsage(ctx, store.UsageWrite{Days: usage.RollUp(first)})
		return err
	})
	update(t, s, func(tx store.Tx) error {
		_, err := tx.WriteUsage(ctx, store.UsageWrite{Days: usage.RollUp(second)})
		return err
	})
	var got []usage.Day
	view(t, s, func(tx store.Tx) (err error) {
		_, got, err = tx.Usage(ctx, store.UsageQuery{Days: true})
		return err
	})
	want := usage.RollUp(append(append([]usage.Event{}, first...), second...))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("days (-want +got):\n%s", diff)
	}
	if got[0].Count != 3 || got[0].Duration != 9*time.Millisecond || got[0].Bytes != 30 {
		t.Errorf("day 0 m1 = %d calls, %v, %d bytes; want 3, 9ms, 30", got[0].Count, got[0].Duration, got[0].Bytes)
	}
	view(t, s, func(tx store.Tx) (err error) {
		_, got, err = tx.Usage(ctx, store.UsageQuery{Since: usage.DayOf(t0.AddDate(0, 0, 1)), Days: true})
		return err
	})
	if len(got) != 1 || got[0].Count != 1 || got[0].Hist.Quantile(0.5) < 700*time.Millisecond {
		t.Errorf("days since day 1 = %+v, want the one second-long call", got)
	}
}

// testUsageRollUp: one write deletes the raw events before a time, adds
// the days they roll up into and appends new events, in that order (an
// event it appends before the cutoff stays), and says how many it deleted.
func testUsageRollUp(t *testing.T, s store.Store) {
	ctx := context.Background()
	ev := func(min int, name string) usage.Event {
		return usage.Event{At: t0.Add(time.Duration(min) * time.Minute), Kind: usage.KindCall, Name: name, Outcome: usage.OK, Duration: time.Millisecond}
	}
	old := []usage.Event{ev(0, "a"), ev(1, "a"), ev(2, "b")}
	update(t, s, func(tx store.Tx) error {
		_, err := tx.WriteUsage(ctx, store.UsageWrite{Events: old})
		return err
	})
	late := []usage.Event{ev(1, "late"), ev(90, "new")}
	var n int
	update(t, s, func(tx store.Tx) (err error) {
		n, err = tx.WriteUsage(ctx, store.UsageWrite{DeleteBefore: t0.Add(time.Hour), Days: usage.RollUp(old), Events: late})
		return err
	})
	if n != 3 {
		t.Errorf("deleted %d events, want 3", n)
	}
	if diff := cmp.Diff(late, usageEvents(t, s, store.UsageQuery{})); diff != "" {
		t.Errorf("events after the roll-up (-want +got):\n%s", diff)
	}
	view(t, s, func(tx store.Tx) error {
		es, days, err := tx.Usage(ctx, store.UsageQuery{Days: true})
		if es != nil {
			t.Errorf("a read of days gave events: %v", es)
		}
		if diff := cmp.Diff(usage.RollUp(old), days); diff != "" {
			t.Errorf("days (-want +got):\n%s", diff)
		}
		return err
	})
}
