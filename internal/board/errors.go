package board

import (
	"context"
	"errors"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/task"
)

// message is what a person reads on the board for err: the service's
// refusal, worded as MCP words it but with its hints pointing at the
// board's own pages and buttons. known is false for an error that is not a
// refusal (a store failure), which is logged instead of shown.
func message(err error) (msg string, known bool) {
	if te, ok := errors.AsType[*loop.TransitionError](err); ok {
		return te.Render(nil, boardHints), true
	}
	msg, known = problem.Message(err, boardHints)
	switch {
	case errors.Is(err, task.ErrCycle):
		return msg + "; drop one of these dependencies", true
	case errors.Is(err, memory.ErrNotFound):
		hint := problem.SearchMemory
		if nf, ok := errors.AsType[*memory.NotFoundError](err); ok && nf.Kind == "session" {
			hint = problem.ListSessions
		}
		return msg + "; " + boardHints(hint), true
	case errors.Is(err, task.ErrNotFound):
		return msg + "; " + boardHints(problem.ListTasks), true
	case errors.Is(err, project.ErrNoProject):
		return msg, true
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return "the request timed out before it finished; nothing was changed unless the page shows it", true
	}
	return msg, known
}

func isNotFound(err error) bool {
	return errors.Is(err, task.ErrNotFound) || errors.Is(err, memory.ErrNotFound)
}

// boardHints words the domain's hints as the board's pages and buttons.
func boardHints(a problem.Action) string {
	switch a {
	case problem.CreateTask:
		return "add one with New task on the Plan page"
	case problem.ListTasks:
		return "the Plan page lists the tasks"
	case problem.ListOutline:
		return "the Outline shows the open tasks"
	case problem.NextTask:
		return "the Plan page shows what is next"
	case problem.StartLoop:
		return "an agent starts a new loop with loop_start"
	case problem.ListLoops:
		return "the Loops page lists the loops"
	case problem.ListCheckpoint:
		return "the loop's page lists its checkpoints"
	case problem.ControlLoop:
		return "use the loop's Pause, Resume or Cancel buttons on the Loops page"
	case problem.SearchMemory:
		return "search on the Memory page"
	case problem.ListSessions:
		return "the Sessions page lists the sessions"
	}
	return ""
}
