package postgres

import (
	"context"
	"fmt"
	"time"

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
)

// Usage rows change no state a cache or a board shows: their writes do not
// bump the store's version.
func (x *txn) WriteUsage(ctx context.Context, w store.UsageWrite) (int, error) {
	return sqlq.WriteUsage(ctx, conn{x}, x.p, w, func(es []usage.Event) error { return x.addUsage(ctx, es) })
}

func (x *txn) addUsage(ctx context.Context, es []usage.Event) error {
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

func (x *txn) Usage(ctx context.Context, q store.UsageQuery) ([]usage.Event, []usage.Day, error) {
	return sqlq.ReadUsage(ctx, conn{x}, q)
}
