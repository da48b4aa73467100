package task

import (
	"slices"
	"sort"
)

// Entry is a task placed in the outline: the depth-first order of the big
// picture, children in position order, with its depth (0 for a root).
type Entry struct {
	Task
	Depth int
}

// Outline orders tasks depth-first, each parent before its children and
// siblings by position. A task whose parent is not in tasks is placed as a root.
func Outline(tasks []Task) []Entry {
	present := make(map[ID]bool, len(tasks))
	for _, t := range tasks {
		present[t.ID] = true
	}
	children := make(map[ID][]Task)
	for _, t := range tasks {
		p := t.ParentID
		if !present[p] {
			p = 0
		}
		children[p] = append(children[p], t)
	}
	for _, c := range children {
		sort.SliceStable(c, func(i, j int) bool {
			if c[i].Position != c[j].Position {
				return c[i].Position < c[j].Position
			}
			return c[i].ID < c[j].ID
		})
	}
	out := make([]Entry, 0, len(tasks))
	// An explicit stack keeps deep trees from growing the goroutine stack.
	type frame struct {
		kids  []Task
		depth int
	}
	stack := []frame{{children[0], 0}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(top.kids) == 0 {
			stack = stack[:len(stack)-1]
			continue
		}
		t := top.kids[0]
		top.kids = top.kids[1:]
		depth := top.depth
		out = append(out, Entry{Task: t, Depth: depth})
		if kids := children[t.ID]; len(kids) > 0 {
			stack = append(stack, frame{kids, depth + 1})
		}
	}
	return out
}

// NextFocus decides where focus goes when the task left has been completed or
// removed: to the leftmost ready sibling; else to the parent if it is open;
// else to the first ready task searching the whole outline right to left
// (from its end); else zen (zero). ready says whether a task can be worked
// on now (see Board.Ready): focus never lands by itself on a deferred or
// blocked task, or on one whose dependencies are open. siblings are left's
// visible siblings in position order (left itself may be among them and is
// skipped; closed ones may be left out, as they are never picked); parent is nil for a root task; outline is only loaded when the
// first two rules find nothing.
func NextFocus(left ID, siblings []Task, parent *Task, outline func() ([]Entry, error), ready func(Task) bool) (ID, error) {
	id, _, err := NextFocusExcept(left, siblings, parent, outline, ready, nil)
	return id, err
}

// NextFocusExcept is NextFocus passing over the tasks held selects (tasks
// other agents hold; nil: none), which it returns in the order it met
// them: the ones it would have picked but for their holders.
func NextFocusExcept(left ID, siblings []Task, parent *Task, outline func() ([]Entry, error), ready func(Task) bool, held func(ID) bool) (ID, []ID, error) {
	var passed []ID
	free := func(id ID) bool {
		if held != nil && held(id) {
			if !slices.Contains(passed, id) {
				passed = append(passed, id)
			}
			return false
		}
		return true
	}
	for _, s := range siblings {
		if s.ID != left && s.Status.Open() && ready(s) && free(s.ID) {
			return s.ID, passed, nil
		}
	}
	if parent != nil && parent.Status.Open() && free(parent.ID) {
		return parent.ID, passed, nil
	}
	all, err := outline()
	if err != nil {
		return 0, passed, err
	}
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].ID != left && all[i].Status.Open() && ready(all[i].Task) && free(all[i].ID) {
			return all[i].ID, passed, nil
		}
	}
	return 0, passed, nil
}

// Subtree returns the task id and all its descendants among tasks.
func Subtree(tasks []Task, id ID) []Task {
	children := make(map[ID][]Task)
	var root *Task
	for i, t := range tasks {
		children[t.ParentID] = append(children[t.ParentID], t)
		if t.ID == id {
			root = &tasks[i]
		}
	}
	if root == nil {
		return nil
	}
	out := []Task{*root}
	for i := 0; i < len(out); i++ {
		out = append(out, children[out[i].ID]...)
	}
	return out
}

// NearLeft picks which of left, the siblings to the left of the current
// task in position order, YOU ARE HERE shows: at most limit of them, the open
// ones first (they must close before the parent can), then the closed ones
// nearest the current task, in position order. omitted counts the rest, so
// that a level with hundreds of finished steps does not make every answer
// list them all.
func NearLeft(left []Task, limit int) (shown []Task, omitted int) {
	if len(left) <= limit {
		return left, 0
	}
	keep := make([]bool, len(left))
	n := 0
	for i := len(left) - 1; i >= 0 && n < limit; i-- {
		if left[i].Status.Open() {
			keep[i] = true
			n++
		}
	}
	for i := len(left) - 1; i >= 0 && n < limit; i-- {
		if !keep[i] {
			keep[i] = true
			n++
		}
	}
	shown = make([]Task, 0, limit)
	for i, t := range left {
		if keep[i] {
			shown = append(shown, t)
		}
	}
	return shown, len(left) - len(shown)
}

// Glance picks which of level (a task's subtasks, or any tasks in position
// order) an answer lists when it need not list them all: at most limit, the
// open ones first from the left (the next to do), then the closed ones
// nearest the end (the latest done), in position order. omitted counts the
// rest, and omittedOpen the open ones among them, so that an answer can say
// whether what it leaves out is all finished.
func Glance(level []Task, limit int) (shown []Task, omitted, omittedOpen int) {
	if len(level) <= limit {
		return level, 0, 0
	}
	keep := make([]bool, len(level))
	n := 0
	for i := 0; i < len(level) && n < limit; i++ {
		if level[i].Status.Open() {
			keep[i] = true
			n++
		}
	}
	for i := len(level) - 1; i >= 0 && n < limit; i-- {
		if !keep[i] && !level[i].Status.Open() {
			keep[i] = true
			n++
		}
	}
	shown = make([]Task, 0, n)
	for i, t := range level {
		switch {
		case keep[i]:
			shown = append(shown, t)
		case t.Status.Open():
			omittedOpen++
		}
	}
	return shown, len(level) - len(shown), omittedOpen
}

// NearLeft is NearLeft of the siblings to the left of t on the board (its
// parent's children, or the roots, in position order, then id): the same
// tasks and count, worked out in one pass over the siblings that keeps the
// limit nearest open ones and the limit nearest closed ones, without
// copying or sorting the rest. On a level of thousands of finished steps
// YOU ARE HERE sorted a copy of them all on every call.
func (b *Board) NearLeft(t *Task, limit int) (shown []Task, omitted int) {
	ids := b.Children[t.ParentID]
	if t.ParentID == 0 {
		ids = b.Roots()
	}
	if limit < 0 {
		limit = 0
	}
	open, closed := make(nearest, 0, limit), make(nearest, 0, limit)
	n := 0
	for _, id := range ids {
		s := b.Tasks.Get(id)
		if s == nil || !leftOfTask(s, t) {
			continue
		}
		n++
		if s.Status.Open() {
			open.add(s, limit)
		} else {
			closed.add(s, limit)
		}
	}
	if n == 0 {
		return nil, 0
	}
	// NearLeft's choice: the nearest open ones, then the nearest closed
	// ones to fill the room; every one when they fit.
	c := closed[max(0, len(closed)-(limit-len(open))):]
	shown = make([]Task, 0, len(open)+len(c))
	for i, j := 0, 0; i < len(open) || j < len(c); {
		if j == len(c) || i < len(open) && leftOfTask(open[i], c[j]) {
			shown = append(shown, *open[i])
			i++
		} else {
			shown = append(shown, *c[j])
			j++
		}
	}
	return shown, n - len(shown)
}

// leftOfTask reports whether a comes before b among siblings: by position,
// then id.
func leftOfTask(a, b *Task) bool {
	return a.Position < b.Position || a.Position == b.Position && a.ID < b.ID
}

// nearest holds at most limit tasks, those nearest the right (latest in
// sibling order) of the ones added, in sibling order.
type nearest []*Task

func (n *nearest) add(t *Task, limit int) {
	s := *n
	if len(s) == limit {
		if limit == 0 || !leftOfTask(s[0], t) {
			return
		}
		copy(s, s[1:]) // the farthest goes
		s = s[:len(s)-1]
	}
	i := len(s)
	for i > 0 && leftOfTask(t, s[i-1]) {
		i--
	}
	s = append(s, nil)
	copy(s[i+1:], s[i:])
	s[i] = t
	*n = s
}
