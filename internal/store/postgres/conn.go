package postgres

import (
	"context"

	"github.com/cairn-dev/cairn/internal/store/sqlq"
)

// conn is the transaction as package sqlq's reads and writes run on it,
// on the project's rows.
type conn struct{ x *txn }

func (c conn) Where() *sqlq.Where { return sq.Where("project_id = ?", c.x.p) }

func (c conn) Query(ctx context.Context, q string, args ...any) (sqlq.RowSet, error) {
	rows, err := c.x.tx.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func (c conn) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := c.x.tx.Exec(ctx, q, args...)
	return tag.RowsAffected(), err
}

func (c conn) Changed() { c.x.changed() }
