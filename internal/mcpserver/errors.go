package mcpserver

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/problem"
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
	CodeUnauthorized = -32011 // the caller showed no token the server knows
	CodeForbidden    = -32012 // the caller may not do this
	CodeInvalid      = -32602 // an argument is missing or wrong
	CodeInternal     = -32603 // a bug or an I/O failure; the server log has details
)

// ToolError is the structuredContent of a failed call.
type ToolError struct {
	Code    int    `json:"code"`
	Reason  string `json:"reason"`
	Message string `json:"message"`

	kind  problem.Kind
	field string // the argument at fault, for the REST surface
	fix   string
}

// toolCode is a kind's code and reason in a failed tool result.
type toolCode struct {
	code   int
	reason string
}

// toolCodes is every kind's code and reason. The HTTP server refuses the
// transport's kinds (Unauthorized … TooMany) before any tool runs; they
// have codes too, so that a tool refused for one says so.
var toolCodes = [problem.NumKinds]toolCode{
	problem.Invalid:          {CodeInvalid, "invalid_argument"},
	problem.NotFound:         {CodeNotFound, "not_found"},
	problem.Cycle:            {CodeCycle, "cycle"},
	problem.NoProject:        {CodeNoProject, "no_project"},
	problem.Zen:              {CodeZen, "zen"},
	problem.OpenChildren:     {CodeOpenChildren, "open_children"},
	problem.Closed:           {CodeClosed, "closed"},
	problem.Transition:       {CodeTransition, "illegal_transition"},
	problem.OpenDeps:         {CodeOpenDeps, "open_dependencies"},
	problem.Claimed:          {CodeClaimed, "claimed"},
	problem.CriteriaMissing:  {CodeIncomplete, "criteria_missing"},
	problem.Malformed:        {CodeInvalid, "invalid_definition"},
	problem.Unavailable:      {CodeUnavailable, "unavailable"},
	problem.Storage:          {CodeUnavailable, "storage"},
	problem.Cancelled:        {CodeUnavailable, "cancelled"},
	problem.Unauthorized:     {CodeUnauthorized, "unauthorized"},
	problem.Forbidden:        {CodeForbidden, "forbidden"},
	problem.TooLarge:         {CodeInvalid, "too_large"},
	problem.UnsupportedMedia: {CodeInvalid, "unsupported_media_type"},
	problem.TooMany:          {CodeUnavailable, "too_many"},
	problem.Internal:         {CodeInternal, "internal"},
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

// classify is what the model reads for err: the refusal's code and its
// words, with its actions named as tool calls, never the chain of wrapping
// a service added for its log nor an internal error's text.
func classify(err error) ToolError {
	e := problem.Of(err)
	c := toolCodes[e.Kind]
	if e.Kind == problem.Internal {
		return ToolError{Code: c.code, Reason: c.reason, Message: "internal error (details are in the server log); retry once, and report it if it persists", kind: e.Kind}
	}
	return ToolError{Code: c.code, Reason: c.reason, Message: e.Render(tool.ActionWords), kind: e.Kind, field: e.Field, fix: e.Fix}
}
