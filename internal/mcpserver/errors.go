package mcpserver

import (
	"context"
	"errors"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/lifecycle"
	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/task"
)

// Stable error codes carried in a failed tool result's structuredContent. The
// first three are the plan specification's; the rest follow in its range.
const (
	CodeNotFound     = -32000 // no such task
	CodeCycle        = -32001 // a dependency change would close a cycle
	CodeNoProject    = -32002 // no project root could be found
	CodeZen          = -32003 // the call needs a current task and the agent is in zen
	CodeOpenChildren = -32004 // a task cannot be completed before its children
	CodeClosed       = -32005 // the task is completed or cancelled
	CodeUnavailable  = -32006 // the store is busy or cannot be opened; retry
	CodeTransition   = -32007 // the loop's state does not allow the operation
	CodeOpenDeps     = -32008 // a task cannot be done while a dependency is open
	CodeClaimed      = -32009 // another agent holds a live claim on the task
	CodeIncomplete   = -32010 // a phase's exit criteria lack evidence
	CodeInvalid      = -32602 // an argument is missing or wrong
	CodeInternal     = -32603 // a bug or an I/O failure; the server log has details
)

// ToolError is the structuredContent of a failed call.
type ToolError struct {
	Code    int    `json:"code"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// errorResult maps any error from a service to a tool result the model can
// act on: a stable code, what was wrong, what to do. Errors the model cannot
// fix are logged in full and answered without internals.
func errorResult(ctx context.Context, log *slog.Logger, tool string, err error) *mcp.CallToolResult {
	te := classify(err)
	if te.Code == CodeInternal || te.Code == CodeUnavailable {
		log.ErrorContext(ctx, "tool failed", "tool", tool, "error", err)
	}
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: "error: " + te.Message}},
		StructuredContent: te, // a value, not its JSON: see tool's handler
	}
}

func classify(err error) ToolError {
	msg := message(err)
	switch {
	case errors.Is(err, task.ErrClaimed):
		return ToolError{CodeClaimed, "claimed", msg + "; " + toolHints(problem.ClaimFree)}
	case errors.Is(err, lifecycle.ErrIncomplete):
		return ToolError{CodeIncomplete, "criteria_missing", msg + "; nothing changed: give evidence (checks for gates) for them and advance again"}
	case errors.Is(err, lifecycle.ErrMalformed):
		return ToolError{CodeInvalid, "invalid_definition", "definition file " + msg + "; fix the file (lifecycle_get shows the built-in format)"}
	case errors.Is(err, lifecycle.ErrNotFound):
		return ToolError{CodeNotFound, "not_found", msg + "; " + toolHints(problem.ListLifecycles)}
	case errors.Is(err, task.ErrInvalid):
		// A field error is the whole message: no service prefix in front of it.
		return ToolError{CodeInvalid, "invalid_argument", msg}
	case errors.Is(err, loop.ErrTransition):
		return ToolError{CodeTransition, "illegal_transition", msg}
	case errors.Is(err, task.ErrCycle):
		return ToolError{CodeCycle, "cycle", msg + "; drop one of these dependencies"}
	case errors.Is(err, memory.ErrNotFound):
		hint := problem.SearchMemory
		if nf, ok := errors.AsType[*memory.NotFoundError](err); ok && nf.Kind == "session" {
			hint = problem.ListSessions
		} else if ok && nf.Kind == "branch context" {
			hint = problem.ListBranches
		}
		return ToolError{CodeNotFound, "not_found", msg + "; " + toolHints(hint)}
	case errors.Is(err, task.ErrNotFound):
		return ToolError{CodeNotFound, "not_found", msg + "; " + toolHints(problem.ListTasks)}
	case errors.Is(err, project.ErrNoProject):
		return ToolError{CodeNoProject, "no_project", msg}
	case errors.Is(err, task.ErrZen):
		return ToolError{CodeZen, "zen", msg}
	case errors.Is(err, task.ErrHasOpenChildren):
		return ToolError{CodeOpenChildren, "open_children", msg}
	case errors.Is(err, task.ErrOpenDeps):
		return ToolError{CodeOpenDeps, "open_dependencies", msg}
	case errors.Is(err, memory.ErrEnded), errors.Is(err, task.ErrClosed):
		return ToolError{CodeClosed, "closed", msg}
	case errors.Is(err, problem.ErrFault):
		// The storage under the store failed: say what is wrong and what
		// to do, never the database's path on the server.
		if fe, ok := errors.AsType[*problem.FaultError](err); ok {
			return ToolError{CodeUnavailable, "storage", fe.Error()}
		}
		return ToolError{CodeUnavailable, "storage", msg}
	case errors.Is(err, problem.ErrUnavailable):
		return ToolError{CodeUnavailable, "unavailable", msg}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return ToolError{CodeUnavailable, "cancelled", "the call was cancelled or timed out before it finished; nothing was changed unless a later read shows it"}
	}
	return ToolError{CodeInternal, "internal", "internal error (details are in the server log); retry once, and report it if it persists"}
}

// message is what the model reads for err: the refusal itself, with its
// hints rendered as tool calls, never the chain of wrapping a service added
// for its log.
func message(err error) string {
	if te, ok := errors.AsType[*loop.TransitionError](err); ok {
		return te.Render(loopTool, toolHints)
	}
	if msg, ok := problem.Message(err, toolHints); ok {
		return msg
	}
	if nf, ok := errors.AsType[*task.NotFoundError](err); ok {
		return nf.Error()
	}
	if ce, ok := errors.AsType[*task.ClaimedError](err); ok {
		return ce.Error()
	}
	if me, ok := errors.AsType[*lifecycle.MissingError](err); ok {
		return me.Error()
	}
	if pe, ok := errors.AsType[*lifecycle.ParseError](err); ok {
		return pe.Error()
	}
	if nf, ok := errors.AsType[*lifecycle.NotFoundError](err); ok {
		return nf.Error()
	}
	if nf, ok := errors.AsType[*memory.NotFoundError](err); ok {
		return nf.Error()
	}
	if ce, ok := errors.AsType[*task.CycleError](err); ok {
		return ce.Error()
	}
	return err.Error()
}

// loopTool names the tool of a loop operation.
func loopTool(op loop.Op) string { return "loop_" + string(op) }

// toolHints words the domain's hints as the tools that carry them out.
func toolHints(a problem.Action) string {
	switch a {
	case problem.CreateTask:
		return "start one with create_new_task"
	case problem.ListTasks:
		return "get_tasks or get_stack_overview lists the task ids"
	case problem.ListOutline:
		return "switch to an open task (see get_stack_overview)"
	case problem.ListBlocked:
		return "see get_tasks with status blocked or get_task for what they wait on"
	case problem.ForceDone:
		return "to mark it done anyway, pass force: true"
	case problem.NextTask:
		return "get_next_task picks one"
	case problem.StartLoop:
		return "start a new loop with loop_start"
	case problem.ListLoops:
		return "loop_list lists the loops"
	case problem.ListCheckpoint:
		return "loop_checkpoints lists them"
	case problem.ControlLoop:
		return "use loop_pause, loop_resume, loop_complete, loop_fail or loop_cancel"
	case problem.SearchMemory:
		return "use memory_search to list the entries"
	case problem.ListSessions:
		return "use session with action list to see the sessions"
	case problem.StartSession:
		return "start one with session action start"
	case problem.ListBranches:
		return "use branch with action list to see the saved branches, or save one first"
	case problem.ClaimTask:
		return "use claim_task first"
	case problem.ClaimFree:
		return "claim_task without id picks a free task"
	case problem.ListLifecycles:
		return "use lifecycle_list to see them"
	case problem.StartLifecycle:
		return "use lifecycle_init to start a new one"
	case problem.AdvanceOpen:
		return "use lifecycle_advance on the open one"
	}
	return ""
}
