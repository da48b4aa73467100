package task

import (
	"errors"
	"fmt"

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
)

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
