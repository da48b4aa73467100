package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/migrate"
)

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
			err = s.View(ctx, func(tx store.Tx) error {
				tk, err := tx.Task(ctx, 1)
				if err != nil || tk.Title != "Old task" || tk.Body != "kept" {
					t.Errorf("task 1 = %+v, %v", tk, err)
				}
				r, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: "journal"})
				if err != nil {
					return err
				}
				if len(r.Hits) != 1 || r.Hits[0].Entry.ID != 1 {
					t.Errorf("search after opening: %+v", r)
				}
				es, err := tx.Memories(ctx, []memory.ID{1})
				if err != nil || len(es) != 1 || es[0].Rationale != "concurrency" {
					t.Errorf("m1 = %+v, %v", es, err)
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}
