package postgres_test

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/store/rank"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

// TestReindexInBackground is sqlite's test of the same name on PostgreSQL:
// an upgrade's re-index of a project's large memory does not hold up
// opening it; until it is done searches find the entries indexed so far
// and count the rest; a write beyond the mark is left to the re-index; a
// re-index stopped midway resumes where it stopped in the next process
// that keeps the project; the index it completes is the one adding built.
func TestReindexInBackground(t *testing.T) {
	ctx := context.Background()
	url, name := pgtest.URL(t), pgtest.Project(t)
	openIt := func(upkeep bool) *postgres.Store {
		t.Helper()
		s, err := postgres.Open(ctx, url, postgres.Options{Project: name, Upkeep: upkeep, Logger: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := openIt(false)
	if err := benchseed.SeedMemoryStore(ctx, s, 1500); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	var last memory.Entry
	err := s.Update(ctx, func(tx store.Tx) (err error) {
		last, err = tx.PutMemory(ctx, memory.Entry{Type: memory.Decision, Title: "Keep the zebra fixtures", Content: "zebra fixtures stay in testdata", CreatedAt: at, UpdatedAt: at})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	project := s.ProjectID()
	s.Close()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	added := pgIndexDump(t, pool, project)
	if _, err := pool.Exec(ctx, `UPDATE projects SET memory_analyzer = $2 WHERE id = $1`, project, memory.AnalyzerVersion-1); err != nil {
		t.Fatal(err)
	}
	mark := func() int64 {
		t.Helper()
		var n *int64
		if err := pool.QueryRow(ctx, `SELECT memory_rebuilt_to FROM projects WHERE id = $1`, project).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == nil {
			return -1
		}
		return *n
	}
	search := func(s *postgres.Store) store.MemoryResult {
		t.Helper()
		var res store.MemoryResult
		err := s.View(ctx, func(tx store.Tx) (err error) {
			res, err = store.SearchMemory(ctx, tx, store.MemoryQuery{Text: "zebra", Limit: 50})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	wait := func(s *postgres.Store) {
		t.Helper()
		if s.UpkeepDone() == nil {
			t.Fatal("no background re-index was started")
		}
		select {
		case <-s.UpkeepDone():
		case <-time.After(2 * time.Minute):
			t.Fatal("the background re-index has not ended after two minutes")
		}
	}

	s2 := openIt(false)
	if got := mark(); got != 0 {
		t.Fatalf("after an open without upkeep the re-index stands at %d; want 0", got)
	}
	if res := search(s2); len(res.Hits) != 0 || res.Unindexed != 1501 {
		t.Fatalf("search while nothing is indexed: %d hits, %d unindexed; want 0 and 1501", len(res.Hits), res.Unindexed)
	}
	if err := s2.Update(ctx, func(tx store.Tx) error { _, err := tx.PutMemory(ctx, last); return err }); err != nil {
		t.Fatal(err)
	}
	s2.Close()

	restore := rank.StopResumesAfter(2)
	s3 := openIt(true)
	wait(s3)
	restore()
	through := mark()
	if through <= 0 || through >= int64(last.ID) {
		t.Fatalf("after two steps the re-index stands at %d; want between 0 and %d", through, last.ID)
	}
	if res := search(s3); len(res.Hits) != 0 || res.Unindexed != int(int64(last.ID)-through) {
		t.Fatalf("search midway: %d hits, %d unindexed; want 0 and %d", len(res.Hits), res.Unindexed, int64(last.ID)-through)
	}
	s3.Close()

	s4 := openIt(true)
	wait(s4)
	if res := search(s4); len(res.Hits) != 1 || res.Unindexed != 0 {
		t.Errorf("after the re-index: %d hits, %d unindexed; want 1 and 0", len(res.Hits), res.Unindexed)
	}
	s4.Close()
	if got := mark(); got != -1 {
		t.Errorf("after the re-index the mark is %d; want none (NULL)", got)
	}
	if diff := cmp.Diff(added, pgIndexDump(t, pool, project)); diff != "" {
		t.Errorf("the index rebuilt in the background differs from the one adding built (-added +rebuilt):\n%s", diff)
	}
}

// pgIndexDump is a project's memory search index as rows of text.
func pgIndexDump(t *testing.T, pool *pgxpool.Pool, project int64) []string {
	t.Helper()
	var out []string
	for _, q := range []string{
		`SELECT 'index', memory_docs, round(memory_len::numeric, 3), memory_analyzer FROM projects WHERE id = $1`,
		`SELECT 'term', term, df FROM memory_terms WHERE project_id = $1 AND df > 0 ORDER BY term`,
		`SELECT 'posting', term, entry_id, tf, dl, round(impact::numeric, 4) FROM memory_postings WHERE project_id = $1 ORDER BY term, entry_id`,
	} {
		rows, err := pool.Query(context.Background(), q, project)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			vals, err := rows.Values()
			if err != nil {
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
