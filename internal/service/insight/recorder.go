// Package insight measures how the project's agents work, passively: a
// recorder takes one event per tool call, hook, knowledge read and check
// run off the request path and writes them in batches; the analyses read
// them back with the session records to say which models do which work
// well and how healthy the project is.
package insight

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/usage"
)

// Defaults of the recorder.
const (
	DefaultBuffer     = 4096
	DefaultBatch      = 1024
	DefaultFlushEvery = time.Second
	DefaultRetention  = 30 * 24 * time.Hour
	rollupEvery       = 6 * time.Hour
	writeTimeout      = 5 * time.Second
)

// RecorderOptions configure a Recorder.
type RecorderOptions struct {
	// Off records nothing (the project's [insight] enabled = false, or
	// CAIRN_INSIGHT=off).
	Off bool
	// Buffer bounds the events held in memory; an event recorded while it
	// is full is dropped and counted. Default DefaultBuffer.
	Buffer int
	// Batch is the most events one write takes; default DefaultBatch.
	Batch int
	// FlushEvery is how often held events are written; default
	// DefaultFlushEvery. A process killed loses at most what it held.
	FlushEvery time.Duration
	// Retention is how long raw events are kept before they roll up into
	// daily aggregates; default DefaultRetention.
	Retention time.Duration
	Now       func() time.Time
	Logger    *slog.Logger
}

// Recorder writes usage events to the store in batches, off the path of
// the calls it records: Record never blocks and never fails.
type Recorder struct {
	st   store.Store
	opts RecorderOptions

	start    sync.Once
	ch       chan usage.Event
	flushes  chan chan error
	stop     chan struct{}
	done     chan struct{}
	closed   atomic.Bool
	recorded atomic.Int64
	dropped  atomic.Int64
	lastRoll time.Time // the loop's own: zero rolls up at the first tick
	// redacted caches the redaction of the short fields that repeat from
	// call to call (model, client, version, agent): the loop's own.
	redacted map[string]string
}

// maxRedactedCache bounds the cache of redacted fields.
const maxRedactedCache = 1024

// NewRecorder returns a recorder over st; its goroutine starts with the
// first event.
func NewRecorder(st store.Store, opts RecorderOptions) *Recorder {
	if opts.Buffer <= 0 {
		opts.Buffer = DefaultBuffer
	}
	if opts.Batch <= 0 {
		opts.Batch = DefaultBatch
	}
	if opts.FlushEvery <= 0 {
		opts.FlushEvery = DefaultFlushEvery
	}
	if opts.Retention <= 0 {
		opts.Retention = DefaultRetention
	}
	if opts.Now == nil {
		opts.Now = func() time.Time { return time.Now().UTC() }
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Recorder{st: st, opts: opts, ch: make(chan usage.Event, opts.Buffer),
		flushes: make(chan chan error), stop: make(chan struct{}), done: make(chan struct{})}
}

// Enabled reports whether the recorder records.
func (r *Recorder) Enabled() bool { return r != nil && !r.opts.Off }

// Record takes e to be written with the next batch; when the buffer is
// full (the store is slow or busy), e is dropped and counted instead.
func (r *Recorder) Record(e usage.Event) {
	if !r.Enabled() || r.closed.Load() {
		return
	}
	r.start.Do(func() { go r.loop() })
	if e.At.IsZero() {
		e.At = r.opts.Now()
	}
	select {
	case r.ch <- e:
	default:
		r.dropped.Add(1)
	}
}

// Counts are what a recorder has written and dropped since it started.
type Counts struct {
	Recorded, Dropped int64
	Buffered          int
}

// Counts reports the recorder's counters.
func (r *Recorder) Counts() Counts {
	if r == nil {
		return Counts{}
	}
	return Counts{Recorded: r.recorded.Load(), Dropped: r.dropped.Load(), Buffered: len(r.ch)}
}

// Flush writes what the recorder holds now, and returns when it is
// written: readers of usage call it first, so they see this process's own
// calls.
func (r *Recorder) Flush(ctx context.Context) error {
	if !r.Enabled() || r.closed.Load() {
		return nil
	}
	r.start.Do(func() { go r.loop() })
	reply := make(chan error, 1)
	select {
	case r.flushes <- reply:
	case <-r.done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close writes what the recorder holds and stops it. Events recorded
// after are dropped.
func (r *Recorder) Close() {
	if r == nil || !r.closed.CompareAndSwap(false, true) {
		return
	}
	started := true
	r.start.Do(func() { started = false })
	if !started {
		return
	}
	close(r.stop)
	<-r.done
}

func (r *Recorder) loop() {
	defer close(r.done)
	batch := make([]usage.Event, 0, r.opts.Batch)
	tick := time.NewTicker(r.opts.FlushEvery)
	defer tick.Stop()
	write := func() error {
		if len(batch) == 0 {
			return nil
		}
		err := r.write(batch)
		batch = batch[:0]
		return err
	}
	drain := func() error {
		var err error
		for {
			select {
			case e := <-r.ch:
				if batch = append(batch, e); len(batch) >= r.opts.Batch {
					err = write()
				}
			default:
				if err2 := write(); err == nil {
					err = err2
				}
				return err
			}
		}
	}
	for {
		select {
		case e := <-r.ch:
			if batch = append(batch, e); len(batch) >= r.opts.Batch {
				_ = write()
			}
		case <-tick.C:
			_ = write()
			if r.opts.Now().Sub(r.lastRoll) >= rollupEvery {
				r.rollUp()
			}
		case reply := <-r.flushes:
			reply <- drain()
		case <-r.stop:
			_ = drain()
			return
		}
	}
}

// write stores a batch, redacted; a batch the store refuses is dropped
// and counted, never retried into a growing backlog.
func (r *Recorder) write(batch []usage.Event) error {
	for i := range batch {
		e := &batch[i]
		if e.Subject != "" && !(e.Kind == usage.KindCall && usage.IsDigest(e.Subject)) {
			redact.RedactFields(&e.Subject)
		}
		for _, f := range []*string{&e.Model, &e.Client, &e.ClientVersion, &e.Agent} {
			*f = r.redact(*f)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	err := r.st.Update(ctx, func(tx store.Tx) error {
		_, err := tx.WriteUsage(ctx, store.UsageWrite{Events: batch})
		return err
	})
	if err != nil {
		r.dropped.Add(int64(len(batch)))
		r.opts.Logger.Warn("usage events dropped: the store did not take them", "events", len(batch), "error", err)
		return err
	}
	r.recorded.Add(int64(len(batch)))
	return nil
}

// redact is redact.Redact of a short field that repeats, cached.
func (r *Recorder) redact(s string) string {
	if s == "" {
		return s
	}
	if out, ok := r.redacted[s]; ok {
		return out
	}
	out, _ := redact.Redact(s)
	if r.redacted == nil || len(r.redacted) >= maxRedactedCache {
		r.redacted = map[string]string{}
	}
	r.redacted[s] = out
	return out
}

// rollUp folds raw events older than the retention into daily aggregates.
func (r *Recorder) rollUp() {
	r.lastRoll = r.opts.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 4*writeTimeout)
	defer cancel()
	if _, err := rollUpBefore(ctx, r.st, usage.DayOf(r.opts.Now().Add(-r.opts.Retention))); err != nil {
		r.opts.Logger.Warn("usage rollup", "error", err)
	}
}

// rollUpBefore folds the raw events before cutoff into daily aggregates, in one
// transaction, and returns how many it folded.
func rollUpBefore(ctx context.Context, st store.Store, cutoff time.Time) (int, error) {
	n := 0
	err := st.Update(ctx, func(tx store.Tx) error {
		es, _, err := tx.Usage(ctx, store.UsageQuery{Before: cutoff})
		if err != nil || len(es) == 0 {
			return err
		}
		n, err = tx.WriteUsage(ctx, store.UsageWrite{DeleteBefore: cutoff, Days: usage.RollUp(es)})
		return err
	})
	return n, err
}
