// Package focus is the focus stack of the one task model: each agent's YOU
// ARE HERE, the tools that move it (create_new_task, extend_current_task,
// complete_current_task, switch_focus, remove_task) and the views around
// it (get_current_task, get_big_picture, peek_context, list_siblings,
// get_completed_tasks). Its reads answer from the plan's cached board.
package focus

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/service/internal/boardcache"
	"github.com/cairn-dev/cairn/internal/service/internal/tasks"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// Focus is the focus stack: each agent's YOU ARE HERE on the project's task
// tree, and the rules that move it. Its reads answer from the plan
// service's cached board.
type Focus struct {
	store store.Store
	now   func() time.Time
	board *boardcache.Cache
	plans *plan.Plan
}

// NewFocus returns the focus service over s, reading board, the cache of
// s's plan that plans shares.
// now is the clock; nil is time.Now in UTC (a test fixes it).
func NewFocus(s store.Store, board *boardcache.Cache, plans *plan.Plan, now func() time.Time) *Focus {
	if now == nil {
		now = func() time.Time { return time.Now().UTC() }
	}
	return &Focus{store: s, now: now, board: board, plans: plans}
}

// Zen says what an agent without a current task can do: the task
// get_next_task would recommend, if any, and how many tasks are open.
type Zen struct {
	Next  *task.Task // nil when no task is ready
	Open  int        // open tasks, ready or not
	Total int        // visible tasks, closed ones included
	// Held counts the ready tasks Next passed over as other agents hold
	// them.
	Held int
}

// zen works out Zen for an agent without a current task, after (never
// inside) the transaction that found it so, from the cached board: the
// hint may be a moment newer than the answer around it.
func (f *Focus) zen(ctx context.Context, agent string) (Zen, error) {
	res, b, err := f.board.Read(ctx, store.PlanRead{Claims: true, Now: f.now()})
	if err != nil {
		return Zen{}, err
	}
	return zenFor(b, res.Claims, agent), nil
}

// zenFor is Zen on a board for agent, whose next task is none other agents
// hold (claims: the live ones), as get_next_task recommends for it.
func zenFor(b *task.Board, claims map[task.ID]task.Claim, agent string) Zen {
	z := ZenOf(b)
	if skip := task.HeldBy(claims, agent); skip != nil {
		t, held, ok := b.NextExcept(task.NextFilter{}, skip)
		z.Next, z.Held = nil, held
		if ok {
			c := *t
			z.Next = &c
		}
	}
	return z
}

// ZenOf is Zen on a board: what get_next_task would recommend, and the
// counts.
func ZenOf(b *task.Board) Zen {
	z := Zen{Total: b.Tasks.Len()}
	for _, t := range b.Tasks.All() {
		if t.Status.Open() {
			z.Open++
		}
	}
	if t, ok := b.Next(task.NextFilter{}); ok {
		c := *t
		z.Next = &c
	}
	return z
}

func validateNew(title, body string) error {
	if err := task.ValidateTitle(title); err != nil {
		return err
	}
	return task.ValidateBody(body)
}

// CreateNewTask adds a task one level deeper: a child of the current task, or
// a root task in zen. The new task takes the agent's focus.
func (f *Focus) CreateNewTask(ctx context.Context, agent, title, body string) (task.Task, error) {
	redact.Scrub(&title, &body)
	if err := validateNew(title, body); err != nil {
		return task.Task{}, err
	}
	var created task.Task
	err := f.store.Update(ctx, func(tx store.Tx) (err error) {
		now := f.now()
		return tx.CreateUnderCurrent(ctx, agent, started(task.New(title, body, now)), task.OpenStatuses, now, &created)
	})
	if err != nil {
		return task.Task{}, fmt.Errorf("create task: %w", err)
	}
	return created, nil
}

// started is a new task that takes its agent's focus: focus and status
// agree, so it is in progress from the start.
func started(t task.Task) task.Task {
	t.Status = task.StatusInProgress
	return t
}

// ExtendCurrentTask adds the next step at the current level: a sibling
// immediately to the right of the current task. It takes the agent's focus.
func (f *Focus) ExtendCurrentTask(ctx context.Context, agent, title, body string) (task.Task, error) {
	redact.Scrub(&title, &body)
	if err := validateNew(title, body); err != nil {
		return task.Task{}, err
	}
	var created task.Task
	err := f.store.Update(ctx, func(tx store.Tx) error {
		cur, err := tasks.MustCurrent(ctx, tx, agent, "extend")
		if err != nil {
			return err
		}
		now := f.now()
		created, err = tx.CreateTask(ctx, started(task.New(title, body, now)),
			store.Placement{After: cur.ID})
		if err != nil {
			return err
		}
		return tx.SetFocus(ctx, agent, created.ID, now)
	})
	if err != nil {
		return task.Task{}, fmt.Errorf("extend task: %w", err)
	}
	return created, nil
}

// CurrentView is the current task with the context that explains it.
type CurrentView struct {
	Zen        bool
	ZenHint    Zen // in zen: what to start
	Task       task.Task
	Depth      int         // 1 for a root task
	Left       []task.Task // siblings to the left, in order: LeftShown of them at most (task.NearLeft)
	LeftMore   int         // siblings to the left not in Left
	Breadcrumb []task.Task // ancestors, root first
	// Held is the live claim another agent holds on the task; nil: none.
	Held *task.Claim
}

// Current returns the agent's current task and its context, from one plan
// read.
func (f *Focus) Current(ctx context.Context, agent string) (CurrentView, error) {
	v, err := f.currentRead(ctx, agent)
	if err != nil {
		return CurrentView{}, fmt.Errorf("get current task: %w", err)
	}
	return v, nil
}

// LeftShown is how many siblings to its left YOU ARE HERE lists at most;
// list_siblings pages through them all.
const LeftShown = 6

func leftOf(sibs []task.Task, id task.ID) []task.Task {
	for i, s := range sibs {
		if s.ID == id {
			return sibs[:i]
		}
	}
	return nil
}

// Picture is the whole visible structure in outline order.
type Picture struct {
	Outline    []task.Entry // the page asked for
	Total      int          // lines in the whole outline
	Offset     int
	NextOffset int     // zero: this is the last page
	Current    task.ID // zero in zen
	// CurrentLine is the current task's line in the whole outline, from
	// 1, when the page does not show it (zero when it does, or in zen):
	// a page of a large plan can leave out YOU ARE HERE.
	CurrentLine int
	Zen         Zen // in zen: what to start
	// Phases are the phases of the open lifecycles, by task.
	Phases map[task.ID]string
}

// BigPicture returns a page of the outline of every visible task (a line a
// task, page.Outline's rule) and where the agent is, from one plan read.
func (f *Focus) BigPicture(ctx context.Context, agent string, pg page.Page) (Picture, error) {
	pg, err := page.Outline.Apply(pg)
	if err != nil {
		return Picture{}, err
	}
	p, err := f.pictureRead(ctx, agent, pg)
	if err != nil {
		return Picture{}, fmt.Errorf("get big picture: %w", err)
	}
	return p, nil
}

// placeCurrent sets CurrentLine when the page does not show the current
// task; line finds a task in the whole outline.
func (p *Picture) placeCurrent(line func(task.ID) (int, bool)) {
	if p.Current == 0 || slices.ContainsFunc(p.Outline, func(e task.Entry) bool { return e.ID == p.Current }) {
		return
	}
	if i, ok := line(p.Current); ok {
		p.CurrentLine = i + 1
	}
}

// Completed is the result of completing the current task.
type Completed struct {
	Task task.Task // as completed
	Next task.Task // the new current task; zero ID in zen
	Zen  Zen       // in zen: what is left
	// Passed are the tasks the focus rules would have moved to but passed
	// over, as other agents hold them, in the order the rules met them.
	Passed []HeldTask
}

// HeldTask is a task another agent holds, and its claim.
type HeldTask struct {
	Task  task.Task // without its body
	Claim task.Claim
}

// heldTasks names the tasks of claims from the cached board.
func (f *Focus) heldTasks(ctx context.Context, claims []task.Claim) ([]HeldTask, error) {
	if len(claims) == 0 {
		return nil, nil
	}
	b, err := f.plans.Board(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]HeldTask, 0, len(claims))
	for _, c := range claims {
		h := HeldTask{Task: task.Task{ID: c.TaskID}, Claim: c}
		if t := b.Tasks.Get(c.TaskID); t != nil {
			h.Task = *t
		}
		out = append(out, h)
	}
	return out, nil
}

// CompleteCurrentTask completes the agent's current task, archives it and
// moves focus by the rules of task.NextFocus, passing over tasks other
// agents hold. A task with open children is refused, and so are one with
// open dependencies and one another agent holds, unless force is set.
func (f *Focus) CompleteCurrentTask(ctx context.Context, agent string, force bool) (Completed, error) {
	var (
		c      Completed
		passed []task.Claim
	)
	err := f.store.Update(ctx, func(tx store.Tx) error {
		// What closeTask reads, with the focus: one round trip. The task's
		// open children and dependencies, then what moveFocusOff reads
		// after closeTask's writes, which leave those answers true (they
		// change the task's own fields, its claim and the archive).
		reads := []store.Read{{Of: store.ReadOpenChildren, Agent: agent}, {Of: store.ReadFocuses},
			{Of: store.ReadOpenChildren, Agent: agent, Up: 1}, {Of: store.ReadTask, Agent: agent, Up: 1},
			{Of: store.ReadClaims}}
		if !force {
			reads = append(reads, store.Read{Of: store.ReadTaskDeps, Agent: agent})
		}
		tasks.Ahead(ctx, tx, reads...)
		cur, err := tasks.MustCurrent(ctx, tx, agent, "complete")
		if err != nil {
			return err
		}
		now := f.now()
		claims, err := tx.Claims(ctx, store.ClaimQuery{Now: now})
		if err != nil {
			return err
		}
		if err := (tasks.Writer{Agent: agent, Force: force}).Check(claims, cur.ID); err != nil {
			return err
		}
		var to tasks.Moved
		if cur, to, err = tasks.CloseTask(ctx, tx, cur, task.StatusDone, now, agent, force, claims); err != nil {
			return err
		}
		c.Task, passed = cur, to.Passed
		c.Next, err = to.Current(ctx, tx)
		return err
	})
	if err == nil && c.Next.ID == 0 {
		c.Zen, err = f.zen(ctx, agent)
	}
	if err == nil {
		c.Passed, err = f.heldTasks(ctx, passed)
	}
	if err != nil {
		return Completed{}, fmt.Errorf("complete task: %w", err)
	}
	return c, nil
}

// CompletedQuery asks for a page of the archive (page.Archive's rule) in
// an order: chronological (the default) or logical (last completed first).
type CompletedQuery struct {
	Order string
	page.Page
}

// Archive is a page of completed tasks.
type Archive struct {
	Tasks      []task.Completion
	Order      string
	Total      int
	Offset     int
	NextOffset int
}

// CompletedTasks returns a page of the archive of completed tasks.
func (f *Focus) CompletedTasks(ctx context.Context, q CompletedQuery) (Archive, error) {
	out := Archive{Order: strings.ToLower(strings.TrimSpace(q.Order))}
	switch out.Order {
	case "":
		out.Order = "chronological"
	case "chronological", "logical":
	default:
		return Archive{}, &problem.FieldError{Field: "order", Problem: "is " + problem.Quote(q.Order), Fix: "use chronological or logical"}
	}
	p, err := page.Archive.Apply(q.Page)
	if err != nil {
		return Archive{}, err
	}
	out.Offset = p.Offset
	err = f.store.View(ctx, func(tx store.Tx) (err error) {
		out.Tasks, out.Total, err = tx.Completions(ctx, out.Order == "logical", p.Offset, p.Limit)
		return err
	})
	if err != nil {
		return Archive{}, fmt.Errorf("get completed tasks: %w", err)
	}
	out.NextOffset = page.NextOffset(out.Offset, len(out.Tasks), out.Total)
	return out, nil
}

// UpdateCurrentTask replaces the current task's body; title and ID stay.
func (f *Focus) UpdateCurrentTask(ctx context.Context, agent, body string) (task.Task, error) {
	redact.Scrub(&body)
	if err := task.ValidateBody(body); err != nil {
		return task.Task{}, err
	}
	var t task.Task
	err := f.store.Update(ctx, func(tx store.Tx) error {
		return tx.UpdateCurrentBody(ctx, agent, body, task.OpenStatuses, f.now(), &t)
	})
	if errors.Is(err, store.ErrNoCurrentTask) {
		err = tasks.NoCurrent("update")
	}
	if err != nil {
		return task.Task{}, fmt.Errorf("update task: %w", err)
	}
	return t, nil
}

// Context is what surrounds the current task: its parent and the sibling
// immediately to its left. Either may be nil.
type Context struct {
	Zen     bool
	Current task.Task
	Parent  *task.Task
	Left    *task.Task
}

// PeekContext returns the parent and the immediate left sibling of the
// current task without moving focus.
func (f *Focus) PeekContext(ctx context.Context, agent string, withBody bool) (Context, error) {
	var c Context
	err := f.store.View(ctx, func(tx store.Tx) error {
		cur, ok, err := tasks.Current(ctx, tx, agent)
		if err != nil || !ok {
			c.Zen = !ok
			return err
		}
		c.Current = cur
		if cur.ParentID != 0 {
			p, err := store.Task(ctx, tx, cur.ParentID)
			if err != nil {
				return err
			}
			c.Parent = &p
		}
		// The one sibling it shows: a level of hundreds of finished steps
		// is not read, bodies and all, to show the last.
		left, found, err := store.LeftSibling(ctx, tx, cur, withBody)
		if err != nil {
			return err
		}
		if found {
			c.Left = &left
		}
		return nil
	})
	if err != nil {
		return Context{}, fmt.Errorf("peek context: %w", err)
	}
	if !withBody && c.Parent != nil {
		c.Parent.Body = ""
	}
	return c, nil
}

// SiblingsQuery asks for a page of the siblings to the left of the current
// task, counted back from it: offset 0 is the page nearest the current task,
// the one a reader wants first. The page's size is page.Sibling's rule, or
// page.SiblingBody's with bodies.
type SiblingsQuery struct {
	WithBody bool
	page.Page
}

// Siblings is a page of the siblings to the left of the current task.
type Siblings struct {
	Zen        bool
	Left       []task.Task // the page, in position order
	Total      int         // siblings to the left in all
	Offset     int         // how many nearer the current task are not in Left
	NextOffset int         // the page further left; zero: none
}

// From is the position of the page's first sibling among the siblings to
// the left, counted from 1 at the leftmost (zero for an empty page).
func (s Siblings) From() int {
	if len(s.Left) == 0 {
		return 0
	}
	return s.Total - s.Offset - len(s.Left) + 1
}

// Siblings returns a page of the tasks to the left of the current task at
// its level: the page q.Offset siblings back from it, in position order.
func (f *Focus) Siblings(ctx context.Context, agent string, q SiblingsQuery) (Siblings, error) {
	rule := page.Sibling
	if q.WithBody {
		rule = page.SiblingBody
	}
	p, err := rule.Apply(q.Page)
	if err != nil {
		return Siblings{}, err
	}
	out := Siblings{Offset: p.Offset}
	err = f.store.View(ctx, func(tx store.Tx) error {
		cur, ok, err := tasks.Current(ctx, tx, agent)
		if err != nil || !ok {
			out.Zen = !ok
			return err
		}
		// Without bodies: a level of hundreds of finished steps would
		// otherwise read every body to show a page of them.
		sibs, err := store.Children(ctx, tx, cur.ParentID, false)
		if err != nil {
			return err
		}
		left := leftOf(sibs, cur.ID)
		out.Total = len(left)
		// The window counts back from the current task: reverse
		// positions, so that lo..hi of the reversed list is the page.
		lo, hi, next := p.Window(len(left))
		out.Left = left[len(left)-hi : len(left)-lo]
		out.NextOffset = next
		if !q.WithBody {
			return nil
		}
		out.Left = slices.Clone(out.Left) // the store's slice stays as it gave it
		for i, s := range out.Left {
			full, err := store.Task(ctx, tx, s.ID)
			if err != nil {
				return err
			}
			out.Left[i].Body = full.Body
		}
		return nil
	})
	if err != nil {
		return Siblings{}, fmt.Errorf("list siblings: %w", err)
	}
	return out, nil
}

// Switched is the result of a switch of focus.
type Switched struct {
	Previous task.ID // zero if the agent was in zen
	Task     task.Task
	Path     []task.Task // ancestors of Task, root first
	// Started says Task was pending and is now in progress.
	Started bool
	// Waits are the open tasks Task depends on, in id order: it cannot be
	// completed before them.
	Waits []task.Task
	// Held is the live claim another agent holds on Task; nil: none.
	Held *task.Claim
}

// SwitchFocus points the agent at any open task, named by id ("12") or as a
// subtask ("12.3"). A pending task starts: it is in progress (a loop's
// task keeps the loop's status).
func (f *Focus) SwitchFocus(ctx context.Context, agent, ref string) (Switched, error) {
	var s Switched
	err := f.store.Update(ctx, func(tx store.Tx) error {
		prev, ok, err := tasks.Current(ctx, tx, agent)
		if err != nil {
			return err
		}
		if ok {
			s.Previous = prev.ID
		}
		t, loopState, err := tasks.ResolveLoopRef(ctx, tx, ref, "task_id")
		if err != nil {
			return err
		}
		if !t.Status.Open() {
			return problem.New(problem.Closed, fmt.Sprintf("task %s is %s and completion is permanent", t.ID, t.Status), problem.ListOutline)
		}
		now := f.now()
		if c, found, err := store.TaskClaim(ctx, tx, t.ID); err != nil {
			return err
		} else if found && c.Agent != agent && c.Live(now) {
			s.Held = &c
		}
		if s.Waits, err = tasks.OpenDeps(ctx, tx, t.ID); err != nil {
			return err
		}
		was := t.Status
		if t, err = tasks.Start(ctx, tx, t, loopState, now); err != nil {
			return err
		}
		s.Task, s.Started = t, was != t.Status
		if s.Path, _, err = tx.Query(ctx, store.Query{PathTo: t.ID}); err != nil {
			return err
		}
		return tx.SetFocus(ctx, agent, t.ID, now)
	})
	if err != nil {
		return Switched{}, fmt.Errorf("switch focus: %w", err)
	}
	return s, nil
}

// Removed is the result of removing a subtree.
type Removed struct {
	Task     task.Task // the root of the removed subtree
	Count    int       // tasks hidden, the root included
	Archived int       // of those, completed tasks whose archive entries remain
	MovedOn  bool      // the agent's focus was inside the subtree and moved
	Next     task.Task // the agent's current task afterwards; zero ID in zen
	Zen      Zen       // in zen: what is left
}

// RemoveTask hides a task and its descendants from the structure. Completed
// tasks among them stay in the archive. If the agent's focus was inside the
// subtree it moves on as after a completion. A subtree with a task another
// agent holds is refused unless force is set.
func (f *Focus) RemoveTask(ctx context.Context, agent, ref string, force bool) (Removed, error) {
	var r Removed
	err := f.store.Update(ctx, func(tx store.Tx) error {
		t, err := tasks.ResolveRef(ctx, tx, ref, "task_id")
		if err != nil {
			return err
		}
		id := t.ID
		r.Task = t
		cur, ok, err := tasks.Current(ctx, tx, agent)
		if err != nil {
			return err
		}
		all, err := store.Tasks(ctx, tx)
		if err != nil {
			return err
		}
		sub := task.Subtree(all, id)
		ids := make([]task.ID, len(sub))
		for i, s := range sub {
			ids[i] = s.ID
			if s.Status == task.StatusDone {
				r.Archived++
			}
		}
		now := f.now()
		claims, err := tx.Claims(ctx, store.ClaimQuery{Now: now})
		if err != nil {
			return err
		}
		if err := (tasks.Writer{Agent: agent, Force: force}).Check(claims, ids...); err != nil {
			return err
		}
		if r.Count, err = tx.RemoveSubtree(ctx, id, now); err != nil {
			return err
		}
		in := make(map[task.ID]bool, len(sub))
		for _, x := range sub {
			in[x.ID] = true
		}
		r.MovedOn = ok && in[cur.ID]
		also := ""
		if r.MovedOn {
			also = agent
		}
		to, err := tasks.MoveFocusOff(ctx, tx, t, func(id task.ID) bool { return in[id] }, also, now, claims)
		if err != nil {
			return err
		}
		if r.MovedOn {
			r.Next, err = to.Current(ctx, tx)
		} else {
			r.Next, err = tasks.CurrentAfter(ctx, tx, agent)
		}
		return err
	})
	if err == nil && r.Next.ID == 0 {
		r.Zen, err = f.zen(ctx, agent)
	}
	if err != nil {
		return Removed{}, fmt.Errorf("remove task: %w", err)
	}
	return r, nil
}
