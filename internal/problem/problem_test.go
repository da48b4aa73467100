package problem_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
)

var errKind = errors.New("kind")

func TestMessage(t *testing.T) {
	tool := func(a problem.Action) string {
		if a == problem.CreateTask {
			return "start one with create_new_task"
		}
		return ""
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"wrapped error drops its chain",
			fmt.Errorf("complete task: %w", problem.New(errKind, "no current task", problem.CreateTask)),
			"no current task; start one with create_new_task"},
		{"fix and hint", &problem.Error{What: "task 3 is done", Fix: "create a new task", Hint: problem.ListTasks},
			"task 3 is done; create a new task; list the tasks"},
		{"field error with hint", fmt.Errorf("start loop: %w", &problem.FieldError{Field: "id", Problem: "is 3", Fix: "pass a loop id", Hint: problem.CreateTask}),
			"id is 3: pass a loop id; start one with create_new_task"},
		{"field error hint only", &problem.FieldError{Field: "status", Problem: "is wrong", Hint: problem.ListLoops},
			"status is wrong: list the loops"},
		{"a domain's refusal drops its wrapping", fmt.Errorf("loop status: %w", refusal{}), "task 1 not found"},
		{"other error", fmt.Errorf("open: %w", errKind), "open: kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := problem.Message(tc.err, tool); got != tc.want {
				t.Errorf("Message = %q, want %q", got, tc.want)
			}
		})
	}
	if !errors.Is(problem.New(errKind, "x", ""), errKind) || !errors.Is(&problem.FieldError{}, problem.ErrInvalid) {
		t.Error("errors.Is does not see the kind")
	}
}

func TestClip(t *testing.T) {
	if got := problem.Clip("héllo", 2); got != "h…" {
		t.Errorf("Clip cut inside a rune: %q", got)
	}
	if got := problem.Quote("short"); got != `"short"` {
		t.Errorf("Quote = %s", got)
	}
}

type refusal struct{}

func (refusal) Error() string { return "task 1 not found" }
func (refusal) Refusal()      {}
