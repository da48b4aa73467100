package postgres

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
}

func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %q: name must start with a number and '_'", e.Name())
		}
		b, err := migrationFS.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	// Numbers are reserved per line of work, so a build may lack some (a gap
	// is allowed); each number is used once.
	for i, m := range ms {
		if m.version < 1 || (i > 0 && m.version == ms[i-1].version) {
			return nil, fmt.Errorf("migration %q: version %d is not a new positive number", m.name, m.version)
		}
	}
	return ms, nil
}

// migrate brings the schema up to date in one transaction that first takes
// the migration advisory lock: when several processes start at once on a new
// database, one applies each migration and the others wait for it, then find
// nothing to do. A process killed halfway leaves the old schema (DDL is
// transactional in PostgreSQL).
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	// The common case, an up-to-date schema, reads one row and takes no lock.
	if applied, err := appliedMigrations(ctx, pool); err == nil && pending(ms, applied) == nil {
		return nil
	}
	tx, err := pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return fmt.Errorf("begin migration: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, int32(lockSpace), int32(migrationLock)); err != nil {
		return fmt.Errorf("take the migration lock: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS cairn_schema (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("create the schema version table: %w", err)
	}
	applied, err := appliedMigrations(ctx, tx)
	if err != nil {
		return err
	}
	last := ms[len(ms)-1].version
	for v := range applied {
		if v > last {
			return fmt.Errorf("database schema version %d is newer than this cairn (%d): upgrade cairn", v, last)
		}
	}
	// Numbers are reserved per line of work: a migration may arrive after a
	// higher one, so every one not yet recorded is applied, in order.
	for _, m := range pending(ms, applied) {
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO cairn_schema (version, name) VALUES ($1, $2)`, m.version, m.name); err != nil {
			return fmt.Errorf("record migration %s: %w", m.name, err)
		}
	}
	return tx.Commit(ctx)
}

type queryer interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// appliedMigrations returns the versions recorded in cairn_schema.
func appliedMigrations(ctx context.Context, q queryer) (map[int]bool, error) {
	rows, err := q.Query(ctx, `SELECT version FROM cairn_schema`)
	if err != nil {
		return nil, fmt.Errorf("read schema versions: %w", err)
	}
	defer rows.Close()
	applied := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("read schema versions: %w", err)
		}
		applied[v] = true
	}
	return applied, rows.Err()
}

// pending returns the migrations not yet applied, in order.
func pending(ms []migration, applied map[int]bool) []migration {
	var out []migration
	for _, m := range ms {
		if !applied[m.version] {
			out = append(out, m)
		}
	}
	return out
}
