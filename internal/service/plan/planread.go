package plan

import (
	"context"
	"fmt"

	"github.com/cairn-dev/cairn/internal/service/internal/tasks"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// resolveOnBoard is tasks.ResolveRef on a board: the same task, or the same
// error, as tasks.ResolveRef in the snapshot the board is of. The task has no
// body.
func resolveOnBoard(b *task.Board, r task.Ref) (task.Task, error) {
	t := b.Tasks.Get(r.ID)
	if t == nil {
		return task.Task{}, task.NotFound(r.ID)
	}
next:
	for _, n := range r.Path {
		for _, id := range b.Children[t.ID] {
			if c := b.Tasks.Get(id); c.Num == n {
				t = c
				continue next
			}
		}
		return task.Task{}, task.SubtaskNotFound(t.ID, n)
	}
	return *t, nil
}

// getRead is Get from one plan read: the task's body, claim, imports and
// open lifecycle with the board's changes since the cache, in one
// statement. A subtask reference ("12.3") is resolved on the cached board
// first, and again on the read's: should they differ (the plan changed
// in between), it is read again for the task the read's board names.
func (p *Plan) getRead(ctx context.Context, ref string) (Detail, error) {
	r, err := task.ParseRef(ref)
	if err != nil {
		return Detail{}, tasks.RefError(ref, "id")
	}
	id := r.ID
	if len(r.Path) > 0 {
		s, err := p.board.Load(ctx)
		if err != nil {
			return Detail{}, err
		}
		if t, err := resolveOnBoard(s.Board, r); err == nil {
			id = t.ID
		}
	}
	for range 3 {
		res, b, err := p.board.Read(ctx, store.PlanRead{Task: id})
		if err != nil {
			return Detail{}, err
		}
		t, err := resolveOnBoard(b, r)
		if err != nil {
			return Detail{}, err
		}
		if t.ID != id || !res.Found {
			id = t.ID // the plan tasks.Moved under the reference: read that task
			continue
		}
		t.Body = res.Body
		d := neighboursOnBoard(b, t)
		if res.Claim != nil && res.Claim.Live(p.now()) {
			d.Claim = res.Claim
		}
		if m, ok := tasks.MarksOf(res.Lifecycles)[t.ID]; ok {
			d.Lifecycle = &m
		}
		d.Imports = importRefs(res.Imports)
		return d, nil
	}
	return Detail{}, fmt.Errorf("task %s: the plan kept changing under the reference; retry", ref)
}

// listRead is List's page from one plan read, for a query the board can
// answer (onBoard).
func (p *Plan) listRead(ctx context.Context, sq store.Query) (TaskPage, error) {
	res, b, err := p.board.Read(ctx, store.PlanRead{Claims: true, Now: p.now(), Lifecycles: true})
	if err != nil {
		return TaskPage{}, err
	}
	out := TaskPage{Offset: sq.Offset}
	ts, total := queryBoard(b, sq)
	out.Total = total
	deps := depsOnBoard(b, ts)
	marks := tasks.MarksOf(res.Lifecycles)
	for _, t := range ts {
		out.Items = append(out.Items, item(t, deps[t.ID], res.Claims, marks))
	}
	return out, nil
}
