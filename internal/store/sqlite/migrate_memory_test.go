package sqlite

import (
	"compress/gzip"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/migrate"
	"github.com/cairn-dev/cairn/internal/testing/storetest"
)

// oldEntry is a row as schema 6 stored it: a column per detail.
type oldEntry struct {
	typ, title, content, facts, tags, files, rationale, alternatives, rootCause, fix, prevention, examples string
	occurrences, tokens                                                                                    int
}

// TestMigrateMemoryDetails opens a database an older Cairn left at schema
// 6, with an entry of every type and every field set, migrates it and reads
// every field back from the details document; the mistake's recording
// becomes its occurrence, the index, tags and vectors still work, and two
// mistakes the new fingerprint calls the same stay two entries.
//
// CAIRN_MIGRATE_ENTRIES=100000 adds that many entries and logs how long the
// migration took.
func TestMigrateMemoryDetails(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	raw, err := sql.Open("sqlite", path+"?_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateTo(ctx, raw, ms[:6]); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	rows := []oldEntry{
		{typ: "decision", title: "Use WAL", content: "readers never block", facts: `["f1"]`, tags: `["sqlite"]`, files: `["store.go"]`,
			rationale: "concurrency", alternatives: `["rollback journal","lock file"]`, tokens: 300},
		{typ: "mistake", title: "open /tmp/aa: too many files", content: "seen on CI", rootCause: "fd leak", fix: "close rows", prevention: "lint", occurrences: 3},
		{typ: "mistake", title: "open /tmp/bb: too many files", content: "another", rootCause: "other", occurrences: 1},
		{typ: "convention", title: "Wrap errors", examples: `["open db: %w"]`, tags: `["errors","style"]`},
		{typ: "pattern", title: "Table tests", tokens: 10},
		{typ: "preference", title: "Short answers"},
		{typ: "insight", title: "Parsing dominates", content: "prepare once", tokens: 5400},
		{typ: "tool_outcome", title: "race detector clean"},
		{typ: "workflow_outcome", title: "release took 2 days", facts: `["a","b"]`},
	}
	nulls := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	insert := func(tx *sql.Tx, i int, r oldEntry) {
		t.Helper()
		var fp any
		if r.typ == "mistake" {
			fp = "old " + r.title // what the old rules made of it: replaced by the migration
		}
		res, err := tx.Exec(`INSERT INTO memory_entries (uid, type, title, content, facts, tags, files, session_id, branch, rationale, alternatives,
			root_cause, fix, prevention, occurrences, examples, discovery_tokens, fingerprint, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, 's1', 'main', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			fmt.Sprintf("uid%08d", i), r.typ, r.title, r.content, nulls(r.facts), nulls(r.tags), nulls(r.files), r.rationale, nulls(r.alternatives),
			r.rootCause, r.fix, r.prevention, r.occurrences, nulls(r.examples), r.tokens, fp, at.UnixMicro(), at.Add(time.Hour).UnixMicro())
		if err != nil {
			t.Fatal(err)
		}
		id, _ := res.LastInsertId()
		e := memory.Entry{Content: r.content, Rationale: r.rationale, RootCause: r.rootCause}
		if _, err := tx.Exec(`INSERT INTO memory_fts (rowid, title, body, tags) VALUES (?, ?, ?, '')`, id, r.title, e.SearchText()); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := raw.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		insert(tx, i, r)
	}
	if _, err := tx.Exec(`INSERT INTO memory_tags (tag, entry_id) VALUES ('sqlite', 1)`); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`INSERT INTO memory_vectors (model, entry_id, vec) VALUES ('m', 1, ?)`, memory.EncodeVector([]float32{1, 0})); err != nil {
		t.Fatal(err)
	}
	extra, _ := strconv.Atoi(os.Getenv("CAIRN_MIGRATE_ENTRIES"))
	for i := range extra {
		r := rows[i%len(rows)]
		r.title = fmt.Sprintf("%s %d", r.title, i)
		insert(tx, len(rows)+i, r)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	start := time.Now()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t.Logf("migrated %d entries to schema %d in %v", len(rows)+extra, len(ms), time.Since(start).Round(time.Millisecond))

	ids := make([]memory.ID, len(rows))
	for i := range ids {
		ids[i] = memory.ID(i + 1)
	}
	base := func(i int, typ memory.Type, title string) memory.Entry {
		return memory.Entry{ID: memory.ID(i + 1), UID: fmt.Sprintf("uid%08d", i), Type: typ, Title: title, SessionID: "s1", Branch: "main",
			CreatedAt: at, UpdatedAt: at.Add(time.Hour)}
	}
	want := []memory.Entry{
		func() memory.Entry {
			e := base(0, memory.Decision, "Use WAL")
			e.Content, e.Facts, e.Tags, e.Files = "readers never block", []string{"f1"}, []string{"sqlite"}, []string{"store.go"}
			e.Rationale, e.Alternatives, e.DiscoveryTokens = "concurrency", []string{"rollback journal", "lock file"}, 300
			return e
		}(),
		func() memory.Entry {
			e := base(1, memory.Mistake, "open /tmp/aa: too many files")
			e.Content, e.RootCause, e.Fix, e.Prevention, e.Occurrences = "seen on CI", "fd leak", "close rows", "lint", 3
			return e
		}(),
		func() memory.Entry {
			e := base(2, memory.Mistake, "open /tmp/bb: too many files")
			e.Content, e.RootCause, e.Occurrences = "another", "other", 1
			return e
		}(),
		func() memory.Entry {
			e := base(3, memory.Convention, "Wrap errors")
			e.Examples, e.Tags = []string{"open db: %w"}, []string{"errors", "style"}
			return e
		}(),
		func() memory.Entry { e := base(4, memory.Pattern, "Table tests"); e.DiscoveryTokens = 10; return e }(),
		base(5, memory.Preference, "Short answers"),
		func() memory.Entry {
			e := base(6, memory.Insight, "Parsing dominates")
			e.Content, e.DiscoveryTokens = "prepare once", 5400
			return e
		}(),
		base(7, memory.ToolOutcome, "race detector clean"),
		func() memory.Entry {
			e := base(8, memory.WorkflowOutcome, "release took 2 days")
			e.Facts = []string{"a", "b"}
			return e
		}(),
	}
	err = s.View(ctx, func(tx store.Tx) error {
		got, err := store.Memories(ctx, tx, ids, 0)
		if err != nil {
			return err
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("entries after migration (-want +got):\n%s", d)
		}
		occ, err := storetest.Occurrences(ctx, tx, 2, 10)
		if err != nil {
			return err
		}
		if len(occ) != 1 || occ[0].N != 3 || occ[0].Content != "seen on CI" || !occ[0].At.Equal(at.Add(time.Hour)) {
			t.Errorf("the migrated mistake's occurrence: %+v", occ)
		}
		// Both mistakes are fingerprinted anew, and stay two entries.
		first, ok, err := store.MistakeByFingerprint(ctx, tx, memory.Fingerprint("Open /tmp/zz: too many files"))
		if err != nil || !ok || first.ID != 2 {
			t.Errorf("MistakeByFingerprint after migration = %v %v %v, want m2", first.ID, ok, err)
		}
		res, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: "concurrency", Tags: []string{"sqlite"}})
		if err != nil || len(res.Hits) != 1 || res.Hits[0].Entry.ID != 1 {
			t.Errorf("search after migration: %+v %v", res.Hits, err)
		}
		if with, total, err := storetest.CountVectors(ctx, tx, "m"); err != nil || with != 1 || total != len(rows)+extra {
			t.Errorf("vectors after migration: %d of %d, %v", with, total, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var cols int
	if err := s.w.QueryRow(`SELECT count(*) FROM pragma_table_info('memory_entries') WHERE name IN ('rationale','root_cause','examples','discovery_tokens')`).Scan(&cols); err != nil || cols != 0 {
		t.Errorf("old detail columns left: %d %v", cols, err)
	}
}

// TestMigratePlaceholderMissed: a database made while migration 7 was a
// placeholder (SELECT 1) is at version 8 without the details; opening it
// runs the real migration 7 and keeps every entry.
func TestMigratePlaceholderMissed(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	raw, err := sql.Open("sqlite", path+"?_pragma=foreign_keys(1)")
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	old := append(append(append([]migrate.Migration{}, ms[:6]...), migrate.Migration{Version: 7, Name: "0007_memory_details.sql", SQL: "SELECT 1"}), ms[7:]...)
	if err := migrateTo(ctx, raw, old); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`INSERT INTO memory_entries (uid, type, title, rationale, fingerprint, created_at, updated_at)
		VALUES ('u1', 'decision', 'Use WAL', 'concurrency', NULL, 1, 1)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.View(ctx, func(tx store.Tx) error {
		es, err := store.Memories(ctx, tx, []memory.ID{1}, 0)
		if err != nil || len(es) != 1 || es[0].Rationale != "concurrency" {
			t.Errorf("after repair: %+v %v", es, err)
		}
		return nil
	})
}

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

// checkSchema checks the bookkeeping of the database at path, opened by
// this build: it records every migration of the build, as the runners
// before package migrate did, and still every version it recorded before
// (so a database at the build's schema ran none).
func checkSchema(t *testing.T, path string, before []string) {
	t.Helper()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{fmt.Sprint("user_version ", ms[len(ms)-1].Version)}
	for _, m := range ms {
		want = append(want, fmt.Sprint(m.Version, " ", m.Name))
	}
	after := schemaState(t, path)
	if d := cmp.Diff(want, after); d != "" {
		t.Errorf("bookkeeping after opening (-want +got):\n%s", d)
	}
	for _, row := range before[1:] {
		if !slices.Contains(after, row) {
			t.Errorf("opening lost the record %q", row)
		}
	}
}

// TestOpenMainsDatabase opens a store that Cairn's main made at 517f6cc
// (testdata/main-517f6cc.db.gz: a plan, memory of every kind with a
// superseded entry, a mistake seen twice, an expiring insight and a
// vector, a session and a branch context) with the runner of package
// migrate: it runs only the migrations main lacked (none, as this was
// written), keeps the bookkeeping main wrote, and every part reads back.
func TestOpenMainsDatabase(t *testing.T) {
	ctx := context.Background()
	path := unpack(t, "main-517f6cc.db.gz")
	before := schemaState(t, path)
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	checkSchema(t, path, before)
	err = s.View(ctx, func(tx store.Tx) error {
		if _, n, err := tx.Query(ctx, store.Query{}); err != nil || n != 4 {
			t.Errorf("tasks: %d, %v; want 4", n, err)
		}
		r, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: "WAL busy timeout"})
		if err != nil {
			return err
		}
		if len(r.Hits) != 1 || r.Hits[0].Entry.ID != 4 || r.Hits[0].Entry.Title != "Use WAL mode and a busy timeout" {
			t.Errorf("search (m1 superseded by m4): %+v", r.Hits)
		}
		es, err := store.Memories(ctx, tx, []memory.ID{1, 2}, 0)
		if err != nil || len(es) != 2 || es[0].SupersededBy != 4 || es[0].Rationale != "concurrency" || es[1].Occurrences != 2 {
			t.Errorf("m1, m2 = %+v, %v", es, err)
		}
		if occ, err := storetest.Occurrences(ctx, tx, 2, 10); err != nil || len(occ) != 2 {
			t.Errorf("occurrences of m2: %+v, %v", occ, err)
		}
		if with, total, err := storetest.CountVectors(ctx, tx, "model-a"); err != nil || with != 1 || total != 5 {
			t.Errorf("vectors: %d of %d, %v", with, total, err)
		}
		if ss, n, err := tx.Sessions(ctx, store.SessionQuery{}); err != nil || n != 1 || ss[0].Agent != "agent-1" {
			t.Errorf("sessions: %+v %d %v", ss, n, err)
		}
		if b, ok, err := store.BranchContext(ctx, tx, "main"); err != nil || !ok || b.Feature != "store split" {
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
	checkSchema(t, path, before)
	storetest.CheckUpgraded(t, s, "from version 8")
}
