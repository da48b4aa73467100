package sqlite

import (
	"context"
	"database/sql"

	"github.com/cairn-dev/cairn/internal/store/sqlq"
)

// conn is the transaction as package sqlq's reads and writes run on it:
// a statement it builds is prepared for the next transaction (queryBuilt).
type conn struct{ x *txn }

func (c conn) Where() *sqlq.Where { return sq.Where("") }

func (c conn) Query(ctx context.Context, q string, args ...any) (sqlq.RowSet, error) {
	rows, err := c.x.queryBuilt(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

func (c conn) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	c.x.wantBuilt(q)
	res, err := c.x.exec(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }

func (c conn) Changed() {} // every commit moves SQLite's version
