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
	t, found, err := store.FocusedTask(ctx, tx, agent)
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
//
// claims are the live claims, for the focus rules to pass over the tasks
// other agents hold; nil: read them if an agent moves.
func CloseTask(ctx context.Context, tx store.Tx, t task.Task, status task.Status, now time.Time, agent string, force bool, claims map[task.ID]task.Claim) (task.Task, Moved, error) {
	if !t.Status.Open() {
		return task.Task{}, Moved{}, problem.New(problem.Closed, fmt.Sprintf("task %s is already %s, and that is permanent", t.ID, t.Status), problem.NoAction)
	}
	reads := []store.Read{{Of: store.ReadOpenChildren, ID: t.ID}}
	if status == task.StatusDone && !force {
		reads = append(reads, store.Read{Of: store.ReadTaskDeps, ID: t.ID})
	}
	Ahead(ctx, tx, reads...) // one round trip for both
	kids, err := store.OpenChildren(ctx, tx, t.ID)
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
	to, err := MoveFocusOff(ctx, tx, t, func(id task.ID) bool { return id == t.ID }, agent, now, claims)
	return t, to, err
}

// Moved is where moveFocusOff Moved agents: the task, zero for zen, and
// the task itself when the move read it whole.
type Moved struct {
	id     task.ID
	read   *task.Task
	status task.Status // the task's status as the rules saw it
	// Passed are the claims of the tasks the focus rules would have
	// picked but passed over, as other agents hold them.
	Passed []task.Claim
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
		t, err = store.Task(ctx, tx, m.id)
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
// after left was closed or removed, passing over the tasks other agents
// hold (claims: the live claims; nil: read them if an agent moves) and
// those other windows are at (takenByOthers), and
// says where also went (or, without also, the first agent; zero: none was
// moved). A pending task focus lands on starts: it is in progress. Agents
// focused elsewhere stay.
func MoveFocusOff(ctx context.Context, tx store.Tx, left task.Task, inside func(task.ID) bool, also string, now time.Time, claims map[task.ID]task.Claim) (Moved, error) {
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
		if claims == nil {
			reads = append(reads, store.Read{Of: store.ReadClaims})
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
		agents = append(agents, also) // last: its move is the one returned
	}
	if len(agents) == 0 {
		return Moved{}, nil
	}
	if claims == nil {
		if claims, err = tx.Claims(ctx, store.ClaimQuery{Now: now}); err != nil {
			return Moved{}, err
		}
	}
	taken, err := takenByOthers(ctx, tx, focuses, agents)
	if err != nil {
		return Moved{}, err
	}
	// Agents that hold none of the claims see the same tasks held: one
	// walk of the rules for all of them.
	key := func(agent string) string {
		for _, c := range claims {
			if c.Agent == agent {
				return agent
			}
		}
		return ""
	}
	rules, err := newNextAfter(ctx, tx, left, taken)
	if err != nil {
		return Moved{}, err
	}
	walked := map[string]Moved{}
	var last Moved
	for _, agent := range agents {
		k := key(agent)
		next, ok := walked[k]
		if !ok {
			if next, err = rules.next(task.HeldBy(claims, agent), claims); err != nil {
				return Moved{}, err
			}
			if next, err = start(ctx, tx, next, now); err != nil {
				return Moved{}, err
			}
			walked[k] = next
		}
		if err := tx.SetFocus(ctx, agent, next.id, now); err != nil {
			return Moved{}, err
		}
		last = next
	}
	if also == "" {
		return walked[key(agents[0])], nil
	}
	return last, nil
}

// start makes the task focus moved to in progress if it was pending (and
// is not a loop, whose status follows the loop).
func start(ctx context.Context, tx store.Tx, m Moved, now time.Time) (Moved, error) {
	if m.id == 0 || m.status != task.StatusPending {
		return m, nil
	}
	t, loopState, err := store.Loop(ctx, tx, m.id)
	if err != nil || loopState != nil || t.Status != task.StatusPending {
		return m, err
	}
	if t, err = SetStatus(ctx, tx, t, task.StatusInProgress, now, false); err != nil {
		return m, err
	}
	m.read = &t
	return m, nil
}

// Start makes t, which an agent is about to focus, in progress if it is
// pending and not a loop (loopState: its loop's; nil: none).
func Start(ctx context.Context, tx store.Tx, t task.Task, loopState []byte, now time.Time) (task.Task, error) {
	if t.Status != task.StatusPending || loopState != nil {
		return t, nil
	}
	return SetStatus(ctx, tx, t, task.StatusInProgress, now, false)
}

// ResolveLoopRef is ResolveRef that also returns the task's loop state
// (nil: not a loop), reading both at once when ref names a task by id.
func ResolveLoopRef(ctx context.Context, tx store.Tx, ref, field string) (task.Task, []byte, error) {
	if r, err := task.ParseRef(ref); err == nil && len(r.Path) == 0 {
		return store.Loop(ctx, tx, r.ID)
	}
	t, err := ResolveRef(ctx, tx, ref, field)
	if err != nil {
		return task.Task{}, nil, err
	}
	return store.Loop(ctx, tx, t.ID)
}

// Writer is who writes to a task: the agent (empty: a person, at the board
// or the CLI, whom claims do not stop) and whether it writes over other
// agents' claims (force).
type Writer struct {
	Agent string
	Force bool
}

// Check refuses (task.Held) a write to the tasks ids when another agent
// than w's holds a live claim (in claims) on one of them.
func (w Writer) Check(claims map[task.ID]task.Claim, ids ...task.ID) error {
	if w.Agent == "" || w.Force {
		return nil
	}
	for _, id := range ids {
		if c, ok := claims[id]; ok && c.Agent != w.Agent {
			return task.Held(c)
		}
	}
	return nil
}

// CheckTask is Check for one task, reading its claim (live at now).
func (w Writer) CheckTask(ctx context.Context, tx store.Tx, id task.ID, now time.Time) error {
	if w.Agent == "" || w.Force {
		return nil
	}
	c, ok, err := store.TaskClaim(ctx, tx, id)
	if err != nil || !ok || !c.Live(now) {
		return err
	}
	return w.Check(map[task.ID]task.Claim{id: c}, id)
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
	open, err := OpenDeps(ctx, tx, id)
	if err == nil && len(open) > 0 {
		err = task.OpenDeps(id, open)
	}
	return err
}

// OpenDeps returns the tasks id depends on that are neither done nor
// cancelled, without their bodies: what CheckDeps refuses for.
func OpenDeps(ctx context.Context, tx store.Tx, id task.ID) ([]task.Task, error) {
	deps, err := store.TaskDeps(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	aheadTasks(ctx, tx, deps)
	var open []task.Task
	for _, d := range deps {
		dt, err := store.Task(ctx, tx, d)
		if IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !dt.Status.Satisfied() {
			dt.Body = ""
			open = append(open, dt)
		}
	}
	return open, nil
}

// nextAfter applies task.NextFocus after left was closed or removed, for
// one agent or several (next), reading what the rules need once. Of left's
// siblings it reads the open ones, the only ones NextFocus can pick: on a
// level of hundreds of finished steps, reading them all made each
// completion cost more than the one before.
type nextAfter struct {
	left    task.Task
	sibs    []task.Task
	parent  *task.Task
	ready   func(task.Task) bool
	outline func() ([]task.Entry, error)
	board   func() *task.Board
	rerr    *error
}

// newNextAfter reads what the rules need; taken are the tasks other
// windows are at (takenByOthers), which count as not ready.
func newNextAfter(ctx context.Context, tx store.Tx, left task.Task, taken map[task.ID]bool) (*nextAfter, error) {
	sibs, err := store.OpenChildren(ctx, tx, left.ParentID)
	if err != nil {
		return nil, err
	}
	var parent *task.Task
	if left.ParentID != 0 {
		p, err := store.Task(ctx, tx, left.ParentID)
		if err != nil && !IsNotFound(err) {
			return nil, err
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
		if all, rerr = store.Tasks(ctx, tx); rerr != nil {
			return
		}
		var deps task.Deps
		if deps, rerr = tx.Deps(ctx, store.DepQuery{All: true}); rerr == nil {
			board = task.NewBoard(all, deps)
		}
	}
	n := &nextAfter{left: left, sibs: sibs, parent: parent, rerr: &rerr}
	n.outline = func() ([]task.Entry, error) {
		load()
		if rerr != nil {
			return nil, rerr
		}
		return task.Outline(all), nil
	}
	n.ready = func(t task.Task) bool {
		if taken[t.ID] {
			return false
		}
		if board == nil {
			return siblingReady(t)
		}
		return board.Ready(t.ID)
	}
	n.board = func() *task.Board { return board }
	return n, nil
}

// next is where the rules go for an agent that held selects the tasks of
// others; claims name their holders.
func (n *nextAfter) next(held func(task.ID) bool, claims map[task.ID]task.Claim) (Moved, error) {
	id, passed, err := task.NextFocusExcept(n.left.ID, n.sibs, n.parent, n.outline, n.ready, held)
	if *n.rerr != nil {
		return Moved{}, *n.rerr
	}
	if err != nil {
		return Moved{}, err
	}
	m := Moved{id: id}
	for _, p := range passed {
		m.Passed = append(m.Passed, claims[p])
	}
	switch {
	case id == 0:
	case n.parent != nil && id == n.parent.ID:
		m.read, m.status = n.parent, n.parent.Status
	default:
		if i := slices.IndexFunc(n.sibs, func(s task.Task) bool { return s.ID == id }); i >= 0 {
			m.status = n.sibs[i].Status
		} else if b := n.board(); b != nil {
			if t := b.Tasks.Get(id); t != nil {
				m.status = t.Status
			}
		}
	}
	return m, nil
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
	deps, err := store.TaskDeps(r.ctx, r.tx, t.ID)
	if err != nil {
		return false, err
	}
	w := false
	for _, d := range deps {
		dt, err := store.Task(r.ctx, r.tx, d)
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
		p, err := store.Task(r.ctx, r.tx, t.ParentID)
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
