package tasks

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// Current resolves the agent's Current task: its focus pointer when that
// names an open, visible task; otherwise zen (ok is false). An agent that
// never took focus is in zen: focus is not derived from the outline, since
// the end of a plan made with create_task is the work to do last.
func Current(ctx context.Context, tx store.Tx, agent string) (t task.Task, ok bool, err error) {
	t, found, err := tx.FocusedTask(ctx, agent)
	if err != nil || !found || !t.Status.Open() {
		return task.Task{}, false, err
	}
	return t, true, nil
}

// MustCurrent is current for an operation that needs a task: in zen it
// fails with a Zen refusal, saying what there is nothing to do and that a task
// must be created first.
func MustCurrent(ctx context.Context, tx store.Tx, agent, nothingTo string) (task.Task, error) {
	t, ok, err := Current(ctx, tx, agent)
	if err == nil && !ok {
		err = NoCurrent(nothingTo)
	}
	return t, err
}

// NoCurrent is mustCurrent's refusal.
func NoCurrent(nothingTo string) error {
	return problem.New(problem.Zen, "no current task, so there is nothing to "+nothingTo, problem.CreateTask)
}

// CloseTask completes (done) or cancels t: its children must be closed
// first, and for done its dependencies too unless force is set. A
// completion is archived. Every agent focused on t, and the agent
// who asked (whose focus may only have been derived), moves on by the rules
// of task.NextFocus. It returns t as stored, and where the focus moved.
func CloseTask(ctx context.Context, tx store.Tx, t task.Task, status task.Status, now time.Time, agent string, force bool) (task.Task, Moved, error) {
	if !t.Status.Open() {
		return task.Task{}, Moved{}, problem.New(problem.Closed, fmt.Sprintf("task %s is already %s, and that is permanent", t.ID, t.Status), problem.NoAction)
	}
	reads := []store.Read{{Of: store.ReadOpenChildren, ID: t.ID}}
	if status == task.StatusDone && !force {
		reads = append(reads, store.Read{Of: store.ReadTaskDeps, ID: t.ID})
	}
	Ahead(ctx, tx, reads...) // one round trip for both
	kids, err := tx.OpenChildren(ctx, t.ID)
	if err != nil {
		return task.Task{}, Moved{}, err
	}
	var open []string
	for _, k := range kids {
		open = append(open, fmt.Sprintf("%s %q", k.ID, k.Title))
	}
	if len(open) > 0 {
		return task.Task{}, Moved{}, &problem.Error{Kind: problem.OpenChildren,
			Problem: fmt.Sprintf("task %s has %d incomplete: %s", t.ID, len(open), problem.Clip(strings.Join(open, ", "), 300)),
			Fix:     "complete or cancel them first, or remove them"}
	}
	if status == task.StatusDone && !force {
		if err := CheckDeps(ctx, tx, t.ID); err != nil {
			return task.Task{}, Moved{}, err
		}
	}
	t.Status, t.UpdatedAt = status, now
	if status == task.StatusDone {
		t.CompletedAt = now
	}
	if err := tx.UpdateTask(ctx, t); err != nil {
		return task.Task{}, Moved{}, err
	}
	// A closed task is nobody's work any more: its claim ends.
	if err := tx.DropClaim(ctx, t.ID); err != nil {
		return task.Task{}, Moved{}, err
	}
	if status == task.StatusDone {
		if err := tx.Archive(ctx, task.Completion{TaskID: t.ID, ParentID: t.ParentID, Title: t.Title,
			Body: t.Body, CreatedAt: t.CreatedAt, CompletedAt: now}); err != nil {
			return task.Task{}, Moved{}, err
		}
		if err := Note(ctx, tx, memory.Event{Kind: memory.EventTask, Key: t.ID.String(), Subject: t.ID.String(), Detail: t.Title, At: now}); err != nil {
			return task.Task{}, Moved{}, err
		}
	}
	to, err := MoveFocusOff(ctx, tx, t, func(id task.ID) bool { return id == t.ID }, agent, now)
	return t, to, err
}

// Moved is where moveFocusOff Moved agents: the task, zero for zen, and
// the task itself when the move read it whole.
type Moved struct {
	id   task.ID
	read *task.Task
}

// Current is Current for an agent just moved here, from what the move
// knows: the same task, without reading the agent's focus back.
func (m Moved) Current(ctx context.Context, tx store.Tx) (task.Task, error) {
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
	case err != nil && !IsNotFound(err):
		return task.Task{}, err
	}
	return task.Task{}, nil
}

// MoveFocusOff moves every agent whose focus is on a task that inside
// selects (and the agent named by also, if any) to where the focus rules go
// after left was closed or removed, and says where that is (zero: none was
// moved). Agents focused elsewhere stay.
func MoveFocusOff(ctx context.Context, tx store.Tx, left task.Task, inside func(task.ID) bool, also string, now time.Time) (Moved, error) {
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
	Ahead(ctx, tx, reads...)
	focuses, err := tx.Focuses(ctx)
	if err != nil {
		return Moved{}, err
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
		return Moved{}, nil
	}
	taken, err := takenByOthers(ctx, tx, focuses, agents)
	if err != nil {
		return Moved{}, err
	}
	next, err := nextAfter(ctx, tx, left, taken)
	if err != nil {
		return Moved{}, err
	}
	for _, agent := range agents {
		if err := tx.SetFocus(ctx, agent, next.id, now); err != nil {
			return Moved{}, err
		}
	}
	return next, nil
}

// takenByOthers is the tasks other agents than moving are at now: the
// focus of each agent with an open session (a client window at work), so
// that the focus rules do not move an agent onto another's YOU ARE HERE. An
// agent without an open session may have left long ago: its focus takes
// nothing. Nil when no other agent has a focus.
func takenByOthers(ctx context.Context, tx store.Tx, focuses map[string]task.ID, moving []string) (map[task.ID]bool, error) {
	var others []string
	for agent, id := range focuses {
		if id != 0 && !slices.Contains(moving, agent) {
			others = append(others, agent)
		}
	}
	if len(others) == 0 {
		return nil, nil
	}
	taken := map[task.ID]bool{}
	for offset := 0; ; {
		open, total, err := tx.Sessions(ctx, store.SessionQuery{OpenOnly: true, Offset: offset, Limit: 100})
		if err != nil {
			return nil, err
		}
		for _, s := range open {
			if slices.Contains(others, s.Agent) {
				taken[focuses[s.Agent]] = true
			}
		}
		if offset += len(open); len(open) == 0 || offset >= total {
			return taken, nil
		}
	}
}

// CheckDeps refuses (task.OpenDeps) to mark id done while a
// task it depends on is neither done nor cancelled.
func CheckDeps(ctx context.Context, tx store.Tx, id task.ID) error {
	deps, err := tx.TaskDeps(ctx, id)
	if err != nil {
		return err
	}
	aheadTasks(ctx, tx, deps)
	var open []task.Task
	for _, d := range deps {
		dt, err := tx.Task(ctx, d)
		if IsNotFound(err) {
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
func nextAfter(ctx context.Context, tx store.Tx, left task.Task, taken map[task.ID]bool) (Moved, error) {
	sibs, err := tx.OpenChildren(ctx, left.ParentID)
	if err != nil {
		return Moved{}, err
	}
	var parent *task.Task
	if left.ParentID != 0 {
		p, err := tx.Task(ctx, left.ParentID)
		if err != nil && !IsNotFound(err) {
			return Moved{}, err
		}
		if err == nil {
			parent = &p
		}
	}
	// A sibling's readiness is judged from its own and its ancestors'
	// dependencies (few reads); the search from the end, which the first
	// two rules almost always spare, reads the whole plan once.
	var rerr error
	rd := NewReadiness(ctx, tx)
	siblingReady := func(t task.Task) bool {
		if rerr != nil {
			return false
		}
		ok, err := rd.Ready(t)
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
		if taken[t.ID] {
			return false
		}
		if board == nil {
			return siblingReady(t)
		}
		return board.Ready(t.ID)
	}
	id, err := task.NextFocus(left.ID, sibs, parent, outline, ready)
	if rerr != nil {
		return Moved{}, rerr
	}
	m := Moved{id: id}
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

func NewReadiness(ctx context.Context, tx store.Tx) *readiness {
	return &readiness{ctx: ctx, tx: tx, waits: map[task.ID]bool{}}
}

// Ready reports whether t is pending or in progress and neither it nor an
// ancestor waits on an open dependency.
func (r *readiness) Ready(t task.Task) (bool, error) {
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
		if IsNotFound(err) {
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
		case !IsNotFound(err):
			return false, err
		}
	}
	r.waits[t.ID] = w
	return w, nil
}

// CurrentAfter returns the agent's current task after a change, zero in zen.
func CurrentAfter(ctx context.Context, tx store.Tx, agent string) (task.Task, error) {
	t, ok, err := Current(ctx, tx, agent)
	if err != nil || !ok {
		return task.Task{}, err
	}
	return t, nil
}

// Note records e in the session ctx carries (see memory.WithSession): what
// a call does while an agent's session is open is the session's. Without a
// session it does nothing.
func Note(ctx context.Context, tx store.Tx, e memory.Event) error {
	if e.Session = memory.SessionFrom(ctx); e.Session == 0 {
		return nil
	}
	return tx.RecordEvent(ctx, e)
}
