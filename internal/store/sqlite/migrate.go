package sqlite

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	sqlitedrv "modernc.org/sqlite"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
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
		err := migrate(ctx, db)
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

// migrate brings the schema up to date. It runs in one immediate transaction,
// so several processes opening a new database at once apply each migration
// exactly once, and a process killed halfway leaves the old schema intact.
//
// Applied versions are listed in cairn_schema, since the numbers are
// reserved per line of work and a migration may arrive after a higher one
// (a database from before that table has versions 1 to user_version).
// user_version holds the highest applied, so an older cairn refuses a newer
// database.
func migrate(ctx context.Context, db *sql.DB) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	return migrateTo(ctx, db, ms)
}

// migrateTo applies ms, the migrations up to a version (all of them but in
// tests that build a database as an older Cairn left it).
func migrateTo(ctx context.Context, db *sql.DB, ms []migration) error {
	if applied, err := appliedMigrations(ctx, db); err == nil && pending(ms, applied) == nil {
		missed, err := placeholderMissed(ctx, db, applied, ms)
		if err != nil {
			return err
		}
		if missed == nil {
			return nil // the common case: no write lock taken
		}
	}
	tx, err := db.BeginTx(ctx, nil) // the writer's connections begin IMMEDIATE
	if err != nil {
		return fmt.Errorf("begin migration: %w", err)
	}
	defer tx.Rollback()
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
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS cairn_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create the schema version table: %w", err)
	}
	for v := range applied { // a database from before the table
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO cairn_schema (version, name) VALUES (?, '')`, v); err != nil {
			return fmt.Errorf("record schema version: %w", err)
		}
	}
	missed, err := placeholderMissed(ctx, tx, applied, ms)
	if err != nil {
		return err
	}
	if missed != nil { // recorded already: run it, record nothing
		if _, err := tx.ExecContext(ctx, missed.sql); err != nil {
			return fmt.Errorf("apply migration %s: %w", missed.name, err)
		}
		if err := afterMigration[missed.version](ctx, tx); err != nil {
			return fmt.Errorf("apply migration %s: %w", missed.name, err)
		}
	}
	for _, m := range pending(ms, applied) {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
		if fix := afterMigration[m.version]; fix != nil {
			if err := fix(ctx, tx); err != nil {
				return fmt.Errorf("apply migration %s: %w", m.name, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO cairn_schema (version, name) VALUES (?, ?)`, m.version, m.name); err != nil {
			return fmt.Errorf("record migration %s: %w", m.name, err)
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", last)); err != nil {
		return fmt.Errorf("set schema version: %w", err)
	}
	return tx.Commit()
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// appliedMigrations returns the versions applied to the database.
func appliedMigrations(ctx context.Context, q queryer) (map[int]bool, error) {
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

// SchemaID identifies this build's migrations (a hash of their files), so
// databases seeded and cached by a build with another schema (another work
// tree, an older commit) are never taken for this one's.
func SchemaID() string {
	h := sha256.New()
	entries, _ := migrationFS.ReadDir("migrations")
	for _, e := range entries {
		b, _ := migrationFS.ReadFile("migrations/" + e.Name())
		h.Write([]byte(e.Name()))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}

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

// placeholderMissed returns migration 7 when the database has it recorded
// but never ran it: for a while version 7 was a placeholder (SELECT 1)
// while the memory details were on their branch, so a database made then
// lacks the details column. nil when nothing was missed.
func placeholderMissed(ctx context.Context, q queryer, applied map[int]bool, ms []migration) (*migration, error) {
	const v = 7
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
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('memory_entries') WHERE name = 'details'`).Scan(&n); err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	if n > 0 {
		return nil, nil
	}
	return m, nil
}
