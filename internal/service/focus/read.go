package focus

import (
	"context"

	"github.com/cairn-dev/cairn/internal/service/internal/tasks"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// currentRead is Current from one plan read.
func (f *Focus) currentRead(ctx context.Context, agent string) (CurrentView, error) {
	now := f.now()
	res, b, err := f.board.Read(ctx, store.PlanRead{Agent: agent, Claims: true, Now: now})
	if err != nil {
		return CurrentView{}, err
	}
	// current's rule: the focus pointer, when it names an open, visible
	// task; otherwise zen.
	t := b.Tasks.Get(res.Focus)
	if res.Focus == 0 || t == nil || !t.Status.Open() {
		return CurrentView{Zen: true, ZenHint: zenFor(b, res.Claims, agent)}, nil
	}
	v := CurrentView{Task: *t}
	v.Task.Body = res.FocusBody
	v.Breadcrumb = tasks.AncestorsOnBoard(b, t)
	v.Depth = len(v.Breadcrumb) + 1
	v.Left, v.LeftMore = b.NearLeft(t, LeftShown)
	if c, ok := res.Claims[t.ID]; ok && c.Agent != agent && c.Live(now) {
		v.Held = &c
	}
	return v, nil
}

// pictureRead is BigPicture from one plan read.
func (f *Focus) pictureRead(ctx context.Context, agent string, pg page.Page) (Picture, error) {
	res, b, err := f.board.Read(ctx, store.PlanRead{Agent: agent, Lifecycles: true, Claims: true, Now: f.now()})
	if err != nil {
		return Picture{}, err
	}
	p := Picture{Offset: pg.Offset}
	lo, hi, next := pg.Window(b.Tasks.Len())
	p.Outline, p.Total, p.NextOffset = b.OutlineRange(lo, hi), b.Tasks.Len(), next
	for id, m := range tasks.MarksOf(res.Lifecycles) {
		if p.Phases == nil {
			p.Phases = map[task.ID]string{}
		}
		p.Phases[id] = m.Phase
	}
	if t := b.Tasks.Get(res.Focus); res.Focus != 0 && t != nil && t.Status.Open() {
		p.Current = t.ID
		p.placeCurrent(b.OutlineLine)
	} else {
		p.Zen = zenFor(b, res.Claims, agent)
	}
	return p, nil
}
