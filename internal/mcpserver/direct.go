package mcpserver

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Direct calls a server's tools without an MCP session, for the REST
// surface (GET /mcp/tools, POST /mcp/tools/{name}): the same declarations,
// argument checks, handlers and error words as a tools/call. It serves
// every toolset (a script pays no tokens for a list), less the writes when
// the server is read-only, and not the toolsets tool, which changes an MCP
// session's list.
type Direct struct {
	s        *server
	mu       sync.Mutex
	handlers map[string]mcp.ToolHandler
}

// Tools lists the tools Direct calls, as tools/list would show them.
func (d *Direct) Tools() []mcp.Tool {
	var out []mcp.Tool
	for _, t := range allTools() {
		if dt, ok := d.s.dyn.tools[t.Def.Name]; ok {
			out = append(out, definition(dt))
		}
	}
	return out
}

// A DirectAnswer is a call's outcome: the tool's result, and for a
// refusal its kind and what was wrong.
type DirectAnswer struct {
	Text       string
	Structured any
	Failed     bool
	Kind       problem.Kind
	Code       int
	Reason     string
	Message    string
	Field      string
	Fix        string
}

// Call runs the named tool with args (a JSON object, or empty) as the
// request described by extra (its token and headers name the agent). ok is
// false when there is no such tool.
func (d *Direct) Call(ctx context.Context, name string, args json.RawMessage, extra *mcp.RequestExtra) (a DirectAnswer, ok bool) {
	t, ok := d.s.dyn.tools[name]
	if !ok {
		return DirectAnswer{}, false
	}
	d.mu.Lock()
	h := d.handlers[name]
	if h == nil {
		if d.handlers == nil {
			d.handlers = map[string]mcp.ToolHandler{}
		}
		h = d.s.handler(t)
		d.handlers[name] = h
	}
	d.mu.Unlock()
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	res, err := h(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: name, Arguments: args}, Extra: extra})
	if err != nil {
		res = errorResult(ctx, d.s.log, name, err)
	}
	if len(res.Content) > 0 {
		if tc, isText := res.Content[0].(*mcp.TextContent); isText {
			a.Text = tc.Text
		}
	}
	a.Structured = res.StructuredContent
	if te, isErr := res.StructuredContent.(ToolError); res.IsError && isErr {
		a = DirectAnswer{Text: a.Text, Failed: true, Kind: te.kind, Code: te.Code, Reason: te.Reason, Message: te.Message, Field: te.field, Fix: te.fix}
	}
	return a, true
}
