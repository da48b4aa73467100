package task

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/problem"
)

// The refusals of the task domain are problem.Errors; these build the ones
// several callers share, with the structure behind their words as Detail.

// NotFound refuses id: no visible task has it.
func NotFound(id ID) error {
	return &problem.Error{Kind: problem.NotFound, Problem: fmt.Sprintf("task %s not found", id), Hint: problem.ListTasks}
}

// SubtaskNotFound refuses subtask number sub of task id (zero id: of the
// roots): there is none.
func SubtaskNotFound(id ID, sub int) error {
	return &problem.Error{Kind: problem.NotFound, Problem: fmt.Sprintf("subtask %s.%d not found", id, sub), Hint: problem.ListTasks}
}

// Cycle refuses a dependency change that would close the cycle path (from
// a task back to itself); the path is the Error's Detail ([]ID).
func Cycle(path []ID) error {
	parts := make([]string, len(path))
	for i, id := range path {
		parts[i] = id.String()
	}
	return &problem.Error{Kind: problem.Cycle, Problem: "dependency cycle " + strings.Join(parts, " → "),
		Fix: "drop one of these dependencies", Detail: path}
}

// CycleOf returns the path of the cycle err refuses.
func CycleOf(err error) ([]ID, bool) { return problem.DetailOf[[]ID](err) }

// OpenDeps refuses to mark task id done while the tasks in open, which it
// depends on, are neither done nor cancelled; open is the Error's Detail
// ([]Task).
func OpenDeps(id ID, open []Task) error {
	names := make([]string, 0, len(open))
	for i, d := range open {
		if i == 10 {
			names = append(names, fmt.Sprintf("and %d more", len(open)-i))
			break
		}
		names = append(names, fmt.Sprintf("[%s] %s (%s)", d.ID, d.Title, d.Status))
	}
	which, it := "which is not done", "it"
	if len(open) > 1 {
		which, it = "which are not done", "them"
	}
	return &problem.Error{Kind: problem.OpenDeps,
		Problem: fmt.Sprintf("task %s depends on %s, %s", id, strings.Join(names, ", "), which),
		Fix:     fmt.Sprintf("finish or cancel %s first, or drop %s from its dependencies", it, it),
		Hint:    problem.ForceDone, Detail: open}
}

// OpenDepsOf returns the open dependencies err refuses a task's completion
// for.
func OpenDepsOf(err error) ([]Task, bool) { return problem.DetailOf[[]Task](err) }
