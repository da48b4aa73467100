package task

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// Deps maps a task to the tasks it depends on.
type Deps map[ID][]ID

// FindCycle reports the cycle that giving task id the dependencies next would
// close, as a path from id back to id (id → … → id), or nil if none would.
func FindCycle(deps Deps, id ID, next []ID) []ID {
	// A cycle exists if id is reachable from one of next along dependency
	// edges. Breadth-first search keeps the path short and the stack flat.
	prev := map[ID]ID{}
	queue := []ID{}
	for _, d := range next {
		if d == id {
			return []ID{id, id}
		}
		if _, seen := prev[d]; !seen {
			prev[d] = id
			queue = append(queue, d)
		}
	}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, d := range deps[cur] {
			if d == id {
				path := []ID{id}
				for n := cur; n != id; n = prev[n] {
					path = append(path, n)
				}
				slices.Reverse(path[1:])
				return append(path, id)
			}
			if _, seen := prev[d]; !seen {
				prev[d] = cur
				queue = append(queue, d)
			}
		}
	}
	return nil
}

// DepthStats returns the longest dependency chain (in edges) and the average
// number of dependencies per task, over the given tasks.
func DepthStats(ids []ID, deps Deps) (maxDepth int, avgDeps float64) {
	depth := make(map[ID]int, len(ids))
	const visiting = -1
	var edges int
	for _, root := range ids {
		edges += len(deps[root])
		if _, done := depth[root]; done {
			continue
		}
		// Iterative post-order DFS: a chain of thousands stays off the stack.
		type frame struct {
			id ID
			i  int
		}
		stack := []frame{{root, 0}}
		depth[root] = visiting
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			ds := deps[top.id]
			if top.i < len(ds) {
				d := ds[top.i]
				top.i++
				if _, seen := depth[d]; !seen {
					depth[d] = visiting
					stack = append(stack, frame{d, 0})
				}
				continue
			}
			best := 0
			for _, d := range ds {
				if v := depth[d]; v >= 0 && v+1 > best { // a cycle (never stored) counts as 0
					best = v + 1
				}
			}
			depth[top.id] = best
			maxDepth = max(maxDepth, best)
			stack = stack[:len(stack)-1]
		}
	}
	if len(ids) > 0 {
		avgDeps = float64(edges) / float64(len(ids))
	}
	return maxDepth, avgDeps
}

// PriorityRank orders priorities: critical 0, high 1, medium 2, low 3.
func PriorityRank(p Priority) int {
	switch p {
	case PriorityCritical:
		return 0
	case PriorityHigh:
		return 1
	case PriorityMedium:
		return 2
	case PriorityLow:
		return 3
	}
	return 2
}

// Priorities lists the valid priorities, highest first.
var Priorities = []Priority{PriorityCritical, PriorityHigh, PriorityMedium, PriorityLow}

// PrioritiesLowFirst lists the priorities by importance, lowest first: the
// ascending order of a sort by priority.
var PrioritiesLowFirst = []Priority{PriorityLow, PriorityMedium, PriorityHigh, PriorityCritical}

// Valid reports whether p is one of Priorities.
func (p Priority) Valid() bool { return slices.Contains(Priorities, p) }

// Satisfied reports whether a dependency in this status no longer holds back
// the tasks that depend on it: it is done, or cancelled (work that will not
// happen should not block forever).
func (s Status) Satisfied() bool { return s == StatusDone || s == StatusCancelled }

// Board is the plan's view of the visible tasks: the tree and the
// dependency graph, indexed for the rules below. Build it with NewBoard.
type Board struct {
	Tasks      TaskMap
	Deps       Deps
	Children   map[ID][]ID // in no particular order
	Dependents map[ID][]ID

	// ranked is every task Next could pick under some filter, best first;
	// Next ranks them on its first call, so that later calls on the same
	// board only walk the list to the first task the filter accepts. Apply
	// carries a ranking over to the board it makes (rankCarry), fixing up
	// only the tasks a change can move; rankDone says ranked is made.
	rankOnce  sync.Once
	ranked    []rankKey
	rankDone  atomic.Bool
	rankCarry atomic.Pointer[rankCarry]

	// outline is the board's tasks in Outline's order, worked out by
	// OutlineRange once its first calls have walked only the head (heads
	// counts them), and kept: a board never changes.
	outlineOnce sync.Once
	outline     []outlined
	outlineDone atomic.Bool
	heads       atomic.Int32

	// byID is the board's tasks in id order (ByID), carried over by Apply
	// as patches (listCarry) until asked for; byIDDone says it is made.
	byIDOnce  sync.Once
	byID      []Listed
	byIDDone  atomic.Bool
	listCarry atomic.Pointer[listCarry]

	rootsOnce sync.Once
	roots     []ID // see Roots
}

// Roots returns the ids of the tasks without a parent (Children has no
// entry for them), in no particular order; worked out once per board.
// Callers must not modify it.
func (b *Board) Roots() []ID {
	b.rootsOnce.Do(func() {
		for id, t := range b.Tasks.All() {
			if t.ParentID == 0 {
				b.roots = append(b.roots, id)
			}
		}
	})
	return b.roots
}

// outlined is a task's place in the outline.
type outlined struct {
	t     *Task
	depth int
}

// NewBoard indexes tasks and their dependencies. Dependencies on tasks that
// are not in tasks are dropped.
func NewBoard(tasks []Task, deps Deps) *Board {
	m := make(map[ID]*Task, len(tasks))
	for i := range tasks {
		t := &tasks[i]
		m[t.ID] = t
	}
	b := &Board{Tasks: NewTaskMap(m)}
	b.index(deps)
	return b
}

// Changes are what changed in the plan since a board was built: the visible
// tasks created or changed since (without bodies), the dependencies of each
// of them (a task without any has no entry), and the tasks removed since.
// Full says that Tasks and Deps are the whole plan instead.
type Changes struct {
	Full    bool
	Tasks   []Task
	Deps    Deps
	Removed []ID
}

// Apply returns the board that b becomes with c: b itself when c changes
// nothing, otherwise a new board equal to NewBoard over b's tasks and
// dependencies with c applied. b is not modified, so readers still holding
// it are unaffected; the new board shares b's unchanged tasks (see
// TaskMap) and index entries (cloning the index maps costs far less than
// indexing anew). A nil b or a full c builds the board from c alone.
func (b *Board) Apply(c Changes) *Board {
	if b == nil || c.Full {
		return NewBoard(c.Tasks, c.Deps)
	}
	if len(c.Tasks) == 0 && len(c.Removed) == 0 {
		return b
	}
	// Each index map is cloned on its first change: most changes (a status,
	// a new step without dependencies) leave some or all of them as b has
	// them, and the clones were most of what refreshing the board cost.
	nb := &Board{Deps: b.Deps, Children: b.Children, Dependents: b.Dependents}
	tasks := b.Tasks.edit(len(c.Tasks) + len(c.Removed))
	var ownDeps, ownChildren, ownDependents bool
	deps := func() Deps {
		if !ownDeps {
			nb.Deps, ownDeps = maps.Clone(b.Deps), true
		}
		return nb.Deps
	}
	children := func() map[ID][]ID {
		if !ownChildren {
			nb.Children, ownChildren = maps.Clone(b.Children), true
		}
		return nb.Children
	}
	dependents := func() map[ID][]ID {
		if !ownDependents {
			nb.Dependents, ownDependents = maps.Clone(b.Dependents), true
		}
		return nb.Dependents
	}
	kept := b.keptIndex(c)
	// Take out every changed or removed task as b indexed it, unless its
	// entries stay.
	out := func(id ID) {
		old := b.Tasks.Get(id)
		if old == nil {
			return
		}
		tasks.del(id)
		if kept[id] {
			return
		}
		if b.Tasks.Has(old.ParentID) {
			m := children()
			m[old.ParentID] = without(m[old.ParentID], id)
		}
		for _, d := range b.Deps[id] {
			m := dependents()
			m[d] = without(m[d], id)
		}
		if _, ok := b.Deps[id]; ok {
			delete(deps(), id)
		}
	}
	for _, t := range c.Tasks {
		out(t.ID)
	}
	for _, id := range c.Removed {
		out(id)
	}
	// A removed task is nobody's parent or dependency any more.
	for _, id := range c.Removed {
		if !b.Tasks.Has(id) {
			continue
		}
		if _, ok := nb.Children[id]; ok {
			delete(children(), id)
		}
		for _, x := range b.Dependents[id] {
			if _, ok := nb.Deps[x]; ok {
				m := deps()
				m[x] = without(m[x], id)
			}
		}
		if _, ok := nb.Dependents[id]; ok {
			delete(dependents(), id)
		}
	}
	// Put the changed tasks in, then index them: a parent or dependency may
	// be among them.
	for i := range c.Tasks {
		tasks.set(&c.Tasks[i])
	}
	nb.Tasks = tasks.done()
	for i := range c.Tasks {
		t := &c.Tasks[i]
		if kept[t.ID] {
			continue
		}
		if nb.Tasks.Has(t.ParentID) {
			m := children()
			m[t.ParentID] = with(m[t.ParentID], t.ID)
		}
		for _, d := range c.Deps[t.ID] {
			if nb.Tasks.Has(d) {
				m := deps()
				m[t.ID] = append(m[t.ID], d) // a new slice: its old entry was deleted
				n := dependents()
				n[d] = with(n[d], t.ID)
			}
		}
	}
	nb.rerank(b, c)
	nb.relist(b, c)
	return nb
}

// keptIndex returns the tasks c changes whose entries in b's Children, Deps
// and Dependents stay as they are: each is on b already, under the same
// parent, which is on the new board if and only if it is on b, with the
// same dependencies among the tasks of both boards.
func (b *Board) keptIndex(c Changes) map[ID]bool {
	changed := make(map[ID]bool, len(c.Tasks))
	for i := range c.Tasks {
		changed[c.Tasks[i].ID] = true
	}
	removed := make(map[ID]bool, len(c.Removed))
	for _, id := range c.Removed {
		removed[id] = true
	}
	onNew := func(id ID) bool { return changed[id] || b.Tasks.Has(id) && !removed[id] }
	kept := make(map[ID]bool, len(c.Tasks))
next:
	for i := range c.Tasks {
		t := &c.Tasks[i]
		old := b.Tasks.Get(t.ID)
		if old == nil || old.ParentID != t.ParentID || b.Tasks.Has(t.ParentID) != onNew(t.ParentID) {
			continue
		}
		n := 0
		for _, d := range c.Deps[t.ID] {
			if onNew(d) {
				if !slices.Contains(b.Deps[t.ID], d) {
					continue next
				}
				n++
			}
		}
		if n != len(b.Deps[t.ID]) {
			continue
		}
		for _, d := range b.Deps[t.ID] {
			if !onNew(d) || !slices.Contains(c.Deps[t.ID], d) {
				continue next
			}
		}
		kept[t.ID] = true
	}
	return kept
}

// without returns ids less id in a new slice (ids is shared with another
// board), nil when nothing is left.
func without(ids []ID, id ID) []ID {
	i := slices.Index(ids, id)
	if i < 0 {
		return ids
	}
	if len(ids) == 1 {
		return nil
	}
	out := make([]ID, 0, len(ids)-1)
	return append(append(out, ids[:i]...), ids[i+1:]...)
}

// with returns ids plus id in a new slice (ids is shared with another board).
func with(ids []ID, id ID) []ID {
	out := make([]ID, len(ids), len(ids)+1)
	copy(out, ids)
	return append(out, id)
}

// index fills Children, Deps and Dependents from b.Tasks and deps.
func (b *Board) index(deps Deps) {
	b.Deps, b.Children, b.Dependents = make(Deps, len(deps)), map[ID][]ID{}, map[ID][]ID{}
	for _, t := range b.Tasks.All() {
		if b.Tasks.Has(t.ParentID) {
			b.Children[t.ParentID] = append(b.Children[t.ParentID], t.ID)
		}
	}
	for id, ds := range deps {
		if !b.Tasks.Has(id) {
			continue
		}
		for _, d := range ds {
			if b.Tasks.Has(d) {
				b.Deps[id] = append(b.Deps[id], d)
				b.Dependents[d] = append(b.Dependents[d], id)
			}
		}
	}
}

// OutlineRange returns entries lo to hi (exclusive) of Outline over the
// board's tasks; the whole outline has b.Tasks.Len() entries. The order is
// worked out once per board (O(n log n)) and kept, so a later call costs
// only the entries it returns. The first few calls for a short head of the
// outline (a first page) walk only that far instead: a board lives until
// the next change of the plan, often too short for the whole order to pay.
// OutlineRange is safe for concurrent use.
func (b *Board) OutlineRange(lo, hi int) []Entry {
	lo, hi = max(lo, 0), min(hi, b.Tasks.Len())
	out := make([]Entry, max(hi-lo, 0)) // empty, not nil, as a slice of Outline's answer is
	if lo >= hi {
		return out
	}
	if !b.outlineDone.Load() && hi <= outlineHead && b.heads.Add(1) <= outlineHeads {
		i := 0
		b.walk(hi, func(o outlined) {
			if i >= lo {
				out[i-lo] = Entry{Task: *o.t, Depth: o.depth}
			}
			i++
		})
		return out
	}
	b.outlineOnce.Do(b.order)
	b.outlineDone.Store(true)
	for i, o := range b.outline[lo:hi] {
		out[i] = Entry{Task: *o.t, Depth: o.depth}
	}
	return out
}

// OutlineLine returns where id is in the outline over the board's tasks,
// counted from 0 (the index OutlineRange takes), and whether it is there.
// It orders the whole outline, as OutlineRange does past its first calls,
// and looks id up in it: for a page of the outline that does not show id.
func (b *Board) OutlineLine(id ID) (int, bool) {
	if !b.Tasks.Has(id) {
		return 0, false
	}
	b.outlineOnce.Do(b.order)
	b.outlineDone.Store(true)
	for i, o := range b.outline {
		if o.t.ID == id {
			return i, true
		}
	}
	return 0, false
}

// OutlineRange walks the head of the outline, up to outlineHead entries,
// for the first outlineHeads calls on a board; then it orders the whole.
const (
	outlineHead  = 100
	outlineHeads = 4
)

// order fills b.outline as Outline orders the tasks.
func (b *Board) order() {
	out := make([]outlined, 0, b.Tasks.Len())
	b.walk(b.Tasks.Len(), func(o outlined) { out = append(out, o) })
	b.outline = out
}

// walk visits the first n entries of the outline: depth-first from the
// roots (tasks whose parent is not on the board), siblings by position,
// then id.
func (b *Board) walk(n int, visit func(outlined)) {
	byPlace := func(x, y *Task) int {
		if c := cmp.Compare(x.Position, y.Position); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	}
	// The roots in order; for a head of the outline only the first n of
	// them can show, so only those are kept (a plan may have thousands),
	// found in the id order's parents without reading every task.
	zero := b.Tasks.Has(0)
	root := func(parent ID) bool { return parent == 0 && !zero || !b.Tasks.Has(parent) }
	var roots []*Task
	if n >= b.Tasks.Len() {
		for _, t := range b.Tasks.All() {
			if root(t.ParentID) {
				roots = append(roots, t)
			}
		}
		slices.SortFunc(roots, byPlace)
	} else {
		for _, l := range b.ByID() {
			if !root(l.Parent) {
				continue
			}
			t := b.Tasks.Get(l.ID)
			if len(roots) == n && byPlace(t, roots[n-1]) >= 0 {
				continue
			}
			i, _ := slices.BinarySearchFunc(roots, t, byPlace)
			roots = slices.Insert(roots, i, t)
			if len(roots) > n {
				roots = roots[:n]
			}
		}
	}
	type frame struct {
		kids  []*Task
		depth int
	}
	// An explicit stack keeps deep trees from growing the goroutine stack.
	stack := []frame{{roots, 0}}
	for len(stack) > 0 && n > 0 {
		top := &stack[len(stack)-1]
		if len(top.kids) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		t, depth := top.kids[0], top.depth
		top.kids = top.kids[1:]
		visit(outlined{t, depth})
		n--
		if ids := b.Children[t.ID]; len(ids) > 0 && n > 0 {
			kids := make([]*Task, len(ids))
			for i, id := range ids {
				kids[i] = b.Tasks.Get(id)
			}
			slices.SortFunc(kids, byPlace)
			stack = append(stack, frame{kids, depth + 1})
		}
	}
}

// Waiting returns the unsatisfied dependencies that hold a task back: its
// own and those of its ancestors, since a subtask cannot start before its
// parent may.
func (b *Board) Waiting(id ID) []ID {
	var out []ID
	for t := b.Tasks.Get(id); t != nil; t = b.Tasks.Get(t.ParentID) {
		for _, d := range b.Deps[t.ID] {
			if !b.Tasks.Get(d).Status.Satisfied() {
				out = append(out, d)
			}
		}
		if t.ParentID == 0 {
			break
		}
	}
	return out
}

// Blocked reports whether a task cannot be worked on now: its status is
// blocked, or a dependency (its own or an ancestor's) is not yet satisfied.
func (b *Board) Blocked(id ID) bool {
	t := b.Tasks.Get(id)
	return t == nil || t.Status == StatusBlocked || b.waiting(t)
}

// Ready reports whether a task can be worked on now: it is pending or in
// progress (not deferred, blocked or closed) and nothing it waits on (see
// Waiting) is open. Focus moves on completion only to ready tasks.
func (b *Board) Ready(id ID) bool {
	t := b.Tasks.Get(id)
	return t != nil && (t.Status == StatusPending || t.Status == StatusInProgress) && !b.waiting(t)
}

// waiting reports whether Waiting(t.ID) is not empty, without building it.
func (b *Board) waiting(t *Task) bool {
	for ; t != nil; t = b.Tasks.Get(t.ParentID) {
		for _, d := range b.Deps[t.ID] {
			if !b.Tasks.Get(d).Status.Satisfied() {
				return true
			}
		}
		if t.ParentID == 0 {
			break
		}
	}
	return false
}

func (b *Board) hasOpenChildren(id ID) bool {
	for _, c := range b.Children[id] {
		if b.Tasks.Get(c).Status.Open() {
			return true
		}
	}
	return false
}

// inProgressAncestor reports whether an ancestor of id is in progress.
func (b *Board) inProgressAncestor(id ID) bool {
	for t := b.Tasks.Get(b.Tasks.Get(id).ParentID); t != nil; t = b.Tasks.Get(t.ParentID) {
		if t.Status == StatusInProgress {
			return true
		}
		if t.ParentID == 0 {
			break
		}
	}
	return false
}

// Unblocks returns the tasks that finishing id would leave with nothing to
// wait for, in id order.
func (b *Board) Unblocks(id ID) []ID {
	var out []ID
	for _, d := range b.Dependents[id] {
		t := b.Tasks.Get(d)
		if !t.Status.Open() {
			continue
		}
		rest := false
		for _, w := range b.Waiting(d) {
			if w != id {
				rest = true
				break
			}
		}
		if !rest {
			out = append(out, d)
		}
	}
	slices.Sort(out)
	return out
}

// NextFilter narrows the candidates of Next. Empty slices mean the defaults:
// statuses pending and in-progress, every priority.
type NextFilter struct {
	Statuses   []Status
	Priorities []Priority
}

// Next picks the task to work on next. The rule:
//
//  1. Candidates are open tasks in the filter's statuses that are not
//     blocked (see Blocked) and have no open subtasks (the work is in the
//     subtasks then).
//  2. Subtasks of a task in progress come first: finishing started work
//     beats starting new work.
//  3. Then higher priority, then fewer dependencies, then the older task,
//     then the lower id.
//
// ok is false when no task qualifies. The first call ranks every candidate
// of any filter once (O(n log n)), unless Apply carried a ranking over;
// later calls on the same board return the first ranked task the filter
// accepts. Next is safe for concurrent use.
func (b *Board) Next(f NextFilter) (best *Task, ok bool) {
	statuses := f.Statuses
	if len(statuses) == 0 {
		statuses = []Status{StatusPending, StatusInProgress}
	}
	b.rankOnce.Do(b.rank)
	for _, k := range b.ranked {
		t := k.t
		if slices.Contains(statuses, t.Status) && (len(f.Priorities) == 0 || slices.Contains(f.Priorities, t.Priority)) {
			return t, true
		}
	}
	return nil, false
}

// NextExcept is Next passing over the candidates skip selects (such as
// tasks other agents have claimed); skipped counts those it passed over
// that would have come first.
func (b *Board) NextExcept(f NextFilter, skip func(ID) bool) (best *Task, skipped int, ok bool) {
	if skip == nil {
		best, ok = b.Next(f)
		return best, 0, ok
	}
	statuses := f.Statuses
	if len(statuses) == 0 {
		statuses = []Status{StatusPending, StatusInProgress}
	}
	b.rankOnce.Do(b.rank)
	for _, k := range b.ranked {
		t := k.t
		if slices.Contains(statuses, t.Status) && (len(f.Priorities) == 0 || slices.Contains(f.Priorities, t.Priority)) {
			if skip(t.ID) {
				skipped++
				continue
			}
			return t, skipped, true
		}
	}
	return nil, skipped, false
}

// rankKey is a candidate of Next with what rules 2 and 3 order it by.
type rankKey struct {
	tier, prio, deps int
	t                *Task
}

// compareKeys orders candidates by rules 2 and 3. The order is total (the
// id breaks ties), so the first task a filter accepts is the one Next
// would pick scanning every task.
func compareKeys(a, b rankKey) int {
	if a.tier != b.tier {
		return a.tier - b.tier
	}
	if a.prio != b.prio {
		return a.prio - b.prio
	}
	if a.deps != b.deps {
		return a.deps - b.deps
	}
	if c := a.t.CreatedAt.Compare(b.t.CreatedAt); c != 0 {
		return c
	}
	return cmp.Compare(a.t.ID, b.t.ID)
}

// candidate says whether rule 1 of Next admits t whatever the filter, and
// with what key.
func (b *Board) candidate(t *Task) (rankKey, bool) {
	if !t.Status.Open() || b.Blocked(t.ID) || b.hasOpenChildren(t.ID) {
		return rankKey{}, false
	}
	k := rankKey{tier: 1, prio: PriorityRank(t.Priority), deps: len(b.Deps[t.ID]), t: t}
	if b.inProgressAncestor(t.ID) {
		k.tier = 0
	}
	return k, true
}

// rank fills b.ranked: the candidates of every filter, in order; from the
// ranking Apply carried over (rankCarry) when there is one.
func (b *Board) rank() {
	// rankDone is stored before the carry goes, so that Apply finds one
	// or the other.
	defer b.rankCarry.Store(nil) // the board it came from can go
	if p := b.rankCarry.Load(); p != nil {
		if ranked, ok := p.ranking(); ok {
			b.ranked = ranked
			b.rankDone.Store(true)
			return
		}
	}
	keys := make([]rankKey, 0, b.Tasks.Len())
	for _, t := range b.Tasks.All() {
		if k, ok := b.candidate(t); ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, compareKeys)
	b.ranked = keys
	b.rankDone.Store(true)
}

// rankCarry is a board's ranking not made yet: from's (made), less the
// keys of the tasks the Applies since moved, with their new keys put in.
type rankCarry struct {
	from    *Board
	removed []rankKey // keys of from's ranking to take out, in no order
	added   []rankKey // keys to put in, in order
}

// rerank gives nb, which Apply made from b with c, b's ranking (made or
// carried) with the tasks c can have moved taken out and put back where
// they now belong, as a carry that Next makes into the ranking on its
// first call: a board never ranked copies no ranking. It does nothing (nb
// ranks itself when asked) if b has no ranking or if the change reaches
// too much of the plan for this to pay.
//
// A task's place depends on its own fields and dependencies, its parent's
// open children (rule 1), the statuses of its and its ancestors'
// dependencies (Blocked) and its ancestors' statuses (rule 2). So a change
// to task x can move x, x's parents (old and new), the tasks that depend on
// x, and every descendant of those.
func (nb *Board) rerank(b *Board, c Changes) {
	var carry rankCarry
	if p := b.rankCarry.Load(); p != nil {
		carry = *p
	} else if b.rankDone.Load() {
		carry.from = b
	} else {
		return
	}
	moved := map[ID]bool{}
	var roots []ID // the tasks whose descendants can move
	seed := func(id ID) {
		moved[id] = true
		roots = append(roots, id)
		for _, x := range []*Board{b, nb} {
			if t := x.Tasks.Get(id); t != nil {
				moved[t.ParentID] = true
			}
			for _, d := range x.Dependents[id] {
				moved[d] = true
				roots = append(roots, d)
			}
		}
	}
	for _, t := range c.Tasks {
		seed(t.ID)
	}
	for _, id := range c.Removed {
		seed(id)
	}
	limit := nb.Tasks.Len()/4 + 64
	seen := map[ID]bool{}
	for len(roots) > 0 {
		id := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		if seen[id] {
			continue
		}
		seen[id] = true
		for _, x := range []*Board{b, nb} {
			for _, ch := range x.Children[id] {
				moved[ch] = true
				roots = append(roots, ch)
			}
		}
		if len(moved) > limit {
			return
		}
	}
	// Out with the moved tasks' keys on b (keys are unique, the id
	// breaking ties): a key put in since from's ranking leaves added, any
	// other is taken out of from's. The slices are b's carry's too: both
	// are copied before they change.
	added := slices.Clone(carry.added)
	removed := carry.removed[:len(carry.removed):len(carry.removed)]
	for id := range moved {
		t := b.Tasks.Get(id)
		if t == nil {
			continue
		}
		if k, ok := b.candidate(t); ok {
			if i, found := slices.BinarySearchFunc(added, k, compareKeys); found {
				added = slices.Delete(added, i, i+1)
			} else {
				removed = append(removed, k)
			}
		}
	}
	// In with their keys on nb.
	for id := range moved {
		if t := nb.Tasks.Get(id); t != nil {
			if k, ok := nb.candidate(t); ok {
				i, _ := slices.BinarySearchFunc(added, k, compareKeys)
				added = slices.Insert(added, i, k)
			}
		}
	}
	if len(removed)+len(added) > limit {
		return
	}
	carry.added, carry.removed = added, removed
	nb.rankCarry.Store(&carry)
}

// ranking is the ranking the carry stands for. The removed keys are found
// in from's ranking by a binary search and the runs between them copied
// whole, each added key put in by a binary search: it costs a copy of the
// ranking, not a look at each of its entries. ok is false if a removed key
// is not in from's ranking (not the ranking it was carried from after
// all): the board then ranks itself.
func (p *rankCarry) ranking() (ranked []rankKey, ok bool) {
	base := p.from.ranked
	cuts := make([]int, 0, len(p.removed))
	for _, k := range p.removed {
		i, found := slices.BinarySearchFunc(base, k, compareKeys)
		if !found {
			return nil, false
		}
		cuts = append(cuts, i)
	}
	slices.Sort(cuts)
	if len(slices.Compact(slices.Clone(cuts))) != len(cuts) {
		return nil, false // a key taken out twice: not a ranking of this board
	}
	back := p.added
	ranked = make([]rankKey, 0, len(base)-len(cuts)+len(back))
	merge := func(run []rankKey) {
		for len(run) > 0 && len(back) > 0 {
			j, _ := slices.BinarySearchFunc(run, back[0], compareKeys)
			ranked = append(ranked, run[:j]...)
			if run = run[j:]; len(run) > 0 {
				ranked = append(ranked, back[0])
				back = back[1:]
			}
		}
		ranked = append(ranked, run...)
	}
	from := 0
	for _, i := range cuts {
		merge(base[from:i])
		from = i + 1
	}
	merge(base[from:])
	return append(ranked, back...), true
}

// SortIDs sorts ids ascending; a helper for stable output.
func SortIDs(ids []ID) { sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] }) }
