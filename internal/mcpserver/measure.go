package mcpserver

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/usage"
)

// HeaderModel is the HTTP header a client (or a proxy in front of it)
// names its model with; CAIRN_MODEL does it for a stdio server.
const HeaderModel = "X-Cairn-Model"

// envModel is the model a stdio server was started for, if it was told.
var envModel = sync.OnceValue(func() string { return strings.TrimSpace(os.Getenv("CAIRN_MODEL")) })

// knowledgeReads are the tools whose calls read a knowledge entry, and the
// argument that names it.
var knowledgeReads = map[string]string{"query_tkb": "query", "get_tkb_entry": "entry", "get_agent": "name"}

// measured wraps a tool's handler so that each call is handed to the
// project's insight recorder: a non-blocking send, written in a batch
// later, so recording never slows or fails the call.
func (s *server) measured(ts, name string, h mcp.ToolHandler) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		start := time.Now()
		m := &tool.Measure{}
		res, err := h(tool.Measuring(ctx, m), req)
		if m.Svc != nil && m.Svc.Insight.Enabled() {
			s.recordCall(m.Svc, req, ts, name, time.Since(start), res, m.Class)
		}
		return res, err
	}
}

func (s *server) recordCall(svc *service.Set, req *mcp.CallToolRequest, ts, name string, d time.Duration, res *mcp.CallToolResult, class string) {
	e := usage.Event{Kind: usage.KindCall, Name: name, Toolset: ts, Agent: s.agent(req), Duration: d, Outcome: usage.OK, Model: envModel()}
	if req.Params != nil {
		e.Subject = usage.ArgsDigest(req.Params.Arguments)
	}
	if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss != nil {
		if ip := ss.InitializeParams(); ip != nil && ip.ClientInfo != nil {
			e.Client, e.ClientVersion = ip.ClientInfo.Name, ip.ClientInfo.Version
		}
	}
	if req.Extra != nil && req.Extra.Header != nil {
		if m := strings.TrimSpace(req.Extra.Header.Get(HeaderModel)); m != "" {
			e.Model = m
		}
	}
	if a := &s.attached; a.mu.TryLock() {
		if a.found && a.agent == e.Agent {
			e.Session = int64(a.s.ID)
		}
		a.mu.Unlock()
	}
	if res != nil {
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				e.Bytes += len(t.Text)
			}
		}
		if res.IsError {
			e.Outcome = "error"
			if te, ok := res.StructuredContent.(ToolError); ok {
				e.Outcome = te.Reason
			}
		}
	}
	svc.Insight.Record(e)
	if class != "" && !e.Failed() {
		c := e
		c.Kind, c.Subject = usage.KindClass, class
		svc.Insight.Record(c)
	}
	if arg, ok := knowledgeReads[name]; ok && !e.Failed() {
		var args map[string]any
		if json.Unmarshal(req.Params.Arguments, &args) == nil {
			if v, ok := args[arg].(string); ok {
				e.Kind, e.Subject = usage.KindRead, v
				svc.Insight.Record(e)
			}
		}
	}
}
