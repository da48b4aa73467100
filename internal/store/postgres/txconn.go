package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// queued is a statement waiting to be sent.
type queued struct {
	sql  string
	args []any
}

// txConn runs a transaction's statements on its connection. The statements
// that open the transaction (BEGIN, and for a write the project's lock) are
// not sent on their own: they wait in pending and go with the first
// statement, as one pipelined batch, saving a round trip per transaction
// (and, for a write, one while the lock is held).
type txConn struct {
	c       *pgxpool.Conn
	pending []queued // nil once sent
	// ctx is the transaction's (View's or Update's): the batch that opens
	// it, the first statement's included, runs under it, so that the wait
	// for the lock is bounded by the Update's context as before.
	ctx context.Context
}

var _ querier = (*txConn)(nil)

// open sends the pending statements with sql and returns the batch, its
// results read up to sql's.
func (t *txConn) open(ctx context.Context, sql string, args []any) (pgx.BatchResults, error) {
	b := &pgx.Batch{}
	for _, q := range t.pending {
		b.Queue(q.sql, q.args...)
	}
	b.Queue(sql, args...)
	n := len(t.pending)
	t.pending = nil
	if t.ctx != nil {
		ctx = t.ctx
	}
	br := t.c.SendBatch(ctx, b)
	for range n {
		if _, err := br.Exec(); err != nil {
			br.Close()
			return nil, fmt.Errorf("begin: %w", err)
		}
	}
	return br, nil
}

func (t *txConn) Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	if t.pending == nil {
		return t.c.Exec(ctx, sql, args...)
	}
	br, err := t.open(ctx, sql, args)
	if err != nil {
		return pgconn.CommandTag{}, err
	}
	tag, err := br.Exec()
	return tag, errors.Join(err, br.Close())
}

func (t *txConn) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	if t.pending == nil {
		return t.c.Query(ctx, sql, args...)
	}
	br, err := t.open(ctx, sql, args)
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
	if t.pending == nil {
		return t.c.QueryRow(ctx, sql, args...)
	}
	rows, err := t.Query(ctx, sql, args...)
	return &firstRow{rows: rows, err: err}
}

// batchRows are the rows of a batch's last statement; closing them ends
// the batch.
type batchRows struct {
	pgx.Rows
	br pgx.BatchResults
}

func (r *batchRows) Close() {
	r.Rows.Close()
	r.br.Close()
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
