package plan

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/service/internal/boardcache"
	"github.com/cairn-dev/cairn/internal/service/internal/tasks"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/words"
)

// Plan is the dependency-aware task board: the plan specification's view of
// the same task tree the focus stack walks. Its reads answer from the
// cached board (boardcache), brought to the store's snapshot in the one
// statement that reads the rest.
type Plan struct {
	store store.Store
	now   func() time.Time
	board *boardcache.Cache
}

// NewPlan returns the plan service over s, reading board, the cache of s's
// plan (which the focus service shares).
//
// now is the clock; nil is time.Now in UTC (a test fixes it).
func NewPlan(s store.Store, board *boardcache.Cache, now func() time.Time) *Plan {
	if now == nil {
		now = func() time.Time { return time.Now().UTC() }
	}
	return &Plan{store: s, now: now, board: board}
}

// LifecycleMark is the open lifecycle a task walks: its id, definition and
// phase.
type LifecycleMark = tasks.LifecycleMark

// Detail is one task with what the plan knows around it.
type Detail struct {
	task.Task
	Deps       []task.Task // the tasks it depends on, in id order
	Dependents []task.Task // the tasks that depend on it, in id order
	Subtasks   []task.Task // its children, in order
	Claim      *task.Claim // the live claim on it; nil: none
	Lifecycle  *tasks.LifecycleMark
	Imports    []ImportRef // where it was imported from; only Get fills it
}

// Get returns one task with its body, dependencies, dependents and subtasks,
// from one plan read (see getRead).
func (p *Plan) Get(ctx context.Context, ref string) (Detail, error) {
	d, err := p.getRead(ctx, ref)
	if err != nil {
		return Detail{}, fmt.Errorf("get task: %w", err)
	}
	return d, nil
}

// neighboursOnBoard is t's detail as far as b holds it: dependencies,
// dependents and subtasks.
func neighboursOnBoard(b *task.Board, t task.Task) Detail {
	d := Detail{Task: t}
	tasks := func(ids []task.ID) []task.Task {
		out := make([]task.Task, len(ids))
		for i, id := range ids {
			out[i] = *b.Tasks.Get(id) // a board's tasks carry no body
		}
		return out
	}
	d.Deps = tasks(slices.Sorted(slices.Values(b.Deps[t.ID])))
	d.Dependents = tasks(slices.Sorted(slices.Values(b.Dependents[t.ID])))
	if kids := b.Children[t.ID]; len(kids) > 0 { // nil when none, as the store's list is
		d.Subtasks = tasks(kids)
	}
	slices.SortFunc(d.Subtasks, func(x, y task.Task) int {
		if c := cmp.Compare(x.Position, y.Position); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	})
	return d
}

// Item is a task in a list: no body, with its dependency ids.
type Item struct {
	task.Task
	Deps      []task.ID
	Claim     *task.Claim // a live claim; nil: none
	Lifecycle *tasks.LifecycleMark
}

// TaskQuery is a request for a page of the plan's tasks, as a caller
// spells it; List validates it and applies the defaults.
type TaskQuery struct {
	Statuses   []string // any of these; empty: all (or the open ones, with OpenOnly)
	Priorities []string // any of these; empty: all
	OpenOnly   bool     // with no Statuses: only the open statuses
	// CreatedAfter … UpdatedBefore bound the times, as ISO 8601 dates or
	// date-times (a time without a zone is UTC); empty: unbounded.
	CreatedAfter, CreatedBefore, UpdatedAfter, UpdatedBefore string
	Sort                                                     string // one of SortFields; empty: id
	Order                                                    string // asc or desc; empty: store.DefaultDesc (priority: most important first)
	WithBody                                                 bool   // fill in the tasks' bodies
	page.Page                                                       // page.Plan's rule
}

// SortFields are the orders a task list can be sorted by.
var SortFields = []string{store.SortID, store.SortPriority, store.SortCreated, store.SortUpdated, store.SortStatus}

// TaskPage is a page of tasks: how many match in all and where the next
// page starts (zero: this is the last).
type TaskPage struct {
	Items      []Item
	Total      int
	Offset     int
	NextOffset int
}

func (q TaskQuery) query() (store.Query, error) {
	var (
		sq  store.Query
		err error
	)
	if sq.Statuses, err = task.ParseStatuses("status", q.Statuses); err != nil {
		return sq, err
	}
	if len(sq.Statuses) == 0 && q.OpenOnly {
		for _, st := range task.Statuses {
			if st.Open() {
				sq.Statuses = append(sq.Statuses, st)
			}
		}
	}
	if sq.Priorities, err = task.ParsePriorities("priority", q.Priorities); err != nil {
		return sq, err
	}
	for _, d := range []struct {
		name string
		in   string
		out  *time.Time
	}{
		{"createdAfter", q.CreatedAfter, &sq.CreatedAfter},
		{"createdBefore", q.CreatedBefore, &sq.CreatedBefore},
		{"updatedAfter", q.UpdatedAfter, &sq.UpdatedAfter},
		{"updatedBefore", q.UpdatedBefore, &sq.UpdatedBefore},
	} {
		if *d.out, err = page.ParseTime(d.name, d.in); err != nil {
			return sq, err
		}
	}
	if sq.Sort = strings.ToLower(strings.TrimSpace(q.Sort)); sq.Sort == "" {
		sq.Sort = store.SortID
	}
	if !slices.Contains(SortFields, sq.Sort) {
		return sq, &problem.FieldError{Field: "sort", Problem: "is " + problem.Quote(q.Sort), Fix: "use " + page.OneOf(SortFields)}
	}
	switch strings.ToLower(strings.TrimSpace(q.Order)) {
	case "":
		sq.Desc = store.DefaultDesc(sq.Sort)
	case "asc":
	case "desc":
		sq.Desc = true
	default:
		return sq, &problem.FieldError{Field: "order", Problem: "is " + problem.Quote(q.Order), Fix: "use asc or desc"}
	}
	p, err := page.Plan.Apply(q.Page)
	sq.Offset, sq.Limit, sq.WithBody = p.Offset, p.Limit, q.WithBody
	return sq, err
}

// List returns a page of the tasks q selects: from the board when it can
// answer q (onBoard), else from the store's query.
func (p *Plan) List(ctx context.Context, q TaskQuery) (TaskPage, error) {
	sq, err := q.query()
	if err != nil {
		return TaskPage{}, err
	}
	var out TaskPage
	if onBoard(sq) {
		out, err = p.listRead(ctx, sq)
	} else {
		out, err = p.listQuery(ctx, sq)
	}
	if err != nil {
		return TaskPage{}, fmt.Errorf("list tasks: %w", err)
	}
	out.NextOffset = page.NextOffset(out.Offset, len(out.Items), out.Total)
	return out, nil
}

// listQuery is List's page from the store's query: bodies, or bounds on
// times, which the board does not hold.
func (p *Plan) listQuery(ctx context.Context, sq store.Query) (TaskPage, error) {
	out := TaskPage{Offset: sq.Offset}
	err := p.store.View(ctx, func(tx store.Tx) error {
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
		claims, err := tx.Claims(ctx, store.ClaimQuery{Now: p.now()})
		if err != nil {
			return err
		}
		marks, err := tasks.LifecycleMarks(ctx, tx, ids)
		if err != nil {
			return err
		}
		for _, t := range ts {
			out.Items = append(out.Items, item(t, deps[t.ID], claims, marks))
		}
		return nil
	})
	return out, err
}

// item is a task as a list shows it.
func item(t task.Task, deps []task.ID, claims map[task.ID]task.Claim, marks map[task.ID]tasks.LifecycleMark) Item {
	it := Item{Task: t, Deps: deps}
	if c, ok := claims[t.ID]; ok {
		it.Claim = &c
	}
	if m, ok := marks[t.ID]; ok {
		it.Lifecycle = &m
	}
	return it
}

// NewTask is what create_task and add_subtask take.
type NewTask struct {
	Title       string
	Description string
	Priority    task.Priority // default medium
	Status      task.Status   // default pending
	Deps        []string      // references
	Parent      task.ID       // zero: a root task
	Force       bool          // status done although a dependency is open
}

// Change is what update_task and update_subtask take; nil fields stay.
type Change struct {
	Title       *string
	Description *string
	Status      *task.Status
	Priority    *task.Priority
	Deps        *[]string
	// Agent is the writer: a task another agent holds is refused it
	// unless Force is set. Empty: a person, whom claims do not stop.
	Agent string
	Force bool // status done although a dependency is open; write over another's claim
}

// Writer is who writes to a task: see tasks.Writer.
type Writer = tasks.Writer

// resolveDeps turns dependency references into ids for task id (zero for a
// task not yet created), refusing unknown tasks, the task itself, its
// ancestors and anything that would close a cycle.
func resolveDeps(ctx context.Context, tx store.Tx, id, parent task.ID, refs []string) ([]task.ID, error) {
	out, _, err := resolveDepTasks(ctx, tx, id, parent, refs)
	return out, err
}

// resolveDepTasks is resolveDeps that also returns the tasks, in the same
// (id) order, without their bodies.
func resolveDepTasks(ctx context.Context, tx store.Tx, id, parent task.ID, refs []string) ([]task.ID, []task.Task, error) {
	if len(refs) > 1000 {
		return nil, nil, &problem.FieldError{Field: "dependencies", Problem: fmt.Sprintf("has %d entries", len(refs)), Fix: "keep it to at most 1000"}
	}
	var ts []task.Task
	for _, ref := range refs {
		t, err := tasks.ResolveRef(ctx, tx, ref, "dependencies")
		if err != nil {
			if tasks.IsNotFound(err) {
				return nil, nil, &problem.FieldError{Field: "dependencies", Problem: fmt.Sprintf("names %q, which does not exist", problem.Clip(ref, 40)),
					Fix: "depend only on existing tasks", Hint: problem.ListTasks}
			}
			return nil, nil, err
		}
		if !slices.ContainsFunc(ts, func(x task.Task) bool { return x.ID == t.ID }) {
			t.Body = ""
			ts = append(ts, t)
		}
	}
	slices.SortFunc(ts, func(a, b task.Task) int { return cmp.Compare(a.ID, b.ID) })
	out := make([]task.ID, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	if len(out) == 0 {
		return out, ts, nil
	}
	if id != 0 {
		if c := task.FindCycle(nil, id, out); c != nil { // the task itself
			return nil, nil, task.Cycle(c)
		}
	}
	// A task cannot wait for its own ancestor: the ancestor cannot finish
	// before its subtasks do.
	for a := parent; a != 0; {
		if slices.Contains(out, a) {
			return nil, nil, &problem.FieldError{Field: "dependencies", Problem: fmt.Sprintf("names %s, an ancestor of this task, which can only finish after it", a),
				Fix: "drop the ancestor from dependencies"}
		}
		at, err := store.Task(ctx, tx, a)
		if err != nil {
			break
		}
		a = at.ParentID
	}
	if id == 0 {
		return out, ts, nil // nothing depends on a task that does not exist yet
	}
	deps, err := tx.Deps(ctx, store.DepQuery{All: true})
	if err != nil {
		return nil, nil, err
	}
	if c := task.FindCycle(deps, id, out); c != nil {
		return nil, nil, task.Cycle(c)
	}
	return out, ts, nil
}

// AddSubtask adds a subtask under the task parentRef names and returns the
// new subtask and its parent.
func (p *Plan) AddSubtask(ctx context.Context, parentRef string, in NewTask) (sub, parent Detail, err error) {
	redact.Scrub(&in)
	var finish later
	err = p.store.Update(ctx, func(tx store.Tx) error {
		t, err := tasks.ResolveRef(ctx, tx, parentRef, "parentId")
		if err != nil {
			return err
		}
		in.Parent = t.ID
		return p.create(ctx, tx, in, &sub, &finish)
	})
	if err == nil {
		sub, err = finish.detail(ctx, sub)
	}
	if err == nil {
		parent, err = p.Get(ctx, sub.ParentID.String())
	}
	if err != nil {
		return Detail{}, Detail{}, fmt.Errorf("add subtask: %w", err)
	}
	return sub, parent, nil
}

// Create adds a task (a subtask when Parent is set) and returns it.
func (p *Plan) Create(ctx context.Context, in NewTask) (Detail, error) {
	redact.Scrub(&in)
	var (
		d      Detail
		finish later
	)
	err := p.store.Update(ctx, func(tx store.Tx) error {
		return p.create(ctx, tx, in, &d, &finish)
	})
	if err == nil {
		d, err = finish.detail(ctx, d)
	}
	if err != nil {
		return Detail{}, fmt.Errorf("create task: %w", err)
	}
	return d, nil
}

// create is Create in tx, into d, which is whole once the transaction has
// committed (its task comes with the store's next statement: see
// store.Tx.CreateTaskLater), or, when *finish is set, is what finish
// makes of it then.
func (p *Plan) create(ctx context.Context, tx store.Tx, in NewTask, d *Detail, finish *later) error {
	if in.Priority == "" {
		in.Priority = task.PriorityMedium
	}
	if in.Status == "" {
		in.Status = task.StatusPending
	}
	for _, err := range []error{task.ValidateTitle(in.Title), tasks.ValidDescription(in.Description), tasks.ValidPriority(in.Priority), tasks.ValidStatus(in.Status)} {
		if err != nil {
			return err
		}
	}
	if in.Parent != 0 {
		parent, err := store.Task(ctx, tx, in.Parent)
		if err != nil {
			return err
		}
		if !parent.Status.Open() {
			return &problem.Error{Kind: problem.Closed, Problem: fmt.Sprintf("task %s is %s", parent.ID, parent.Status), Fix: "add subtasks only to open tasks"}
		}
	}
	deps, depTasks, err := resolveDepTasks(ctx, tx, 0, in.Parent, in.Deps)
	if err != nil {
		return err
	}
	now := p.now()
	t := task.Task{Title: in.Title, Body: in.Description, Priority: in.Priority, Status: task.StatusPending, CreatedAt: now, UpdatedAt: now}
	// A new task as created: what detail would read is known. It depends
	// on depTasks, nothing depends on it or is under it yet, and it has no
	// claim and no lifecycle.
	if depTasks == nil {
		depTasks = []task.Task{}
	}
	if in.Status == task.StatusPending {
		*d = Detail{Deps: depTasks, Dependents: []task.Task{}}
		return tx.CreateTaskLater(ctx, t, in.Parent, deps, &d.Task)
	}
	if t, err = tx.CreateTask(ctx, t, store.Placement{Parent: in.Parent}); err != nil {
		return err
	}
	if err := tx.SetDeps(ctx, t.ID, deps); err != nil {
		return err
	}
	if t, err = tasks.SetStatus(ctx, tx, t, in.Status, now, in.Force); err != nil {
		return err
	}
	d.Task = t
	*finish = p.detailLater(ctx, tx, t)
	return nil
}

// Update changes a task and returns it.
func (p *Plan) Update(ctx context.Context, ref string, c Change) (Detail, error) {
	return p.update(ctx, ref, "id", c)
}

// update is Update with the name of the argument that holds ref, for errors.
func (p *Plan) update(ctx context.Context, ref, field string, c Change) (Detail, error) {
	redact.Scrub(&c)
	if c.Title != nil {
		if err := task.ValidateTitle(*c.Title); err != nil {
			return Detail{}, err
		}
	}
	if c.Description != nil {
		if err := tasks.ValidDescription(*c.Description); err != nil {
			return Detail{}, err
		}
	}
	if c.Priority != nil {
		if err := tasks.ValidPriority(*c.Priority); err != nil {
			return Detail{}, err
		}
	}
	if c.Status != nil {
		if err := tasks.ValidStatus(*c.Status); err != nil {
			return Detail{}, err
		}
	}
	var (
		d      Detail
		finish later
	)
	err := p.store.Update(ctx, func(tx store.Tx) error {
		var (
			t         task.Task
			loopState []byte
			err       error
		)
		w := tasks.Writer{Agent: c.Agent, Force: c.Force}
		if r, perr := task.ParseRef(ref); perr == nil && len(r.Path) == 0 && c.Agent != "" && !c.Force {
			// The claim goes with the task's read: no round trip of its own.
			tasks.Ahead(ctx, tx, store.Read{Of: store.ReadTaskClaim, ID: r.ID})
		}
		if c.Status != nil {
			t, loopState, err = tasks.ResolveLoopRef(ctx, tx, ref, field)
		} else {
			t, err = tasks.ResolveRef(ctx, tx, ref, field)
		}
		if err != nil {
			return err
		}
		if err := w.CheckTask(ctx, tx, t.ID, p.now()); err != nil {
			return err
		}
		if c.Status != nil && *c.Status != t.Status && loopState != nil {
			// A loop's task status follows the loop; changing it here would
			// leave the loop's state machine behind.
			return &problem.FieldError{Field: "status", Problem: fmt.Sprintf("cannot be set on task %s, which is a loop", t.ID),
				Hint: problem.ControlLoop}
		}
		now := p.now()
		if c.Deps != nil {
			deps, err := resolveDeps(ctx, tx, t.ID, t.ParentID, *c.Deps)
			if err != nil {
				return err
			}
			if err := tx.SetDeps(ctx, t.ID, deps); err != nil {
				return err
			}
		}
		status := c.Status
		if c.Title != nil || c.Description != nil || c.Priority != nil {
			if c.Title != nil {
				t.Title = *c.Title
			}
			if c.Description != nil {
				t.Body = *c.Description
			}
			if c.Priority != nil {
				t.Priority = *c.Priority
			}
			if status != nil && tasks.PlainStatus(t, *status) {
				// One UPDATE for the fields and the status.
				t.Status, status = *status, nil
			}
			t.UpdatedAt = now
			if err := tx.UpdateTask(ctx, t); err != nil {
				return err
			}
		}
		if status != nil {
			if t, err = tasks.SetStatus(ctx, tx, t, *status, now, c.Force); err != nil {
				return err
			}
		}
		finish = p.detailLater(ctx, tx, t)
		return nil
	})
	if err == nil {
		d, err = finish.detail(ctx, d)
	}
	if err != nil {
		return Detail{}, fmt.Errorf("update task: %w", err)
	}
	return d, nil
}

// detailOfRead is t's detail from a plan read made after t was written,
// in the same transaction (store.PlanRead{Since: the board's revision,
// Task: t.ID}): the neighbours from board with the read's changes applied
// around t. ok is false when they cannot be (res.Reload, or a change
// boardAround cannot follow).
func detailOfRead(board *task.Board, res store.PlanReadResult, t task.Task, now time.Time) (Detail, bool) {
	b, ok := boardAround(board, res.Changes, t.ID)
	if res.Reload || !ok {
		return Detail{}, false
	}
	d := neighboursOnBoard(b, t)
	if res.Claim != nil && res.Claim.Live(now) {
		d.Claim = res.Claim
	}
	if m, ok := tasks.MarksOf(res.Lifecycles)[t.ID]; ok {
		d.Lifecycle = &m
	}
	return d, true
}

// later makes a write's detail once its transaction has committed; nil
// when the write knows it whole already.
type later func(context.Context) (Detail, error)

// detail returns what f makes, or d when f is nil.
func (f later) detail(ctx context.Context, d Detail) (Detail, error) {
	if f == nil {
		return d, nil
	}
	return f(ctx)
}

// detailLater asks, in the write's transaction, for what t's detail needs
// beside the cached board (t's claim and open lifecycle, and the plan's
// changes since the board, the write's own included), in a read the store
// sends with COMMIT: one round trip less under the project's lock. The
// detail is made from it once the transaction has committed: the board's
// neighbours around t brought up to the write (detailOfRead). Without a
// cached board, or when its changes cannot be followed there (rare: a row
// deleted outright), it is read afresh after the commit.
func (p *Plan) detailLater(ctx context.Context, tx store.Tx, t task.Task) later {
	from := p.board.Latest()
	res := new(store.PlanReadResult)
	if from != nil {
		tx.ReadPlanLater(ctx, store.PlanRead{Since: from.Rev, Task: t.ID}, res)
	}
	now := p.now()
	return func(ctx context.Context) (Detail, error) {
		if from != nil {
			if d, ok := detailOfRead(from.Board, *res, t, now); ok {
				return d, nil
			}
		}
		d, err := p.getRead(ctx, t.ID.String())
		if err != nil {
			// The write is in: say so, or a retry would repeat it.
			return Detail{}, fmt.Errorf("task %s was changed, but reading it back failed (get_task shows it): %w", t.ID, err)
		}
		return d, nil
	}
}

// Deleted is the result of a deletion.
type Deleted struct {
	Task  task.Task
	Count int // tasks removed, subtasks included
	// Released are the tasks outside the deleted subtree that depended on
	// something in it, in id order; Ready are those of them that can now be
	// worked on (see task.Board.Ready).
	Released []task.Task
	Ready    []task.ID
}

// Delete removes a task and its subtasks from the plan; other tasks stop
// depending on them, agents focused inside move on, and completed ones stay
// in the archive. A task of them another agent than w's holds is refused
// unless w.Force is set.
func (p *Plan) Delete(ctx context.Context, ref string, w Writer) (Deleted, error) {
	var r Deleted
	err := p.store.Update(ctx, func(tx store.Tx) error {
		t, err := tasks.ResolveRef(ctx, tx, ref, "id")
		if err != nil {
			return err
		}
		r, err = p.remove(ctx, tx, t, w)
		return err
	})
	if err != nil {
		return Deleted{}, fmt.Errorf("delete task: %w", err)
	}
	return r, nil
}

func (p *Plan) remove(ctx context.Context, tx store.Tx, t task.Task, w Writer) (Deleted, error) {
	all, err := store.Tasks(ctx, tx)
	if err != nil {
		return Deleted{}, err
	}
	in := map[task.ID]bool{}
	var ids []task.ID
	for _, x := range task.Subtree(all, t.ID) {
		in[x.ID] = true
		ids = append(ids, x.ID)
	}
	claims, err := tx.Claims(ctx, store.ClaimQuery{Now: p.now()})
	if err != nil {
		return Deleted{}, err
	}
	if err := w.Check(claims, ids...); err != nil {
		return Deleted{}, err
	}
	// Who loses a dependency, read before the edges go with the subtree.
	released := map[task.ID]bool{}
	for id := range in {
		ds, err := store.Dependents(ctx, tx, id)
		if err != nil {
			return Deleted{}, err
		}
		for _, d := range ds {
			if !in[d] {
				released[d] = true
			}
		}
	}
	now := p.now()
	r := Deleted{Task: t}
	if r.Count, err = tx.RemoveSubtree(ctx, t.ID, now); err != nil {
		return Deleted{}, err
	}
	if _, err := tasks.MoveFocusOff(ctx, tx, t, func(id task.ID) bool { return in[id] }, "", now, claims); err != nil {
		return Deleted{}, err
	}
	if len(released) == 0 {
		return r, nil
	}
	ids = make([]task.ID, 0, len(released))
	for id := range released {
		ids = append(ids, id)
	}
	task.SortIDs(ids)
	rd := tasks.NewReadiness(ctx, tx)
	for _, id := range ids {
		x, err := store.Task(ctx, tx, id)
		if tasks.IsNotFound(err) {
			continue
		}
		if err != nil {
			return Deleted{}, err
		}
		x.Body = ""
		r.Released = append(r.Released, x)
		ok, err := rd.Ready(x)
		if err != nil {
			return Deleted{}, err
		}
		if ok {
			r.Ready = append(r.Ready, id)
		}
	}
	return r, nil
}

// Board returns the whole plan graph as of now, from the cached board
// brought up to the store's snapshot (see boardcache). Callers must not
// modify it.
func (p *Plan) Board(ctx context.Context) (*task.Board, error) {
	return p.board.Board(ctx)
}

// boardAndClaims returns the board (see Board) and the test for tasks
// other agents hold (task.HeldBy; nil for no agent), from one plan read.
func (p *Plan) boardAndClaims(ctx context.Context, agent string) (*task.Board, func(task.ID) bool, error) {
	res, b, err := p.board.Read(ctx, store.PlanRead{Claims: agent != "", Now: p.now()})
	if err != nil {
		return nil, nil, err
	}
	return b, task.HeldBy(res.Claims, agent), nil
}

// NextQuery narrows the candidates for the next task: statuses (default
// pending and in-progress) and priorities, as a caller spells them.
type NextQuery struct {
	Statuses   []string
	Priorities []string
	Agent      string // the caller: tasks other agents claimed are left out; empty: claims are not looked at
}

// Recommendation is get_next_task's answer.
type Recommendation struct {
	Task      *task.Task // nil when nothing qualifies
	Rationale string
	Hint      problem.Action // what to look at when nothing is ready
	Unblocks  []task.Task
	Skipped   int // better candidates passed over: other agents hold them
}

// Next recommends the task to work on next (see task.Board.Next for the rule)
// and says why in one sentence. With q.Agent set, tasks other agents hold a
// live claim on are left out, and counted.
func (p *Plan) Next(ctx context.Context, q NextQuery) (Recommendation, error) {
	var (
		f   task.NextFilter
		err error
	)
	if f.Statuses, err = task.ParseStatuses("status", q.Statuses); err != nil {
		return Recommendation{}, err
	}
	if f.Priorities, err = task.ParsePriorities("priority", q.Priorities); err != nil {
		return Recommendation{}, err
	}
	b, skip, err := p.boardAndClaims(ctx, q.Agent)
	if err != nil {
		return Recommendation{}, fmt.Errorf("next task: %w", err)
	}
	t, skipped, ok := b.NextExcept(f, skip)
	if !ok {
		open, blocked := 0, 0
		for _, x := range b.Tasks.All() {
			if x.Status.Open() {
				open++
				if b.Blocked(x.ID) {
					blocked++
				}
			}
		}
		if skipped > 0 {
			return Recommendation{Rationale: "No task is free: other agents hold every ready one (" + strconv.Itoa(skipped) + ").", Skipped: skipped}, nil
		}
		if open > 0 {
			return Recommendation{Rationale: fmt.Sprintf("No task is ready: %d open, %d of them blocked or waiting on dependencies", open, blocked),
				Hint: problem.ListBlocked}, nil
		}
		return Recommendation{Rationale: "Nothing to do: no open task matches."}, nil
	}
	r := Recommendation{Task: t, Skipped: skipped}
	var why []string
	why = append(why, string(t.Priority)+" priority")
	if n := len(b.Deps[t.ID]); n > 0 {
		why = append(why, "its "+words.Plural(n, "dependency is", "dependencies are")+" done")
	} else {
		why = append(why, "no dependencies")
	}
	if parent := b.Tasks.Get(t.ParentID); parent != nil && t.ParentID != 0 {
		why = append(why, fmt.Sprintf("a subtask of %s [%s]", parent.Status, parent.ID))
	}
	r.Rationale = fmt.Sprintf("Recommended [%s] %q: %s", t.ID, t.Title, strings.Join(why, ", "))
	for _, id := range b.Unblocks(t.ID) {
		r.Unblocks = append(r.Unblocks, *b.Tasks.Get(id))
	}
	switch n := len(r.Unblocks); {
	case n == 0:
		r.Rationale += "; finishing it unblocks nothing else."
	case n <= 3:
		names := make([]string, n)
		for i, u := range r.Unblocks {
			names[i] = fmt.Sprintf("[%s] %q", u.ID, u.Title)
		}
		r.Rationale += "; finishing it unblocks " + strings.Join(names, ", ") + "."
	default:
		r.Rationale += fmt.Sprintf("; finishing it unblocks %d tasks.", n)
	}
	if skipped > 0 {
		r.Rationale += " Skipped " + strconv.Itoa(skipped) + " that other agents hold."
	}
	return r, nil
}

// Stats are get_task_stats' numbers.
type Stats struct {
	Total             int
	ByStatus          map[task.Status]int
	ByPriority        map[task.Priority]int
	BlockedCount      int // status blocked, or open and waiting on a dependency
	AvgCompletionDays float64
	MaxDepth          int
	AvgDepsPerTask    float64
}

// Stats returns the plan's aggregate numbers.
func (p *Plan) Stats(ctx context.Context) (Stats, error) {
	b, err := p.Board(ctx)
	if err != nil {
		return Stats{}, fmt.Errorf("task stats: %w", err)
	}
	// The board holds every visible task: the aggregates cost no read.
	c := store.CountsOf(func(yield func(task.Task) bool) {
		for _, t := range b.Tasks.All() {
			if !yield(*t) {
				return
			}
		}
	})
	s := Stats{ByStatus: c.ByStatus, ByPriority: c.ByPriority, AvgCompletionDays: c.AvgCompletionDays}
	ids := make([]task.ID, 0, b.Tasks.Len())
	for id, t := range b.Tasks.All() {
		ids = append(ids, id)
		if t.Status.Open() && b.Blocked(id) {
			s.BlockedCount++
		}
	}
	s.Total = len(ids)
	s.MaxDepth, s.AvgDepsPerTask = task.DepthStats(ids, b.Deps)
	return s, nil
}

// Recent returns the n most recently updated tasks.
func (p *Plan) Recent(ctx context.Context, n int) ([]task.Task, error) {
	var ts []task.Task
	err := p.store.View(ctx, func(tx store.Tx) (err error) {
		ts, _, err = tx.Query(ctx, store.Query{Sort: store.SortUpdated, Desc: true, Limit: n})
		return err
	})
	return ts, err
}

// UpdateSubtask changes a subtask and returns its parent.
func (p *Plan) UpdateSubtask(ctx context.Context, ref string, c Change) (Detail, error) {
	redact.Scrub(&c)
	if err := requireSubtaskRef(ref); err != nil {
		return Detail{}, err
	}
	d, err := p.update(ctx, ref, "subtaskId", c)
	if err != nil {
		return Detail{}, err
	}
	return p.Get(ctx, d.ParentID.String())
}

// DeleteSubtask removes a subtask (and its own subtasks) and returns its
// parent; claims refuse it as they do Delete.
func (p *Plan) DeleteSubtask(ctx context.Context, ref string, w Writer) (Detail, error) {
	if err := requireSubtaskRef(ref); err != nil {
		return Detail{}, err
	}
	var parentID task.ID
	err := p.store.Update(ctx, func(tx store.Tx) error {
		t, err := tasks.ResolveRef(ctx, tx, ref, "subtaskId")
		if err != nil {
			return err
		}
		parentID = t.ParentID
		_, err = p.remove(ctx, tx, t, w)
		return err
	})
	var parent Detail
	if err == nil {
		parent, err = p.Get(ctx, parentID.String())
	}
	if err != nil {
		return Detail{}, fmt.Errorf("delete subtask: %w", err)
	}
	return parent, nil
}

func requireSubtaskRef(ref string) error {
	r, err := task.ParseRef(ref)
	if err != nil || len(r.Path) == 0 {
		return &problem.FieldError{Field: "subtaskId", Problem: fmt.Sprintf("is %q, not a subtask id", problem.Clip(ref, 40)),
			Fix: `pass "parentId.N", e.g. "12.3" for subtask 3 of task 12`}
	}
	return nil
}
