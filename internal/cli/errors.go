package cli

import (
	"errors"
	"io/fs"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Message is what a person reads when a command fails: the refusal itself,
// its hints worded as commands, never the chain of wrapping the services
// added for their logs.
func Message(err error) string {
	if te, ok := errors.AsType[*loop.TransitionError](err); ok {
		return te.Render(nil, commandHints)
	}
	if msg, ok := problem.Message(err, commandHints); ok {
		return msg
	}
	if pe, ok := err.(*fs.PathError); ok { // bare: a wrapped one already says what it was for
		return "cannot " + pathVerb(pe.Op) + " " + pe.Path + ": " + pe.Err.Error() + "; check the path"
	}
	return err.Error()
}

func pathVerb(op string) string {
	switch op {
	case "open", "read", "stat":
		return "read"
	}
	return op
}

// commandHints words the domain's hints as the commands that carry them out;
// what only an agent can do is named as its tool.
func commandHints(a problem.Action) string {
	switch a {
	case problem.CreateTask:
		return "an agent starts one with create_new_task"
	case problem.ListTasks:
		return "`cairn tasks` lists the task ids"
	case problem.ListOutline:
		return "switch to an open task (`cairn tasks` lists them)"
	case problem.ListBlocked:
		return "`cairn tasks --status blocked` and `cairn show ID` say what they wait on"
	case problem.NextTask:
		return "`cairn next` picks one"
	case problem.StartLoop:
		return "an agent starts a new loop with loop_start"
	case problem.ListLoops:
		return "`cairn loops` lists the loops"
	case problem.SearchMemory:
		return "`cairn memory search` lists the entries"
	case problem.ExportMemory:
		return "`cairn memory export` writes it"
	case problem.ClaimTask:
		return "an agent claims it with claim_task first"
	case problem.ClaimFree:
		return "an agent's claim_task without id picks a free task"
	case problem.ListLifecycles:
		return "`cairn lifecycles` lists them"
	case problem.StartLifecycle:
		return "an agent starts a new one with lifecycle_init"
	case problem.AdvanceOpen:
		return "`cairn lifecycles` shows the open one"
	}
	return ""
}
