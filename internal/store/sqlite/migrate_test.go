package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// A database from before cairn_schema (user_version counted the applied
// migrations, numbered without gaps) is brought up to date: what it has is
// recorded, what it lacks is applied, once.
func TestMigrateLegacyDatabase(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cairn.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	// Turn it into a database of a build that had migrations 1 to 6 only.
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := loadMigrations()
	for _, q := range []string{`DROP TABLE cairn_schema`, `DROP TABLE claims`, `DROP TABLE lifecycles`, `PRAGMA user_version = 6`} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	db.Close()

	s, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	applied, err := appliedMigrations(ctx, s.w)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if !applied[m.version] {
			t.Errorf("migration %s not recorded as applied", m.name)
		}
	}
	var n int
	if err := s.w.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name IN ('claims', 'lifecycles')`).Scan(&n); err != nil || n != 2 {
		t.Errorf("the missing migration's tables: %d, %v; want 2", n, err)
	}
	var v int
	s.w.QueryRow(`PRAGMA user_version`).Scan(&v)
	if v != ms[len(ms)-1].version {
		t.Errorf("user_version = %d; want the highest applied, %d", v, ms[len(ms)-1].version)
	}
}

// A migration numbered below one already applied (numbers are reserved per
// line of work, and lines land in any order) is applied all the same.
func TestPendingFillsGaps(t *testing.T) {
	ms := []migration{{version: 1}, {version: 2}, {version: 7}, {version: 9}}
	got := pending(ms, map[int]bool{1: true, 2: true, 9: true})
	if len(got) != 1 || got[0].version != 7 {
		t.Errorf("pending = %+v; want migration 7", got)
	}
}
