package service

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// ScrubForTest exposes scrub to the external tests.
var ScrubForTest = scrub

// The oracles below read what the services answer from the cached board
// another way, row by row in one transaction, for the tests that check the
// board's answers against them. They are test code: the services have one
// path.

// FullGetForTest is get_task read neighbour by neighbour.
func FullGetForTest(ctx context.Context, st store.Store, ref string) (Detail, error) {
	var d Detail
	err := st.View(ctx, func(tx store.Tx) error {
		t, err := resolveRef(ctx, tx, ref, "id")
		if err != nil {
			return err
		}
		d = Detail{Task: t}
		load := func(ids []task.ID, err error) ([]task.Task, error) {
			if err != nil {
				return nil, err
			}
			out := make([]task.Task, 0, len(ids))
			for _, id := range ids {
				x, err := tx.Task(ctx, id)
				if err != nil {
					return nil, err
				}
				x.Body = ""
				out = append(out, x)
			}
			return out, nil
		}
		if d.Deps, err = load(tx.TaskDeps(ctx, t.ID)); err != nil {
			return err
		}
		if d.Dependents, err = load(tx.Dependents(ctx, t.ID)); err != nil {
			return err
		}
		if d.Subtasks, err = tx.Children(ctx, t.ID, false); err != nil {
			return err
		}
		if c, ok, err := tx.TaskClaim(ctx, t.ID); err != nil {
			return err
		} else if ok && c.Live(time.Now().UTC()) {
			d.Claim = &c
		}
		marks, err := lifecycleMarks(ctx, tx, []task.ID{t.ID})
		if err != nil {
			return err
		}
		if m, ok := marks[t.ID]; ok {
			d.Lifecycle = &m
		}
		ms, err := tx.ImportsOf(ctx, t.ID)
		d.Imports = importRefs(ms)
		return err
	})
	if err != nil {
		return Detail{}, fmt.Errorf("get task: %w", err)
	}
	return d, nil
}

// FullListForTest is get_tasks answered by the store's query (listQuery),
// which List takes only for what the board cannot answer.
func FullListForTest(ctx context.Context, p *Plan, q TaskQuery) (TaskPage, error) {
	sq, err := q.query()
	if err != nil {
		return TaskPage{}, err
	}
	out, err := p.listQuery(ctx, sq)
	if err != nil {
		return TaskPage{}, fmt.Errorf("list tasks: %w", err)
	}
	out.NextOffset = nextOffset(out.Offset, len(out.Items), out.Total)
	return out, nil
}

// FullPictureForTest is get_big_picture from every task read in one
// transaction.
func FullPictureForTest(ctx context.Context, st store.Store, agent string, page Page) (Picture, error) {
	page, err := OutlinePage.apply(page)
	if err != nil {
		return Picture{}, err
	}
	p := Picture{Offset: page.Offset}
	err = st.View(ctx, func(tx store.Tx) error {
		all, err := tx.Tasks(ctx)
		if err != nil {
			return err
		}
		deps, err := tx.Deps(ctx)
		if err != nil {
			return err
		}
		outline := task.Outline(all)
		lo, hi, next := page.window(len(outline))
		p.Outline, p.Total, p.NextOffset = outline[lo:hi], len(outline), next
		marks, err := lifecycleMarks(ctx, tx, nil)
		if err != nil {
			return err
		}
		for id, m := range marks {
			if p.Phases == nil {
				p.Phases = map[task.ID]string{}
			}
			p.Phases[id] = m.Phase
		}
		cur, ok, err := current(ctx, tx, agent)
		if err != nil {
			return err
		}
		if !ok {
			p.Zen = zenOfBoard(task.NewBoard(all, deps))
			return nil
		}
		p.Current = cur.ID
		p.placeCurrent(func(id task.ID) (int, bool) {
			i := slices.IndexFunc(outline, func(e task.Entry) bool { return e.ID == id })
			return i, i >= 0
		})
		return nil
	})
	if err != nil {
		return Picture{}, fmt.Errorf("get big picture: %w", err)
	}
	return p, nil
}
