package service

import (
	"context"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// readAhead is offered by a store whose transactions can send several
// independent reads in one round trip (the PostgreSQL store's can): it
// sends the reads with its next statement and the calls of them that
// follow take their answers without a round trip of their own. A read sent
// ahead answers as the data is where it was queued, so the service names
// it after the writes it must see; the store drops the answers a write of
// the transaction made after them could have changed.
type readAhead interface {
	ReadAhead(ctx context.Context, reads ...store.Read)
}

// ahead names the reads the service is about to make in tx, for a store
// that can send them ahead; on another it does nothing.
func ahead(ctx context.Context, tx store.Tx, reads ...store.Read) {
	if ra, ok := tx.(readAhead); ok {
		ra.ReadAhead(ctx, reads...)
	}
}

// aheadTasks is ahead for Tx.Task of each of ids.
func aheadTasks(ctx context.Context, tx store.Tx, ids []task.ID) {
	if _, ok := tx.(readAhead); !ok || len(ids) == 0 {
		return
	}
	reads := make([]store.Read, len(ids))
	for i, id := range ids {
		reads[i] = store.Read{Of: store.ReadTask, ID: id}
	}
	ahead(ctx, tx, reads...)
}
