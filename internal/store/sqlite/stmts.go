package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
)

// Prepared statements. Parsing SQL was the largest cost of a call: the
// pure-Go SQLite parses a statement in tens of microseconds, and a tool call
// runs four to six. So each pool prepares every statement the store runs on
// its first transaction, and database/sql keeps a statement prepared on each
// connection it runs on (Tx.StmtContext reuses the connection's copy,
// preparing it there the first time): each connection parses each statement
// once. Preparing on first use rather than in Open keeps the work off a
// server's start, where it would compete with the client's handshake.

// statements are a pool's prepared statements by query text.
type statements map[string]*sql.Stmt

// prepare prepares queries on db.
func prepare(ctx context.Context, db *sql.DB, queries ...[]string) (statements, error) {
	st := make(statements)
	for _, qs := range queries {
		for _, q := range qs {
			s, err := db.PrepareContext(ctx, q)
			if err != nil {
				st.close()
				return nil, fmt.Errorf("prepare %q: %w", q, err)
			}
			st[q] = s
		}
	}
	return st, nil
}

func (st statements) close() error {
	var errs []error
	for _, s := range st {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// lazyStatements prepares a pool's statements on first use.
type lazyStatements struct {
	db      *sql.DB
	queries [][]string

	// oneShot: never prepare (Options.OneShot); every statement runs
	// unprepared, compiled when it runs, as a failed prepare's would.
	oneShot bool

	mu     sync.Mutex
	st     statements // replaced, never changed: transactions read it unlocked
	closed bool
	// wanted are built queries (see txn.queryBuilt) that ran unprepared,
	// to prepare before the next transaction; built counts those prepared
	// or wanted, at most maxBuilt.
	wanted []string
	built  int
	made   int // statements prepared over the pool's life
}

// maxBuilt bounds the built queries a pool prepares: a handful of filter
// combinations make most lists, and odd ones must not grow the cache
// without end.
const maxBuilt = 64

func newLazyStatements(db *sql.DB, queries ...[]string) *lazyStatements {
	return &lazyStatements{db: db, queries: queries}
}

// get returns the prepared statements, preparing them if needed, with the
// built queries wanted since. It must be called outside any transaction: on
// the writer's single connection, a transaction holds the only connection a
// prepare could use. If preparing fails (the context ended, the database is
// busy) it returns nil, the transaction runs its statements unprepared, and
// the next one tries again; a built query that fails to prepare runs
// unprepared from then on.
func (l *lazyStatements) get(ctx context.Context) statements {
	if l.oneShot {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.st == nil && !l.closed {
		l.st, _ = prepare(ctx, l.db, l.queries...)
		l.made += len(l.st)
	}
	if len(l.wanted) > 0 && l.st != nil {
		st := make(statements, len(l.st)+len(l.wanted))
		for q, s := range l.st {
			st[q] = s
		}
		for _, q := range l.wanted {
			if s, err := l.db.PrepareContext(ctx, q); err == nil {
				st[q] = s
				l.made++
			}
		}
		l.st, l.wanted = st, nil
	}
	return l.st
}

// want asks for query, a built query that ran unprepared, to be prepared
// before the next transaction.
//
// It never waits for the lock: its caller may hold a pooled connection in
// a transaction, and get holds the lock while it prepares, which may wait
// for a free connection; with every connection held by callers waiting
// here, neither would move. A query not wanted now is wanted again the
// next time it runs unprepared.
func (l *lazyStatements) want(query string) {
	if l.oneShot || !l.mu.TryLock() {
		return
	}
	defer l.mu.Unlock()
	if l.closed || l.built >= maxBuilt || slices.Contains(l.wanted, query) {
		return
	}
	if _, ok := l.st[query]; ok {
		return // prepared since the caller's transaction began
	}
	l.wanted = append(l.wanted, query)
	l.built++
}

func (l *lazyStatements) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	err := l.st.close()
	l.st = nil
	return err
}

// readQueries are prepared on every connection; writeQueries only on the
// writer's.
var (
	readQueries = []string{qTask, qChildren, qChildrenBody, qOpenChildren, qLeftSibling, qLeftSiblingBody, qFocusedTask,
		qCountCompletion, qCompletionsAsc, qCompletionsDesc, qAncestors}
	writeQueries = []string{qPlaceAfter, qShiftRight, qInsertTaskLast, qInsertTaskAt, qInsertUnderFocus, qUpdateTask,
		qRemoveSubtree, qSetFocus, qArchive}
)

// statementHook, when set (by tests), is told of every statement a
// transaction runs.
var statementHook atomic.Pointer[func(query string)]

// stmt returns query's prepared statement on the transaction's connection,
// or nil if it has none. A statement is reused on its connection, so it must
// never run again while rows of it are open: every method of txn reads its
// rows to the end and closes them before it returns, and none calls another
// while it holds rows.
func (x *txn) stmt(ctx context.Context, query string) *sql.Stmt {
	if h := statementHook.Load(); h != nil {
		(*h)(query)
	}
	if s := x.stmts[query]; s != nil {
		return x.tx.StmtContext(ctx, s)
	}
	return nil
}

// detach is the context a statement runs with: ctx without its
// cancellation, once ctx is checked. The driver watches a cancellable
// context with a goroutine (and a progress handler) for each statement, a
// few percent of the server's CPU for statements that take microseconds; so
// a statement runs to its end, and a transaction whose caller gave up stops
// at its next statement, with ctx's error. A done ctx is passed on as it
// is, and the statement fails with its error at once. Waits for the write
// lock, in Update's BEGIN, still watch the caller's context.
func detach(ctx context.Context) context.Context {
	if ctx.Err() != nil {
		return ctx
	}
	return context.WithoutCancel(ctx)
}

func (x *txn) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	x.count()
	ctx = detach(ctx)
	if s := x.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return x.tx.QueryContext(ctx, query, args...)
}

// queryBuilt is query for a query whose text is built per call (from a
// request's filters, say): a text not yet prepared runs unprepared and is
// prepared for the next transaction (see lazyStatements.want). Like any
// prepared statement, it must not run again while rows of it are open.
func (x *txn) queryBuilt(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	x.wantBuilt(query)
	return x.query(ctx, query, args...)
}

func (x *txn) queryRowBuilt(ctx context.Context, query string, args ...any) *sql.Row {
	x.wantBuilt(query)
	return x.queryRow(ctx, query, args...)
}

func (x *txn) wantBuilt(query string) {
	if _, ok := x.stmts[query]; !ok && x.lazy != nil && x.stmts != nil {
		x.lazy.want(query)
	}
}

func (x *txn) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	x.count()
	ctx = detach(ctx)
	if s := x.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return x.tx.QueryRowContext(ctx, query, args...)
}

func (x *txn) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	x.count()
	ctx = detach(ctx)
	if s := x.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return x.tx.ExecContext(ctx, query, args...)
}

func (x *txn) count() {
	if x.n != nil {
		x.n.stmts.Add(1)
	}
}
