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
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/rank"
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
	// InitEmpty lets Open make a new store in an existing 0-byte file
	// (`cairn init` does); otherwise such a file is refused with
	// ErrEmptyDatabase.
	InitEmpty bool
	// Logger hears about long work on open (rebuilding memory search's
	// index after an upgrade); nil: slog.Default().
	Logger *slog.Logger
	// Upkeep is for a long-lived process (a server, the board): it runs
	// an upgrade's re-index of a large memory in the background until it
	// is done (rank.Resume). A short-lived one (a hook, the CLI) leaves
	// it to such a process; its searches say what is not indexed yet.
	Upkeep bool
	// OneShot is for a process that runs a few statements and exits (a
	// hook, a CLI command): the store prepares none ahead (a server
	// prepares every statement of a pool at its first transaction, which
	// was a fifth of a hook's time) and compiles each when it runs it.
	OneShot bool
}

// ErrEmptyDatabase is wrapped by Open's error for a database file that
// exists but is empty.
var ErrEmptyDatabase = errors.New("the database file is empty")

// Store is a store.Store on one SQLite file.
type Store struct {
	path   string
	short  string          // the database as messages name it (name)
	w      *sql.DB         // one connection, BEGIN IMMEDIATE
	r      *sql.DB         // read-only pool
	ws, rs *lazyStatements // prepared on w and r (stmts.go)
	ck     *checkpointer   // keeps the log bounded (wal.go)
	v      *versioner
	hub    watchHub // Watch's watchers and their one poller (watch.go)
	n      *counters
	// stopUpkeep stops a background re-index and waits for it; nil: none.
	// upkeepDone is closed when it has ended.
	stopUpkeep func()
	upkeepDone chan struct{}
}

// counters count what the store asks SQLite to do: statements run (a
// transaction's BEGIN and COMMIT not included) and transactions begun.
// Tests read them (Counters) to hold the read paths to their budget.
type counters struct{ stmts, txs atomic.Uint64 }

// Counters returns how many statements and transactions the store has run
// since it was opened: deterministic measures of what a call costs.
func (s *Store) Counters() (statements, transactions uint64) {
	return s.n.stmts.Load(), s.n.txs.Load()
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
	createAtomically(ctx, path)
	if !opts.InitEmpty {
		if err := CheckNotEmpty(path); err != nil {
			return nil, err
		}
	}
	w, err := sql.Open("sqlite", dsn(path, opts.BusyTimeout, opts.Sync, "immediate"))
	if err != nil {
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := migrateRetrying(ctx, w, opts.BusyTimeout); err != nil {
		w.Close()
		if f := fault(err, shortPath(path)); f != err {
			return nil, fmt.Errorf("open database %s: %w", path, f)
		}
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn(path, opts.BusyTimeout, opts.Sync, "deferred", "query_only(1)"))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	log := cmp.Or(opts.Logger, slog.Default())
	ck, err := newCheckpointer(path, opts.Sync, log)
	if err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	r.SetMaxOpenConns(opts.ReadConns)
	r.SetMaxIdleConns(opts.ReadConns)
	r.SetConnMaxIdleTime(0)
	s := &Store{path: path, short: shortPath(path), w: w, r: r, ck: ck,
		ws: newLazyStatements(w, readQueries, writeQueries, planReadQueries, planWriteQueries, loopReadQueries, loopWriteQueries, memoryReadQueries, memoryWriteQueries, sessionWriteQueries, claimReadQueries, claimWriteQueries, writePlanQueries()),
		rs: newLazyStatements(r, readQueries, planReadQueries, loopReadQueries, memoryReadQueries, claimReadQueries, readPlanQueries()),
		n:  &counters{},
	}
	s.ws.oneShot, s.rs.oneShot = opts.OneShot, opts.OneShot
	s.v = &versioner{db: r, n: s.n}
	if err := s.reindexMemory(ctx, log, opts.Upkeep); err != nil {
		s.Close()
		return nil, fmt.Errorf("open database %s: %w", path, err)
	}
	// A new store's migrations, or a log an older cairn let grow.
	s.ck.afterCommit(ctx)
	return s, nil
}

// dsn is the data source name of a connection to the database at path.
func dsn(path string, busyTimeout time.Duration, sync Sync, txlock string, extra ...string) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous("+string(sync)+")")
	q.Add("_pragma", "foreign_keys(1)")
	// The writer cuts the log file back to this when it starts the log
	// over (wal.go).
	q.Add("_pragma", fmt.Sprintf("journal_size_limit(%d)", journalSizeLimit))
	for _, p := range extra {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", txlock)
	return path + "?" + q.Encode()
}

// reindexMemory rebuilds memory search's index if another analyzer built
// it: a small memory at once, a large one in the background (rank.Resume),
// which upkeep starts or resumes. Reading first keeps the usual open free
// of a write transaction.
func (s *Store) reindexMemory(ctx context.Context, log *slog.Logger, upkeep bool) error {
	var (
		analyzer int
		through  sql.NullInt64
	)
	if err := s.r.QueryRowContext(ctx, `SELECT analyzer, rebuilt_to FROM memory_index WHERE id = 1`).Scan(&analyzer, &through); err != nil {
		return fmt.Errorf("read memory index: %w", err)
	}
	// Not cancelled with the call that opened the store: a client giving
	// up must not throw the work away, or every later call would start it
	// over.
	ctx = context.WithoutCancel(ctx)
	var entries int
	if analyzer != memory.AnalyzerVersion || through.Valid {
		if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM memory_entries`).Scan(&entries); err != nil {
			return fmt.Errorf("read memory index: %w", err)
		}
	}
	if analyzer != memory.AnalyzerVersion {
		if entries <= rank.BackgroundAbove {
			return s.Update(ctx, func(tx store.Tx) error { return tx.(*txn).reindex(ctx, log) })
		}
		if err := s.startReindex(ctx); err != nil {
			return fmt.Errorf("reset memory index: %w", err)
		}
		through.Valid = true
		log.Warn("rebuilding the memory search index for this version of Cairn in the background; searches find the entries indexed so far and say how many are not yet",
			"entries", entries, "analyzer", memory.AnalyzerVersion, "was", analyzer, "here", upkeep)
	}
	if !through.Valid || !upkeep {
		return nil
	}
	bg, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		rank.Resume(bg, log, entries, func(ctx context.Context) (through memory.ID, complete bool, err error) {
			err = s.Update(ctx, func(tx store.Tx) (err error) {
				through, complete, err = tx.(*txn).reindexStep(ctx)
				return err
			})
			return through, complete, err
		})
	}()
	s.upkeepDone = done
	s.stopUpkeep = func() { cancel(); <-done }
	return nil
}

// CheckNotEmpty refuses a database file that exists but is empty (see
// emptyFile), with what to do; a missing file or a real database passes.
// `cairn serve` calls it before it starts, so such a file stops it at once.
func CheckNotEmpty(path string) error {
	if !emptyFile(path) {
		return nil
	}
	fix := "if it was truncated or badly copied, restore it from a backup; to start a new store here, run `cairn init` in the project (or delete the file)"
	if walHasCommit(path + "-wal") {
		// SQLite would delete the log at the first open: say so before
		// anyone runs the command that does.
		fix = "its write-ahead log " + shortPath(path) + "-wal holds committed transactions, which SQLite deletes when it opens an empty database: copy that file somewhere safe first, then " + fix
	}
	return fmt.Errorf("open database %s: %w", path, store.Fault(
		"the database "+shortPath(path)+" is an empty file (0 bytes): it holds no Cairn data, and opening it would silently start a new store (ids from 1, no memory)",
		fix, ErrEmptyDatabase))
}

// emptyFile reports whether path is an existing database file with no
// data: 0 bytes, and no hot rollback journal beside it that SQLite would
// roll back into it (a transaction that shrank the file, interrupted). A
// write-ahead log does not count: SQLite deletes the log of a 0-byte
// database rather than replay it (TestSQLiteDiscardsTheLogOfAnEmptyDatabase),
// and the hooks leave -wal and -shm files beside every store, which used to
// excuse a truncated one. Cairn itself never leaves an empty database (see
// createAtomically): one is a truncated database, a bad copy or a stray touch.
func emptyFile(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || fi.Size() > 0 {
		return false
	}
	return !hotJournal(path + "-journal")
}

// applicationID marks a SQLite file as Cairn's ("CAIR").
const applicationID = 0x43414952

// createAtomically makes a new database at path, if there is none, by
// writing its header in a temporary file and linking it into place: a
// process killed while creating the store leaves either no file or a valid
// one, never the empty file that emptyFile refuses. Link fails if another
// process got there first, which is as good. Failures are left for Open to
// meet and report.
func createAtomically(ctx context.Context, path string) {
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return
	}
	// Named to match the .gitignore (*.db) should a kill leave it behind.
	f, err := os.CreateTemp(filepath.Dir(path), ".new-*-"+filepath.Base(path))
	if err != nil {
		return
	}
	tmp := f.Name()
	f.Close()
	defer os.Remove(tmp)
	db, err := sql.Open("sqlite", tmp)
	if err != nil {
		return
	}
	_, err = db.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", applicationID))
	if cerr := db.Close(); err != nil || cerr != nil {
		return
	}
	_ = os.Link(tmp, path)
}

// Path returns the database file's path.
func (s *Store) Path() string { return s.path }

// Close closes both pools. The last connection to the database in any
// process checkpoints the log and removes it.
func (s *Store) Close() error {
	if s.stopUpkeep != nil {
		s.stopUpkeep()
	}
	s.hub.close()
	return errors.Join(s.v.close(), s.rs.close(), s.ws.close(), s.ck.close(), s.r.Close(), s.w.Close())
}

// Version implements store.Store.
func (s *Store) Version(ctx context.Context) (uint64, error) { return s.v.version(ctx) }

// View implements store.Store.
func (s *Store) View(ctx context.Context, fn func(store.Tx) error) error {
	stmts := s.rs.get(ctx)
	if h := statementHook.Load(); h != nil {
		(*h)("BEGIN")
	}
	// A read waits for no lock: its BEGIN needs no watch either (see detach).
	tx, err := s.r.BeginTx(detach(ctx), &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fault(fmt.Errorf("begin read: %w", err), s.name())
	}
	defer tx.Rollback()
	s.n.txs.Add(1)
	x := &txn{tx: tx, stmts: stmts, lazy: s.rs, n: s.n}
	if err := cmp.Or(fn(x), x.failed); err != nil {
		return fault(err, s.name())
	}
	return fault(tx.Commit(), s.name())
}

// name is the database as messages name it: its last two path elements
// (.cairn/cairn.db), not where the project lives on the server.
func (s *Store) name() string { return s.short }

func shortPath(p string) string {
	return filepath.Join(filepath.Base(filepath.Dir(p)), filepath.Base(p))
}

// Update implements store.Store.
func (s *Store) Update(ctx context.Context, fn func(store.Tx) error) error {
	stmts := s.ws.get(ctx)
	if h := statementHook.Load(); h != nil {
		(*h)("BEGIN IMMEDIATE")
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fault(fmt.Errorf("begin write: %w", busy(err)), s.name())
	}
	defer tx.Rollback()
	s.n.txs.Add(1)
	x := &txn{tx: tx, stmts: stmts, lazy: s.ws, n: s.n}
	if err := cmp.Or(fn(x), x.failed); err != nil {
		return fault(busy(err), s.name())
	}
	if err := tx.Commit(); err != nil {
		return fault(fmt.Errorf("commit: %w", busy(err)), s.name())
	}
	s.hub.changed()
	s.ck.afterCommit(ctx)
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
