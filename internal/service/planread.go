package service

import (
	"context"
	"errors"
	"slices"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// planReader is offered by a store, and by its transactions, that can
// answer a store.PlanRead: the plan's revision, its changes since the
// reader's board and the few rows a read needs beside the board, all from
// one snapshot. Both stores answer in one statement outside any
// transaction, so a read of the cached board (get_current_task, get_task,
// get_tasks, get_next_task, get_big_picture) costs one statement where it
// cost a version read, a BEGIN, three to six statements and a COMMIT (on
// PostgreSQL, one round trip where it cost four).
type planReader interface {
	ReadPlan(ctx context.Context, r store.PlanRead) (store.PlanReadResult, error)
}

// read answers r with the board as of the same snapshot: exactly the plan
// that snapshot holds, as fresh as a read of the store itself, since the
// changes since the cached board are read in the same statement as the
// rest. ok is false, and nothing read, when the store offers no
// planReader; the caller then takes its transaction's path. The board is
// cached, unless a newer one is already.
func (p *Plan) read(ctx context.Context, r store.PlanRead) (res store.PlanReadResult, b *task.Board, ok bool, err error) {
	pr, ok := p.store.(planReader)
	if !ok {
		return res, nil, false, nil
	}
	for {
		c := p.cache.Load()
		if c != nil && c.rev != 0 {
			r.Since = c.rev
			if res, err = pr.ReadPlan(ctx, r); err != nil {
				return res, nil, true, err
			}
			if !res.Reload {
				b = c.board.Apply(res.Changes)
				if res.Rev != c.rev {
					p.keepRev(&boardCache{board: b, rev: res.Rev}, false)
				}
				return res, b, true, nil
			}
		}
		// No board yet, or one the changes cannot bring up to date: the
		// whole plan, and r, in one transaction. One caller loads it at a
		// time (a server's first calls come together); one that waited
		// while another loaded reads only what changed since.
		p.full.Lock()
		if n := p.cache.Load(); n != c && n != nil && n.rev != 0 {
			p.full.Unlock()
			continue
		}
		err = p.store.View(ctx, func(tx store.Tx) error {
			pc, ok1 := tx.(planChanges)
			tr, ok2 := tx.(planReader)
			if !ok1 || !ok2 {
				return errNoPlanReader
			}
			c, rev, err := pc.PlanChanges(ctx, 0)
			if err != nil {
				return err
			}
			b, r.Since = (*task.Board)(nil).Apply(c), rev
			res, err = tr.ReadPlan(ctx, r)
			return err
		})
		if err == nil {
			p.keepRev(&boardCache{board: b, rev: res.Rev}, true)
		}
		p.full.Unlock()
		if err != nil {
			return res, nil, true, err
		}
		return res, b, true, nil
	}
}

// errNoPlanReader: a store offers planReader but its transactions do not.
var errNoPlanReader = errors.New("the store reads the plan in one statement but not in a transaction")

// keepRev caches next, a board as of a plan revision, unless a board as
// new is cached already (with full, a board read whole, it replaces any:
// the revisions of another database file that took this one's place are
// no guide). Its store version is unknown (zero), so sharedBoard, which
// goes by versions, does not take it for current.
func (p *Plan) keepRev(next *boardCache, full bool) {
	for {
		cur := p.cache.Load()
		if !full && cur != nil && cur.rev >= next.rev || p.cache.CompareAndSwap(cur, next) {
			return
		}
	}
}

// resolveOnBoard is resolveRef on a board: the same task, or the same
// error, as resolveRef in the snapshot the board is of. The task has no
// body.
func resolveOnBoard(b *task.Board, r task.Ref) (task.Task, error) {
	t := b.Tasks.Get(r.ID)
	if t == nil {
		return task.Task{}, &task.NotFoundError{ID: r.ID}
	}
next:
	for _, n := range r.Path {
		for _, id := range b.Children[t.ID] {
			if c := b.Tasks.Get(id); c.Num == n {
				t = c
				continue next
			}
		}
		return task.Task{}, &task.NotFoundError{ID: t.ID, Sub: n}
	}
	return *t, nil
}

// ancestorsOnBoard is tx.Ancestors on a board: root first.
func ancestorsOnBoard(b *task.Board, t *task.Task) []task.Task {
	var out []task.Task
	for a := b.Tasks.Get(t.ParentID); a != nil && t.ParentID != 0; a = b.Tasks.Get(a.ParentID) {
		out = append(out, *a)
		if a.ParentID == 0 {
			break
		}
	}
	slices.Reverse(out)
	return out
}

// marksOf is lifecycleMarks over lifecycles read already, in id order.
func marksOf(ls []store.Lifecycle) map[task.ID]LifecycleMark {
	out := make(map[task.ID]LifecycleMark, len(ls))
	for _, l := range ls {
		out[l.TaskID] = LifecycleMark{ID: l.ID, Definition: l.Definition, Phase: l.Phase}
	}
	return out
}

// heldBy is the test heldByOthersIn makes of the live claims.
func heldBy(claims map[task.ID]task.Claim, agent string) func(task.ID) bool {
	if agent == "" || len(claims) == 0 {
		return nil
	}
	return func(id task.ID) bool {
		c, ok := claims[id]
		return ok && c.Agent != agent
	}
}

// getRead is Get from one plan read; ok is false when the store offers no
// planReader, or a subtask reference named another task on the cached
// board than on the read's: the caller reads the task in a transaction.
func (p *Plan) getRead(ctx context.Context, ref string) (d Detail, ok bool, err error) {
	if _, isReader := p.store.(planReader); !isReader || p.fullReads {
		return Detail{}, false, nil
	}
	r, err := task.ParseRef(ref)
	if err != nil {
		return Detail{}, true, refError(ref, "id")
	}
	id := r.ID
	if len(r.Path) > 0 {
		// The subtask's id, as the cached board has it; checked against
		// the read's board below.
		c := p.cache.Load()
		if c == nil {
			return Detail{}, false, nil
		}
		t, err := resolveOnBoard(c.board, r)
		if err != nil {
			return Detail{}, false, nil
		}
		id = t.ID
	}
	res, b, ok, err := p.read(ctx, store.PlanRead{Task: id})
	if !ok || err != nil {
		return Detail{}, ok, err
	}
	t, err := resolveOnBoard(b, r)
	if err != nil {
		return Detail{}, true, err
	}
	if t.ID != id || !res.Found {
		return Detail{}, false, nil
	}
	t.Body = res.Body
	d = neighboursOnBoard(b, t)
	if res.Claim != nil && res.Claim.Live(p.now()) {
		d.Claim = res.Claim
	}
	if m, ok := marksOf(res.Lifecycles)[t.ID]; ok {
		d.Lifecycle = &m
	}
	d.Imports = importRefs(res.Imports)
	return d, true, nil
}

// listRead is List's page from one plan read, for a query the board can
// answer (onBoard); ok as for getRead.
func (p *Plan) listRead(ctx context.Context, sq store.Query) (out TaskPage, ok bool, err error) {
	if p.fullReads || !onBoard(sq) {
		return TaskPage{}, false, nil
	}
	res, b, ok, err := p.read(ctx, store.PlanRead{Claims: true, Now: p.now(), Lifecycles: true})
	if !ok || err != nil {
		return TaskPage{}, ok, err
	}
	out.Offset = sq.Offset
	ts, total := queryBoard(b, sq)
	out.Total = total
	deps := depsOnBoard(b, ts)
	marks := marksOf(res.Lifecycles)
	for _, t := range ts {
		it := Item{Task: t, Deps: deps[t.ID]}
		if c, ok := res.Claims[t.ID]; ok {
			it.Claim = &c
		}
		if m, ok := marks[t.ID]; ok {
			it.Lifecycle = &m
		}
		out.Items = append(out.Items, it)
	}
	return out, true, nil
}

// currentRead is Current from one plan read; ok as for getRead.
func (f *Focus) currentRead(ctx context.Context, agent string) (v CurrentView, ok bool, err error) {
	if f.plan == nil {
		return CurrentView{}, false, nil
	}
	res, b, ok, err := f.plan.read(ctx, store.PlanRead{Agent: agent})
	if !ok || err != nil {
		return CurrentView{}, ok, err
	}
	// current's rule: the focus pointer, when it names an open, visible
	// task; otherwise zen.
	t := b.Tasks.Get(res.Focus)
	if res.Focus == 0 || t == nil || !t.Status.Open() {
		return CurrentView{Zen: true, ZenHint: zenOfBoard(b)}, true, nil
	}
	v.Task = *t
	v.Task.Body = res.FocusBody
	v.Breadcrumb = ancestorsOnBoard(b, t)
	v.Depth = len(v.Breadcrumb) + 1
	v.Left, v.LeftMore = b.NearLeft(t, LeftShown)
	return v, true, nil
}

// pictureRead is BigPicture from one plan read; ok as for getRead.
func (f *Focus) pictureRead(ctx context.Context, agent string, page Page) (p Picture, ok bool, err error) {
	if f.plan == nil {
		return Picture{}, false, nil
	}
	res, b, ok, err := f.plan.read(ctx, store.PlanRead{Agent: agent, Lifecycles: true})
	if !ok || err != nil {
		return Picture{}, ok, err
	}
	p.Offset = page.Offset
	lo, hi, next := page.window(b.Tasks.Len())
	p.Outline, p.Total, p.NextOffset = b.OutlineRange(lo, hi), b.Tasks.Len(), next
	for id, m := range marksOf(res.Lifecycles) {
		if p.Phases == nil {
			p.Phases = map[task.ID]string{}
		}
		p.Phases[id] = m.Phase
	}
	if t := b.Tasks.Get(res.Focus); res.Focus != 0 && t != nil && t.Status.Open() {
		p.Current = t.ID
		p.placeCurrent(b.OutlineLine)
	} else {
		p.Zen = zenOfBoard(b)
	}
	return p, true, nil
}
