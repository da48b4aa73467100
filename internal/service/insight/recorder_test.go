package insight

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/usage"
)

func openStore(t testing.TB) store.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func readUsage(t *testing.T, st store.Store) []usage.Event {
	t.Helper()
	var es []usage.Event
	if err := st.View(context.Background(), func(tx store.Tx) (err error) {
		es, _, err = tx.Usage(context.Background(), store.UsageQuery{})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return es
}

func call(i int) usage.Event {
	return usage.Event{Kind: usage.KindCall, Name: "get_current_task", Toolset: "focus", Agent: "a", Outcome: usage.OK,
		Duration: time.Duration(i) * time.Microsecond}
}

// TestRecorderFlushAndClose: what is recorded from many goroutines is
// written by Flush and Close, redacted, and counted.
func TestRecorderFlushAndClose(t *testing.T) {
	st := openStore(t)
	r := NewRecorder(st, RecorderOptions{FlushEvery: time.Hour, Batch: 7})
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 25 {
				e := call(g*100 + i)
				if i == 0 {
					e.Subject = "key sk-ant-api03-" + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
				}
				r.Record(e)
			}
		})
	}
	wg.Wait()
	if err := r.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	es := readUsage(t, st)
	if len(es) != 100 {
		t.Fatalf("after Flush: %d events stored, want 100", len(es))
	}
	for _, e := range es {
		if e.Subject != "" && e.Subject == "key sk-ant-api03-"+"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" {
			t.Fatalf("subject stored unredacted: %q", e.Subject)
		}
	}
	r.Record(call(1))
	r.Close()
	r.Record(call(2)) // after Close: dropped silently
	if n := len(readUsage(t, st)); n != 101 {
		t.Errorf("after Close: %d events stored, want 101", n)
	}
	if c := r.Counts(); c.Recorded != 101 || c.Dropped != 0 {
		t.Errorf("counts = %+v, want 101 recorded, none dropped", c)
	}
}

// TestRecorderDropsWhenFull: with the store held by another writer, the
// buffer fills and Record drops and counts rather than blocks.
func TestRecorderDropsWhenFull(t *testing.T) {
	st := openStore(t)
	r := NewRecorder(st, RecorderOptions{FlushEvery: time.Hour, Buffer: 8, Batch: 4})
	defer r.Close()
	hold, held := make(chan struct{}), make(chan struct{})
	go st.Update(context.Background(), func(store.Tx) error { close(held); <-hold; return nil })
	<-held
	for i := range 100 {
		r.Record(call(i)) // never blocks: the loop is stuck writing behind the holder
	}
	close(hold)
	if err := r.Flush(context.Background()); err != nil {
		t.Fatal(err)
	}
	c := r.Counts()
	stored := len(readUsage(t, st))
	if c.Dropped == 0 || int64(stored) != c.Recorded || c.Recorded+c.Dropped != 100 {
		t.Errorf("counts %+v, %d stored: want drops, and recorded + dropped = 100 = stored + dropped", c, stored)
	}
}

// TestRollUp: raw events before the cutoff become days and leave the raw
// table; later ones stay raw.
func TestRollUp(t *testing.T) {
	st := openStore(t)
	day := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	var es []usage.Event
	for i := range 10 {
		e := call(1000 * (i + 1))
		e.At = day.Add(time.Duration(i) * 6 * time.Hour) // over 2.5 days
		es = append(es, e)
	}
	if err := st.Update(context.Background(), func(tx store.Tx) error {
		_, err := tx.WriteUsage(context.Background(), store.UsageWrite{Events: es})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	n, err := rollUpBefore(context.Background(), st, day.AddDate(0, 0, 2))
	if err != nil || n != 8 {
		t.Fatalf("RollUp = %d, %v; want 8 folded", n, err)
	}
	if got := len(readUsage(t, st)); got != 2 {
		t.Errorf("raw left: %d, want 2", got)
	}
	var ds []usage.Day
	_ = st.View(context.Background(), func(tx store.Tx) (err error) {
		_, ds, err = tx.Usage(context.Background(), store.UsageQuery{Days: true})
		return err
	})
	if len(ds) != 2 || ds[0].Count != 4 || ds[1].Count != 4 {
		t.Errorf("days = %+v, want two of 4 calls", ds)
	}
}

// BenchmarkRecorder: what recording costs a call, the batch's write to
// SQLite included (allocations are the stable measure on a loaded host).
func BenchmarkRecorder(b *testing.B) {
	st := openStore(b)
	r := NewRecorder(st, RecorderOptions{FlushEvery: time.Hour})
	defer r.Close()
	e := usage.Event{Kind: usage.KindCall, Name: "get_current_task", Toolset: "focus", Agent: "claude-code", Session: 3,
		Client: "claude-code", ClientVersion: "2.1.3", Model: "claude-opus-4-5", Duration: time.Millisecond, Outcome: usage.OK, Bytes: 900}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r.Record(e)
		if i%256 == 255 {
			if err := r.Flush(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	}
}
