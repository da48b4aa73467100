// Package migrate is Cairn's one migration runner: it brings a database's
// schema up to date from numbered SQL files, for every backend, over the
// small Dialect each backend implements (how it reads and records what it
// applied, and the lock that keeps concurrent processes from migrating at
// once).
//
// Each backend keeps its own files, in its package's migrations
// directory (NNNN_name.sql), rather than one directory of per-driver files
// under shared numbers: the numbers are recorded in the databases the
// backends made, and they differ (SQLite's 7 is PostgreSQL's 3).
package migrate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
)

// Migration is one numbered SQL file.
type Migration struct {
	Version int
	Name    string // the file's name, as the database records it
	SQL     string
}

// Dialect is what the runner needs of a database.
type Dialect interface {
	// Applied returns the versions the database has applied, without
	// taking the migration lock (a new database has none: an error here
	// sends the runner to Begin, which makes the bookkeeping). A version
	// recorded whose schema the database lacks is not applied.
	Applied(ctx context.Context) (map[int]bool, error)
	// Begin opens the migration transaction. It holds the lock that
	// serialises migrating processes, and the bookkeeping is ready to
	// record in.
	Begin(ctx context.Context) (Tx, error)
}

// Tx is the transaction every migration of a run is applied in: a process
// killed halfway leaves the schema as it was.
type Tx interface {
	// Applied is Dialect.Applied, as of the transaction.
	Applied(ctx context.Context) (map[int]bool, error)
	// Apply runs m's SQL and any step of the backend's own that must
	// follow it (data SQL cannot move), and records m as applied (a
	// version recorded already stays as it is).
	Apply(ctx context.Context, m Migration) error
	// Commit records that the database has every migration up to latest,
	// the highest this build knows, and commits.
	Commit(ctx context.Context, latest int) error
	// Rollback abandons the transaction; after Commit it does nothing.
	Rollback(ctx context.Context) error
}

// Run brings the database up to date: it applies, in version order, every
// one of ms not yet applied. Numbers are reserved per line of work, so a
// migration may arrive after a higher one: any not applied is, whatever
// the database's highest version. A database that has applied a version
// above ms's is refused, unless it has all of ms (then nothing runs).
func Run(ctx context.Context, d Dialect, ms []Migration) error {
	if len(ms) == 0 {
		return errors.New("no migrations")
	}
	// The common case, an up-to-date schema, reads a few rows and takes no lock.
	if applied, err := d.Applied(ctx); err == nil && len(Pending(ms, applied)) == 0 {
		return nil
	}
	tx, err := d.Begin(ctx)
	if err != nil {
		return fmt.Errorf("begin migration: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	applied, err := tx.Applied(ctx)
	if err != nil {
		return err
	}
	latest := ms[len(ms)-1].Version
	for v := range applied {
		if v > latest {
			return fmt.Errorf("database schema version %d is newer than this cairn (%d): upgrade cairn", v, latest)
		}
	}
	for _, m := range Pending(ms, applied) {
		if err := tx.Apply(ctx, m); err != nil {
			return fmt.Errorf("apply migration %s: %w", m.Name, err)
		}
	}
	return tx.Commit(ctx, latest)
}

// Pending returns the migrations of ms not applied, in order.
func Pending(ms []Migration, applied map[int]bool) []Migration {
	var out []Migration
	for _, m := range ms {
		if !applied[m.Version] {
			out = append(out, m)
		}
	}
	return out
}

// Load reads the migrations in fsys's directory dir (files NNNN_name.sql),
// in version order. Numbers are reserved per line of work, so a build may
// lack some (a gap is allowed); each number is used once.
func Load(fsys fs.FS, dir string) ([]Migration, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var ms []Migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %q: name must start with a number and '_'", e.Name())
		}
		b, err := fs.ReadFile(fsys, dir+"/"+e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, Migration{Version: v, Name: e.Name(), SQL: string(b)})
	}
	slices.SortStableFunc(ms, func(a, b Migration) int { return a.Version - b.Version })
	for i, m := range ms {
		if m.Version < 1 || (i > 0 && m.Version == ms[i-1].Version) {
			return nil, fmt.Errorf("migration %q: version %d is not a new positive number", m.Name, m.Version)
		}
	}
	return ms, nil
}

// ID identifies the migrations in fsys's directory dir (a hash of their
// files' names and contents), so that databases made by a build with
// another schema (another work tree, an older commit) are never taken for
// this one's.
func ID(fsys fs.FS, dir string) string {
	h := sha256.New()
	entries, _ := fs.ReadDir(fsys, dir)
	for _, e := range entries {
		b, _ := fs.ReadFile(fsys, dir+"/"+e.Name())
		h.Write([]byte(e.Name()))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)[:6])
}
