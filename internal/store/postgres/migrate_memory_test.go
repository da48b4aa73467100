package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	neturl "net/url"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/migrate"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
	"github.com/cairn-dev/cairn/internal/testing/storetest"
)

// TestMigrateMemoryDetails opens a database an older Cairn left at schema
// 2 (in a schema of its own), with an entry of every type and every field
// set, migrates it and reads every field back from the details document.
// CAIRN_MIGRATE_ENTRIES=100000 adds that many entries and logs how long the
// migration took.
func TestMigrateMemoryDetails(t *testing.T) {
	ctx := context.Background()
	url := freshSchema(t)

	pool, err := pxgPool(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if err := migrateTo(ctx, pool, ms[:2]); err != nil {
		t.Fatal(err)
	}
	var project int64
	if err := pool.QueryRow(ctx, `INSERT INTO projects (name) VALUES ('p') RETURNING id`).Scan(&project); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	type old struct {
		typ, title, content, rationale, rootCause, fix, prevention string
		facts, tags, files, alternatives, examples                 []string
		occ, tokens                                                int32
	}
	rows := []old{
		{typ: "decision", title: "Use WAL", content: "readers never block", facts: []string{"f1"}, tags: []string{"sqlite"}, files: []string{"store.go"},
			rationale: "concurrency", alternatives: []string{"rollback journal", "lock file"}, tokens: 300},
		{typ: "mistake", title: "open /tmp/aa: too many files", content: "seen on CI", rootCause: "fd leak", fix: "close rows", prevention: "lint", occ: 3},
		{typ: "mistake", title: "open /tmp/bb: too many files", content: "another", rootCause: "other", occ: 1},
		{typ: "convention", title: "Wrap errors", examples: []string{"open db: %w"}, tags: []string{"errors", "style"}},
		{typ: "insight", title: "Parsing dominates", content: "prepare once", tokens: 5400},
		{typ: "workflow_outcome", title: "release took 2 days", facts: []string{"a", "b"}},
	}
	extra, _ := strconv.Atoi(os.Getenv("CAIRN_MIGRATE_ENTRIES"))
	for i := range len(rows) + extra {
		r := rows[i%len(rows)]
		if i >= len(rows) {
			r.title = fmt.Sprintf("%s %d", r.title, i)
		}
		var fp *string
		if r.typ == "mistake" {
			s := "old " + r.title
			fp = &s
		}
		_, err := pool.Exec(ctx, `INSERT INTO memory_entries (project_id, id, uid, type, title, content, facts, tags, files, session_id, branch,
			rationale, alternatives, root_cause, fix, prevention, occurrences, examples, discovery_tokens, fingerprint, search_body, fts, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 's1', 'main', $10, $11, $12, $13, $14, $15, $16, $17, $18, $6,
			to_tsvector('english', $5 || ' ' || $6 || ' ' || $10), $19, $20)`,
			project, i+1, fmt.Sprintf("uid%08d", i), r.typ, r.title, r.content, r.facts, r.tags, r.files, r.rationale, r.alternatives,
			r.rootCause, r.fix, r.prevention, r.occ, r.examples, r.tokens, fp, at, at.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := pool.Exec(ctx, `UPDATE projects SET next_memory_id = $2 WHERE id = $1`, project, len(rows)+extra+1); err != nil {
		t.Fatal(err)
	}
	pool.Close()

	start := time.Now()
	s, err := Open(ctx, url, Options{Project: "p"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	t.Logf("migrated %d entries to schema %d in %v", len(rows)+extra, len(ms), time.Since(start).Round(time.Millisecond))

	e := func(i int, typ memory.Type, title string, f func(*memory.Entry)) memory.Entry {
		x := memory.Entry{ID: memory.ID(i + 1), UID: fmt.Sprintf("uid%08d", i), Type: typ, Title: title, SessionID: "s1", Branch: "main",
			CreatedAt: at, UpdatedAt: at.Add(time.Hour)}
		f(&x)
		return x
	}
	want := []memory.Entry{
		e(0, memory.Decision, "Use WAL", func(x *memory.Entry) {
			x.Content, x.Facts, x.Tags, x.Files = "readers never block", []string{"f1"}, []string{"sqlite"}, []string{"store.go"}
			x.Rationale, x.Alternatives, x.DiscoveryTokens = "concurrency", []string{"rollback journal", "lock file"}, 300
		}),
		e(1, memory.Mistake, "open /tmp/aa: too many files", func(x *memory.Entry) {
			x.Content, x.RootCause, x.Fix, x.Prevention, x.Occurrences = "seen on CI", "fd leak", "close rows", "lint", 3
		}),
		e(2, memory.Mistake, "open /tmp/bb: too many files", func(x *memory.Entry) { x.Content, x.RootCause, x.Occurrences = "another", "other", 1 }),
		e(3, memory.Convention, "Wrap errors", func(x *memory.Entry) { x.Examples, x.Tags = []string{"open db: %w"}, []string{"errors", "style"} }),
		e(4, memory.Insight, "Parsing dominates", func(x *memory.Entry) { x.Content, x.DiscoveryTokens = "prepare once", 5400 }),
		e(5, memory.WorkflowOutcome, "release took 2 days", func(x *memory.Entry) { x.Facts = []string{"a", "b"} }),
	}
	err = s.View(ctx, func(tx store.Tx) error {
		got, err := store.Memories(ctx, tx, []memory.ID{1, 2, 3, 4, 5, 6}, 0)
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
		if len(occ) != 1 || occ[0].N != 3 || occ[0].Content != "seen on CI" {
			t.Errorf("the migrated mistake's occurrence: %+v", occ)
		}
		first, ok, err := store.MistakeByFingerprint(ctx, tx, memory.Fingerprint("Open /tmp/zz: too many files"))
		if err != nil || !ok || first.ID != 2 {
			t.Errorf("MistakeByFingerprint after migration = %v %v %v, want m2", first.ID, ok, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func pxgPool(ctx context.Context, url string) (*pgxpool.Pool, error) { return pgxpool.New(ctx, url) }

// freshSchema returns the test database's URL with a new, empty schema of
// its own as the search path, as a database no other test shares; the
// schema is dropped when the test ends.
func freshSchema(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	base := pgtest.URL(t)
	var b [4]byte
	_, _ = rand.Read(b[:])
	schema := "mig_" + hex.EncodeToString(b[:])
	admin, err := pxgPool(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		admin.Exec(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
		admin.Close()
	})
	if _, err := admin.Exec(ctx, `CREATE SCHEMA `+schema); err != nil {
		t.Fatal(err)
	}
	u, err := neturl.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// TestMigratePlaceholderMissed: a database made while migration 3 was a
// placeholder (SELECT 1) is at version 4 without the details; opening it
// runs the real migration 3 and keeps every entry.
func TestMigratePlaceholderMissed(t *testing.T) {
	ctx := context.Background()
	url := freshSchema(t)
	pool, err := pxgPool(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	// Then at version 5: migrations 6 and 7 (the plan revision, no
	// tsvector) came later, and run after the repair.
	old := append(append(append([]migrate.Migration{}, ms[:2]...), migrate.Migration{Version: 3, Name: "0003_memory_details.sql", SQL: "SELECT 1"}), ms[3:5]...)
	if err := migrateTo(ctx, pool, old); err != nil {
		t.Fatal(err)
	}
	var project int64
	if err := pool.QueryRow(ctx, `INSERT INTO projects (name, next_memory_id) VALUES ('p', 2) RETURNING id`).Scan(&project); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO memory_entries (project_id, id, uid, type, title, rationale, fts, created_at, updated_at)
		VALUES ($1, 1, 'u1', 'decision', 'Use WAL', 'concurrency', ''::tsvector, now(), now())`, project); err != nil {
		t.Fatal(err)
	}
	pool.Close()
	s, err := Open(ctx, url, Options{Project: "p"})
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

// legacySchema leaves the database as the two runners before package
// migrate left it after the migrations up to version upTo: each file run,
// and recorded in cairn_schema by those runners' own statements. It builds
// the old state without the runner under test.
func legacySchema(t *testing.T, ctx context.Context, pool *pgxpool.Pool, upTo int) []migrate.Migration {
	t.Helper()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS cairn_schema (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Version > upTo {
			break
		}
		if _, err := pool.Exec(ctx, m.SQL); err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		if _, err := pool.Exec(ctx, `INSERT INTO cairn_schema (version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
			t.Fatal(err)
		}
	}
	return ms
}

type schemaRow struct {
	Version int
	Name    string
	At      time.Time
}

func schemaRows(t *testing.T, ctx context.Context, pool *pgxpool.Pool) []schemaRow {
	t.Helper()
	rows, err := pool.Query(ctx, `SELECT version, name, applied_at FROM cairn_schema ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []schemaRow
	for rows.Next() {
		var r schemaRow
		if err := rows.Scan(&r.Version, &r.Name, &r.At); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// TestMigrateFromLegacyRunner: databases the runners before package migrate
// made, at the latest schema and at version 8 of it, open with their data;
// the first runs no migration, the second the rest, each recorded as
// before.
func TestMigrateFromLegacyRunner(t *testing.T) {
	for name, upTo := range map[string]int{"Version8": 8, "Latest": 1 << 30} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			url := freshSchema(t)
			pool, err := pxgPool(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			ms := legacySchema(t, ctx, pool, upTo)
			var project int64
			if err := pool.QueryRow(ctx, `INSERT INTO projects (name, next_task_id, next_memory_id) VALUES ('p', 2, 2) RETURNING id`).Scan(&project); err != nil {
				t.Fatal(err)
			}
			at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
			for _, q := range []string{
				`INSERT INTO tasks (project_id, id, position, num, title, body, created_at, updated_at) VALUES ($1, 1, 1, 1, 'Old task', 'kept', $2, $2)`,
				`INSERT INTO memory_entries (project_id, id, uid, type, title, content, search_body, details, created_at, updated_at)
				VALUES ($1, 1, 'u1', 'decision', 'Keep the journal in WAL mode', 'readers never block', 'readers never block', '{"rationale":"concurrency"}', $2, $2)`,
			} {
				if _, err := pool.Exec(ctx, q, project, at); err != nil {
					t.Fatal(err)
				}
			}
			before := schemaRows(t, ctx, pool)

			s, err := Open(ctx, url, Options{Project: "p"})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			after := schemaRows(t, ctx, pool)
			if d := cmp.Diff(before, after[:len(before)]); d != "" {
				t.Errorf("the versions recorded before changed (-before +after):\n%s", d)
			}
			var names []string
			for _, r := range after {
				names = append(names, fmt.Sprint(r.Version, " ", r.Name))
			}
			var want []string
			for _, m := range ms {
				want = append(want, fmt.Sprint(m.Version, " ", m.Name))
			}
			if d := cmp.Diff(want, names); d != "" {
				t.Errorf("versions recorded after opening (-want +got):\n%s", d)
			}
			storetest.CheckUpgraded(t, s, "kept")
		})
	}
}
