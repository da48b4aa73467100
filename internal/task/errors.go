package task

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors for what callers test. Surfaces map them to stable codes.
var (
	// ErrNotFound means no visible task has the given ID.
	ErrNotFound = errors.New("task not found")
	// ErrInvalid means an argument breaks a rule; a *FieldError says which.
	ErrInvalid = errors.New("invalid argument")
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

// OpenDepsError refuses to mark Task done while the tasks in Open, which it
// depends on, are neither done nor cancelled.
type OpenDepsError struct {
	Task ID
	Open []Task
}

func (e *OpenDepsError) Error() string {
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
	return fmt.Sprintf("task %s depends on %s, %s: finish or cancel %s first, or drop %s from its dependencies; to mark it done anyway, pass force: true",
		e.Task, strings.Join(names, ", "), which, it, it)
}

// Unwrap makes every OpenDepsError an ErrOpenDeps.
func (e *OpenDepsError) Unwrap() error { return ErrOpenDeps }

// FieldError is an invalid argument: which field, what is wrong, how to fix it.
type FieldError struct {
	Field   string
	Problem string
	Fix     string
}

func (e *FieldError) Error() string {
	msg := fmt.Sprintf("%s %s", e.Field, e.Problem)
	if e.Fix != "" {
		msg += ": " + e.Fix
	}
	return msg
}

// Unwrap makes every FieldError an ErrInvalid.
func (e *FieldError) Unwrap() error { return ErrInvalid }

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

// Unwrap makes every NotFoundError an ErrNotFound.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }
