package task

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Sentinel errors for what callers test. Surfaces map them to stable codes.
var (
	// ErrNotFound means no visible task has the given ID.
	ErrNotFound = errors.New("task not found")
	// ErrInvalid means an argument breaks a rule; a *problem.FieldError
	// says which.
	ErrInvalid = problem.ErrInvalid
	// ErrZen means the operation needs a current task and there is none.
	ErrZen = errors.New("no current task")
	// ErrHasOpenChildren means a task cannot be completed before its children.
	ErrHasOpenChildren = errors.New("task has incomplete children")
	// ErrClosed means the task is already completed or cancelled.
	ErrClosed = errors.New("task is closed")
	// ErrOpenDeps means a task cannot be done while a task it depends on is
	// open; an *OpenDepsError says which.
	ErrOpenDeps = errors.New("task has open dependencies")
)

// OpenDepsError says which tasks, open, keep Task from being done.
type OpenDepsError struct {
	Task ID
	Open []Task
}

func (e *OpenDepsError) Error() string { return e.refusal().Error() }

// Unwrap makes every OpenDepsError an ErrOpenDeps.
func (e *OpenDepsError) Unwrap() error { return ErrOpenDeps }

// OpenDeps refuses to mark task id done while the tasks in open, which it
// depends on, are neither done nor cancelled. The refusal is a
// *problem.Error whose kind is an *OpenDepsError.
func OpenDeps(id ID, open []Task) error {
	return (&OpenDepsError{Task: id, Open: open}).refusal()
}

func (e *OpenDepsError) refusal() *problem.Error {
	names := make([]string, 0, len(e.Open))
	for i, d := range e.Open {
		if i == 10 {
			names = append(names, fmt.Sprintf("and %d more", len(e.Open)-i))
			break
		}
		names = append(names, fmt.Sprintf("[%s] %s (%s)", d.ID, d.Title, d.Status))
	}
	which, it := "which is not done", "it"
	if len(e.Open) > 1 {
		which, it = "which are not done", "them"
	}
	return &problem.Error{Kind: e,
		What: fmt.Sprintf("task %s depends on %s, %s", e.Task, strings.Join(names, ", "), which),
		Fix:  fmt.Sprintf("finish or cancel %s first, or drop %s from its dependencies", it, it),
		Hint: problem.ForceDone}
}

// NotFoundError names the ID that was not found: a task, or with Sub set,
// subtask number Sub of task ID (zero ID: of the roots).
type NotFoundError struct {
	ID  ID
	Sub int
}

func (e *NotFoundError) Error() string {
	if e.Sub != 0 {
		return fmt.Sprintf("subtask %s.%d not found", e.ID, e.Sub)
	}
	return fmt.Sprintf("task %s not found", e.ID)
}

// Refusal marks the message as one a user reads as it is.
func (e *NotFoundError) Refusal() {}

// Unwrap makes every NotFoundError an ErrNotFound.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }
