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

	"github.com/cairn-dev/cairn/internal/memory"
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
	return migrateTo(ctx, pool, ms)
}

// migrateTo applies ms, the migrations up to a version (all of them but in
// tests that build a database as an older Cairn left it).
func migrateTo(ctx context.Context, pool *pgxpool.Pool, ms []migration) error {
	// The common case, an up-to-date schema, reads a few rows and takes no lock.
	if applied, err := appliedMigrations(ctx, pool); err == nil && pending(ms, applied) == nil {
		missed, err := placeholderMissed(ctx, pool, applied, ms)
		if err != nil {
			return err
		}
		if missed == nil {
			return nil
		}
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
	missed, err := placeholderMissed(ctx, tx, applied, ms)
	if err != nil {
		return err
	}
	if missed != nil { // recorded already: run it, record nothing
		if _, err := tx.Exec(ctx, missed.sql); err != nil {
			return fmt.Errorf("apply migration %s: %w", missed.name, err)
		}
		if err := afterMigration[missed.version](ctx, tx); err != nil {
			return fmt.Errorf("apply migration %s: %w", missed.name, err)
		}
	}
	for _, m := range pending(ms, applied) {
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
		if fix := afterMigration[m.version]; fix != nil {
			if err := fix(ctx, tx); err != nil {
				return fmt.Errorf("apply migration %s: %w", m.name, err)
			}
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

// afterMigration holds the steps SQL cannot do, run in the migration's
// transaction right after the migration of that version.
var afterMigration = map[int]func(context.Context, pgx.Tx) error{
	3: refingerprint,
}

// refingerprint recomputes every mistake's fingerprint with the current
// memory.Fingerprint. Two mistakes of a project the new rules call the same
// stay two entries (nothing is merged behind anyone's back): the later one
// gets its id appended, and new recordings count on the earlier.
func refingerprint(ctx context.Context, tx pgx.Tx) error {
	rows, err := tx.Query(ctx, `SELECT project_id, id, title FROM memory_entries WHERE type = 'mistake' ORDER BY project_id, id`)
	if err != nil {
		return fmt.Errorf("read mistakes: %w", err)
	}
	var projects, ids []int64
	var fps []string
	seen := map[string]bool{}
	for rows.Next() {
		var (
			p, id int64
			title string
		)
		if err := rows.Scan(&p, &id, &title); err != nil {
			rows.Close()
			return fmt.Errorf("read mistakes: %w", err)
		}
		f := memory.Fingerprint(title)
		key := strconv.FormatInt(p, 10) + " " + f
		if seen[key] {
			f += " #" + strconv.FormatInt(id, 10)
		}
		seen[key] = true
		projects, ids, fps = append(projects, p), append(ids, id), append(fps, f)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read mistakes: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE memory_entries SET fingerprint = NULL WHERE fingerprint IS NOT NULL`); err != nil {
		return fmt.Errorf("clear fingerprints: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE memory_entries e SET fingerprint = u.fp
		FROM unnest($1::bigint[], $2::bigint[], $3::text[]) AS u(p, id, fp) WHERE e.project_id = u.p AND e.id = u.id`, projects, ids, fps); err != nil {
		return fmt.Errorf("store fingerprints: %w", err)
	}
	return nil
}

// placeholderMissed returns migration 3 when the database has it recorded
// but never ran it: for a while version 3 was a placeholder (SELECT 1)
// while the memory details were on their branch, so a database made then
// lacks the details column. nil when nothing was missed.
func placeholderMissed(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, applied map[int]bool, ms []migration) (*migration, error) {
	const v = 3
	if !applied[v] {
		return nil, nil
	}
	var m *migration
	for i := range ms {
		if ms[i].version == v {
			m = &ms[i]
		}
	}
	if m == nil {
		return nil, nil
	}
	var ok bool
	if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = 'memory_entries' AND column_name = 'details')`).Scan(&ok); err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	if ok {
		return nil, nil
	}
	return m, nil
}
