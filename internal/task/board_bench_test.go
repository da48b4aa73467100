package task

import (
	"testing"
)

// BenchmarkApply applies a small change (a task's status, and a new
// subtask) to a 4,000-task board whose ranking and id order are carried
// over, as the plan service's board cache does after each write.
func BenchmarkApply(b *testing.B) {
	var ts []Task
	deps := Deps{}
	for id := ID(1); id <= 4000; id++ {
		parent := ID(0)
		if id > 100 {
			parent = (id-1)%100 + 1
		}
		ts = append(ts, pt(id, parent, Statuses[int(id)%3], Priorities[int(id)%4], 0))
		if id > 200 && id%3 == 0 {
			deps[id] = []ID{id - 150}
		}
	}
	board := NewBoard(ts, deps)
	board.Next(NextFilter{})
	board.ByID()
	next := ID(4001)
	b.ReportAllocs()
	for b.Loop() {
		x := *board.Tasks.Get(next - 3000)
		x.Status = StatusInProgress
		c := Changes{Tasks: []Task{x, pt(next, 7, StatusPending, PriorityHigh, 0)}}
		next++
		board = board.Apply(c)
	}
}

// BenchmarkOutlineFirstPage reads the first page of the outline of a
// 4,000-task board once, as get_big_picture does on a board that the next
// write replaces, with the id order Apply carried over to it. A quarter
// of the tasks are roots (create_task makes roots), the rest children of
// the first hundred.
func BenchmarkOutlineFirstPage(b *testing.B) {
	var ts []Task
	for id := ID(1); id <= 4000; id++ {
		parent := ID(0)
		if id > 100 && id%4 != 0 {
			parent = (id-1)%100 + 1
		}
		x := pt(id, parent, Statuses[int(id)%3], Priorities[int(id)%4], 0)
		x.Position = int(id % 7)
		ts = append(ts, x)
	}
	board := NewBoard(ts, Deps{})
	list := board.ByID() // carried over by Apply from board to board
	b.ReportAllocs()
	for b.Loop() {
		nb := &Board{Tasks: board.Tasks, Deps: board.Deps, Children: board.Children, Dependents: board.Dependents}
		nb.byIDOnce.Do(func() { nb.byID = list })
		nb.byIDDone.Store(true)
		if len(nb.OutlineRange(0, 20)) != 20 {
			b.Fatal("short page")
		}
	}
}
