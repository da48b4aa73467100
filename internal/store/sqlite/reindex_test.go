package sqlite_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/rank"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/storetest"
)

// indexDump is memory search's whole index as rows of text.
func indexDump(t *testing.T, path string) []string {
	t.Helper()
	return dumpIndex(t, path, true)
}

// dumpIndex is indexDump, with or without the postings' impacts (which
// depend on the average length when each entry was indexed).
func dumpIndex(t *testing.T, path string, impacts bool) []string {
	t.Helper()
	impact := "impact"
	if !impacts {
		impact = "0"
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []string
	for _, q := range []string{
		`SELECT 'index', docs, round(total_len, 6), analyzer FROM memory_index`,
		`SELECT 'term', term, df FROM memory_terms WHERE df > 0 ORDER BY term`,
		`SELECT 'posting', term, entry_id, tf, dl, ` + impact + ` FROM memory_postings ORDER BY term, entry_id`,
	} {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprint(vals...))
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// forgetAnalyzer makes the store at path look indexed by an older Cairn.
func forgetAnalyzer(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE memory_index SET analyzer = ?`, memory.AnalyzerVersion-1); err != nil {
		t.Fatal(err)
	}
}

// TestReindexMatchesAdding: the index an upgrade rebuilds is the index
// the entries built when they were added one by one, row for row (dialogue
// context, impacts, document frequencies and totals included), and the
// rebuild says on the log what it is doing.
func TestReindexMatchesAdding(t *testing.T) {
	ctx := context.Background()
	s := open(t, sqlite.Options{})
	path := s.Path()
	t0 := time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)
	turns := []string{
		"Maya: Guess who finally adopted a dog?", "Jonas: No way! What kind?", "Maya: A rescue greyhound called Pepper [shares a photo of a grey dog on a sofa]",
		"Jonas: She looks so calm", "Maya: She sleeps 18 hours a day", "Jonas: Where did you find her?", "Maya: At the shelter on Mill Road, last Saturday",
	}
	err := s.Update(ctx, func(tx store.Tx) error {
		add := func(e memory.Entry) error {
			e.UpdatedAt = e.CreatedAt
			_, err := tx.PutMemory(ctx, e)
			return err
		}
		for i, c := range turns {
			if err := add(memory.Entry{Type: memory.Insight, Title: "chat", Content: c, SessionID: "s1", CreatedAt: t0.Add(time.Duration(i) * time.Minute)}); err != nil {
				return err
			}
		}
		notes := []memory.Entry{
			{Type: memory.Decision, Title: "Use WAL mode", Content: "Readers never block the writer.", Rationale: "concurrency", Tags: []string{"sqlite"}},
			{Type: memory.Insight, Title: "Why is the build slow?", Content: "Which step takes longest?"},
			{Type: memory.Insight, Title: "cgo", Content: "The linker step: cgo rebuilds libc each time.", Tags: []string{"build", "ci"}},
			{Type: memory.Mistake, Title: "open /tmp/x: too many files", RootCause: "rows left open", Fix: "close rows"},
			{Type: memory.Preference, Title: "the a of", Content: "and the"}, // no terms at all
			{Type: memory.Convention, Title: "Wrap errors", Examples: []string{"open db: %w"}},
		}
		for i, e := range notes {
			e.CreatedAt = t0.Add(time.Hour + time.Duration(i)*time.Minute)
			if err := add(e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// More than one page of entries, to cross the rebuild's batches.
	if err := benchseed.SeedMemoryStore(ctx, s, 1200); err != nil {
		t.Fatal(err)
	}
	s.Close()
	added := indexDump(t, path)
	if len(added) < 1000 {
		t.Fatalf("the index holds %d rows; expected the seeded entries' postings", len(added))
	}

	forgetAnalyzer(t, path)
	var log bytes.Buffer
	s2, err := sqlite.Open(ctx, path, sqlite.Options{Upkeep: true, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	waitUpkeep(t, s2)
	s2.Close()
	if diff := cmp.Diff(added, indexDump(t, path)); diff != "" {
		t.Errorf("rebuilt index differs from the one adding built (-added +rebuilt):\n%s", diff)
	}
	for _, want := range []string{"rebuilding the memory search index", "entries=1213", "rebuilt the memory search index"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the log does not say %q:\n%s", want, log.String())
		}
	}

	// Opening again finds the index current: nothing is rebuilt.
	log.Reset()
	s3, err := sqlite.Open(ctx, path, sqlite.Options{Upkeep: true, Logger: slog.New(slog.NewTextHandler(&log, nil))})
	if err != nil {
		t.Fatal(err)
	}
	s3.Close()
	if log.Len() != 0 {
		t.Errorf("a current index was rebuilt again:\n%s", log.String())
	}
}

// waitUpkeep waits for s's background re-index to end; a minute without
// it is a hang.
func waitUpkeep(t *testing.T, s *sqlite.Store) {
	t.Helper()
	if s.UpkeepDone() == nil {
		t.Fatal("no background re-index was started")
	}
	select {
	case <-s.UpkeepDone():
	case <-time.After(time.Minute):
		t.Fatal("the background re-index has not ended after a minute")
	}
}

// searchAll runs a text search for text over every entry.
func searchAll(t *testing.T, s *sqlite.Store, text string) store.MemoryResult {
	t.Helper()
	var res store.MemoryResult
	err := s.View(context.Background(), func(tx store.Tx) (err error) {
		res, err = store.SearchMemory(context.Background(), tx, store.MemoryQuery{Text: text, Limit: 50})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// rebuiltTo reads how far a background re-index has come: -1 when none is
// under way.
func rebuiltTo(t *testing.T, path string) int64 {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n sql.NullInt64
	if err := db.QueryRow(`SELECT rebuilt_to FROM memory_index`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if !n.Valid {
		return -1
	}
	return n.Int64
}

// TestReindexInBackground: an upgrade's re-index of a large memory does
// not hold up opening the store. Until it is done, searches find the
// entries indexed so far and count the rest; a write to an entry the
// re-index has not reached leaves it to the re-index; a re-index stopped
// midway (its process killed) resumes at the entry where it stopped, in the
// next process that keeps the store; and the index it completes is the one
// adding the entries built, row for row.
func TestReindexInBackground(t *testing.T) {
	ctx := context.Background()
	s := open(t, sqlite.Options{})
	path := s.Path()
	if err := benchseed.SeedMemoryStore(ctx, s, 1500); err != nil {
		t.Fatal(err)
	}
	var last memory.Entry
	err := s.Update(ctx, func(tx store.Tx) (err error) {
		last, err = tx.PutMemory(ctx, memory.Entry{Type: memory.Decision, Title: "Keep the zebra fixtures", Content: "zebra fixtures stay in testdata",
			CreatedAt: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC), UpdatedAt: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if res := searchAll(t, s, "zebra"); len(res.Hits) != 1 || res.Unindexed != 0 {
		t.Fatalf("before the upgrade: %d hits, %d unindexed; want 1 and 0", len(res.Hits), res.Unindexed)
	}
	s.Close()
	added := indexDump(t, path)
	forgetAnalyzer(t, path)

	// A process without upkeep (a hook) opens it: the index is emptied
	// and marked, nothing more.
	s2, err := sqlite.Open(ctx, path, sqlite.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if got := rebuiltTo(t, path); got != 0 {
		t.Fatalf("after an open without upkeep the re-index stands at %d; want 0 (begun, nothing indexed)", got)
	}
	res := searchAll(t, s2, "zebra")
	if len(res.Hits) != 0 || res.Unindexed != 1501 {
		t.Fatalf("search while nothing is indexed: %d hits, %d unindexed; want 0 and 1501", len(res.Hits), res.Unindexed)
	}
	// Saving the newest entry again, beyond the mark, indexes nothing yet.
	if err := s2.Update(ctx, func(tx store.Tx) error { _, err := tx.PutMemory(ctx, last); return err }); err != nil {
		t.Fatal(err)
	}
	s2.Close()

	// A server keeps it, and is killed after two steps.
	restore := rank.StopResumesAfter(2)
	s3, err := sqlite.Open(ctx, path, sqlite.Options{Upkeep: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	waitUpkeep(t, s3)
	restore()
	if got := rebuiltTo(t, path); got <= 0 || got >= int64(last.ID) {
		t.Fatalf("after two steps the re-index stands at %d; want between 0 and %d", got, last.ID)
	}
	through := rebuiltTo(t, path)
	res = searchAll(t, s3, "zebra")
	if len(res.Hits) != 0 || res.Unindexed != int(int64(last.ID)-through) {
		t.Fatalf("search midway: %d hits, %d unindexed; want 0 and %d", len(res.Hits), res.Unindexed, int64(last.ID)-through)
	}
	s3.Close()

	// The next server resumes and completes it.
	s4, err := sqlite.Open(ctx, path, sqlite.Options{Upkeep: true, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	waitUpkeep(t, s4)
	if res := searchAll(t, s4, "zebra"); len(res.Hits) != 1 || res.Unindexed != 0 {
		t.Errorf("after the re-index: %d hits, %d unindexed; want 1 and 0", len(res.Hits), res.Unindexed)
	}
	s4.Close()
	if got := rebuiltTo(t, path); got != -1 {
		t.Errorf("after the re-index the mark is %d; want none (NULL)", got)
	}
	if diff := cmp.Diff(added, indexDump(t, path)); diff != "" {
		t.Errorf("the index rebuilt in the background differs from the one adding built (-added +rebuilt):\n%s", diff)
	}
}

// TestEditsKeepDialogueContext: a turn's words are indexed into the turns
// after it (rank.Context), so editing or deleting a turn indexes those again:
// the index is then the one a rebuild from the entries as they are makes.
func TestEditsKeepDialogueContext(t *testing.T) {
	ctx := context.Background()
	s := open(t, sqlite.Options{})
	path := s.Path()
	storetest.EditDialogue(t, s, storetest.AddDialogue(t, s, time.Date(2026, 3, 1, 18, 0, 0, 0, time.UTC)))
	s.Close()
	edited := dumpIndex(t, path, false)
	forgetAnalyzer(t, path)
	s2, err := sqlite.Open(ctx, path, sqlite.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	s2.Close()
	if diff := cmp.Diff(dumpIndex(t, path, false), edited); diff != "" {
		t.Errorf("after an edit and a delete the index differs from a rebuild (-rebuilt +edited):\n%s", diff)
	}
}

// TestReindexTime logs how long opening a store of CAIRN_REINDEX_ENTRIES
// (default 10,000) seeded entries indexed by an older analyzer takes, and
// how long its background re-index takes after that.
//
//	CAIRN_REINDEX_ENTRIES=100000 go test -run TestReindexTime -v ./internal/store/sqlite/
func TestReindexTime(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("CAIRN_REINDEX_ENTRIES"))
	if n == 0 {
		t.Skip("set CAIRN_REINDEX_ENTRIES to the number of entries to rebuild")
	}
	ctx := context.Background()
	src, err := benchseed.CachedMemory(ctx, n)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := benchseed.Clone(src, dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ".cairn", "cairn.db")
	forgetAnalyzer(t, path)
	start := time.Now()
	s, err := sqlite.Open(ctx, path, sqlite.Options{Upkeep: true})
	if err != nil {
		t.Fatal(err)
	}
	opened := time.Since(start)
	first := searchAll(t, s, "error")
	firstCall := time.Since(start)
	select {
	case <-s.UpkeepDone():
	case <-time.After(30 * time.Minute):
		t.Fatal("the background re-index has not ended after 30 minutes")
	}
	took := time.Since(start)
	s.Close()
	t.Logf("%d entries: opened in %v; a search right after answered at %v (%d entries not indexed yet); re-indexed in the background in %v (%.0f entries/s)",
		n, opened.Round(time.Millisecond), firstCall.Round(time.Millisecond), first.Unindexed, took.Round(time.Millisecond), float64(n)/took.Seconds())
}
