package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"strconv"
	"time"

	sqlitedrv "modernc.org/sqlite"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/migrate"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// loadMigrations reads this store's migrations.
func loadMigrations() ([]migrate.Migration, error) { return migrate.Load(migrationFS, "migrations") }

// migrateRetrying connects the writer and migrates, retrying for up to
// timeout while SQLite answers SQLITE_BUSY.
//
// busy_timeout does not cover the one place this happens: the writer's first
// connection runs PRAGMA journal_mode=WAL, and on a new database that is still
// in rollback mode the pragma takes a read lock and then upgrades it to write
// the WAL flag into the header. SQLite never waits on such an upgrade (two
// upgraders would deadlock); it returns SQLITE_BUSY at once. So when several
// processes created the same store at once, one of them could fail to open it
// ("read schema version: database is locked"). Once the file is in WAL mode
// the pragma changes nothing and this does not loop.
func migrateRetrying(ctx context.Context, db *sql.DB, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for wait := time.Millisecond; ; wait = min(2*wait, 50*time.Millisecond) {
		err := upgrade(ctx, db)
		if err == nil || !isBusy(err) || time.Now().Add(wait).After(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return errors.Join(err, ctx.Err())
		case <-time.After(wait):
		}
	}
}

// SQLite result codes the store tells apart, and extended ones.
const (
	sqliteBusy       = 5
	sqliteConstraint = 19
	constraintFK     = sqliteConstraint | 3<<8
	constraintUnique = sqliteConstraint | 8<<8
)

// sqliteCode returns err's SQLite result code (extended), 0 for another error.
func sqliteCode(err error) int {
	if e, ok := errors.AsType[*sqlitedrv.Error](err); ok {
		return e.Code()
	}
	return 0
}

// SQLite primary result codes of storage faults.
const (
	sqliteReadOnly = 8
	sqliteIOErr    = 10
	sqliteCorrupt  = 11
	sqliteFull     = 13
	sqliteCantOpen = 14
	sqliteNotADB   = 26
)

// fault turns a storage failure (disk full, read-only, corrupt, I/O) into
// a store.Fault that says what a person must do; other errors pass
// unchanged. db names the database in the message without its full path
// (answers reach remote agents).
func fault(err error, db string) error {
	if err == nil {
		return nil
	}
	if _, ok := problem.As(err); ok {
		return err
	}
	var problem, fix string
	switch sqliteCode(err) & 0xff {
	case sqliteFull:
		problem = "the disk holding " + db + " is full; nothing was written"
		fix = "free space on that disk, then retry"
	case sqliteReadOnly:
		problem = "the database " + db + " is read-only (file permissions, or a read-only file system); nothing was written"
		fix = "make the file, its directory and its -wal and -shm files writable by the user running cairn, or remount the file system read-write; reads still work"
	case sqliteCorrupt, sqliteNotADB:
		problem = "the database " + db + " is corrupt, or is not a Cairn database"
		fix = "retrying will not help: stop every cairn process on it and restore the file from a backup (sqlite3's .recover can salvage what is left)"
	case sqliteIOErr:
		problem = "an I/O error on " + db + " (a failing disk, a full disk or a file system gone read-only)"
		fix = "check the disk and the file system, then retry"
	case sqliteCantOpen:
		problem = "cannot open " + db + " or its -wal/-shm files"
		fix = "check that the .cairn directory exists and is readable and writable by the user running cairn"
	default:
		return err
	}
	return store.Fault(problem, fix, err)
}

// isBusy reports whether err is SQLITE_BUSY (with any extended code).
func isBusy(err error) bool { return sqliteCode(err)&0xff == sqliteBusy }

// upgrade brings the schema up to date (see package migrate and dialect).
func upgrade(ctx context.Context, db *sql.DB) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	return migrateTo(ctx, db, ms)
}

// migrateTo applies ms, the migrations up to a version (all of them but in
// tests that build a database as an older Cairn left it).
func migrateTo(ctx context.Context, db *sql.DB, ms []migrate.Migration) error {
	return migrate.Run(ctx, dialect{db}, ms)
}

// dialect is the migration runner's SQLite. Applied versions are listed
// in cairn_schema, since the numbers are reserved per line of work and a
// migration may arrive after a higher one (a database from before that
// table has versions 1 to user_version). user_version holds the highest
// applied, so an older cairn refuses a newer database. The migration
// transaction begins IMMEDIATE (the writer's connections all do): several
// processes opening a new database at once apply each migration exactly
// once.
type dialect struct{ db *sql.DB }

func (d dialect) Applied(ctx context.Context) (map[int]bool, error) {
	return appliedMigrations(ctx, d.db)
}

// Begin makes the bookkeeping table, and fills it in for a database from
// before it.
func (d dialect) Begin(ctx context.Context) (migrate.Tx, error) {
	tx, err := d.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	applied, err := appliedMigrations(ctx, tx)
	if err == nil {
		err = recordSchema(ctx, tx, applied)
	}
	if err != nil {
		tx.Rollback()
		return nil, err
	}
	return migrationTx{tx}, nil
}

// recordSchema makes cairn_schema and records in it the versions applied
// (from user_version, in a database from before the table).
func recordSchema(ctx context.Context, tx *sql.Tx, applied map[int]bool) error {
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS cairn_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create the schema version table: %w", err)
	}
	for v := range applied {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO cairn_schema (version, name) VALUES (?, '')`, v); err != nil {
			return fmt.Errorf("record schema version: %w", err)
		}
	}
	return nil
}

type migrationTx struct{ tx *sql.Tx }

func (t migrationTx) Applied(ctx context.Context) (map[int]bool, error) {
	return appliedMigrations(ctx, t.tx)
}

func (t migrationTx) Apply(ctx context.Context, m migrate.Migration) error {
	if _, err := t.tx.ExecContext(ctx, m.SQL); err != nil {
		return err
	}
	if step := afterMigration[m.Version]; step != nil {
		if err := step(ctx, t.tx); err != nil {
			return err
		}
	}
	if _, err := t.tx.ExecContext(ctx, `INSERT OR IGNORE INTO cairn_schema (version, name) VALUES (?, ?)`, m.Version, m.Name); err != nil {
		return fmt.Errorf("record migration: %w", err)
	}
	return nil
}

func (t migrationTx) Commit(ctx context.Context, latest int) error {
	if _, err := t.tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", latest)); err != nil {
		return fmt.Errorf("set schema version: %w", err)
	}
	return t.tx.Commit()
}

func (t migrationTx) Rollback(context.Context) error { return t.tx.Rollback() }

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// appliedMigrations returns the versions applied to the database: those
// recorded (or 1 to user_version, before cairn_schema), but a placeholder
// recorded and never run (see placeholderMissed).
func appliedMigrations(ctx context.Context, q queryer) (map[int]bool, error) {
	applied, err := recordedMigrations(ctx, q)
	if err != nil {
		return nil, err
	}
	missed, err := placeholderMissed(ctx, q, applied)
	if missed {
		delete(applied, placeholder)
	}
	return applied, err
}

// recordedMigrations returns the versions the database records.
func recordedMigrations(ctx context.Context, q queryer) (map[int]bool, error) {
	var current, tables int
	if err := q.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return nil, fmt.Errorf("read schema version: %w", err)
	}
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'cairn_schema'`).Scan(&tables); err != nil {
		return nil, fmt.Errorf("read schema version: %w", err)
	}
	applied := map[int]bool{}
	if tables == 0 {
		for v := 1; v <= current; v++ {
			applied[v] = true
		}
		return applied, nil
	}
	rows, err := q.QueryContext(ctx, `SELECT version FROM cairn_schema`)
	if err != nil {
		return nil, fmt.Errorf("read schema versions: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, fmt.Errorf("read schema versions: %w", err)
		}
		applied[v] = true
	}
	return applied, rows.Err()
}

// SchemaID identifies this build's migrations (a hash of their files), so
// databases seeded and cached by a build with another schema (another work
// tree, an older commit) are never taken for this one's.
func SchemaID() string { return migrate.ID(migrationFS, "migrations") }

// afterMigration holds the steps SQL cannot do, run in the migration's
// transaction right after the migration of that version.
var afterMigration = map[int]func(context.Context, *sql.Tx) error{
	7: refingerprint,
}

// refingerprint recomputes every mistake's fingerprint with the current
// memory.Fingerprint. Two mistakes the new rules call the same stay two
// entries (nothing is merged behind anyone's back): the later one gets its
// id appended, and new recordings count on the earlier.
func refingerprint(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, title FROM memory_entries WHERE type = 'mistake' ORDER BY id`)
	if err != nil {
		return fmt.Errorf("read mistakes: %w", err)
	}
	type fp struct {
		id int64
		fp string
	}
	var fps []fp
	seen := map[string]bool{}
	for rows.Next() {
		var (
			id    int64
			title string
		)
		if err := rows.Scan(&id, &title); err != nil {
			rows.Close()
			return fmt.Errorf("read mistakes: %w", err)
		}
		f := memory.Fingerprint(title)
		if seen[f] {
			f += " #" + strconv.FormatInt(id, 10)
		}
		seen[f] = true
		fps = append(fps, fp{id, f})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read mistakes: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE memory_entries SET fingerprint = NULL WHERE fingerprint IS NOT NULL`); err != nil {
		return fmt.Errorf("clear fingerprints: %w", err)
	}
	st, err := tx.PrepareContext(ctx, `UPDATE memory_entries SET fingerprint = ? WHERE id = ?`)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, f := range fps {
		if _, err := st.ExecContext(ctx, f.fp, f.id); err != nil {
			return fmt.Errorf("fingerprint m%d: %w", f.id, err)
		}
	}
	return nil
}

// placeholder is the version that was for a while a placeholder (SELECT 1)
// while the memory details were on their branch: a database made then has
// it recorded but lacks the details column.
const placeholder = 7

// placeholderMissed reports whether the database has the placeholder
// recorded but never ran it.
func placeholderMissed(ctx context.Context, q queryer, recorded map[int]bool) (bool, error) {
	if !recorded[placeholder] {
		return false, nil
	}
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('memory_entries') WHERE name = 'details'`).Scan(&n); err != nil {
		return false, fmt.Errorf("read schema: %w", err)
	}
	return n == 0, nil
}
