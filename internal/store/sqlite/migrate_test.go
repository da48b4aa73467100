package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

func execAll(t *testing.T, path string, qs ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range qs {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
}

// A database from before cairn_schema (user_version counted the applied
// migrations, numbered without gaps) counts as having 1 to user_version,
// and none is applied twice. A migration the database lacks while it has
// higher ones (numbers are reserved per line of work, and lines land in any
// order) is applied all the same.
func TestMigrateRecordsAndFillsGaps(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	ms, _ := loadMigrations()

	execAll(t, path, `DROP TABLE cairn_schema`) // a database from before the table
	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	applied, err := appliedMigrations(ctx, s.w)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if !applied[m.Version] {
			t.Errorf("migration %s not recorded", m.Name)
		}
	}
	s.Close()

	// Migration 9 is missing, while later ones may be there.
	path = filepath.Join(t.TempDir(), "gap.db")
	if s, err = Open(ctx, path, Options{}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	execAll(t, path, `DELETE FROM cairn_schema WHERE version = 9`, `DROP TABLE claims`, `DROP TABLE lifecycles`)
	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.w.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name IN ('claims', 'lifecycles')`).Scan(&n); err != nil || n != 2 {
		t.Errorf("the missing migration's tables: %d, %v; want 2", n, err)
	}
	var v int
	s.w.QueryRow(`PRAGMA user_version`).Scan(&v)
	if v != ms[len(ms)-1].Version {
		t.Errorf("user_version = %d; want the highest applied, %d", v, ms[len(ms)-1].Version)
	}
}
