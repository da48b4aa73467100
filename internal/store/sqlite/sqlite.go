// Package sqlite is Cairn's embedded store: one SQLite file per project, in
// WAL mode, on the pure-Go modernc.org/sqlite driver.
//
// Writes go through a single connection whose transactions begin IMMEDIATE,
// so a write transaction holds the database's write lock from its first
// statement and never fails halfway with SQLITE_BUSY on an upgrade; other
// processes wait for the lock up to the busy timeout. Reads use a small pool
// of read-only connections that see WAL snapshots and never block writers.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Sync is SQLite's synchronous setting in WAL mode.
type Sync string

const (
	// SyncNormal survives a killed process (every acknowledged write is in the
	// WAL, which the OS holds) but may lose the last transactions on power loss.
	SyncNormal Sync = "NORMAL"
	// SyncFull also fsyncs the WAL on every commit, surviving power loss, at
	// the cost of one fsync per write.
	SyncFull Sync = "FULL"
)

// Options tune how the database is opened.
type Options struct {
	Sync        Sync          // default SyncNormal
	BusyTimeout time.Duration // how long a writer waits for another's lock; default 10s
	ReadConns   int           // read-only pool size; default 4
}

// Store is a store.Store on one SQLite file.
type Store struct {
	path   string
	w      *sql.DB         // one connection, BEGIN IMMEDIATE
	r      *sql.DB         // read-only pool
	ws, rs *lazyStatements // prepared on w and r (stmts.go)
	v      *versioner
}

var _ store.Store = (*Store)(nil)

// Open opens (creating if needed) the database at path and brings its schema
// up to date.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("open database %s: the path may not contain '?' or '#'", path)
	}
	if opts.Sync == "" {
		opts.Sync = SyncNormal
	}
	if opts.Sync != SyncNormal && opts.Sync != SyncFull {
		return nil, fmt.Errorf("open database: synchronous must be NORMAL or FULL, not %q", opts.Sync)
	}
	if opts.BusyTimeout <= 0 {
		opts.BusyTimeout = 10 * time.Second
	}
	if opts.ReadConns <= 0 {
		opts.ReadConns = 4
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create database directory: %w", err)
	}
	dsn := func(txlock string, extra ...string) string {
		q := url.Values{}
		q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", opts.BusyTimeout.Milliseconds()))
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous("+string(opts.Sync)+")")
		q.Add("_pragma", "foreign_keys(1)")
		for _, p := range extra {
			q.Add("_pragma", p)
		}
		q.Set("_txlock", txlock)
		return path + "?" + q.Encode()
	}
	w, err := sql.Open("sqlite", dsn("immediate"))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := migrateRetrying(ctx, w, opts.BusyTimeout); err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn("deferred", "query_only(1)"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	r.SetMaxOpenConns(opts.ReadConns)
	r.SetMaxIdleConns(opts.ReadConns)
	r.SetConnMaxIdleTime(0)
	s := &Store{path: path, w: w, r: r,
		ws: newLazyStatements(w, readQueries, writeQueries, planReadQueries, planWriteQueries, loopReadQueries, loopWriteQueries, memoryReadQueries, memoryWriteQueries, claimReadQueries, claimWriteQueries),
		rs: newLazyStatements(r, readQueries, planReadQueries, loopReadQueries, memoryReadQueries, claimReadQueries),
		v:  &versioner{db: r},
	}
	if err := s.reindexMemory(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	return s, nil
}

// reindexMemory rebuilds memory search's index if another analyzer built
// it. Reading first keeps the usual open free of a write transaction.
func (s *Store) reindexMemory(ctx context.Context) error {
	var analyzer int
	if err := s.r.QueryRowContext(ctx, `SELECT analyzer FROM memory_index WHERE id = 1`).Scan(&analyzer); err != nil {
		return fmt.Errorf("read memory index: %w", err)
	}
	if analyzer == memory.AnalyzerVersion {
		return nil
	}
	return s.Update(ctx, func(tx store.Tx) error { return tx.(*txn).reindex(ctx) })
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes both pools.
func (s *Store) Close() error {
	return errors.Join(s.v.close(), s.rs.close(), s.ws.close(), s.r.Close(), s.w.Close())
}

// Version implements store.Store.
func (s *Store) Version(ctx context.Context) (uint64, error) { return s.v.version(ctx) }

// View implements store.Store.
func (s *Store) View(ctx context.Context, fn func(store.Tx) error) error {
	stmts := s.rs.get(ctx)
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("begin read: %w", err)
	}
	defer tx.Rollback()
	if err := fn(&txn{tx: tx, stmts: stmts}); err != nil {
		return err
	}
	return tx.Commit()
}

// Update implements store.Store.
func (s *Store) Update(ctx context.Context, fn func(store.Tx) error) error {
	stmts := s.ws.get(ctx)
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin write: %w", busy(err))
	}
	defer tx.Rollback()
	if err := fn(&txn{tx: tx, stmts: stmts}); err != nil {
		return busy(err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", busy(err))
	}
	return nil
}

// busy turns SQLITE_BUSY (another writer held the lock past the busy
// timeout) into store.ErrBusy, keeping the driver's error for the log.
func busy(err error) error {
	if isBusy(err) {
		return fmt.Errorf("%w (%v)", store.ErrBusy, err)
	}
	return err
}
