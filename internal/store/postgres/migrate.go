package postgres

import (
	"context"
	"embed"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store/migrate"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// loadMigrations reads this store's migrations.
func loadMigrations() ([]migrate.Migration, error) { return migrate.Load(migrationFS, "migrations") }

// upgrade brings the schema up to date (see package migrate and dialect).
func upgrade(ctx context.Context, pool *pgxpool.Pool) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	return migrateTo(ctx, pool, ms)
}

// migrateTo applies ms, the migrations up to a version (all of them but in
// tests that build a database as an older Cairn left it).
func migrateTo(ctx context.Context, pool *pgxpool.Pool, ms []migrate.Migration) error {
	return migrate.Run(ctx, dialect{pool}, ms)
}

// dialect is the migration runner's PostgreSQL: applied versions are the
// rows of cairn_schema. The migration transaction first takes the
// migration advisory lock: when several processes start at once on a new
// database, one applies each migration and the others wait for it, then
// find nothing to do. DDL is transactional in PostgreSQL, so a process
// killed halfway leaves the old schema.
type dialect struct{ pool *pgxpool.Pool }

func (d dialect) Applied(ctx context.Context) (map[int]bool, error) {
	return appliedMigrations(ctx, d.pool)
}

func (d dialect) Begin(ctx context.Context) (migrate.Tx, error) {
	tx, err := d.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return nil, err
	}
	if err := recordSchema(ctx, tx); err != nil {
		tx.Rollback(context.WithoutCancel(ctx))
		return nil, err
	}
	return migrationTx{tx}, nil
}

// recordSchema takes the migration lock and makes cairn_schema.
func recordSchema(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2)`, int32(lockSpace), int32(migrationLock)); err != nil {
		return fmt.Errorf("take the migration lock: %w", err)
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS cairn_schema (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("create the schema version table: %w", err)
	}
	return nil
}

type migrationTx struct{ tx pgx.Tx }

func (t migrationTx) Applied(ctx context.Context) (map[int]bool, error) {
	return appliedMigrations(ctx, t.tx)
}

func (t migrationTx) Apply(ctx context.Context, m migrate.Migration) error {
	if _, err := t.tx.Exec(ctx, m.SQL); err != nil {
		return err
	}
	if step := afterMigration[m.Version]; step != nil {
		if err := step(ctx, t.tx); err != nil {
			return err
		}
	}
	if _, err := t.tx.Exec(ctx, `INSERT INTO cairn_schema (version, name) VALUES ($1, $2) ON CONFLICT (version) DO NOTHING`, m.Version, m.Name); err != nil {
		return fmt.Errorf("record migration: %w", err)
	}
	return nil
}

func (t migrationTx) Commit(ctx context.Context, _ int) error { return t.tx.Commit(ctx) }

func (t migrationTx) Rollback(ctx context.Context) error { return t.tx.Rollback(ctx) }

type queryer interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// appliedMigrations returns the versions recorded in cairn_schema, but a
// placeholder recorded and never run (see placeholderMissed).
func appliedMigrations(ctx context.Context, q queryer) (map[int]bool, error) {
	rows, err := q.Query(ctx, `SELECT version FROM cairn_schema`)
	if err != nil {
		return nil, fmt.Errorf("read schema versions: %w", err)
	}
	versions, err := pgx.CollectRows(rows, pgx.RowTo[int32])
	if err != nil {
		return nil, fmt.Errorf("read schema versions: %w", err)
	}
	applied := map[int]bool{}
	for _, v := range versions {
		applied[int(v)] = true
	}
	missed, err := placeholderMissed(ctx, q, applied)
	if missed {
		delete(applied, placeholder)
	}
	return applied, err
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

// placeholder is the version that was for a while a placeholder (SELECT 1)
// while the memory details were on their branch: a database made then has
// it recorded but lacks the details column.
const placeholder = 3

// placeholderMissed reports whether the database has the placeholder
// recorded but never ran it.
func placeholderMissed(ctx context.Context, q queryer, recorded map[int]bool) (bool, error) {
	if !recorded[placeholder] {
		return false, nil
	}
	var ok bool
	if err := q.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name = 'memory_entries' AND column_name = 'details')`).Scan(&ok); err != nil {
		return false, fmt.Errorf("read schema: %w", err)
	}
	return !ok, nil
}
