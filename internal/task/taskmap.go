package task

import (
	"iter"
	"maps"
)

// TaskMap is a board's tasks by id. It never changes once made. Apply
// derives the next board's from it without copying it: the tasks a change
// touches go in a small map laid over a large one that boards share, and
// the small one is folded into a new large one only once it has grown.
// Copying the whole map on every change of the plan was most of what
// refreshing a board cost.
type TaskMap struct {
	base map[ID]*Task // shared with other boards: never changed
	over map[ID]*Task // this map's own changes over base; a nil task is gone
	n    int          // tasks on the board
}

// NewTaskMap makes a TaskMap of m, which it keeps: m must not change after.
func NewTaskMap(m map[ID]*Task) TaskMap { return TaskMap{base: m, n: len(m)} }

// Get returns the task with the id, or nil if it is not on the board.
func (m TaskMap) Get(id ID) *Task {
	if len(m.over) > 0 {
		if t, ok := m.over[id]; ok {
			return t
		}
	}
	return m.base[id]
}

// Has reports whether the task is on the board.
func (m TaskMap) Has(id ID) bool { return m.Get(id) != nil }

// Len is the number of tasks.
func (m TaskMap) Len() int { return m.n }

// All yields every task with its id, in no particular order.
func (m TaskMap) All() iter.Seq2[ID, *Task] {
	return func(yield func(ID, *Task) bool) {
		for id, t := range m.base {
			if len(m.over) > 0 {
				if _, ok := m.over[id]; ok {
					continue
				}
			}
			if !yield(id, t) {
				return
			}
		}
		for id, t := range m.over {
			if t != nil && !yield(id, t) {
				return
			}
		}
	}
}

// taskEdit makes a TaskMap from another, which it leaves as it is.
type taskEdit struct{ m TaskMap }

// edit starts the next TaskMap from m, for about n changes.
func (m TaskMap) edit(n int) *taskEdit {
	over := make(map[ID]*Task, len(m.over)+n)
	maps.Copy(over, m.over)
	return &taskEdit{TaskMap{base: m.base, over: over, n: m.n}}
}

func (e *taskEdit) get(id ID) *Task { return e.m.Get(id) }

// set puts t on the board under its id.
func (e *taskEdit) set(t *Task) {
	if e.m.Get(t.ID) == nil {
		e.m.n++
	}
	e.m.over[t.ID] = t
}

// del takes the task with the id off the board.
func (e *taskEdit) del(id ID) {
	if e.m.Get(id) == nil {
		return
	}
	e.m.n--
	if _, ok := e.m.base[id]; ok {
		e.m.over[id] = nil
	} else {
		delete(e.m.over, id)
	}
}

// done returns the TaskMap made, its changes folded into a new base map
// once they are many: lookups and walks over a large overlay cost more.
func (e *taskEdit) done() TaskMap {
	m := e.m
	if len(m.over) <= 16+m.n/64 {
		return m
	}
	base := maps.Clone(m.base)
	for id, t := range m.over {
		if t == nil {
			delete(base, id)
		} else {
			base[id] = t
		}
	}
	return TaskMap{base: base, n: m.n}
}
