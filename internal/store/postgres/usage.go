package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/usage"
)

// Usage rows change no state a cache or a board shows: their writes do not
// bump the store's version.
const (
	qAddUsage = `INSERT INTO usage_events (project_id, at, kind, name, toolset, agent, session_id, client, client_version, model, duration_us, outcome, bytes, subject)
	SELECT $1, * FROM unnest($2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[], $9::text[], $10::text[],
		$11::bigint[], $12::text[], $13::bigint[], $14::text[])`
	qDeleteUsage = `DELETE FROM usage_events WHERE project_id = $1 AND at < $2`
	qUsageDay    = `SELECT count, duration_us, bytes, hist FROM usage_days
	WHERE project_id = $1 AND day = $2 AND kind = $3 AND name = $4 AND toolset = $5 AND agent = $6 AND client = $7 AND model = $8 AND outcome = $9`
	qSetUsageDay = `INSERT INTO usage_days (project_id, day, kind, name, toolset, agent, client, model, outcome, count, duration_us, bytes, hist)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
	ON CONFLICT (project_id, day, kind, name, toolset, agent, client, model, outcome) DO UPDATE SET
		count = excluded.count, duration_us = excluded.duration_us, bytes = excluded.bytes, hist = excluded.hist`
)

func (x *txn) AddUsage(ctx context.Context, es []usage.Event) error {
	if len(es) == 0 {
		return nil
	}
	n := len(es)
	var (
		at                                                 = make([]time.Time, n)
		kind, name, toolset, agent, client, version, model = make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		outcome, subject                                   = make([]string, n), make([]string, n)
		session, dur, bytes                                = make([]int64, n), make([]int64, n), make([]int64, n)
	)
	for i, e := range es {
		at[i], kind[i], name[i], toolset[i], agent[i] = ts(e.At), string(e.Kind), e.Name, e.Toolset, e.Agent
		session[i], client[i], version[i], model[i] = e.Session, e.Client, e.ClientVersion, e.Model
		dur[i], outcome[i], bytes[i], subject[i] = e.Duration.Microseconds(), e.Outcome, int64(e.Bytes), e.Subject
	}
	if _, err := x.tx.Exec(ctx, qAddUsage, x.p, at, kind, name, toolset, agent, session, client, version, model, dur, outcome, bytes, subject); err != nil {
		return fmt.Errorf("record usage: %w", err)
	}
	return nil
}

func (x *txn) UsageEvents(ctx context.Context, q store.UsageQuery) ([]usage.Event, error) {
	w := sq.Where("project_id = ?", x.p)
	rows, err := x.tx.Query(ctx, sqlq.UsageEvents(w, q), w.Args...)
	if err != nil {
		return nil, fmt.Errorf("read usage: %w", err)
	}
	defer rows.Close()
	var out []usage.Event
	for rows.Next() {
		var (
			e         usage.Event
			us, bytes int64
			kind      string
		)
		if err := rows.Scan(&e.At, &kind, &e.Name, &e.Toolset, &e.Agent, &e.Session, &e.Client, &e.ClientVersion, &e.Model, &us, &e.Outcome, &bytes, &e.Subject); err != nil {
			return nil, fmt.Errorf("read usage: %w", err)
		}
		e.At, e.Kind, e.Duration, e.Bytes = e.At.UTC(), usage.Kind(kind), time.Duration(us)*time.Microsecond, int(bytes)
		out = append(out, e)
	}
	return out, rows.Err()
}

func (x *txn) DeleteUsage(ctx context.Context, before time.Time) (int, error) {
	tag, err := x.tx.Exec(ctx, qDeleteUsage, x.p, ts(before))
	if err != nil {
		return 0, fmt.Errorf("delete usage: %w", err)
	}
	return int(tag.RowsAffected()), nil
}

func (x *txn) AddUsageDays(ctx context.Context, ds []usage.Day) error {
	for _, d := range ds {
		k := d.Key
		args := []any{x.p, ts(d.Day), string(k.Kind), k.Name, k.Toolset, k.Agent, k.Client, k.Model, k.Outcome}
		var (
			n, us, b int64
			hs       string
		)
		switch err := x.tx.QueryRow(ctx, qUsageDay, args...).Scan(&n, &us, &b, &hs); {
		case err == nil:
			h := usage.ParseHist(hs)
			h.Merge(d.Hist)
			d.Count, d.Duration, d.Bytes, d.Hist = d.Count+int(n), d.Duration+time.Duration(us)*time.Microsecond, d.Bytes+b, h
		case !errors.Is(err, pgx.ErrNoRows):
			return fmt.Errorf("read usage day: %w", err)
		}
		if _, err := x.tx.Exec(ctx, qSetUsageDay, append(args, int64(d.Count), d.Duration.Microseconds(), d.Bytes, d.Hist.String())...); err != nil {
			return fmt.Errorf("save usage day: %w", err)
		}
	}
	return nil
}

func (x *txn) UsageDays(ctx context.Context, q store.UsageQuery) ([]usage.Day, error) {
	w := sq.Where("project_id = ?", x.p)
	rows, err := x.tx.Query(ctx, sqlq.UsageDays(w, q), w.Args...)
	if err != nil {
		return nil, fmt.Errorf("read usage days: %w", err)
	}
	defer rows.Close()
	var out []usage.Day
	for rows.Next() {
		var (
			d        usage.Day
			n, us    int64
			kind, hs string
		)
		if err := rows.Scan(&d.Day, &kind, &d.Name, &d.Toolset, &d.Agent, &d.Client, &d.Model, &d.Outcome, &n, &us, &d.Bytes, &hs); err != nil {
			return nil, fmt.Errorf("read usage days: %w", err)
		}
		d.Day, d.Kind, d.Count, d.Duration, d.Hist = d.Day.UTC(), usage.Kind(kind), int(n), time.Duration(us)*time.Microsecond, usage.ParseHist(hs)
		out = append(out, d)
	}
	return out, rows.Err()
}
