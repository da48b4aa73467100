package service_test

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/store/rank"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
	"github.com/cairn-dev/cairn/internal/testing/wait"
)

// reopenable is a store that a test closes and opens again, as processes
// do, and whose index it can mark as an older analyzer's (an upgrade).
type reopenable struct {
	open   func(t *testing.T, upkeep bool) store.Store
	forget func(t *testing.T) // mark the index as built by the analyzer before this one
}

func reopenableStores(t *testing.T, fn func(t *testing.T, r reopenable)) {
	ctx := context.Background()
	quiet := slog.New(slog.DiscardHandler)
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "cairn.db")
		fn(t, reopenable{
			open: func(t *testing.T, upkeep bool) store.Store {
				s, err := sqlite.Open(ctx, path, sqlite.Options{Upkeep: upkeep, Logger: quiet})
				if err != nil {
					t.Fatal(err)
				}
				return s
			},
			forget: func(t *testing.T) {
				db, err := sql.Open("sqlite", path)
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				if _, err := db.Exec(`UPDATE memory_index SET analyzer = ?`, memory.AnalyzerVersion-1); err != nil {
					t.Fatal(err)
				}
			},
		})
	})
	t.Run("postgres", func(t *testing.T) {
		url, name := pgtest.URL(t), pgtest.Project(t)
		var project int64
		fn(t, reopenable{
			open: func(t *testing.T, upkeep bool) store.Store {
				s, err := postgres.Open(ctx, url, postgres.Options{Project: name, Upkeep: upkeep, Logger: quiet})
				if err != nil {
					t.Fatal(err)
				}
				project = s.ProjectID()
				return s
			},
			forget: func(t *testing.T) {
				pool, err := pgxpool.New(ctx, url)
				if err != nil {
					t.Fatal(err)
				}
				defer pool.Close()
				if _, err := pool.Exec(ctx, `UPDATE projects SET memory_analyzer = $2 WHERE id = $1`, project, memory.AnalyzerVersion-1); err != nil {
					t.Fatal(err)
				}
			},
		})
	})
}

// TestMemoryIndexProgressShown: while an upgrade's re-index runs,
// get_config's settings (brief.Config) and `cairn memory status`
// (Memory.IndexProgress) say "rebuilding, N of M entries", and a search
// says it answers from the N of M entries indexed so far; before and after
// it, neither says anything of it. N is read from the store at each step:
// nothing indexed yet, two steps of the background re-index, all.
func TestMemoryIndexProgressShown(t *testing.T) {
	reopenableStores(t, func(t *testing.T, r reopenable) {
		ctx := context.Background()
		s := r.open(t, false)
		if err := benchseed.SeedMemoryStore(ctx, s, 3*rank.StepPage); err != nil {
			t.Fatal(err)
		}
		at := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
		err := s.Update(ctx, func(tx store.Tx) error {
			_, err := tx.PutMemory(ctx, memory.Entry{Type: memory.Decision, Title: "Keep the zebra fixtures", Content: "zebra fixtures stay in testdata", CreatedAt: at, UpdatedAt: at})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		// Three steps' worth and one: two steps leave the re-index midway.
		const entries = 3*rank.StepPage + 1
		// said checks what the set says of the index: want is the progress
		// line ("" for none), and the search note must say the same N of M.
		said := func(t *testing.T, set *service.Set, want string, hits int) memories.IndexProgress {
			t.Helper()
			p, err := set.Memory.IndexProgress(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var line string
			for _, st := range set.Brief.Config(ctx, nil) {
				if st.Name == "memory index" {
					line = st.Value
				}
			}
			res, err := set.Memory.Search(ctx, memories.SearchQuery{Text: "zebra"})
			if err != nil {
				t.Fatal(err)
			}
			if want == "" {
				if p.Rebuilding || line != "" || strings.Contains(res.Note, "rebuilt") {
					t.Fatalf("no re-index under way, yet: progress %+v, get_config %q, search note %q", p, line, res.Note)
				}
			} else {
				if !strings.HasPrefix(want, "rebuilding, ") || p.String() != want || line != want {
					t.Fatalf("progress %q, get_config %q; want %q", p, line, want)
				}
				if of := fmt.Sprintf("results come from the %d of %d entries indexed so far", p.Indexed, p.Entries); !strings.Contains(res.Note, of) {
					t.Fatalf("search note %q does not say %q", res.Note, of)
				}
			}
			if len(res.Hits) != hits {
				t.Fatalf("search found %d entries; want %d", len(res.Hits), hits)
			}
			return p
		}
		said(t, service.New(s, service.Options{}), "", 1)
		s.Close()

		// The upgrade, opened by a process without upkeep (a hook): the
		// index is emptied and marked, nothing is indexed.
		r.forget(t)
		s = r.open(t, false)
		said(t, service.New(s, service.Options{}), fmt.Sprintf("rebuilding, 0 of %d entries", entries), 0)
		s.Close()

		// A server re-indexes two steps, then stops as if killed.
		restore := rank.StopResumesAfter(2)
		s = r.open(t, true)
		set := service.New(s, service.Options{})
		want := fmt.Sprintf("rebuilding, %d of %d entries", 2*rank.StepPage, entries)
		var p memories.IndexProgress
		progress := func() memories.IndexProgress {
			var err error
			if p, err = set.Memory.IndexProgress(ctx); err != nil {
				t.Fatal(err)
			}
			return p
		}
		wait.Until(t, 2*time.Minute, "two steps of the re-index: "+want, func() bool { return progress().String() == want })
		said(t, set, want, 0)
		s.Close()
		restore()

		// The next server completes it.
		s = r.open(t, true)
		defer s.Close()
		set = service.New(s, service.Options{})
		wait.Until(t, 2*time.Minute, "the end of the re-index", func() bool { return !progress().Rebuilding })
		said(t, set, "", 1)
	})
}
