package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/store"
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
	b, _ := json.Marshal(te)
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: "error: " + te.Message}},
		StructuredContent: json.RawMessage(b),
	}
}

func classify(err error) ToolError {
	var fe *task.FieldError
	switch {
	case errors.As(err, &fe):
		// A field error is the whole message: no service prefix in front of it.
		return ToolError{CodeInvalid, "invalid_argument", fe.Error()}
	case errors.Is(err, loop.ErrTransition):
		return ToolError{CodeTransition, "illegal_transition", err.Error()}
	case errors.Is(err, task.ErrCycle):
		return ToolError{CodeCycle, "cycle", err.Error() + "; drop one of these dependencies"}
	case errors.Is(err, memory.ErrNotFound):
		var nf *memory.NotFoundError
		hint := "use memory_search to list the entries"
		if errors.As(err, &nf) && nf.Kind == "session" {
			hint = "use session with action list to see the sessions"
		} else if nf != nil && nf.Kind == "branch context" {
			hint = "use branch with action list to see the saved branches, or save one first"
		}
		msg := err.Error()
		if nf != nil {
			msg = nf.Error()
		}
		return ToolError{CodeNotFound, "not_found", msg + "; " + hint}
	case errors.Is(err, task.ErrNotFound):
		return ToolError{CodeNotFound, "not_found", err.Error() + "; get_tasks or get_stack_overview lists the task ids"}
	case errors.Is(err, project.ErrNoProject):
		return ToolError{CodeNoProject, "no_project", err.Error()}
	case errors.Is(err, task.ErrZen):
		return ToolError{CodeZen, "zen", err.Error()}
	case errors.Is(err, task.ErrHasOpenChildren):
		return ToolError{CodeOpenChildren, "open_children", err.Error()}
	case errors.Is(err, memory.ErrEnded):
		return ToolError{CodeClosed, "closed", err.Error()}
	case errors.Is(err, task.ErrClosed):
		return ToolError{CodeClosed, "closed", err.Error()}
	case errors.Is(err, task.ErrInvalid):
		return ToolError{CodeInvalid, "invalid_argument", err.Error()}
	case errors.Is(err, store.ErrFault):
		fe, _ := errors.AsType[*store.FaultError](err)
		msg := err.Error()
		if fe != nil {
			msg = fe.Error()
		}
		return ToolError{CodeUnavailable, "storage", msg}
	case errors.Is(err, errUnavailable):
		return ToolError{CodeUnavailable, "unavailable", err.Error()}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return ToolError{CodeUnavailable, "cancelled", "the call was cancelled or timed out before it finished; nothing was changed unless a later read shows it"}
	}
	return ToolError{CodeInternal, "internal", "internal error (details are in the server log); retry once, and report it if it persists"}
}

var errUnavailable = errors.New("store unavailable")
