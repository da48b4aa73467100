package httpserver

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/problem"
)

// REST beside MCP, for scripts and CI without an MCP client:
//
//	GET  /mcp/tools          every tool with its input schema
//	POST /mcp/tools/{name}   a JSON object of arguments → the answer
//
// (and the same under /p/{project}/). A request passes the same gate as
// /mcp (Host, Origin, token, project, agent) and the same body cap, and the
// call runs the tool's own handler (mcpserver.Direct): the same arguments,
// checks and answers as a tools/call. A refusal is a JSON problem whose
// status comes from its kind (httpStatus), naming the argument at fault.

// restTool is a tool as GET /mcp/tools lists it.
type restTool struct {
	Name        string               `json:"name"`
	Description string               `json:"description"`
	InputSchema any                  `json:"inputSchema"`
	Annotations *mcp.ToolAnnotations `json:"annotations,omitempty"`
}

// restAnswer is a call's answer: the text a model would read and the
// structured content.
type restAnswer struct {
	Text       string `json:"text"`
	Structured any    `json:"structured,omitempty"`
}

// restError is a refused call: the answer's fields, the tool's code and
// reason, and the argument at fault.
type restError struct {
	Status  int    `json:"status"`
	Reason  string `json:"reason"`
	Problem string `json:"problem"`
	Field   string `json:"field,omitempty"`
	Fix     string `json:"fix,omitempty"`
	Code    int    `json:"code,omitempty"`
}

func (s *Server) serveREST(w http.ResponseWriter, r *http.Request, pathProject, tool string) {
	tok, name, ok := s.gate(w, r, pathProject)
	if !ok {
		return
	}
	var body []byte
	if r.Method == http.MethodPost {
		var p *answer
		if r.ContentLength == 0 && r.Header.Get("Content-Type") == "" {
			body = []byte("{}") // no arguments
		} else if body, p = s.readBody(w, r); p != nil {
			writeProblem(w, *p)
			return
		}
		if !s.calls.add() {
			writeProblem(w, *answerFor("shutting_down", &problem.Error{Kind: problem.Unavailable, Problem: "the server is shutting down"}))
			return
		}
		defer s.calls.done()
	}
	readOnly := s.cfg.ReadOnly || (tok != nil && tok.ReadOnly)
	if _, err := s.handler(name, readOnly); err != nil {
		s.log.Error("build MCP server", "project", name, "error", err)
		writeProblem(w, *answerFor("internal", &problem.Error{Kind: problem.Internal, Problem: "could not build the MCP server for project " + name}))
		return
	}
	s.mu.Lock()
	direct := s.directs[handlerKey{name, readOnly}]
	s.mu.Unlock()
	if tool == "" {
		defs := direct.Tools()
		out := struct {
			Tools []restTool `json:"tools"`
		}{Tools: make([]restTool, len(defs))}
		for i, d := range defs {
			out.Tools[i] = restTool{d.Name, d.Description, d.InputSchema, d.Annotations}
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		writeJSON(w, http.StatusBadRequest, restError{Status: http.StatusBadRequest, Reason: "invalid_argument",
			Problem: "the body is not a JSON object of arguments", Fix: `send the tool's arguments as one JSON object, such as {"title": "Write the docs"}, or {} for none`})
		return
	}
	extra := &mcp.RequestExtra{Header: r.Header}
	if tok != nil {
		extra.TokenInfo = &auth.TokenInfo{UserID: tok.Name, Scopes: tok.Projects}
	}
	a, found := direct.Call(r.Context(), tool, body, extra)
	if !found {
		fix := "GET /mcp/tools lists the tools"
		if readOnly {
			fix += " (this server or token is read-only: the tools that write are not served)"
		}
		writeJSON(w, http.StatusNotFound, restError{Status: http.StatusNotFound, Reason: "unknown_tool",
			Problem: fmt.Sprintf("no tool %.100q", tool), Fix: fix})
		return
	}
	if a.Failed {
		st := httpStatus[a.Kind]
		writeJSON(w, st, restError{Status: st, Reason: a.Reason, Problem: a.Message, Field: a.Field, Fix: a.Fix, Code: a.Code})
		return
	}
	writeJSON(w, http.StatusOK, restAnswer{Text: a.Text, Structured: a.Structured})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"status":500,"reason":"internal","problem":"the answer could not be encoded"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
