package mcpserver

import (
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Toolsets on demand. Every session starts with the toolsets the server was
// started with (--toolsets, else the default ones) and may turn others on
// or off with the toolsets tool, which is always served. One MCP server
// serves every session of a project (all HTTP sessions share it), so a
// toolset's tools are added to it the first time any session turns the
// toolset on, and each session sees, and may call, only its own
// toolsets' tools: tools/list and tools/call are filtered per session.
//
// The SDK sends notifications/tools/list_changed to every session when a
// tool is added (it has no way to address one session); a session whose
// list did not change lists the same tools again.

// toolsetsTool is the name of the always-served tool.
const toolsetsTool = "toolsets"

// dynamic is the per-session state of toolsets on demand.
type dynamic struct {
	mu sync.Mutex
	// moved: some session changed its toolsets. Until then the SDK's
	// list_changed, sent for the tools New adds beside initialize, is
	// news to no one and is not sent.
	moved  atomic.Bool
	srv    *mcp.Server
	base   map[string]bool                        // the toolsets each session starts with
	by     map[*mcp.ServerSession]map[string]bool // a session's toolsets, once it changed them
	added  map[string]bool                        // toolsets whose tools are on the server
	tools  map[string]tool.Tool                   // every servable tool by name (read-only variants applied)
	owner  map[string]string                      // tool name → toolset
	order  []string                               // toolset names in table order
	ctl    func() (*mcp.Tool, mcp.ToolHandler)    // the toolsets tool, re-added to notify
	added1 func(ts string, tools []tool.Tool)     // adds a toolset's tools to the server
}

// enabled is the set of toolsets a session sees.
func (d *dynamic) enabled(ss *mcp.ServerSession) map[string]bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.enabledLocked(ss)
}

func (d *dynamic) enabledLocked(ss *mcp.ServerSession) map[string]bool {
	if m, ok := d.by[ss]; ok {
		return m
	}
	return d.base
}

// visible reports whether a session sees the named tool.
func (d *dynamic) visible(ss *mcp.ServerSession, name string) bool {
	if name == toolsetsTool {
		return true
	}
	ts, ok := d.owner[name]
	return ok && d.enabled(ss)[ts]
}

// set changes a session's toolsets, adding to the server the tools of a
// toolset no session had turned on yet, and has list_changed sent. It
// returns whether the session's set changed.
func (d *dynamic) set(ss *mcp.ServerSession, on, off []string) (bool, error) {
	d.mu.Lock()
	cur := d.enabledLocked(ss)
	next := make(map[string]bool, len(cur)+len(on))
	for k := range cur {
		next[k] = true
	}
	for _, n := range on {
		next[n] = true
	}
	for _, n := range off {
		delete(next, n)
	}
	changed := len(next) != len(cur)
	for k := range next {
		changed = changed || !cur[k]
	}
	var fresh []string
	for _, n := range d.order {
		if next[n] && !d.added[n] {
			d.added[n] = true
			fresh = append(fresh, n)
		}
	}
	if changed && ss != nil {
		d.moved.Store(true)
		if d.by == nil {
			d.by = map[*mcp.ServerSession]map[string]bool{}
		}
		if _, known := d.by[ss]; !known {
			go func() { // forget the session with it
				ss.Wait()
				d.mu.Lock()
				delete(d.by, ss)
				d.mu.Unlock()
			}()
		}
		d.by[ss] = next
	}
	d.mu.Unlock()
	for _, n := range fresh {
		var ts []tool.Tool
		for _, t := range d.tools {
			if t.Toolset == n {
				ts = append(ts, t)
			}
		}
		slices.SortFunc(ts, func(a, b tool.Tool) int { return strings.Compare(a.Def.Name, b.Def.Name) })
		d.added1(n, ts)
	}
	if changed && len(fresh) == 0 {
		// Adding a tool is what makes the SDK send list_changed:
		// re-adding this one, unchanged, tells the session its list moved.
		def, h := d.ctl()
		d.srv.AddTool(def, h)
	}
	return changed, nil
}

type toolsetsArgs struct {
	Enable  []string `json:"enable,omitempty" jsonschema:"names, or all"`
	Disable []string `json:"disable,omitempty"`
}

// toolsetOut is one toolset as the toolsets tool answers it.
type toolsetOut struct {
	Name   string   `json:"name"`
	For    string   `json:"for"`
	On     bool     `json:"on"`
	Tokens int      `json:"tokens"` // what its tools cost in tools/list (o200k_base)
	Tools  []string `json:"tools"`
}

type toolsetsOut struct {
	Toolsets []toolsetOut `json:"toolsets"`
	Changed  bool         `json:"changed"`
	Note     string       `json:"note,omitempty"`
}

func (o toolsetsOut) text() string {
	var b strings.Builder
	for _, ts := range o.Toolsets {
		if ts.On { // its tools are in the list already
			fmt.Fprintf(&b, "%s [on, %d tools, ~%d tokens]: %s.\n", ts.Name, len(ts.Tools), ts.Tokens, ts.For)
			continue
		}
		fmt.Fprintf(&b, "%s [off, %d tools, ~%d tokens]: %s. %s\n", ts.Name, len(ts.Tools), ts.Tokens, ts.For, strings.Join(ts.Tools, ", "))
	}
	if o.Note != "" {
		b.WriteString(o.Note + "\n")
	} else if i := slices.IndexFunc(o.Toolsets, func(ts toolsetOut) bool { return !ts.On }); i >= 0 {
		fmt.Fprintf(&b, "Turn one on for this session: toolsets {\"enable\": [%q]}.\n", o.Toolsets[i].Name)
	}
	return strings.TrimRight(b.String(), "\n")
}

// checkToolsets refuses a name that is no toolset, naming the field.
func checkToolsets(field string, names []string) ([]string, error) {
	out := make([]string, 0, len(names))
	for i, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		switch {
		case n == "all":
			out = append(out, ToolsetNames()...)
		case n == "default":
			for _, ts := range toolsets {
				if ts.isDefault {
					out = append(out, ts.name)
				}
			}
		case slices.Contains(ToolsetNames(), n):
			out = append(out, n)
		default:
			return nil, &problem.FieldError{Field: fmt.Sprintf("%s[%d]", field, i),
				Problem: fmt.Sprintf("%q is no toolset", names[i]),
				Fix:     "use one of " + strings.Join(ToolsetNames(), ", ") + " (or all, default)"}
		}
	}
	return out, nil
}

func toolsetsToolDecl() tool.Tool {
	def := mcp.Tool{Name: toolsetsTool,

		Description: "List Cairn's toolsets (use, tools, token cost, on/off); enable or disable some for this session."}
	return tool.Tool{Toolset: toolsetsTool, Def: def, Schema: toolsetsSchema, Key: def.Name, Always: true}
}

var toolsetsSchema = sync.OnceValue(tool.InputSchema[toolsetsArgs])

// toolsetsHandler is the toolsets tool's handler, which works on the
// server rather than the project.
func (s *server) toolsetsHandler(t tool.Tool) mcp.ToolHandler {
	def := t.Def
	return func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				s.log.ErrorContext(ctx, "tool panicked", "tool", def.Name, "panic", r, "stack", string(debug.Stack()))
				res, err = errorResult(ctx, s.log, def.Name, fmt.Errorf("panic: %v", r)), nil
			}
		}()
		in, err := tool.DecodeArgs[toolsetsArgs](req.Params.Arguments, toolsetsSchema())
		if err != nil {
			return errorResult(ctx, s.log, def.Name, err), nil
		}
		out, err := s.toolsetsCall(req.Session, in)
		if err != nil {
			return errorResult(ctx, s.log, def.Name, err), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out.text()}}, StructuredContent: out}, nil
	}
}

// toolsetsCall applies a toolsets call to the session and describes the
// toolsets as the session now has them.
func (s *server) toolsetsCall(ss *mcp.ServerSession, in toolsetsArgs) (toolsetsOut, error) {
	on, err := checkToolsets("enable", in.Enable)
	if err != nil {
		return toolsetsOut{}, err
	}
	off, err := checkToolsets("disable", in.Disable)
	if err != nil {
		return toolsetsOut{}, err
	}
	for i, n := range off {
		if slices.Contains(on, n) {
			return toolsetsOut{}, &problem.FieldError{Field: fmt.Sprintf("disable[%d]", i),
				Problem: n + " is both enabled and disabled", Fix: "name it in one of the two lists"}
		}
	}
	var out toolsetsOut
	if len(on)+len(off) > 0 {
		if ss == nil || s.opts.Stateless {
			return toolsetsOut{}, &problem.Error{Kind: problem.Invalid,
				Problem: "this call has no MCP session to change (a stateless server keeps none)",
				Fix:     "start the server with --toolsets, or connect with a session"}
		}
		if out.Changed, err = s.dyn.set(ss, on, off); err != nil {
			return toolsetsOut{}, err
		}
		if out.Changed {
			out.Note = "The tool list changed; a client that does not reload it on notifications/tools/list_changed needs Cairn restarted with --toolsets."
		}
	}
	if s.opts.Stateless {
		out.Note = "This server is stateless (no session outlives a request): start it with --toolsets to serve others."
	}
	want := s.dyn.enabled(ss)
	for _, ts := range toolsets {
		o := toolsetOut{Name: ts.name, For: ts.description, On: want[ts.name], Tokens: toolsetTokens[ts.name]}
		for _, t := range allTools() {
			if t.Toolset == ts.name {
				if _, ok := s.dyn.tools[t.Def.Name]; ok {
					o.Tools = append(o.Tools, t.Def.Name)
				}
			}
		}
		out.Toolsets = append(out.Toolsets, o)
	}
	return out, nil
}

// quietStart is the sending middleware that holds back list_changed until
// a session has changed its toolsets (see dynamic.moved).
func (s *server) quietStart(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "notifications/tools/list_changed" && !s.dyn.moved.Load() {
			return nil, nil
		}
		return next(ctx, method, req)
	}
}

// filterTools is the receiving middleware that shows each session its own
// toolsets: tools/list lists them and tools/call refuses the others with
// the call that turns theirs on.
func (s *server) filterTools(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case "tools/list":
			res, err := next(ctx, method, req)
			lr, ok := res.(*mcp.ListToolsResult)
			if err != nil || !ok {
				return res, err
			}
			ss, _ := req.GetSession().(*mcp.ServerSession)
			want := s.dyn.enabled(ss)
			kept := make([]*mcp.Tool, 0, len(lr.Tools))
			for _, t := range lr.Tools {
				if t.Name == toolsetsTool || want[s.dyn.owner[t.Name]] {
					kept = append(kept, t)
				}
			}
			out := *lr
			out.Tools = kept
			return &out, nil
		case "tools/call":
			cr, ok := req.(*mcp.CallToolRequest)
			if !ok || cr.Params == nil {
				break
			}
			name := cr.Params.Name
			if ts, known := s.dyn.owner[name]; known && !s.dyn.visible(cr.Session, name) {
				return errorResult(ctx, s.log, name, &problem.FieldError{Field: "name",
					Problem: fmt.Sprintf("%s is in the %s toolset, which is off in this session", name, ts),
					Fix:     fmt.Sprintf(`call toolsets with {"enable":["%s"]} first`, ts)}), nil
			}
		}
		return next(ctx, method, req)
	}
}
