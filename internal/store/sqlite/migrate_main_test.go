package sqlite

import (
	"compress/gzip"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

// unpack writes the gzipped database testdata/name into a new directory
// and returns its path.
func unpack(t *testing.T, name string) string {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "cairn.db")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, zr); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// schemaState is a database's migration bookkeeping: user_version and
// the rows of cairn_schema.
func schemaState(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil {
		t.Fatal(err)
	}
	out := []string{fmt.Sprint("user_version ", v)}
	rows, err := db.Query(`SELECT version, name FROM cairn_schema ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var (
			n    int
			name string
		)
		if err := rows.Scan(&n, &name); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(n, " ", name))
	}
	return out
}

// wantSchema is the bookkeeping of a database with every migration.
func wantSchema(t *testing.T) []string {
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	out := []string{fmt.Sprint("user_version ", ms[len(ms)-1].Version)}
	for _, m := range ms {
		out = append(out, fmt.Sprint(m.Version, " ", m.Name))
	}
	return out
}

// TestOpenMainsDatabase opens a store that Cairn's main made at 517f6cc
// (testdata/main-517f6cc.db.gz: a plan, memory of every kind with a
// superseded entry, a mistake seen twice, an expiring insight and a
// vector, a session and a branch context) with the runner of package
// migrate: no migration runs, the bookkeeping stays as it was, and every
// part reads back.
func TestOpenMainsDatabase(t *testing.T) {
	ctx := context.Background()
	path := unpack(t, "main-517f6cc.db.gz")
	before := schemaState(t, path)
	if d := cmp.Diff(wantSchema(t), before); d != "" {
		t.Fatalf("the fixture is not at this build's schema (-want +got):\n%s", d)
	}
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if d := cmp.Diff(before, schemaState(t, path)); d != "" {
		t.Errorf("opening changed the bookkeeping (-before +after):\n%s", d)
	}
	err = s.View(ctx, func(tx store.Tx) error {
		if n, err := tx.CountTasks(ctx); err != nil || n != 4 {
			t.Errorf("tasks: %d, %v; want 4", n, err)
		}
		r, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: "WAL busy timeout"})
		if err != nil {
			return err
		}
		if len(r.Hits) != 1 || r.Hits[0].Entry.ID != 4 || r.Hits[0].Entry.Title != "Use WAL mode and a busy timeout" {
			t.Errorf("search (m1 superseded by m4): %+v", r.Hits)
		}
		es, err := tx.Memories(ctx, []memory.ID{1, 2})
		if err != nil || len(es) != 2 || es[0].SupersededBy != 4 || es[0].Rationale != "concurrency" || es[1].Occurrences != 2 {
			t.Errorf("m1, m2 = %+v, %v", es, err)
		}
		if occ, err := tx.Occurrences(ctx, 2, 10); err != nil || len(occ) != 2 {
			t.Errorf("occurrences of m2: %+v, %v", occ, err)
		}
		if with, total, err := tx.CountVectors(ctx, "model-a"); err != nil || with != 1 || total != 5 {
			t.Errorf("vectors: %d of %d, %v", with, total, err)
		}
		if ss, n, err := tx.Sessions(ctx, store.SessionQuery{}); err != nil || n != 1 || ss[0].Agent != "agent-1" {
			t.Errorf("sessions: %+v %d %v", ss, n, err)
		}
		if b, ok, err := tx.BranchContext(ctx, "main"); err != nil || !ok || b.Feature != "store split" {
			t.Errorf("branch context: %+v %v %v", b, ok, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestOpenMainsOlderDatabase opens a store that main's runner left at
// version 8 (testdata/main-517f6cc-v8.db.gz, with a task and an entry
// written then): the runner of package migrate applies the rest, records
// them as main's did, and the data is kept and found (the memory index,
// built by no analyzer then, is rebuilt).
func TestOpenMainsOlderDatabase(t *testing.T) {
	ctx := context.Background()
	path := unpack(t, "main-517f6cc-v8.db.gz")
	before := schemaState(t, path)
	if before[0] != "user_version 8" || len(before) != 9 {
		t.Fatalf("the fixture is not at version 8: %v", before)
	}
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if d := cmp.Diff(wantSchema(t), schemaState(t, path)); d != "" {
		t.Errorf("bookkeeping after opening (-want +got):\n%s", d)
	}
	err = s.View(ctx, func(tx store.Tx) error {
		tk, err := tx.Task(ctx, 1)
		if err != nil || tk.Title != "Old task" || tk.Body != "from version 8" {
			t.Errorf("task 1 = %+v, %v", tk, err)
		}
		r, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: "journal"})
		if err != nil {
			return err
		}
		if len(r.Hits) != 1 || r.Hits[0].Entry.ID != 1 {
			t.Errorf("search after opening: %+v", r.Hits)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
