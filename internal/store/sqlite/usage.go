package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/usage"
)

const (
	qAddUsage = `INSERT INTO usage_events (at, kind, name, toolset, agent, session_id, client, client_version, model, duration_us, outcome, bytes, subject)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	qDeleteUsage = `DELETE FROM usage_events WHERE at < ?`
	qUsageDay    = `SELECT count, duration_us, bytes, hist FROM usage_days
		WHERE day = ? AND kind = ? AND name = ? AND toolset = ? AND agent = ? AND client = ? AND model = ? AND outcome = ?`
	qSetUsageDay = `INSERT INTO usage_days (day, kind, name, toolset, agent, client, model, outcome, count, duration_us, bytes, hist)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (day, kind, name, toolset, agent, client, model, outcome) DO UPDATE SET
			count = excluded.count, duration_us = excluded.duration_us, bytes = excluded.bytes, hist = excluded.hist`
)

// usageRows is how many events one INSERT writes: a statement a row cost
// the recorder most of its time.
const usageRows = 64

// qAddUsageRows is the INSERT of usageRows events.
var qAddUsageRows = qAddUsage + strings.Repeat(", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", usageRows-1)

func (x *txn) AddUsage(ctx context.Context, es []usage.Event) error {
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

func (x *txn) UsageEvents(ctx context.Context, q store.UsageQuery) ([]usage.Event, error) {
	w := sq.Where("")
	rows, err := x.queryBuilt(ctx, sqlq.UsageEvents(w, q), w.Args...)
	if err != nil {
		return nil, fmt.Errorf("read usage: %w", err)
	}
	defer rows.Close()
	var out []usage.Event
	for rows.Next() {
		var (
			e      usage.Event
			at, us int64
			kind   string
		)
		if err := rows.Scan(&at, &kind, &e.Name, &e.Toolset, &e.Agent, &e.Session, &e.Client, &e.ClientVersion, &e.Model, &us, &e.Outcome, &e.Bytes, &e.Subject); err != nil {
			return nil, fmt.Errorf("read usage: %w", err)
		}
		e.At, e.Kind, e.Duration = time.UnixMicro(at).UTC(), usage.Kind(kind), time.Duration(us)*time.Microsecond
		out = append(out, e)
	}
	return out, rows.Err()
}

func (x *txn) DeleteUsage(ctx context.Context, before time.Time) (int, error) {
	res, err := x.exec(ctx, qDeleteUsage, micros(before))
	if err != nil {
		return 0, fmt.Errorf("delete usage: %w", err)
	}
	n, _ := res.RowsAffected()
	return int(n), nil
}

func (x *txn) AddUsageDays(ctx context.Context, ds []usage.Day) error {
	for _, d := range ds {
		k := d.Key
		args := []any{micros(d.Day), string(k.Kind), k.Name, k.Toolset, k.Agent, k.Client, k.Model, k.Outcome}
		var (
			n       int
			us, b   int64
			histStr string
		)
		switch err := x.queryRow(ctx, qUsageDay, args...).Scan(&n, &us, &b, &histStr); {
		case err == nil:
			h := usage.ParseHist(histStr)
			h.Merge(d.Hist)
			d.Count, d.Duration, d.Bytes, d.Hist = d.Count+n, d.Duration+time.Duration(us)*time.Microsecond, d.Bytes+b, h
		case !isNoRows(err):
			return fmt.Errorf("read usage day: %w", err)
		}
		if _, err := x.exec(ctx, qSetUsageDay, append(args, d.Count, d.Duration.Microseconds(), d.Bytes, d.Hist.String())...); err != nil {
			return fmt.Errorf("save usage day: %w", err)
		}
	}
	return nil
}

func (x *txn) UsageDays(ctx context.Context, q store.UsageQuery) ([]usage.Day, error) {
	w := sq.Where("")
	rows, err := x.queryBuilt(ctx, sqlq.UsageDays(w, q), w.Args...)
	if err != nil {
		return nil, fmt.Errorf("read usage days: %w", err)
	}
	defer rows.Close()
	var out []usage.Day
	for rows.Next() {
		var (
			d        usage.Day
			day, us  int64
			kind, hs string
		)
		if err := rows.Scan(&day, &kind, &d.Name, &d.Toolset, &d.Agent, &d.Client, &d.Model, &d.Outcome, &d.Count, &us, &d.Bytes, &hs); err != nil {
			return nil, fmt.Errorf("read usage days: %w", err)
		}
		d.Day, d.Kind, d.Duration, d.Hist = time.UnixMicro(day).UTC(), usage.Kind(kind), time.Duration(us)*time.Microsecond, usage.ParseHist(hs)
		out = append(out, d)
	}
	return out, rows.Err()
}

func isNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }
