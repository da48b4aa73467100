package loadgen

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service"
)

// InProcess is a Cairn MCP server over Streamable HTTP in this process: the
// server the product builds (mcpserver.New over app.Open, a real SQLite file)
// behind the Go SDK's Streamable HTTP handler, on a loopback port. The agent
// comes from the X-Cairn-Agent header. It stands in for `cairn serve --http`
// where a test or a profile wants the server in the same process.
type InProcess struct {
	URL  string
	svc  *app.Services
	srv  *http.Server
	done chan error
}

// ServeInProcess serves the project in dir (made a project if it is not one).
// A non-empty token is required as a bearer token on every request.
func ServeInProcess(ctx context.Context, dir, token string, log *slog.Logger) (*InProcess, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if _, err := project.Init(dir); err != nil {
		return nil, err
	}
	svc, err := app.Open(ctx, app.Config{Dir: dir})
	if err != nil {
		return nil, err
	}
	opts := mcpserver.Options{
		Version:  "inprocess",
		Services: func(context.Context) (*service.Set, error) { return &svc.Set, nil },
		Logger:   log,
		Context:  ctx,
	}
	opts.Agent = agentFromHeader
	ms, err := mcpserver.New(opts)
	if err != nil {
		svc.Close()
		return nil, err
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms }, nil)
	if token != "" {
		next := h
		h = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer "+token {
				http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		svc.Close()
		return nil, err
	}
	p := &InProcess{URL: "http://" + ln.Addr().String() + "/mcp", svc: svc,
		srv: &http.Server{Handler: mux, ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}, done: make(chan error, 1)}
	go func() { p.done <- p.srv.Serve(ln) }()
	return p, nil
}

// Close stops the server and closes the project's store.
func (p *InProcess) Close() error {
	// Sessions hold open SSE streams; Close ends them rather than waiting.
	err := p.srv.Close()
	if serr := <-p.done; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return errors.Join(err, p.svc.Close())
}

// agentFromHeader names the agent by the X-Cairn-Agent header of the request
// behind a call. It takes either the request or its extra information: it is
// generic so that it fits Options.Agent in either form (it is assigned, which
// lets Go infer T from the field's type).
func agentFromHeader[T any](x T) string {
	var extra *mcp.RequestExtra
	switch v := any(x).(type) {
	case *mcp.RequestExtra:
		extra = v
	case interface{ GetExtra() *mcp.RequestExtra }:
		extra = v.GetExtra()
	}
	if extra == nil || extra.Header == nil {
		return ""
	}
	return extra.Header.Get(AgentHeader)
}
