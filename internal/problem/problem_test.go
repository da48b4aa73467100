package problem_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
)

func TestRender(t *testing.T) {
	tool := func(a problem.Action) string {
		switch a {
		case problem.CreateTask:
			return "start one with create_new_task"
		case problem.LoopPause:
			return "loop_pause"
		}
		return a.String()
	}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"wrapped error drops its chain",
			fmt.Errorf("complete task: %w", problem.New(problem.Zen, "no current task", problem.CreateTask)),
			"no current task; start one with create_new_task"},
		{"fix and hint", &problem.Error{Kind: problem.Closed, Problem: "task 3 is done", Fix: "create a new task", Hint: problem.ListTasks},
			"task 3 is done; create a new task; list the tasks"},
		{"field error with hint", fmt.Errorf("start loop: %w", &problem.FieldError{Field: "id", Problem: "is 3", Fix: "pass a loop id", Hint: problem.CreateTask}),
			"id is 3: pass a loop id; start one with create_new_task"},
		{"field error hint only", &problem.FieldError{Field: "status", Problem: "is wrong", Hint: problem.ListLoops},
			"status is wrong: list the loops"},
		{"legal next", &problem.Error{Kind: problem.Transition, Problem: "cannot resume: the loop is running", Next: []problem.Action{problem.LoopPause, problem.LoopFail}},
			"cannot resume: the loop is running; legal next: loop_pause, fail"},
		{"a cause is not shown", &problem.Error{Kind: problem.Storage, Problem: "the disk is full", Err: errors.New("SQLITE_FULL")},
			"the disk is full"},
		{"cancelled", fmt.Errorf("load: %w", context.DeadlineExceeded),
			"the call was cancelled or timed out before it finished; nothing was changed unless a later read shows it"},
		{"other error", fmt.Errorf("open: %w", errors.New("kind")), "open: kind"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := problem.Of(tc.err).Render(tool); got != tc.want {
				t.Errorf("Render = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want problem.Kind
	}{
		{&problem.FieldError{Field: "x", Problem: "is empty"}, problem.Invalid},
		{fmt.Errorf("get: %w", problem.New(problem.NotFound, "task 3 not found", problem.ListTasks)), problem.NotFound},
		{problem.Fault("the disk is full", "free space", errors.New("SQLITE_FULL")), problem.Storage},
		{fmt.Errorf("get: %w", context.Canceled), problem.Cancelled},
		{errors.New("boom"), problem.Internal},
	} {
		if got := problem.KindOf(tc.err); got != tc.want || !problem.Is(tc.err, tc.want) {
			t.Errorf("KindOf(%v) = %s, want %s", tc.err, got, tc.want)
		}
	}
	if problem.Is(nil, problem.Internal) {
		t.Error("nil is a refusal")
	}
	cause := errors.New("SQLITE_FULL")
	if err := problem.Fault("the disk is full", "free space", cause); !errors.Is(err, cause) || err.Error() != "the disk is full: free space" {
		t.Errorf("Fault = %v; want its words, and its cause in the chain", err)
	}
}

type claim struct{ agent string }

func TestDetailOf(t *testing.T) {
	inner := &problem.Error{Kind: problem.Claimed, Problem: "held", Detail: claim{"ann"}}
	outer := &problem.Error{Kind: problem.Invalid, Problem: "task 3: held", Err: inner}
	if c, ok := problem.DetailOf[claim](fmt.Errorf("claim: %w", outer)); !ok || c.agent != "ann" {
		t.Errorf("DetailOf = %v, %v; want the inner error's claim", c, ok)
	}
	if _, ok := problem.DetailOf[claim](errors.New("x")); ok {
		t.Error("DetailOf found a detail in a plain error")
	}
}

// TestNames: every kind and every action has a neutral wording of its own.
func TestNames(t *testing.T) {
	seen := map[string]bool{}
	for k := range problem.Kind(problem.NumKinds) {
		if s := k.String(); s == "" || strings.HasPrefix(s, "kind ") || seen[s] {
			t.Errorf("kind %d is named %q", k, s)
		} else {
			seen[s] = true
		}
	}
	seen = map[string]bool{}
	for a := problem.NoAction + 1; a < problem.NumActions; a++ {
		if s := a.String(); s == "" || strings.HasPrefix(s, "action ") || seen[s] {
			t.Errorf("action %d is worded %q", a, s)
		} else {
			seen[s] = true
		}
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
