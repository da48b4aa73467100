package tasks

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// ResolveRef finds the visible task a reference names; field names the
// argument in errors.
func ResolveRef(ctx context.Context, tx store.Tx, ref, field string) (task.Task, error) {
	r, err := task.ParseRef(ref)
	if err != nil {
		return task.Task{}, RefError(ref, field)
	}
	t, err := store.Task(ctx, tx, r.ID)
	for _, n := range r.Path {
		if err != nil {
			break
		}
		t, err = store.Child(ctx, tx, t.ID, n)
	}
	return t, err
}

// RefError is resolveRef's error for a reference that is not one.
func RefError(ref, field string) error {
	return &problem.FieldError{Field: field, Problem: fmt.Sprintf("is %q, not a task id", problem.Clip(ref, 40)),
		Fix: `pass an id such as "12", or "12.3" for subtask 3 of task 12`}
}

func ValidPriority(p task.Priority) error {
	if p.Valid() {
		return nil
	}
	return &problem.FieldError{Field: "priority", Problem: fmt.Sprintf("is %q", problem.Clip(string(p), 40)),
		Fix: "use " + page.OneOf(task.Priorities)}
}

func ValidStatus(s task.Status) error {
	if s.Valid() {
		return nil
	}
	return &problem.FieldError{Field: "status", Problem: fmt.Sprintf("is %q", problem.Clip(string(s), 40)),
		Fix: "use " + page.OneOf(task.Statuses)}
}

func ValidDescription(d string) error {
	if err := task.ValidateBody(d); err != nil {
		fe := *err.(*problem.FieldError)
		fe.Field = "description"
		return &fe
	}
	return nil
}

// SetStatus moves t to status by the one model's rules: completion is
// permanent and archived, closing needs the children closed, done needs the
// dependencies done or cancelled unless force is set, and agents focused on
// a task that closes move on.
func SetStatus(ctx context.Context, tx store.Tx, t task.Task, status task.Status, now time.Time, force bool) (task.Task, error) {
	switch {
	case PlainStatus(t, status):
		t.Status, t.UpdatedAt = status, now
		return t, tx.UpdateTask(ctx, t)
	case status == t.Status:
		return t, nil
	case t.Status == task.StatusDone:
		return task.Task{}, &problem.Error{Kind: problem.Closed, Problem: fmt.Sprintf("task %s is done and completion is permanent", t.ID), Fix: "create a new task for follow-up work"}
	default: // an open task closes
		t, _, err := CloseTask(ctx, tx, t, status, now, "", force, nil)
		return t, err
	}
}

// PlainStatus says whether setStatus moves t to status by writing the field
// alone: a change that is neither refused nor a close.
func PlainStatus(t task.Task, status task.Status) bool {
	return status != t.Status && t.Status != task.StatusDone && (status.Open() || !t.Status.Open())
}
