// Package tool is the toolkit Cairn's MCP toolsets declare their tools
// with: a declaration (Declare, DeclareActions) binds typed arguments,
// decoded and checked against the schema it declares, to a handler over the
// project's services; shapes refine a schema (Enum, Bounds, PageShape);
// views and action words shared by several toolsets keep their answers
// alike. It knows no server: internal/mcpserver serves the declarations.
package tool

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/brief"
)

// Tool is one tool's declaration: its toolset, its MCP definition and a
// handler built once the server exists.
type Tool struct {
	Toolset string
	Def     mcp.Tool // without InputSchema: see schema
	// Schema is the input schema, derived from the argument type on first
	// use: by the first call, since tools/list sends the generated copy
	// (see definition).
	Schema func() *jsonschema.Schema
	// Key names the tool's generated schema: its name, with " read-only"
	// for a read-only variant.
	Key string
	// Bind decodes a call's arguments against the schema (a refusal
	// names the field) and returns the handler bound to them.
	Bind func(args json.RawMessage) (bound, error)
	// ReadOnlyVariant, if set, is what --read-only serves instead of a
	// writing tool: the same tool with its read actions only.
	ReadOnlyVariant *Tool
	// always: served whatever the toolsets (the toolsets tool).
	Always bool
}

func (t Tool) ReadOnly() bool { return t.Def.Annotations != nil && t.Def.Annotations.ReadOnlyHint }

// Call is what a handler gets besides its arguments.
type Call struct {
	*service.Set
	Agent string
	Host  Host
}

// Host is what a handler may ask of the server that runs it.
type Host interface {
	// LoopChanged tells the loop watcher to look now.
	LoopChanged()
	// Version is the server's version.
	Version() string
	// Settings are the surface's configuration and where each value
	// came from.
	Settings() []brief.Setting
	// Served reports whether the named tool is served from the start;
	// NumServed counts those tools.
	Served(name string) bool
	NumServed() int
	// ToolsetOf names the toolset that declares a tool.
	ToolsetOf(name string) string
}

// LoopChanged tells the loop watcher to look now rather than at its next
// poll, so this process's subscribers hear of its own changes at once.
func (c Call) LoopChanged() { c.Host.LoopChanged() }

// HandlerFunc is a typed tool handler. It returns the compact text rendering
// for the model and the structured result, or an error.
type HandlerFunc[In any] func(ctx context.Context, c Call, in In) (text string, out any, err error)

// bound is a handler with its arguments decoded.
type bound func(ctx context.Context, c Call) (text string, out any, err error)

// Declare builds a tool declaration from its typed handler. The input schema
// is derived from In; shape, if given, refines it (enums, bounds).
func Declare[In any](ts string, def mcp.Tool, h HandlerFunc[In], shape ...func(*jsonschema.Schema)) Tool {
	schema := sync.OnceValue(func() *jsonschema.Schema {
		schema := InputSchema[In]()
		for _, f := range shape {
			f(schema)
		}
		return schema
	})
	return Tool{Toolset: ts, Def: def, Schema: schema, Key: def.Name, Bind: func(args json.RawMessage) (bound, error) {
		in, err := DecodeArgs[In](args, schema())
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, c Call) (string, any, error) { return h(ctx, c, in) }, nil
	}}
}
