// Package postgres is Cairn's team store: many projects in one PostgreSQL
// database, on pgx v5 (pgxpool), for several Cairn processes at once.
//
// Every row is keyed by its project. Update begins READ COMMITTED and takes
// a transaction-scoped advisory lock on the project before fn runs, so every
// writer of a project, in any process, runs one at a time and each statement
// sees the writes committed before the lock was granted. View runs REPEATABLE
// READ READ ONLY: one snapshot. A transaction that changed something bumps
// its project's version counter (Version reads it) and NOTIFYs the project
// on one channel; each DB's listener connection wakes the project's watchers
// (store.Store.Watch).
//
// pgx prepares each statement once per connection and reuses it (its
// statement cache); the queries name their project first so the indexes,
// all led by project_id, serve them.
package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/rank"
)

// Advisory lock keys: pg_advisory_xact_lock(lockSpace, project id) holds a
// project's write lock; (lockSpace, 0) the migration lock. Project ids start
// at 1, so the two never meet.
const (
	lockSpace     = 0x6361 // "ca"
	migrationLock = 0
	notifyChannel = "cairn_changes"
)

// writeSlots is how many of a store's writers may hold a pooled connection
// at once (see Update).
const writeSlots = 2

// Options tune Open.
type Options struct {
	// Project names the project to serve; a name not seen before is created.
	Project string
	// MaxConns bounds the connection pool; zero: pgxpool's default (the
	// larger of 4 and the number of CPUs).
	MaxConns int32
	// Logger receives the listener's reconnects; nil: slog.Default().
	Logger *slog.Logger
	// LockTimeout is how long a write waits for another's lock on the
	// project before it fails with store.ErrBusy, changing nothing;
	// default 10s, as SQLite's busy timeout.
	LockTimeout time.Duration
	// Upkeep is for a long-lived process (a server): it runs an upgrade's
	// re-index of a project's large memory in the background until it is
	// done (rank.Resume). A short-lived one leaves it to such a process.
	Upkeep bool
}

// DB is one pool on a Cairn database, shared by the projects it serves.
type DB struct {
	pool        *pgxpool.Pool
	log         *slog.Logger
	lis         *listener
	lockTimeout time.Duration
	upkeep      bool // Options.Upkeep
	// genericSearch: memory search plans its statements generically
	// whatever the connection's plan_cache_mode (see txn.MemoryIndex); false
	// when the URL sets plan_cache_mode or the server predates it.
	genericSearch bool
}

// OpenDB connects to the database at url (a PostgreSQL URL or key=value
// string) and brings its schema up to date. Several processes may open a
// database at once: migrations run under an advisory lock, each once.
func OpenDB(ctx context.Context, url string, opts Options) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open PostgreSQL database: the URL is not valid (want postgres://user@host:port/dbname): %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	if cfg.ConnConfig.RuntimeParams == nil {
		cfg.ConnConfig.RuntimeParams = map[string]string{}
	}
	if _, ok := cfg.ConnConfig.RuntimeParams["application_name"]; !ok {
		cfg.ConnConfig.RuntimeParams["application_name"] = "cairn"
	}
	_, ownPlans := cfg.ConnConfig.RuntimeParams["plan_cache_mode"] // the URL's choice stands
	if !ownPlans {
		cfg.AfterConnect = genericPlans
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open PostgreSQL database: %w", err)
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open PostgreSQL database %s: cannot connect (is the server up, and the URL right?): %w", where(cfg), err)
	}
	if err := upgrade(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open PostgreSQL database %s: %w", where(cfg), err)
	}
	db := &DB{pool: pool, log: log, lockTimeout: cmp.Or(opts.LockTimeout, 10*time.Second), upkeep: opts.Upkeep}
	if !ownPlans {
		var version int
		if err := pool.QueryRow(ctx, `SELECT current_setting('server_version_num')::int`).Scan(&version); err == nil {
			db.genericSearch = version >= 120000
		}
	}
	db.lis = newListener(cfg.ConnConfig, log)
	return db, nil
}

// genericPlans makes a new connection plan each of its prepared statements
// once (plan_cache_mode, PostgreSQL 12 and later; a URL that sets it keeps
// its own). The store's statements are short lookups by key, every one
// led by the project: with the default (auto) PostgreSQL judged several of
// them (a task's children, the claims, the ancestors) worth a custom plan
// on every call, so a call spent about as long planning as executing.
//
// Only once the tasks table has statistics (it has been analyzed): a
// generic plan is made once, on a connection's first use of a statement,
// and kept until the next ANALYZE of its tables, so one made on a new,
// still empty database would scan tables that have since grown (seq scans
// where an index serves). Until then, and on a server without the
// setting, the connection is used as it is.
func genericPlans(ctx context.Context, c *pgx.Conn) error {
	var analyzed bool
	err := c.QueryRow(ctx, `SELECT coalesce((SELECT last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL
		FROM pg_stat_user_tables WHERE relid = to_regclass('tasks')), false)`).Scan(&analyzed)
	if err != nil || !analyzed {
		return err
	}
	_, err = c.Exec(ctx, "SET plan_cache_mode = force_generic_plan")
	if pgCode(err) == "42704" { // undefined_object: a server before 12
		return nil
	}
	return err
}

// where names the server for messages, without credentials.
func where(cfg *pgxpool.Config) string {
	return fmt.Sprintf("%s:%d/%s", cfg.ConnConfig.Host, cfg.ConnConfig.Port, cfg.ConnConfig.Database)
}

// Close stops the listener and closes the pool.
func (db *DB) Close() error {
	db.lis.close()
	db.pool.Close()
	return nil
}

// Project returns the store of the project named name, creating the project
// if it does not exist yet. The store shares db's pool; closing it leaves db
// open.
func (db *DB) Project(ctx context.Context, name string) (*Store, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	if _, err := db.pool.Exec(ctx, `INSERT INTO projects (name) VALUES ($1) ON CONFLICT (name) DO NOTHING`, name); err != nil {
		return nil, fmt.Errorf("create project %q: %w", name, fault(err))
	}
	var id int64
	if err := db.pool.QueryRow(ctx, `SELECT id FROM projects WHERE name = $1`, name).Scan(&id); err != nil {
		return nil, fmt.Errorf("read project %q: %w", name, err)
	}
	st := &Store{db: db, project: id, name: name, writer: make(chan struct{}, writeSlots),
		// The statements that open a write: BEGIN, and the project's lock
		// taken under the lock timeout (it bounds the wait for another
		// writer: the advisory lock, and any row lock after it). The
		// timeout is set in the lock's own statement, by its WHERE, which
		// PostgreSQL evaluates before the lock is asked for (a one-time
		// filter): one statement fewer per write than a SET LOCAL of its
		// own. The re-index on upgrade opens without a timeout (beginWait).
		beginWrite: []queued{
			{sql: "BEGIN ISOLATION LEVEL READ COMMITTED"},
			{sql: "SELECT pg_advisory_xact_lock($1, $2) WHERE set_config('lock_timeout', $3, true) IS NOT NULL",
				args: []any{int32(lockSpace), int32(id), strconv.FormatInt(max(db.lockTimeout.Milliseconds(), 1), 10)}},
		},
		beginWait: []queued{
			{sql: "BEGIN ISOLATION LEVEL READ COMMITTED"},
			{sql: "SELECT pg_advisory_xact_lock($1, $2)", args: []any{int32(lockSpace), int32(id)}},
		},
		// Simple-protocol text (to go before COMMIT, no parameters): the
		// project id is an integer from the database, formatted here. The
		// notification is the bump's RETURNING: one statement, not two.
		bump: fmt.Sprintf("UPDATE projects SET version = version + 1 WHERE id = %d RETURNING pg_notify('%s', '%d')",
			id, notifyChannel, id),
		// The same as a statement of its own, for a batch.
		bumpBatch: []queued{
			{sql: "UPDATE projects SET version = version + 1 WHERE id = $1 RETURNING pg_notify($2, $3)",
				args: []any{id, notifyChannel, strconv.FormatInt(id, 10)}},
		},
	}
	if err := st.reindexMemory(ctx); err != nil {
		return nil, fmt.Errorf("open project %q: %w", name, err)
	}
	return st, nil
}

// reindexMemory rebuilds the project's memory search index if another
// analyzer built it: a small memory at once, a large one in the background
// (rank.Resume), which upkeep starts or resumes.
func (st *Store) reindexMemory(ctx context.Context) error {
	var (
		analyzer int32
		through  *int64
		entries  int
	)
	if err := st.db.pool.QueryRow(ctx, `SELECT memory_analyzer, memory_rebuilt_to,
		CASE WHEN memory_analyzer <> $2 OR memory_rebuilt_to IS NOT NULL THEN (SELECT count(*) FROM memory_entries WHERE project_id = $1) ELSE 0 END
		FROM projects WHERE id = $1`, st.project, memory.AnalyzerVersion).Scan(&analyzer, &through, &entries); err != nil {
		return fmt.Errorf("read memory index: %w", err)
	}
	// Not cancelled with the call that opened the project: a client
	// giving up must not throw a re-index away (see sqlite).
	ctx = context.WithoutCancel(ctx)
	log := st.db.log
	if int(analyzer) != memory.AnalyzerVersion {
		// Nor bounded by the lock timeout: another process may be a
		// while into the same work, and this one waits for it.
		if entries <= rank.BackgroundAbove {
			return fault(st.run(ctx, func(tx store.Tx) error { return tx.(*txn).reindex(ctx, log) }, st.beginWait, false))
		}
		if err := fault(st.run(ctx, func(tx store.Tx) error { return tx.(*txn).startReindex(ctx) }, st.beginWait, false)); err != nil {
			return err
		}
		through = new(int64)
		log.Warn("rebuilding the memory search index for this version of Cairn in the background; searches find the entries indexed so far and say how many are not yet",
			"project", st.name, "entries", entries, "analyzer", memory.AnalyzerVersion, "was", analyzer, "here", st.db.upkeep)
	}
	if through == nil || !st.db.upkeep {
		return nil
	}
	bg, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		rank.Resume(bg, log.With("project", st.name), entries, func(ctx context.Context) (through memory.ID, complete bool, err error) {
			err = st.Update(ctx, func(tx store.Tx) (err error) {
				through, complete, err = tx.(*txn).reindexStep(ctx)
				return err
			})
			return through, complete, err
		})
	}()
	st.upkeepDone = done
	st.stopUpkeep = func() { cancel(); <-done }
	return nil
}

func checkName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return errors.New("postgres: the project name is empty: set Options.Project (cairn uses the project directory's name)")
	case len(name) > 200:
		return fmt.Errorf("postgres: the project name is %d bytes long; at most 200", len(name))
	case strings.ContainsRune(name, 0):
		return errors.New("postgres: the project name contains a NUL byte")
	}
	return nil
}

// Store is one project's store.Store in a PostgreSQL database.
type Store struct {
	db      *DB
	owned   bool         // Close closes db too (Open)
	release func() error // Close lets go of the shared db (OpenShared)
	project int64
	name    string
	// The statements that open a write (sent with its first statement),
	// and the one that records a change with COMMIT (Project): bump as
	// text, bumpBatch as a statement to go with writes sent late.
	beginWrite, beginWait []queued
	bump                  string
	bumpBatch             []queued

	writer chan struct{} // a slot for each of this store's writers holding a connection (Update)

	// stopUpkeep stops a background re-index and waits for it; nil: none.
	// upkeepDone is closed when it has ended.
	stopUpkeep func()
	upkeepDone chan struct{}

	mu     sync.Mutex
	closed bool
}

var (
	_ store.Store = (*Store)(nil)
)

// Open connects to url, migrates, and returns the store of opts.Project,
// which owns its pool: Close closes it.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	if err := checkName(opts.Project); err != nil {
		return nil, err
	}
	db, err := OpenDB(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	s, err := db.Project(ctx, opts.Project)
	if err != nil {
		db.Close()
		return nil, err
	}
	s.owned = true
	return s, nil
}

// Name returns the project's name.
func (s *Store) Name() string { return s.name }

// ProjectID returns the project's row id.
func (s *Store) ProjectID() int64 { return s.project }

func (s *Store) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Close implements store.Store.
func (s *Store) Close() error {
	if s.stopUpkeep != nil {
		s.stopUpkeep()
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	if s.owned {
		return s.db.Close()
	}
	if s.release != nil {
		return s.release()
	}
	return nil
}

// shared holds the pools OpenShared opened, by database URL.
var shared = struct {
	mu  sync.Mutex
	dbs map[string]*sharedDB
}{dbs: map[string]*sharedDB{}}

type sharedDB struct {
	db   *DB
	refs int // open stores on db
}

// OpenShared returns the store of opts.Project on the one pool this process
// keeps for url, opening (and migrating) it on first use: a server of many
// projects in one database holds one pool and one listener connection, not
// one of each per project. Each store is still scoped to its project.
// Closing a store lets go of the pool, which closes with the last store on
// it. Options other than Project come from the call that opened the pool.
func OpenShared(ctx context.Context, url string, opts Options) (*Store, error) {
	if err := checkName(opts.Project); err != nil {
		return nil, err
	}
	shared.mu.Lock()
	sd := shared.dbs[url]
	if sd == nil {
		db, err := OpenDB(ctx, url, opts)
		if err != nil {
			shared.mu.Unlock()
			return nil, err
		}
		sd = &sharedDB{db: db}
		shared.dbs[url] = sd
	}
	sd.refs++
	shared.mu.Unlock()
	release := func() error {
		shared.mu.Lock()
		defer shared.mu.Unlock()
		if sd.refs--; sd.refs > 0 {
			return nil
		}
		if shared.dbs[url] == sd {
			delete(shared.dbs, url)
		}
		return sd.db.Close()
	}
	s, err := sd.db.Project(ctx, opts.Project)
	if err != nil {
		release()
		return nil, err
	}
	s.release = release
	return s, nil
}

// View implements store.Store.
func (s *Store) View(ctx context.Context, fn func(store.Tx) error) error {
	return fault(s.run(ctx, fn, beginView, true))
}

// Update implements store.Store. It takes the project's lock before fn's
// first statement runs: BEGIN, the lock and that statement go in one round
// trip (see txConn), so the lock is held one round trip less per write.
//
// This store's writers first queue among themselves, without a connection,
// so that at most writeSlots of them hold one: were each to take a pooled
// connection and wait on the lock there, a few writers of a busy project
// would hold the whole pool while they wait, and reads (which need no lock)
// would wait behind them. Two slots: the writer at work, and the next one
// waiting on the lock with its connection in hand, so that the lock passes
// without a wait for the pool.
//
// The wait in that queue is bounded like the wait on the lock: past the
// lock timeout the write fails with store.ErrBusy, changing nothing.
func (s *Store) Update(ctx context.Context, fn func(store.Tx) error) error {
	select {
	case s.writer <- struct{}{}:
	default:
		t := time.NewTimer(s.db.lockTimeout)
		select {
		case s.writer <- struct{}{}:
			t.Stop()
		case <-t.C:
			return fmt.Errorf("%w (other writers of this project in this process held it for %s)", store.ErrBusy, s.db.lockTimeout)
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	defer func() { <-s.writer }()
	return fault(s.run(ctx, fn, s.beginWrite, false))
}

// fault turns PostgreSQL's storage failures (disk full, a read-only
// server or transaction, corrupt data) into a store.Fault that says
// what an operator must do; other errors pass unchanged.
func fault(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := problem.As(err); ok {
		return err
	}
	var problem, fix string
	switch pgCode(err) {
	case "55P03", "40P01", "40001": // lock_not_available (lock_timeout), deadlock_detected, serialization_failure
		return fmt.Errorf("%w (%v)", store.ErrBusy, err)
	case "53100": // disk_full
		problem = "the PostgreSQL server's disk is full; nothing was written"
		fix = "ask its operator to free space, then retry"
	case "25006": // read_only_sql_transaction
		problem = "the PostgreSQL server accepts no writes (a read-only replica, or default_transaction_read_only); nothing was written"
		fix = "point CAIRN_DATABASE_URL at the primary, or ask the operator to make the database writable; reads still work"
	case "XX001", "XX002": // data_corrupted, index_corrupted
		problem = "the PostgreSQL server reports corrupt data or a corrupt index"
		fix = "retrying will not help: ask its operator to check the database (REINDEX, or restore from a backup)"
	default:
		return err
	}
	return store.Fault(problem, fix, err)
}

// beginView opens a View.
var beginView = []queued{{sql: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"}}

// run runs fn in a transaction on a pooled connection. The statements
// that open it (begin) travel with fn's first statement, in one round trip,
// and the writes fn sent late (txn.later) with the next statement, or with
// the version bump, the notification and COMMIT (see txConn). A transaction
// that ran no statement sends nothing. A connection released while still
// in a transaction (a failed ROLLBACK, a cancelled query) is closed by the
// pool, never reused.
func (s *Store) run(ctx context.Context, fn func(store.Tx) error, begin []queued, view bool) error {
	if s.isClosed() {
		return store.ErrClosed
	}
	c, err := s.db.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer c.Release()
	tc := newTxConn(ctx, c, begin)
	x := &txn{tx: tc, p: s.project, snapshot: view, genericSearch: s.db.genericSearch}
	committed := false
	defer func() {
		if !committed && tc.begun {
			c.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		}
	}()
	// A write sent late that failed (txConn.failed) is the transaction's
	// error, whatever fn made of the statement that carried it.
	lost := func(err error) error {
		if tc.failed != nil {
			return tc.failed
		}
		return err
	}
	if err := fn(x); err != nil || tc.failed != nil {
		return lost(err)
	}
	if !tc.begun && len(tc.pending) == tc.opening {
		return nil // fn ran no statement: no transaction was opened
	}
	if err := x.flushTerms(ctx); err != nil {
		return lost(fmt.Errorf("count memory terms: %w", err))
	}
	if len(tc.pending) == 0 {
		end := "COMMIT"
		if x.dirty && !x.bumped {
			end = s.bump + "; COMMIT"
		}
		t0 := time.Now()
		if _, err := c.Exec(ctx, end); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
		tc.trip(t0)
		committed = true
		s.logWrite(ctx, tc, view)
		return nil
	}
	// Writes sent late go with the version bump and COMMIT: one round trip.
	// What is pending may also be reads sent ahead and never asked for
	// (ReadAhead), which change nothing: no bump for those alone; nor
	// for writes that bumped the version themselves (txn.bumped).
	if x.dirty && !x.bumped {
		for _, q := range s.bumpBatch {
			tc.later(q.sql, q.args, func(_ pgconn.CommandTag, err error) error { return err })
		}
	}
	br, err := tc.send(ctx, "COMMIT", nil)
	if err != nil {
		return lost(err)
	}
	if _, err := br.Exec(); err != nil {
		br.Close()
		return fmt.Errorf("commit: %w", err)
	}
	if err := br.Close(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	committed = true
	s.logWrite(ctx, tc, view)
	return nil
}

// logWrite says at debug level how long a committed write held the
// project's lock: its round trips to the server (the first, which took the
// lock, and COMMIT included), the time from the first's answer to COMMIT's,
// and how much of that was spent waiting on answers; the rest is the
// writer's own work in the process, between them.
//
// A View says its round trips ("postgres view").
func (s *Store) logWrite(ctx context.Context, tc *txConn, view bool) {
	if !s.db.log.Enabled(ctx, slog.LevelDebug) {
		return
	}
	if view {
		s.db.log.LogAttrs(ctx, slog.LevelDebug, "postgres view", slog.Int("round_trips", tc.trips))
		return
	}
	s.db.log.LogAttrs(ctx, slog.LevelDebug, "postgres write", slog.Int("round_trips", tc.trips),
		slog.Duration("held", time.Since(tc.granted)), slog.Duration("awaiting", tc.awaiting))
}

// Version implements store.Store: the project's change counter.
func (s *Store) Version(ctx context.Context) (uint64, error) {
	if s.isClosed() {
		return 0, store.ErrClosed
	}
	var v int64
	if err := s.db.pool.QueryRow(ctx, `SELECT version FROM projects WHERE id = $1`, s.project).Scan(&v); err != nil {
		return 0, fmt.Errorf("read version: %w", err)
	}
	return uint64(v), nil
}

// Watch implements store.Store.
func (s *Store) Watch(ctx context.Context) <-chan struct{} {
	return s.db.lis.watch(ctx, s.project)
}
