package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// queued is a statement waiting to be sent.
type queued struct {
	sql  string
	args []any
	// done, for a write sent late (txConn.later), judges its result and
	// says what failed; nil for the statements that open a transaction.
	// It may only fail a write that PostgreSQL failed: the write may go in
	// one batch with COMMIT, which only PostgreSQL's failure stops.
	done func(pgconn.CommandTag, error) error
	// read, for a read sent ahead (txConn.read), takes its rows; what
	// names it in its errors.
	read func(pgx.Rows) error
	what string
}

// txConn runs a transaction's statements on its connection. Statements
// whose answer the caller does not wait for are not sent on their own: they
// wait in pending and go with the next statement, as one pipelined batch,
// saving a round trip each. They are the ones that open the transaction
// (BEGIN, and for a write the project's lock), and a write's statements
// that return nothing but success (later): a write holds the project's
// lock, so every round trip saved there is saved for every writer queued
// behind it.
type txConn struct {
	c       *pgxpool.Conn
	pending []queued
	opening int  // how many of pending open the transaction
	begun   bool // the transaction was opened: it must end
	// failed is the error of a write sent late: the transaction is lost,
	// whatever its caller makes of the statement that carried the write,
	// and run returns this error, not the caller's.
	failed error
	// ctx is the transaction's (View's or Update's): a batch that opens
	// it, the first statement's included, runs under it, so that the wait
	// for the lock is bounded by the Update's context as before.
	ctx context.Context
	// What a write's debug log says of it (Store.run): round trips made,
	// when the first (which takes a write's lock) came back, and the time
	// spent waiting on the later ones.
	trips    int
	granted  time.Time
	awaiting time.Duration
}

// trip counts a round trip that began at t0 and whose answer is in.
func (t *txConn) trip(t0 time.Time) {
	now := time.Now()
	if t.trips == 0 {
		t.granted = now
	} else {
		t.awaiting += now.Sub(t0)
	}
	t.trips++
}

// newTxConn returns the transaction on c that begin opens.
func newTxConn(ctx context.Context, c *pgxpool.Conn, begin []queued) *txConn {
	// A copy: later appends to it.
	return &txConn{c: c, pending: append([]queued(nil), begin...), opening: len(begin), ctx: ctx}
}

// later queues a write whose result the caller does not need at once, to
// go with the next statement (or COMMIT). done says what failed: its
// error fails the transaction (failed).
func (t *txConn) later(sql string, args []any, done func(pgconn.CommandTag, error) error) {
	t.pending = append(t.pending, queued{sql: sql, args: args, done: done})
}

// read queues a read to go with the next statement; fn takes its rows
// when they come. A failed read fails the transaction (failed), as a
// write sent late does; what names it in the error. A write whose rows
// are wanted may go this way too, if fn fails only where PostgreSQL did
// or the write changed nothing (see queued.done).
func (t *txConn) read(what, sql string, args []any, fn func(pgx.Rows) error) {
	t.pending = append(t.pending, queued{sql: sql, args: args, read: fn, what: what})
}

// flush sends the statements pending, on their own.
func (t *txConn) flush(ctx context.Context) error {
	if t.failed != nil {
		return t.lost()
	}
	if len(t.pending) == 0 {
		return nil
	}
	br, err := t.send(ctx, "", nil)
	if err != nil {
		return err
	}
	return br.Close()
}

// readRows hands the rows of q, a read in a batch, to its fn, failed ones
// too (pgx's rows then say why), so that fn may say what a failure means.
func readRows(br pgx.BatchResults, q queued) error {
	rows, err := br.Query()
	if rows != nil {
		if ferr := q.read(rows); ferr != nil {
			err = ferr
		}
		rows.Close()
		if err == nil {
			err = rows.Err()
		}
	}
	if err != nil {
		return fmt.Errorf("%s: %w", q.what, err)
	}
	return nil
}

// lost is what a statement returns once a write sent late has failed:
// not that write's error (the caller would take it for its own statement's,
// a read's NotFound for one), which run returns instead.
func (t *txConn) lost() error {
	return fmt.Errorf("the transaction failed at an earlier write: %v", t.failed)
}

// judge reads the results of the statements sent ahead of another in br.
// A failure closes br.
func (t *txConn) judge(br pgx.BatchResults, sent []queued, opening int) error {
	for i, q := range sent {
		if q.read != nil {
			if err := readRows(br, q); err != nil {
				br.Close()
				t.failed = err
				return t.lost()
			}
			continue
		}
		tag, err := br.Exec()
		if i < opening {
			if err != nil {
				br.Close()
				return fmt.Errorf("begin: %w", err)
			}
			continue
		}
		if err := q.done(tag, err); err != nil {
			br.Close()
			t.failed = err
			return t.lost()
		}
	}
	return nil
}

// send sends the pending statements, with sql when it is not empty, and
// returns the batch with its results read up to sql's.
func (t *txConn) send(ctx context.Context, sql string, args []any) (pgx.BatchResults, error) {
	b := &pgx.Batch{}
	for _, q := range t.pending {
		b.Queue(q.sql, q.args...)
	}
	if sql != "" {
		b.Queue(sql, args...)
	}
	sent, opening := t.pending, t.opening
	t.pending, t.opening, t.begun = nil, 0, true
	if opening > 0 && t.ctx != nil {
		ctx = t.ctx
	}
	t0 := time.Now()
	br := t.c.SendBatch(ctx, b)
	err := t.judge(br, sent, opening)
	t.trip(t0) // the answers to sent are in
	if err != nil {
		return nil, err
	}
	return br, nil
}

func (t *txConn) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if t.failed != nil {
		return pgconn.CommandTag{}, t.lost()
	}
	if len(t.pending) == 0 {
		t0 := time.Now()
		defer t.trip(t0)
		return t.c.Exec(ctx, sql, args...)
	}
	br, err := t.send(ctx, sql, args)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	tag, err := br.Exec()
	return tag, errors.Join(err, br.Close())
}

func (t *txConn) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if t.failed != nil {
		return nil, t.lost()
	}
	if len(t.pending) == 0 {
		t0 := time.Now()
		defer t.trip(t0)
		return t.c.Query(ctx, sql, args...)
	}
	br, err := t.send(ctx, sql, args)
	if err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		br.Close()
		return nil, err
	}
	return &batchRows{Rows: rows, br: br}, nil
}

func (t *txConn) QueryRow(ctx context.Context, sql string, args ...any) pgx.Row {
	if t.failed == nil && len(t.pending) == 0 {
		t0 := time.Now()
		defer t.trip(t0)
		return t.c.QueryRow(ctx, sql, args...)
	}
	rows, err := t.Query(ctx, sql, args...)
	return &firstRow{rows: rows, err: err}
}

// batchRows are the rows of a batch's last statement; closing them ends
// the batch, and so does reading past the last row, as with pgx's own
// rows: the connection is free for the next statement once Next says no
// more (a count read after an empty page needs it).
type batchRows struct {
	pgx.Rows
	br     pgx.BatchResults
	closed bool
	err    error // ending the batch
}

func (r *batchRows) Next() bool {
	if r.Rows.Next() {
		return true
	}
	r.Close()
	return false
}

func (r *batchRows) Close() {
	if r.closed {
		return
	}
	r.closed = true
	r.Rows.Close()
	r.err = r.br.Close()
}

func (r *batchRows) Err() error {
	if err := r.Rows.Err(); err != nil {
		return err
	}
	return r.err
}

// firstRow is QueryRow over batched rows, with pgx.Row's meaning: the
// first row, or pgx.ErrNoRows.
type firstRow struct {
	rows pgx.Rows
	err  error
}

func (r *firstRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return pgx.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	r.rows.Close()
	return r.rows.Err()
}
