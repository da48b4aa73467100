// Package service holds Cairn's use cases, one type per toolset. A service
// validates its input, runs the domain rules inside one store transaction and
// returns plain values; it knows nothing of MCP, HTTP or the CLI.
package service

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// Focus is the focus stack: each agent's YOU ARE HERE on the project's task
// tree, and the rules that move it. Its reads answer from the plan
// service's cached board.
type Focus struct {
	store store.Store
	now   func() time.Time
	plan  *Plan
}

// NewFocus returns the focus service over s, reading the board plan keeps.
func NewFocus(s store.Store, plan *Plan) *Focus {
	return &Focus{store: s, now: func() time.Time { return time.Now().UTC() }, plan: plan}
}

// current resolves the agent's current task: its focus pointer when that
// names an open, visible task; otherwise zen (ok is false). An agent that
// never took focus is in zen: focus is not derived from the outline, since
// the end of a plan made with create_task is the work to do last.
func current(ctx context.Context, tx store.Tx, agent string) (t task.Task, ok bool, err error) {
	t, found, err := tx.FocusedTask(ctx, agent)
	if err != nil || !found || !t.Status.Open() {
		return task.Task{}, false, err
	}
	return t, true, nil
}

// Zen says what an agent without a current task can do: the task
// get_next_task would recommend, if any, and how many tasks are open.
type Zen struct {
	Next  *task.Task // nil when no task is ready
	Open  int        // open tasks, ready or not
	Total int        // visible tasks, closed ones included
}

// zen works out Zen for an agent without a current task, after (never
// inside) the transaction that found it so, from the cached board: the
// hint may be a moment newer than the answer around it.
func (f *Focus) zen(ctx context.Context) (Zen, error) {
	b, err := f.plan.Board(ctx)
	if err != nil {
		return Zen{}, err
	}
	return zenOfBoard(b), nil
}

func zenOfBoard(b *task.Board) Zen {
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

// mustCurrent is current for an operation that needs a task: in zen it
// fails with a Zen refusal, saying what there is nothing to do and that a task
// must be created first.
func mustCurrent(ctx context.Context, tx store.Tx, agent, nothingTo string) (task.Task, error) {
	t, ok, err := current(ctx, tx, agent)
	if err == nil && !ok {
		err = noCurrent(nothingTo)
	}
	return t, err
}

// noCurrent is mustCurrent's refusal.
func noCurrent(nothingTo string) error {
	return problem.New(problem.Zen, "no current task, so there is nothing to "+nothingTo, problem.CreateTask)
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
	scrub(&title, &body)
	if err := validateNew(title, body); err != nil {
		return task.Task{}, err
	}
	var created task.Task
	err := f.store.Update(ctx, func(tx store.Tx) (err error) {
		now := f.now()
		return tx.CreateUnderCurrent(ctx, agent, task.New(title, body, now), task.OpenStatuses, now, &created)
	})
	if err != nil {
		return task.Task{}, fmt.Errorf("create task: %w", err)
	}
	return created, nil
}

// ExtendCurrentTask adds the next step at the current level: a sibling
// immediately to the right of the current task. It takes the agent's focus.
func (f *Focus) ExtendCurrentTask(ctx context.Context, agent, title, body string) (task.Task, error) {
	scrub(&title, &body)
	if err := validateNew(title, body); err != nil {
		return task.Task{}, err
	}
	var created task.Task
	err := f.store.Update(ctx, func(tx store.Tx) error {
		cur, err := mustCurrent(ctx, tx, agent, "extend")
		if err != nil {
			return err
		}
		now := f.now()
		created, err = tx.CreateTask(ctx, task.New(title, body, now),
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
// task, OutlinePage's rule) and where the agent is, from one plan read.
func (f *Focus) BigPicture(ctx context.Context, agent string, page Page) (Picture, error) {
	page, err := OutlinePage.apply(page)
	if err != nil {
		return Picture{}, err
	}
	p, err := f.pictureRead(ctx, agent, page)
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
}

// CompleteCurrentTask completes the agent's current task, archives it and
// moves focus by the rules of task.NextFocus. A task with open children is
// refused, and so is one with open dependencies unless force is set.
func (f *Focus) CompleteCurrentTask(ctx context.Context, agent string, force bool) (Completed, error) {
	var c Completed
	err := f.store.Update(ctx, func(tx store.Tx) error {
		// What closeTask reads, with the focus: one round trip. The task's
		// open children and dependencies, then what moveFocusOff reads
		// after closeTask's writes, which leave those answers true (they
		// change the task's own fields, its claim and the archive).
		reads := []store.Read{{Of: store.ReadOpenChildren, Agent: agent}, {Of: store.ReadFocuses},
			{Of: store.ReadOpenChildren, Agent: agent, Up: 1}, {Of: store.ReadTask, Agent: agent, Up: 1}}
		if !force {
			reads = append(reads, store.Read{Of: store.ReadTaskDeps, Agent: agent})
		}
		ahead(ctx, tx, reads...)
		cur, err := mustCurrent(ctx, tx, agent, "complete")
		if err != nil {
			return err
		}
		now := f.now()
		var to moved
		if cur, to, err = closeTask(ctx, tx, cur, task.StatusDone, now, agent, force); err != nil {
			return err
		}
		c.Task = cur
		c.Next, err = to.current(ctx, tx)
		return err
	})
	if err == nil && c.Next.ID == 0 {
		c.Zen, err = f.zen(ctx)
	}
	if err != nil {
		return Completed{}, fmt.Errorf("complete task: %w", err)
	}
	return c, nil
}

// closeTask completes (done) or cancels t: its children must be closed
// first, and for done its dependencies too unless force is set. A
// completion is archived. Every agent focused on t, and the agent
// who asked (whose focus may only have been derived), moves on by the rules
// of task.NextFocus. It returns t as stored, and where the focus moved.
func closeTask(ctx context.Context, tx store.Tx, t task.Task, status task.Status, now time.Time, agent string, force bool) (task.Task, moved, error) {
	if !t.Status.Open() {
		return task.Task{}, moved{}, problem.New(problem.Closed, fmt.Sprintf("task %s is already %s, and that is permanent", t.ID, t.Status), problem.NoAction)
	}
	reads := []store.Read{{Of: store.ReadOpenChildren, ID: t.ID}}
	if status == task.StatusDone && !force {
		reads = append(reads, store.Read{Of: store.ReadTaskDeps, ID: t.ID})
	}
	ahead(ctx, tx, reads...) // one round trip for both
	kids, err := tx.OpenChildren(ctx, t.ID)
	if err != nil {
		return task.Task{}, moved{}, err
	}
	var open []string
	for _, k := range kids {
		open = append(open, fmt.Sprintf("%s %q", k.ID, k.Title))
	}
	if len(open) > 0 {
		return task.Task{}, moved{}, &problem.Error{Kind: problem.OpenChildren,
			Problem: fmt.Sprintf("task %s has %d incomplete: %s", t.ID, len(open), problem.Clip(strings.Join(open, ", "), 300)),
			Fix:     "complete or cancel them first, or remove them"}
	}
	if status == task.StatusDone && !force {
		if err := checkDeps(ctx, tx, t.ID); err != nil {
			return task.Task{}, moved{}, err
		}
	}
	t.Status, t.UpdatedAt = status, now
	if status == task.StatusDone {
		t.CompletedAt = now
	}
	if err := tx.UpdateTask(ctx, t); err != nil {
		return task.Task{}, moved{}, err
	}
	// A closed task is nobody's work any more: its claim ends.
	if err := tx.DropClaim(ctx, t.ID); err != nil {
		return task.Task{}, moved{}, err
	}
	if status == task.StatusDone {
		if err := tx.Archive(ctx, task.Completion{TaskID: t.ID, ParentID: t.ParentID, Title: t.Title,
			Body: t.Body, CreatedAt: t.CreatedAt, CompletedAt: now}); err != nil {
			return task.Task{}, moved{}, err
		}
	}
	to, err := moveFocusOff(ctx, tx, t, func(id task.ID) bool { return id == t.ID }, agent, now)
	return t, to, err
}

// moved is where moveFocusOff moved agents: the task, zero for zen, and
// the task itself when the move read it whole.
type moved struct {
	id   task.ID
	read *task.Task
}

// current is current for an agent just moved here, from what the move
// knows: the same task, without reading the agent's focus back.
func (m moved) current(ctx context.Context, tx store.Tx) (task.Task, error) {
	if m.id == 0 {
		return task.Task{}, nil
	}
	var (
		t   task.Task
		err error
	)
	if m.read != nil {
		t = *m.read
	} else {
		t, err = tx.Task(ctx, m.id)
	}
	switch {
	case err == nil && t.Status.Open():
		return t, nil
	case err != nil && !isNotFound(err):
		return task.Task{}, err
	}
	return task.Task{}, nil
}

// moveFocusOff moves every agent whose focus is on a task that inside
// selects (and the agent named by also, if any) to where the focus rules go
// after left was closed or removed, and says where that is (zero: none was
// moved). Agents focused elsewhere stay.
func moveFocusOff(ctx context.Context, tx store.Tx, left task.Task, inside func(task.ID) bool, also string, now time.Time) (moved, error) {
	// The focuses and, when an agent is sure to move, what nextAfter reads
	// first, in one round trip (with the caller's writes, on a store that
	// sends them late). Not otherwise: the open siblings of a root task
	// are every open root task.
	reads := []store.Read{{Of: store.ReadFocuses}}
	if also != "" {
		reads = append(reads, store.Read{Of: store.ReadOpenChildren, ID: left.ParentID})
		if left.ParentID != 0 {
			reads = append(reads, store.Read{Of: store.ReadTask, ID: left.ParentID})
		}
	}
	ahead(ctx, tx, reads...)
	focuses, err := tx.Focuses(ctx)
	if err != nil {
		return moved{}, err
	}
	var agents []string
	for agent, id := range focuses {
		if inside(id) && agent != also {
			agents = append(agents, agent)
		}
	}
	if also != "" {
		agents = append(agents, also)
	}
	if len(agents) == 0 {
		return moved{}, nil
	}
	next, err := nextAfter(ctx, tx, left)
	if err != nil {
		return moved{}, err
	}
	for _, agent := range agents {
		if err := tx.SetFocus(ctx, agent, next.id, now); err != nil {
			return moved{}, err
		}
	}
	return next, nil
}

// checkDeps refuses (task.OpenDeps) to mark id done while a
// task it depends on is neither done nor cancelled.
func checkDeps(ctx context.Context, tx store.Tx, id task.ID) error {
	deps, err := tx.TaskDeps(ctx, id)
	if err != nil {
		return err
	}
	aheadTasks(ctx, tx, deps)
	var open []task.Task
	for _, d := range deps {
		dt, err := tx.Task(ctx, d)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return err
		}
		if !dt.Status.Satisfied() {
			dt.Body = ""
			open = append(open, dt)
		}
	}
	if len(open) > 0 {
		return task.OpenDeps(id, open)
	}
	return nil
}

// nextAfter applies task.NextFocus after left was closed or removed. Of
// left's siblings it reads the open ones, the only ones NextFocus can
// pick: on a level of hundreds of finished steps, reading them all made
// each completion cost more than the one before.
func nextAfter(ctx context.Context, tx store.Tx, left task.Task) (moved, error) {
	sibs, err := tx.OpenChildren(ctx, left.ParentID)
	if err != nil {
		return moved{}, err
	}
	var parent *task.Task
	if left.ParentID != 0 {
		p, err := tx.Task(ctx, left.ParentID)
		if err != nil && !isNotFound(err) {
			return moved{}, err
		}
		if err == nil {
			parent = &p
		}
	}
	// A sibling's readiness is judged from its own and its ancestors'
	// dependencies (few reads); the search from the end, which the first
	// two rules almost always spare, reads the whole plan once.
	var rerr error
	rd := newReadiness(ctx, tx)
	siblingReady := func(t task.Task) bool {
		if rerr != nil {
			return false
		}
		ok, err := rd.ready(t)
		if err != nil {
			rerr = err
		}
		return ok
	}
	var (
		all   []task.Task
		board *task.Board
	)
	load := func() {
		if board != nil || rerr != nil {
			return
		}
		if all, rerr = tx.Tasks(ctx); rerr != nil {
			return
		}
		var deps task.Deps
		if deps, rerr = tx.Deps(ctx); rerr == nil {
			board = task.NewBoard(all, deps)
		}
	}
	outline := func() ([]task.Entry, error) {
		load()
		if rerr != nil {
			return nil, rerr
		}
		return task.Outline(all), nil
	}
	ready := func(t task.Task) bool {
		if board == nil {
			return siblingReady(t)
		}
		return board.Ready(t.ID)
	}
	id, err := task.NextFocus(left.ID, sibs, parent, outline, ready)
	if rerr != nil {
		return moved{}, rerr
	}
	m := moved{id: id}
	if parent != nil && id == parent.ID {
		m.read = parent
	}
	return m, err
}

// readiness tells whether tasks are ready (see task.Board.Ready) with a few
// reads each, remembering what it read: for a handful of tasks it is far
// cheaper than building the board of the whole plan.
type readiness struct {
	ctx   context.Context
	tx    store.Tx
	waits map[task.ID]bool // a task, or one of its ancestors, has an open dependency
}

func newReadiness(ctx context.Context, tx store.Tx) *readiness {
	return &readiness{ctx: ctx, tx: tx, waits: map[task.ID]bool{}}
}

// ready reports whether t is pending or in progress and neither it nor an
// ancestor waits on an open dependency.
func (r *readiness) ready(t task.Task) (bool, error) {
	if t.Status != task.StatusPending && t.Status != task.StatusInProgress {
		return false, nil
	}
	w, err := r.waiting(t)
	return !w, err
}

func (r *readiness) waiting(t task.Task) (bool, error) {
	if w, ok := r.waits[t.ID]; ok {
		return w, nil
	}
	deps, err := r.tx.TaskDeps(r.ctx, t.ID)
	if err != nil {
		return false, err
	}
	w := false
	for _, d := range deps {
		dt, err := r.tx.Task(r.ctx, d)
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return false, err
		}
		if !dt.Status.Satisfied() {
			w = true
			break
		}
	}
	if !w && t.ParentID != 0 {
		p, err := r.tx.Task(r.ctx, t.ParentID)
		switch {
		case err == nil:
			if w, err = r.waiting(p); err != nil {
				return false, err
			}
		case !isNotFound(err):
			return false, err
		}
	}
	r.waits[t.ID] = w
	return w, nil
}

// currentAfter returns the agent's current task after a change, zero in zen.
func currentAfter(ctx context.Context, tx store.Tx, agent string) (task.Task, error) {
	t, ok, err := current(ctx, tx, agent)
	if err != nil || !ok {
		return task.Task{}, err
	}
	return t, nil
}

// CompletedQuery asks for a page of the archive (ArchivePage's rule) in
// an order: chronological (the default) or logical (last completed first).
type CompletedQuery struct {
	Order string
	Page
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
		return Archive{}, &problem.FieldError{Field: "order", Problem: "is " + problem.Quote(q.Order), Fix: `use "chronological" or "logical"`}
	}
	p, err := ArchivePage.apply(q.Page)
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
	out.NextOffset = nextOffset(out.Offset, len(out.Tasks), out.Total)
	return out, nil
}

// UpdateCurrentTask replaces the current task's body; title and ID stay.
func (f *Focus) UpdateCurrentTask(ctx context.Context, agent, body string) (task.Task, error) {
	scrub(&body)
	if err := task.ValidateBody(body); err != nil {
		return task.Task{}, err
	}
	var t task.Task
	err := f.store.Update(ctx, func(tx store.Tx) error {
		return tx.UpdateCurrentBody(ctx, agent, body, task.OpenStatuses, f.now(), &t)
	})
	if errors.Is(err, store.ErrNoCurrentTask) {
		err = noCurrent("update")
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
		cur, ok, err := current(ctx, tx, agent)
		if err != nil || !ok {
			c.Zen = !ok
			return err
		}
		c.Current = cur
		if cur.ParentID != 0 {
			p, err := tx.Task(ctx, cur.ParentID)
			if err != nil {
				return err
			}
			c.Parent = &p
		}
		// The one sibling it shows: a level of hundreds of finished steps
		// is not read, bodies and all, to show the last.
		left, found, err := tx.LeftSibling(ctx, cur, withBody)
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
// the one a reader wants first. The page's size is SiblingPage's rule, or
// SiblingBodyPage's with bodies.
type SiblingsQuery struct {
	WithBody bool
	Page
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
	rule := SiblingPage
	if q.WithBody {
		rule = SiblingBodyPage
	}
	p, err := rule.apply(q.Page)
	if err != nil {
		return Siblings{}, err
	}
	out := Siblings{Offset: p.Offset}
	err = f.store.View(ctx, func(tx store.Tx) error {
		cur, ok, err := current(ctx, tx, agent)
		if err != nil || !ok {
			out.Zen = !ok
			return err
		}
		// Without bodies: a level of hundreds of finished steps would
		// otherwise read every body to show a page of them.
		sibs, err := tx.Children(ctx, cur.ParentID, false)
		if err != nil {
			return err
		}
		left := leftOf(sibs, cur.ID)
		out.Total = len(left)
		// The window counts back from the current task: reverse
		// positions, so that lo..hi of the reversed list is the page.
		lo, hi, next := p.window(len(left))
		out.Left = left[len(left)-hi : len(left)-lo]
		out.NextOffset = next
		if !q.WithBody {
			return nil
		}
		out.Left = slices.Clone(out.Left) // the store's slice stays as it gave it
		for i, s := range out.Left {
			full, err := tx.Task(ctx, s.ID)
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
}

// SwitchFocus points the agent at any open task, named by id ("12") or as a
// subtask ("12.3").
func (f *Focus) SwitchFocus(ctx context.Context, agent, ref string) (Switched, error) {
	var s Switched
	err := f.store.Update(ctx, func(tx store.Tx) error {
		prev, ok, err := current(ctx, tx, agent)
		if err != nil {
			return err
		}
		if ok {
			s.Previous = prev.ID
		}
		t, err := resolveRef(ctx, tx, ref, "task_id")
		if err != nil {
			return err
		}
		if !t.Status.Open() {
			return problem.New(problem.Closed, fmt.Sprintf("task %s is %s and completion is permanent", t.ID, t.Status), problem.ListOutline)
		}
		s.Task = t
		if s.Path, err = tx.Ancestors(ctx, t.ID); err != nil {
			return err
		}
		return tx.SetFocus(ctx, agent, t.ID, f.now())
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
// subtree it moves on as after a completion.
func (f *Focus) RemoveTask(ctx context.Context, agent, ref string) (Removed, error) {
	var r Removed
	err := f.store.Update(ctx, func(tx store.Tx) error {
		t, err := resolveRef(ctx, tx, ref, "task_id")
		if err != nil {
			return err
		}
		id := t.ID
		r.Task = t
		cur, ok, err := current(ctx, tx, agent)
		if err != nil {
			return err
		}
		all, err := tx.Tasks(ctx)
		if err != nil {
			return err
		}
		sub := task.Subtree(all, id)
		for _, s := range sub {
			if s.Status == task.StatusDone {
				r.Archived++
			}
		}
		now := f.now()
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
		to, err := moveFocusOff(ctx, tx, t, func(id task.ID) bool { return in[id] }, also, now)
		if err != nil {
			return err
		}
		if r.MovedOn {
			r.Next, err = to.current(ctx, tx)
		} else {
			r.Next, err = currentAfter(ctx, tx, agent)
		}
		return err
	})
	if err == nil && r.Next.ID == 0 {
		r.Zen, err = f.zen(ctx)
	}
	if err != nil {
		return Removed{}, fmt.Errorf("remove task: %w", err)
	}
	return r, nil
}

// Set is every service of one project, as the surfaces use them.
type Set struct {
	Focus      *Focus
	Plan       *Plan
	Loops      *Loops
	Memory     *Memory
	Brain      *Brain
	Lifecycles *Lifecycles
}

// NewSet returns every service over one store. now, if not nil, is their
// clock (a test fixes it so answers are the same on every run).
func NewSet(st store.Store, mopts MemoryOptions, now func() time.Time) *Set {
	plan := NewPlan(st)
	s := &Set{Focus: NewFocus(st, plan), Plan: plan, Loops: NewLoops(st), Memory: NewMemory(st, mopts), Lifecycles: NewLifecycles(st, "")}
	if now != nil {
		s.Focus.now, s.Plan.now, s.Loops.now, s.Memory.now, s.Lifecycles.now = now, now, now, now, now
	}
	return s
}
