package tasks

import (
	"context"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// Ahead names the reads the service is about to make in tx (see
// store.Tx.ReadAhead).
func Ahead(ctx context.Context, tx store.Tx, reads ...store.Read) {
	tx.ReadAhead(ctx, reads...)
}

// aheadTasks is ahead for store.Task of each of ids.
func aheadTasks(ctx context.Context, tx store.Tx, ids []task.ID) {
	if len(ids) == 0 {
		return
	}
	reads := make([]store.Read, len(ids))
	for i, id := range ids {
		reads[i] = store.Read{Of: store.ReadTask, ID: id}
	}
	Ahead(ctx, tx, reads...)
}
