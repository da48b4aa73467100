package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlq"
	"github.com/cairn-dev/cairn/internal/usage"
)

const (
	qAddUsage = `INSERT INTO usage_events (at, kind, name, toolset, agent, session_id, client, client_version, model, duration_us, outcome, bytes, subject)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
)

// usageRows is how many events one INSERT writes: a statement a row cost
// the recorder most of its time.
const usageRows = 64

// qAddUsageRows is the INSERT of usageRows events.
var qAddUsageRows = qAddUsage + strings.Repeat(", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", usageRows-1)

func (x *txn) WriteUsage(ctx context.Context, w store.UsageWrite) (int, error) {
	return sqlq.WriteUsage(ctx, conn{x}, nil, w, func(es []usage.Event) error { return x.addUsage(ctx, es) })
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
	return sqlq.ReadUsage(ctx, conn{x}, q)
}
