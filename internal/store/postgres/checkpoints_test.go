package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// TestCheckpointsNumberedPerProject: each project's loop checkpoints count
// from 1 (migration 0010), whether this cairn numbers them or an older
// one, still running through the migration, inserts without a number.
func TestCheckpointsNumberedPerProject(t *testing.T) {
	ctx := context.Background()
	url := freshSchema(t)
	now := time.Now()
	for _, project := range []string{"one", "two"} {
		s, err := Open(ctx, url, Options{Project: project})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		var ids []int64
		err = s.Update(ctx, func(tx store.Tx) error {
			lp, err := tx.CreateTask(ctx, task.New("loop", "", now), store.Placement{})
			if err != nil {
				return err
			}
			for range 2 {
				id, err := tx.AddCheckpoint(ctx, store.Checkpoint{TaskID: lp.ID, State: []byte("{}"), CreatedAt: now})
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// As an older cairn inserts: no number.
		var old int64
		if err := s.db.pool.QueryRow(ctx, `INSERT INTO loop_checkpoints (project_id, task_id, state, created_at)
			VALUES ($1, 1, '{}', now()) RETURNING id`, s.project).Scan(&old); err != nil {
			t.Fatal(err)
		}
		if ids[0] != 1 || ids[1] != 2 || old != 3 {
			t.Errorf("project %s numbered its checkpoints %v, then %d; want 1, 2, then 3", project, ids, old)
		}
	}
}
