package rank

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
)

// The index's upkeep that every store does alike: what an entry indexes,
// which entries to index again when one changes, and the rebuild after
// an upgrade. The stores only read entries and write postings.

// AnalyzeEntry is what the index holds of entry e, given the entries
// recorded just before it (prev, newest first, up to ContextDepth): its
// title, text and tags, and its conversation's context (see Context).
func AnalyzeEntry(e memory.Entry, prev ...memory.Entry) Doc {
	return Analyze(e.Title, e.SearchText(), e.Tags, Context(e, prev...)...)
}

// Following returns the entries whose context (see Context) may hold one
// of the changed entries, each once and none of those: the ContextDepth
// entries that next reads after each changed one. A store indexes them
// again after the changed ones changed or went, so that its index stays
// the one adding the entries as they are now would build.
func Following(changed []memory.ID, next func(memory.ID) ([]memory.Entry, error)) ([]memory.Entry, error) {
	seen := map[memory.ID]bool{}
	var out []memory.Entry
	for _, id := range changed {
		es, err := next(id)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			if !seen[e.ID] && !slices.Contains(changed, e.ID) {
				seen[e.ID] = true
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// RebuildPage is how many entries a rebuild reads at a time.
const RebuildPage = 500

// rebuildReport is how often a rebuild logs its progress.
const rebuildReport = 5 * time.Second

// Rebuild is the rebuild of a store's index that another analyzer built
// (or none: a database migrated from the databases' own full-text
// search), from every entry in id order, as adding them one by one would
// build it.
type Rebuild struct {
	Entries int // how many entries there are
	Was     int // the analyzer that built the index; 0: none
	// Start empties the index, and makes ready what else the store needs
	// for the load.
	Start func() error
	// Next returns up to RebuildPage entries after the one with id after
	// (zero: from the first), in id order.
	Next func(after memory.ID) ([]memory.Entry, error)
	// Add indexes one entry.
	Add func(memory.Entry) error
	// Finish completes the index once every entry is added; nil: nothing
	// to do.
	Finish func() error
}

// Run rebuilds the index, saying on log what it does: a large memory
// takes a while, and the store's searches and writes wait for it.
func (r Rebuild) Run(log *slog.Logger) error {
	start := time.Now()
	if r.Entries == 0 { // a new store
		log = slog.New(slog.DiscardHandler)
	}
	log.Warn("rebuilding the memory search index for this version of Cairn; searches and writes wait until it is done",
		"entries", r.Entries, "analyzer", memory.AnalyzerVersion, "was", r.Was)
	if err := r.Start(); err != nil {
		return fmt.Errorf("reset memory index: %w", err)
	}
	done, reported := 0, start
	for after := memory.ID(0); ; {
		es, err := r.Next(after)
		if err != nil {
			return fmt.Errorf("reindex memory: %w", err)
		}
		if len(es) == 0 {
			break
		}
		for _, e := range es {
			if err := r.Add(e); err != nil {
				return fmt.Errorf("reindex memory %s: %w", e.ID, err)
			}
		}
		after = es[len(es)-1].ID
		if done += len(es); time.Since(reported) >= rebuildReport {
			reported = time.Now()
			log.Info("rebuilding the memory search index", "done", done, "entries", r.Entries)
		}
	}
	if r.Finish != nil {
		if err := r.Finish(); err != nil {
			return fmt.Errorf("reindex memory: %w", err)
		}
	}
	log.Warn("rebuilt the memory search index", "entries", done, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// An upgrade's re-index of a large memory runs in the background, in
// steps, each a write transaction of its own, so the store serves while it
// runs: a store empties its index and marks how far the re-index has come
// (nothing yet), then each step indexes the next entries in id order, as
// adding them one by one would, and moves the mark past them. Searches find
// the entries indexed so far and say how many are not yet; writes index
// entries the mark has passed and leave the rest to the re-index. The mark
// is in the database, so a re-index stopped by a kill resumes where it
// stopped, in whichever process opens the store next.

// BackgroundAbove is the size of memory, in entries, above which an
// upgrade's re-index runs in the background; a smaller one is re-indexed
// on open, in well under a second.
const BackgroundAbove = RebuildPage

// StepPage is how many entries one step of a background re-index indexes:
// small enough that the write lock a step holds is never held long.
const StepPage = 200

// Step indexes the next entries of a re-index under way and reports the
// last entry indexed so far and whether the re-index is complete.
type Step func(ctx context.Context) (through memory.ID, complete bool, err error)

// Resume runs a re-index under way to its end in steps, unless ctx ends
// first. Between steps it waits a quarter of the last step's time, so
// writers of this and other processes get the lock; a failed step (another
// process holding the lock past its timeout, say) is tried again after a
// pause that grows to a minute.
func Resume(ctx context.Context, log *slog.Logger, entries int, step Step) {
	start, reported := time.Now(), time.Now()
	steps, backoff := 0, time.Second
	for ctx.Err() == nil {
		t := time.Now()
		through, complete, err := step(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			log.Warn("re-indexing memory in the background: a step failed; trying again", "error", err, "in", backoff)
			if !sleep(ctx, backoff) {
				return
			}
			backoff = min(2*backoff, time.Minute)
			continue
		}
		backoff = time.Second
		if complete {
			if steps > 0 {
				log.Warn("rebuilt the memory search index in the background", "entries", entries, "took", time.Since(start).Round(time.Millisecond))
			}
			return
		}
		steps++
		if h := stopHook.Load(); h != nil && !(*h)() {
			return
		}
		if time.Since(reported) >= rebuildReport {
			reported = time.Now()
			log.Info("re-indexing memory in the background", "through", through, "entries", entries)
		}
		if !sleep(ctx, max(time.Since(t)/4, time.Millisecond)) {
			return
		}
	}
}

// stopHook, when set, is asked after each step whether to go on.
var stopHook atomic.Pointer[func() bool]

// StopResumesAfter is for tests: every re-index Resume runs stops after
// its nth step from now, as if its process were killed, until the returned
// restore is called. Tests that use it must not run in parallel.
func StopResumesAfter(n int) (restore func()) {
	var mu sync.Mutex
	hook := func() bool {
		mu.Lock()
		defer mu.Unlock()
		n--
		return n > 0
	}
	stopHook.Store(&hook)
	return func() { stopHook.Store(nil) }
}

// sleep waits d, or until ctx ends: false then.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
