package tasks

import (
	"context"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// LifecycleMark is a task's open lifecycle as lists show it.
type LifecycleMark struct {
	ID         int64
	Definition string
	Phase      string
}

// LifecycleMarks returns the open lifecycles of ids (all tasks when ids is
// nil), by task.
func LifecycleMarks(ctx context.Context, tx store.Tx, ids []task.ID) (map[task.ID]LifecycleMark, error) {
	if ids != nil && len(ids) == 0 {
		return nil, nil
	}
	ls, _, err := tx.Lifecycles(ctx, store.LifecycleQuery{Status: store.LifecycleOpen, Tasks: ids})
	if err != nil {
		return nil, err
	}
	return MarksOf(ls), nil
}
