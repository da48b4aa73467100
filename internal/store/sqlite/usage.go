package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/usage"
)

const (
	qAddUsage = `INSERT INTO usage_events (at, kind, name, toolset, agent, session_id, client, client_version, model, duration_us, outcome, bytes, subject)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	qDeleteUsage = `DELETE FROM usage_events WHERE at < ?`
)

// usageRows is how many events one INSERT writes: a statement a row cost
// the recorder most of its time.
const usageRows = 64

// qAddUsageRows is the INSERT of usageRows events.
var qAddUsageRows = qAddUsage + strings.Repeat(", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", usageRows-1)

func (x *txn) WriteUsage(ctx context.Context, w store.UsageWrite) (int, error) {
	n := 0
	if !w.DeleteBefore.IsZero() {
		res, err := x.exec(ctx, qDeleteUsage, micros(w.DeleteBefore))
		if err != nil {
			return 0, fmt.Errorf("delete usage: %w", err)
		}
		k, _ := res.RowsAffected()
		n = int(k)
	}
	for _, d := range w.Days {
		var (
			count     int
			us, bytes int64
			hist      string
		)
		q := sq.Where("")
		switch err := x.queryRowBuilt(ctx, sqlq.UsageDay(q, d), q.Args...).Scan(&count, &us, &bytes, &hist); {
		case err == nil:
			d = sqlq.AddUsageDay(d, count, us, bytes, hist)
		case !errors.Is(err, sql.ErrNoRows):
			return 0, fmt.Errorf("read usage day: %w", err)
		}
		up, args := sqlq.UpsertUsageDay(sq, nil, d)
		x.wantBuilt(up)
		if _, err := x.exec(ctx, up, args...); err != nil {
			return 0, fmt.Errorf("save usage day: %w", err)
		}
	}
	return n, x.addUsage(ctx, w.Events)
}

func (x *txn) addUsage(ctx context.Context, es []usage.Event) error {
	args := make([]any, 0, 13*usageRows)
	for len(es) > 0 {
		n := len(es)
		q := qAddUsageRows
		if n >= usageRows {
			n = usageRows
		} else {
			q = qAddUsage + strings.Repeat(", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", n-1)
		}
		args = args[:0]
		for _, e := range es[:n] {
			args = append(args, micros(e.At), string(e.Kind), e.Name, e.Toolset, e.Agent, e.Session, e.Client, e.ClientVersion,
				e.Model, e.Duration.Microseconds(), e.Outcome, e.Bytes, e.Subject)
		}
		if _, err := x.exec(ctx, q, args...); err != nil {
			return fmt.Errorf("record usage: %w", err)
		}
		es = es[n:]
	}
	return nil
}

func (x *txn) Usage(ctx context.Context, q store.UsageQuery) ([]usage.Event, []usage.Day, error) {
	w := sq.Where("")
	rows, err := x.queryBuilt(ctx, sqlq.Usage(w, q), w.Args...)
	if err != nil {
		return nil, nil, fmt.Errorf("read usage: %w", err)
	}
	defer rows.Close()
	es, ds, err := sqlq.ScanUsage(rows, q.Days)
	if err != nil {
		return nil, nil, fmt.Errorf("read usage: %w", err)
	}
	return es, ds, nil
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
