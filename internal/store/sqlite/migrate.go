package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	sqlitedrv "modernc.org/sqlite"

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
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %q: expected version %d", m.name, i+1)
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

// isBusy reports whether err is SQLITE_BUSY (with any extended code).
func isBusy(err error) bool { return sqliteCode(err)&0xff == sqliteBusy }

// migrate brings the schema up to date. It runs in one immediate transaction,
// so several processes opening a new database at once apply each migration
// exactly once, and a process killed halfway leaves the old schema intact.
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
	var current int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	missed, err := placeholderMissed(ctx, db, current, ms)
	if err != nil {
		return err
	}
	if current == len(ms) && missed == nil {
		return nil // the common case: no write lock taken
	}
	tx, err := db.BeginTx(ctx, nil) // the writer's connections begin IMMEDIATE
	if err != nil {
		return fmt.Errorf("begin migration: %w", err)
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, "PRAGMA user_version").Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if current > len(ms) {
		return fmt.Errorf("database schema version %d is newer than this cairn (%d): upgrade cairn", current, len(ms))
	}
	if missed, err = placeholderMissed(ctx, tx, current, ms); err != nil {
		return err
	}
	todo := ms[current:]
	if missed != nil {
		todo = append([]migration{*missed}, todo...)
	}
	for _, m := range todo {
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("apply migration %s: %w", m.name, err)
		}
		if fix := afterMigration[m.version]; fix != nil {
			if err := fix(ctx, tx); err != nil {
				return fmt.Errorf("apply migration %s: %w", m.name, err)
			}
		}
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", len(ms))); err != nil {
		return fmt.Errorf("set schema version: %w", err)
	}
	return tx.Commit()
}

// placeholderMissed returns migration 7 when the database is past it but
// never ran it: for a while version 7 was a placeholder (SELECT 1) while
// the memory details were on their branch, so a database made then is at
// version 8 without the details column. nil when nothing was missed.
func placeholderMissed(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, current int, ms []migration) (*migration, error) {
	const v = 7
	if current < v || len(ms) < v {
		return nil, nil
	}
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('memory_entries') WHERE name = 'details'`).Scan(&n); err != nil {
		return nil, fmt.Errorf("read schema: %w", err)
	}
	if n > 0 {
		return nil, nil
	}
	return &ms[v-1], nil
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
