// Package oracle answers what the plan and focus services answer from
// their cached board another way: every row read from the store in one
// transaction. The tests that check the board's answers compare them with
// these; nothing in the product uses them.
package oracle

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/service/focus"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// resolve finds the visible task a reference ("12", "12.3") names.
func resolve(ctx context.Context, tx store.Tx, ref string) (task.Task, error) {
	r, err := task.ParseRef(ref)
	if err != nil {
		return task.Task{}, err
	}
	t, err := store.Task(ctx, tx, r.ID)
	for _, n := range r.Path {
		if err != nil {
			break
		}
		t, err = store.Child(ctx, tx, t.ID, n)
	}
	return t, err
}

// marks reads the open lifecycles of ids (all when ids is empty).
func marks(ctx context.Context, tx store.Tx, ids []task.ID) (map[task.ID]plan.LifecycleMark, error) {
	ls, _, err := tx.Lifecycles(ctx, store.LifecycleQuery{Status: store.LifecycleOpen, Tasks: ids})
	if err != nil {
		return nil, err
	}
	out := map[task.ID]plan.LifecycleMark{}
	for _, l := range ls {
		out[l.TaskID] = plan.LifecycleMark{ID: l.ID, Definition: l.Definition, Phase: l.Phase}
	}
	return out, nil
}

// Get is get_task read neighbour by neighbour.
func Get(ctx context.Context, st store.Store, ref string) (plan.Detail, error) {
	var d plan.Detail
	err := st.View(ctx, func(tx store.Tx) error {
		t, err := resolve(ctx, tx, ref)
		if err != nil {
			return err
		}
		d = plan.Detail{Task: t}
		load := func(ids []task.ID, err error) ([]task.Task, error) {
			if err != nil {
				return nil, err
			}
			out := make([]task.Task, 0, len(ids))
			for _, id := range ids {
				x, err := store.Task(ctx, tx, id)
				if err != nil {
					return nil, err
				}
				x.Body = ""
				out = append(out, x)
			}
			return out, nil
		}
		if d.Deps, err = load(store.TaskDeps(ctx, tx, t.ID)); err != nil {
			return err
		}
		if d.Dependents, err = load(store.Dependents(ctx, tx, t.ID)); err != nil {
			return err
		}
		if d.Subtasks, err = store.Children(ctx, tx, t.ID, false); err != nil {
			return err
		}
		if c, ok, err := store.TaskClaim(ctx, tx, t.ID); err != nil {
			return err
		} else if ok && c.Live(time.Now().UTC()) {
			d.Claim = &c
		}
		ms, err := marks(ctx, tx, []task.ID{t.ID})
		if err != nil {
			return err
		}
		if m, ok := ms[t.ID]; ok {
			d.Lifecycle = &m
		}
		imps, err := tx.Imports(ctx, store.ImportQuery{Task: t.ID})
		for _, m := range imps {
			src, file, _ := strings.Cut(m.Source, "@")
			if file == "" && slices.ContainsFunc(imps, func(o store.Import) bool {
				return o.ExternalID == m.ExternalID && strings.HasPrefix(o.Source, m.Source+"@")
			}) {
				continue // a file adopted the mapping by source alone
			}
			d.Imports = append(d.Imports, plan.ImportRef{Source: src, File: file, ExternalID: m.ExternalID})
		}
		return err
	})
	if err != nil {
		return plan.Detail{}, fmt.Errorf("get task: %w", err)
	}
	return d, nil
}

// List is get_tasks answered by the store's query, for the queries the
// board tests ask (statuses, priorities, open only, sort, order, a page).
func List(ctx context.Context, st store.Store, q plan.TaskQuery) (plan.TaskPage, error) {
	sq := store.Query{Sort: q.Sort, Offset: q.Offset, Limit: q.Limit}
	for _, s := range q.Statuses {
		sq.Statuses = append(sq.Statuses, task.Status(s))
	}
	if len(sq.Statuses) == 0 && q.OpenOnly {
		sq.Statuses = task.OpenStatuses
	}
	for _, p := range q.Priorities {
		sq.Priorities = append(sq.Priorities, task.Priority(p))
	}
	if sq.Sort == "" {
		sq.Sort = store.SortID
	}
	sq.Desc = q.Order == "desc" || q.Order == "" && store.DefaultDesc(sq.Sort)
	if sq.Limit == 0 {
		sq.Limit = page.Plan.Default
	}
	out := plan.TaskPage{Offset: sq.Offset}
	err := st.View(ctx, func(tx store.Tx) error {
		ts, total, err := tx.Query(ctx, sq)
		if err != nil {
			return err
		}
		out.Total = total
		ids := make([]task.ID, len(ts))
		for i, t := range ts {
			ids[i] = t.ID
		}
		deps, err := tx.Deps(ctx, store.DepQuery{Of: ids})
		if err != nil {
			return err
		}
		claims, err := tx.Claims(ctx, store.ClaimQuery{Now: time.Now().UTC()})
		if err != nil {
			return err
		}
		ms, err := marks(ctx, tx, ids)
		if err != nil {
			return err
		}
		for _, t := range ts {
			it := plan.Item{Task: t, Deps: deps[t.ID]}
			if c, ok := claims[t.ID]; ok {
				it.Claim = &c
			}
			if m, ok := ms[t.ID]; ok {
				it.Lifecycle = &m
			}
			out.Items = append(out.Items, it)
		}
		return nil
	})
	if err != nil {
		return plan.TaskPage{}, fmt.Errorf("list tasks: %w", err)
	}
	out.NextOffset = page.NextOffset(out.Offset, len(out.Items), out.Total)
	return out, nil
}

// Picture is get_big_picture from every task read in one transaction.
func Picture(ctx context.Context, st store.Store, agent string, pg page.Page) (focus.Picture, error) {
	pg, err := page.Outline.Apply(pg)
	if err != nil {
		return focus.Picture{}, err
	}
	p := focus.Picture{Offset: pg.Offset}
	err = st.View(ctx, func(tx store.Tx) error {
		all, err := store.Tasks(ctx, tx)
		if err != nil {
			return err
		}
		deps, err := tx.Deps(ctx, store.DepQuery{All: true})
		if err != nil {
			return err
		}
		outline := task.Outline(all)
		lo, hi, next := pg.Window(len(outline))
		p.Outline, p.Total, p.NextOffset = outline[lo:hi], len(outline), next
		ms, err := marks(ctx, tx, nil)
		if err != nil {
			return err
		}
		for id, m := range ms {
			if p.Phases == nil {
				p.Phases = map[task.ID]string{}
			}
			p.Phases[id] = m.Phase
		}
		cur, found, err := store.FocusedTask(ctx, tx, agent)
		if err != nil {
			return err
		}
		if !found || !cur.Status.Open() {
			p.Zen = focus.ZenOf(task.NewBoard(all, deps))
			return nil
		}
		p.Current = cur.ID
		if !slices.ContainsFunc(p.Outline, func(e task.Entry) bool { return e.ID == cur.ID }) {
			if i := slices.IndexFunc(outline, func(e task.Entry) bool { return e.ID == cur.ID }); i >= 0 {
				p.CurrentLine = i + 1
			}
		}
		return nil
	})
	if err != nil {
		return focus.Picture{}, fmt.Errorf("get big picture: %w", err)
	}
	return p, nil
}
