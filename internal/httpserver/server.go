// Package httpserver serves Cairn's MCP server over Streamable HTTP, on the
// Go SDK's handler, with what a network service needs around it: Host and
// Origin checks against DNS rebinding, bearer tokens scoped to projects and
// to read-only or read-write, protected-resource metadata (RFC 9728), a body
// limit, a project and an agent per request, health and readiness probes, and
// a graceful shutdown that drains calls in flight.
package httpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/cairn-dev/cairn/internal/agent"
	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/board"
	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service"
)

// Defaults.
const (
	DefaultAddr           = "127.0.0.1:7777"
	DefaultSessionTimeout = 30 * time.Minute
	DefaultMaxBodyBytes   = int64(mcpserver.DefaultMaxLine) // as over stdio
	DefaultDrainTimeout   = 10 * time.Second

	// HeaderProject names the project of a request sent to plain /mcp.
	HeaderProject = "X-Cairn-Project"
	// HeaderAgent names the agent behind a request; each agent keeps its
	// own focus.
	HeaderAgent = "X-Cairn-Agent"

	metadataPath = "/.well-known/oauth-protected-resource"
	answerGrace  = 250 * time.Millisecond
	maxAgentLen  = agent.MaxLen
)

// Config configures a Server.
type Config struct {
	// Projects resolves project names; required.
	Projects app.Projects
	// Version, Toolsets and ReadOnly are as for mcpserver.Options; ReadOnly
	// applies to every request, read-only tokens add to it.
	Version  string
	Toolsets []string
	ReadOnly bool
	// Agent is the agent of a request with neither an X-Cairn-Agent header
	// nor a client name; default agent.Default.
	Agent string

	Stateless      bool
	JSONResponse   bool
	SessionTimeout time.Duration // idle sessions close after it; 0: DefaultSessionTimeout, <0: never
	MaxBodyBytes   int64         // 0: DefaultMaxBodyBytes
	DrainTimeout   time.Duration // 0: DefaultDrainTimeout

	// MaxSessions caps the live sessions of the server, and
	// MaxSessionsPerToken those of one token (with tokens configured);
	// 0: the defaults. SessionEvict says what a new session does at a
	// cap: EvictRefuse (the default) answers 503 (global) or 429 (per
	// token); EvictIdlest closes the least recently used session.
	MaxSessions         int
	MaxSessionsPerToken int
	SessionEvict        string
	// ReadTimeout bounds reading a request, headers and body (the refusal
	// path's drain included); IdleTimeout closes a keep-alive connection
	// idle this long; ReadHeaderTimeout bounds the headers alone; MaxConns
	// caps the open connections. 0: the defaults.
	ReadTimeout       time.Duration
	IdleTimeout       time.Duration
	ReadHeaderTimeout time.Duration
	MaxConns          int

	// Tokens, when any, are required on every MCP request.
	Tokens []Token
	// AllowedHosts are host names (without port) accepted in the Host
	// header besides loopback ones. A request that arrives over loopback
	// must name one of these or a loopback host (against DNS rebinding);
	// one that arrives on another address is held to them only if any are
	// set (otherwise its token protects it).
	AllowedHosts []string
	// AllowedOrigins are origins (scheme://host[:port]) accepted in the
	// Origin header besides the server's own; "*" accepts any.
	AllowedOrigins []string

	Logger *slog.Logger
}

// Server is Cairn's HTTP surface.
type Server struct {
	cfg    Config
	log    *slog.Logger
	tokens *tokenSet

	mu       sync.Mutex
	handlers map[handlerKey]*mcp.StreamableHTTPHandler
	servers  map[handlerKey]*mcp.Server
	directs  map[handlerKey]*mcpserver.Direct // the same servers' tools, for REST

	sess      *sessions
	streams   streams // the board's open event streams
	badTokens badTokenLog

	board *board.Board

	bg       context.Context // the MCP servers' background work (loop watchers)
	bgCancel context.CancelFunc

	draining atomic.Bool
	calls    inflight
	agents   agentVerdicts // checkAgent's verdicts on X-Cairn-Agent

	// streamsCtx ends the standalone SSE streams at shutdown.
	streamsCtx context.Context
	endStreams context.CancelFunc
}

type handlerKey struct {
	project  string
	readOnly bool
}

// New checks cfg and returns a Server.
func New(cfg Config) (*Server, error) {
	if cfg.Projects == nil {
		return nil, errors.New("httpserver: Config.Projects is required")
	}
	if _, err := mcpserver.ToolNames(cfg.Toolsets, cfg.ReadOnly); err != nil {
		return nil, err
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Agent == "" {
		cfg.Agent = agent.Default
	}
	if cfg.SessionTimeout == 0 {
		cfg.SessionTimeout = DefaultSessionTimeout
	}
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.DrainTimeout <= 0 {
		cfg.DrainTimeout = DefaultDrainTimeout
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.MaxSessionsPerToken <= 0 {
		cfg.MaxSessionsPerToken = DefaultMaxSessionsPerToken
	}
	switch cfg.SessionEvict {
	case "":
		cfg.SessionEvict = EvictRefuse
	case EvictRefuse, EvictIdlest:
	default:
		return nil, fmt.Errorf("--session-evict %q: use %s (answer 503/429 at the cap) or %s (close the least recently used session)", cfg.SessionEvict, EvictRefuse, EvictIdlest)
	}
	if cfg.ReadTimeout <= 0 {
		cfg.ReadTimeout = DefaultReadTimeout
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.ReadHeaderTimeout <= 0 {
		cfg.ReadHeaderTimeout = min(DefaultReadHeaderTimeout, cfg.ReadTimeout)
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	for _, o := range cfg.AllowedOrigins {
		if o == "*" {
			continue
		}
		if u, err := url.Parse(o); err != nil || u.Scheme == "" || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return nil, fmt.Errorf("allowed origin %q: write scheme://host[:port], for example https://board.example.com", o)
		}
	}
	ts, err := newTokenSet(cfg.Tokens)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: cfg.Logger, tokens: ts, handlers: map[handlerKey]*mcp.StreamableHTTPHandler{},
		servers: map[handlerKey]*mcp.Server{}, directs: map[handlerKey]*mcpserver.Direct{}, sess: newSessions()}
	s.bg, s.bgCancel = context.WithCancel(context.Background())
	s.streamsCtx, s.endStreams = context.WithCancel(context.Background())
	if s.board, err = s.newBoard(); err != nil {
		return nil, err
	}
	return s, nil
}

// AuthRequired reports whether requests need a bearer token.
func (s *Server) AuthRequired() bool { return len(s.tokens.tokens) > 0 }

// Listen opens addr, refusing a non-loopback address when no token is
// configured: anyone who can reach the port could otherwise read and change
// every project.
func (s *Server) Listen(addr string) (net.Listener, error) {
	if addr == "" {
		addr = DefaultAddr
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--http %q: write HOST:PORT, for example %s", addr, DefaultAddr)
	}
	if !isLoopbackHost(host) && !s.AuthRequired() {
		return nil, fmt.Errorf("--http %s is not a loopback address and no bearer token is configured: "+
			"set CAIRN_TOKENS or --tokens-file (SECRET:PROJECTS:rw|ro), or bind 127.0.0.1", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", addr, err)
	}
	return ln, nil
}

// Handler is the HTTP handler: /mcp, /p/{project}/mcp, the protected-resource
// metadata, /healthz and /readyz.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/mcp", func(w http.ResponseWriter, r *http.Request) { s.serveMCP(w, r, "") })
	mux.HandleFunc("/p/{project}/mcp", func(w http.ResponseWriter, r *http.Request) {
		s.serveMCP(w, r, r.PathValue("project"))
	})
	mux.HandleFunc("GET /mcp/tools", func(w http.ResponseWriter, r *http.Request) { s.serveREST(w, r, "", "") })
	mux.HandleFunc("POST /mcp/tools/{name}", func(w http.ResponseWriter, r *http.Request) { s.serveREST(w, r, "", r.PathValue("name")) })
	mux.HandleFunc("GET /p/{project}/mcp/tools", func(w http.ResponseWriter, r *http.Request) { s.serveREST(w, r, r.PathValue("project"), "") })
	mux.HandleFunc("POST /p/{project}/mcp/tools/{name}", func(w http.ResponseWriter, r *http.Request) {
		s.serveREST(w, r, r.PathValue("project"), r.PathValue("name"))
	})
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.HandleFunc(metadataPath, s.metadata)
	mux.HandleFunc(metadataPath+"/{rest...}", s.metadata)
	notFound := func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, *answerFor("not_found", &problem.Error{Kind: problem.NotFound,
			Problem: fmt.Sprintf("no such path %q", r.URL.Path),
			Fix:     "MCP is at /mcp (the default project) or /p/{project}/mcp; the board at / or /p/{project}/; probes at /healthz and /readyz"}))
	}
	mux.HandleFunc("/p/{project}/{rest...}", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.PathValue("rest"), "mcp/") {
			notFound(w, r)
			return
		}
		s.serveBoard(w, r, r.PathValue("project"), r.PathValue("rest"))
	})
	mux.HandleFunc("GET /p/{project}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/p/"+url.PathEscape(r.PathValue("project"))+"/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/mcp/") || strings.HasPrefix(r.URL.Path, "/.well-known/") {
			notFound(w, r)
			return
		}
		s.serveBoard(w, r, "", strings.TrimPrefix(r.URL.Path, "/"))
	})
	return mux
}

// Serve serves on ln until ctx is done, then shuts down gracefully: it stops
// accepting connections, answers new requests on open ones with 503, waits
// for calls in flight (up to the drain timeout), ends the SSE streams and
// closes what is left. The caller closes the projects afterwards.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	// ReadTimeout deadlines every read of a request; a request that is
	// let through to the SDK clears it once its body is read, so that long
	// calls and SSE streams are not cut (see serveMCP).
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	ln = newLimitListener(ln, s.cfg.MaxConns)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		s.bgCancel()
		return err
	case <-ctx.Done():
	}
	start := time.Now()
	s.draining.Store(true)
	dctx, cancel := context.WithTimeout(context.Background(), s.cfg.DrainTimeout)
	defer cancel()
	go func() { _ = srv.Shutdown(dctx) }() // closes the listener at once; a second Shutdown below waits with it
	n := s.calls.count()
	s.log.Info("shutting down: draining calls in flight", "calls", n, "timeout", s.cfg.DrainTimeout)
	drained := s.calls.wait(dctx)
	// The answers are written. Let the last ones reach their clients before
	// the SSE streams end: the SDK's client fails a session whose standalone
	// stream ends, and might see that before an answer already on the wire.
	if wait := answerGrace - time.Since(s.calls.lastDone()); wait > 0 {
		select {
		case <-time.After(wait):
		case <-dctx.Done():
		}
	}
	// End the SSE streams so their connections close cleanly, and give
	// Shutdown a moment to see every connection idle before cutting what is
	// left.
	s.endStreams()
	grace, cancelGrace := context.WithTimeout(dctx, time.Second)
	_ = srv.Shutdown(grace)
	cancelGrace()
	_ = srv.Close()
	s.bgCancel()
	if !drained {
		s.log.Warn("shutdown: calls still in flight after the drain timeout were cut off", "calls", s.calls.count(), "timeout", s.cfg.DrainTimeout)
	} else {
		s.log.Info("shutdown: drained", "calls", n, "took", time.Since(start).Round(time.Millisecond))
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	if !s.hostOK(w, r) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = io.WriteString(w, `{"status":"ok"}`+"\n")
}

func (s *Server) readyz(w http.ResponseWriter, r *http.Request) {
	if !s.hostOK(w, r) {
		return
	}
	if s.draining.Load() {
		writeProblem(w, *answerFor("shutting_down", &problem.Error{Kind: problem.Unavailable, Problem: "the server is shutting down"}))
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	if err := s.cfg.Projects.Ready(ctx); err != nil {
		// The probe needs no token: it says not ready, and the log says
		// which project and why (paths, database names) to the operator.
		s.log.Warn("not ready", "error", err)
		what := "a project's store does not answer"
		if pe, ok := errors.AsType[*app.ProjectError](err); ok {
			what = fmt.Sprintf("project %q: its store does not answer", pe.Name)
		}
		writeProblem(w, *answerFor("not_ready", &problem.Error{Kind: problem.Unavailable, Problem: what,
			Fix: "the server log says why"}))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = io.WriteString(w, `{"status":"ready"}`+"\n")
}

// metadata serves RFC 9728 protected-resource metadata: the resource is the
// MCP endpoint named by the path after the well-known prefix (plain /mcp if
// none), its tokens go in the Authorization header.
func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	if !s.hostOK(w, r) {
		return
	}
	if !s.AuthRequired() {
		writeProblem(w, *answerFor("not_found", &problem.Error{Kind: problem.NotFound,
			Problem: "this server needs no authorization", Fix: "call /mcp without a token"}))
		return
	}
	path := "/" + r.PathValue("rest")
	if path == "/" {
		path = "/mcp"
	}
	auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource:               baseURL(r) + path,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "Cairn",
	}).ServeHTTP(w, r)
}

func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// gate checks what every request to a project's MCP endpoints must pass,
// in the order that leaks least: Host and Origin, the token, the project
// and the token's right to it, the agent it names. On a refusal it has
// answered and returns ok false.
func (s *Server) gate(w http.ResponseWriter, r *http.Request, pathProject string) (tok *Token, name string, ok bool) {
	if s.draining.Load() {
		w.Header().Set("Connection", "close")
		s.refuse(w, r, *answerFor("shutting_down", &problem.Error{Kind: problem.Unavailable,
			Problem: "the server is shutting down", Fix: "retry against another instance or after the restart"}))
		return nil, "", false
	}
	if p := s.checkHost(r); p != nil {
		s.refuse(w, r, *p)
		return nil, "", false
	}
	if p := s.checkOrigin(r); p != nil {
		s.refuse(w, r, *p)
		return nil, "", false
	}
	tok, p := s.authenticate(w, r)
	if p != nil {
		s.refuse(w, r, *p)
		return nil, "", false
	}
	name, p = s.project(r, pathProject, tok)
	if p != nil {
		if p.Status == http.StatusForbidden {
			s.challenge(w, r, "insufficient_scope", p.Problem)
		}
		s.refuse(w, r, *p)
		return nil, "", false
	}
	if a := r.Header.Get(HeaderAgent); tok != nil && tok.Agent != "" && a != "" && a != tok.Agent {
		s.refuse(w, r, *answerFor("agent_not_allowed", &problem.Error{Kind: problem.Forbidden,
			Problem: fmt.Sprintf("this token is bound to agent %q; %s names another", tok.Agent, HeaderAgent),
			Fix:     "omit " + HeaderAgent + " or send the token's agent"}))
		return nil, "", false
	}
	if a := r.Header.Get(HeaderAgent); a != "" {
		if _, taken := s.tokens.boundElsewhere(a, tok); taken {
			s.refuse(w, r, *answerFor("agent_not_allowed", &problem.Error{Kind: problem.Forbidden,
				Problem: fmt.Sprintf("agent %q is bound to another token", a),
				Fix:     "omit " + HeaderAgent + ", or use that agent's own token"}))
			return nil, "", false
		}
		if err := s.agents.check(a); err != nil {
			s.refuse(w, r, *answerFor("invalid_agent", &problem.Error{Kind: problem.Invalid, Problem: HeaderAgent + ": " + err.Error(),
				Fix: fmt.Sprintf("send 1 to %d printable characters, or omit the header to use the client's name", maxAgentLen)}))
			return nil, "", false
		}
	}
	return tok, name, true
}

// serveMCP checks a request to an MCP endpoint, in the order that leaks
// least: Host and Origin, the token, the project and the token's right to it,
// the body; then hands it to the SDK's handler for (project, read-only).
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request, pathProject string) {
	tok, name, ok := s.gate(w, r, pathProject)
	if !ok {
		return
	}
	var id json.RawMessage
	initialize := false
	rc := http.NewResponseController(w)
	if r.Method == http.MethodPost {
		body, p := s.readBody(w, r)
		if p != nil {
			writeProblem(w, *p)
			return
		}
		id, initialize = peekRequest(body)
		if !s.calls.add() {
			p := answerFor("shutting_down", &problem.Error{Kind: problem.Unavailable, Problem: "the server is shutting down"})
			p.id = id
			writeProblem(w, *p)
			return
		}
		defer s.calls.done()
	}
	// The request is read: from here on a call may run long and an SSE
	// stream stay open, so the read deadline set by ReadTimeout is lifted
	// (the connection's idle and header timeouts still apply after it).
	_ = rc.SetReadDeadline(time.Time{})
	owner := ""
	if tok != nil {
		owner = tok.Name
	}
	sid := r.Header.Get("Mcp-Session-Id")
	newSession := !s.cfg.Stateless && initialize && sid == ""
	registered := false // the reservation became a session entry
	if newSession {
		if p := s.admit(owner); p != nil {
			p.id = id
			w.Header().Set("Retry-After", "5")
			writeProblem(w, *p)
			return
		}
		defer func() {
			if !registered {
				s.release(owner)
			}
		}()
	} else if sid != "" {
		if r.Method == http.MethodDelete {
			defer s.forget(sid)
		} else {
			s.touch(sid)
		}
	}
	s.log.Debug("mcp request in", "method", r.Method, "path", r.URL.Path, "session", r.Header.Get("Mcp-Session-Id"))
	readOnly := s.cfg.ReadOnly || (tok != nil && tok.ReadOnly)
	h, err := s.handler(name, readOnly)
	if err != nil {
		s.log.Error("build MCP server", "project", name, "error", err)
		p := answerFor("internal", &problem.Error{Kind: problem.Internal, Problem: "could not build the MCP server for project " + name})
		p.id = id
		writeProblem(w, *p)
		return
	}
	var next http.Handler = h
	if tok != nil {
		// The SDK binds a session to the user that started it: a session
		// id is no use with another token.
		info := &auth.TokenInfo{UserID: tok.Name, Scopes: tok.Projects}
		next = auth.RequireBearerToken(func(context.Context, string, *http.Request) (*auth.TokenInfo, error) { return info, nil },
			&auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(h)
	}
	if r.Method == http.MethodGet {
		// Standalone SSE streams end cleanly at shutdown, once the calls in
		// flight are answered.
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(s.streamsCtx, cancel)
		defer stop()
		r = r.WithContext(ctx)
	}
	jw := &jsonErrors{ResponseWriter: w, req: r, id: id}
	if newSession {
		// Registered before the client can see the session id, so its
		// next request finds the entry.
		jw.onHeader = func() {
			if got := w.Header().Get("Mcp-Session-Id"); got != "" {
				s.register(got, owner, handlerKey{name, readOnly})
				registered = true
			}
		}
	}
	start := time.Now()
	next.ServeHTTP(jw, r)
	jw.finish()
	if s.log.Enabled(r.Context(), slog.LevelDebug) {
		s.log.Debug("mcp request", "method", r.Method, "path", r.URL.Path, "project", name, "read_only", readOnly, "status", jw.status, "took", time.Since(start))
	}
}

// refuse answers a request with a problem, echoing its JSON-RPC id when the
// body (read up to 64 KiB) holds one.
// The read is deadlined (a client that trickles its body is cut off, not
// waited for) and the connection closed unless the body was read whole.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, p answer) {
	if r.Method == http.MethodPost && r.Body != nil {
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(min(s.cfg.ReadTimeout, refuseDrainTimeout)))
		b, err := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		if err != nil || r.ContentLength < 0 || int64(len(b)) < r.ContentLength {
			w.Header().Set("Connection", "close")
		}
		p.id = requestID(b)
	}
	writeProblem(w, p)
}

// refuseDrainTimeout bounds the read of a refused request's body.
const refuseDrainTimeout = 2 * time.Second

// handler returns the SDK handler for a project and access, building it (and
// its MCP server) on first use. Each pair has its own handler, so a session
// never crosses projects or access levels.
func (s *Server) handler(project string, readOnly bool) (*mcp.StreamableHTTPHandler, error) {
	key := handlerKey{project, readOnly}
	s.mu.Lock()
	defer s.mu.Unlock()
	if h := s.handlers[key]; h != nil {
		return h, nil
	}
	srv, direct, err := mcpserver.NewWithDirect(mcpserver.Options{
		Version:  s.cfg.Version,
		Toolsets: s.cfg.Toolsets,
		ReadOnly: readOnly,
		Services: func(ctx context.Context) (*service.Set, error) {
			p, err := s.cfg.Projects.Get(ctx, project)
			if err != nil {
				return nil, err
			}
			return &p.Set, nil
		},
		Agent:     s.agent,
		Logger:    s.log.With("project", project),
		Context:   s.bg,
		Stateless: s.cfg.Stateless,
	})
	if err != nil {
		return nil, err
	}
	timeout := s.cfg.SessionTimeout
	if timeout < 0 {
		timeout = 0
	}
	var events mcp.EventStore
	if !s.cfg.Stateless {
		// Streams carry event ids, so a client that loses one mid-call
		// resumes it (Last-Event-ID) instead of losing the answer.
		events = mcp.NewMemoryEventStore(nil)
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		EventStore:          events,
		Stateless:           s.cfg.Stateless,
		JSONResponse:        s.cfg.JSONResponse,
		SessionTimeout:      timeout,
		MaxRequestBodyBytes: s.cfg.MaxBodyBytes,
		Logger:              s.log,
		// Host and Origin are checked before the handler, with JSON answers.
		DisableLocalhostProtection: true,
	})
	s.handlers[key] = h
	s.servers[key] = srv
	s.directs[key] = direct
	return h, nil
}

// agent names the agent behind a request: the X-Cairn-Agent header, else the
// name the client gave at initialize, else the configured default.
func (s *Server) agent(req mcp.Request) string {
	if ex := req.GetExtra(); ex != nil && ex.TokenInfo != nil {
		if a := s.tokens.agentOf(ex.TokenInfo.UserID); a != "" {
			return a // the token is bound to it
		}
	}
	if ex := req.GetExtra(); ex != nil && ex.Header != nil {
		if a := ex.Header.Get(HeaderAgent); a != "" {
			return a
		}
	}
	if n := mcpserver.ClientAgent(req); n != "" {
		// A client named like a bound agent does not become it.
		if _, taken := s.tokens.boundElsewhere(n, s.tokenOf(req)); !taken {
			return n
		}
	}
	return s.cfg.Agent
}

// tokenOf is the token a request showed, or nil.
func (s *Server) tokenOf(req mcp.Request) *Token {
	ex := req.GetExtra()
	if ex == nil || ex.TokenInfo == nil {
		return nil
	}
	for i := range s.tokens.tokens {
		if s.tokens.tokens[i].Name == ex.TokenInfo.UserID {
			return &s.tokens.tokens[i]
		}
	}
	return nil
}

func checkAgent(a string) error { return agent.Check(a) }

// agentVerdicts holds checkAgent's verdicts on the agent names requests
// carry. A client sends its name with every call, and checking it (a
// redaction scan of the name) was 3% of the server's CPU under load; the
// names are few and the check is a pure function of the name. Bounded: it
// starts over when full.
type agentVerdicts struct {
	mu sync.Mutex
	m  map[string]error
}

// maxAgentVerdicts bounds agentVerdicts: 1,024 names of at most
// agent.MaxLen bytes.
const maxAgentVerdicts = 1024

// check is checkAgent(a), from the verdicts when a was checked before.
func (v *agentVerdicts) check(a string) error {
	v.mu.Lock()
	err, ok := v.m[a]
	v.mu.Unlock()
	if ok {
		return err
	}
	err = checkAgent(a)
	v.mu.Lock()
	if v.m == nil || len(v.m) >= maxAgentVerdicts {
		v.m = make(map[string]error)
	}
	v.m[a] = err
	v.mu.Unlock()
	return err
}

// checkHost guards against DNS rebinding: a page on evil.example that
// resolves its name to 127.0.0.1 reaches a loopback server with Host:
// evil.example.
func (s *Server) checkHost(r *http.Request) *answer {
	host := hostname(r.Host)
	if isLoopbackHost(host) || slices.ContainsFunc(s.cfg.AllowedHosts, func(h string) bool { return strings.EqualFold(h, host) }) {
		return nil
	}
	// A request that came in over loopback must name a loopback host: that
	// is what DNS rebinding looks like. Beyond loopback, with no hosts
	// configured, any Host passes: tokens guard a server bound there.
	local, _ := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	viaLoopback := local == nil
	if local != nil {
		if ap, err := netip.ParseAddrPort(local.String()); err == nil {
			viaLoopback = ap.Addr().Unmap().IsLoopback()
		}
	}
	if !viaLoopback && len(s.cfg.AllowedHosts) == 0 {
		return nil
	}
	return answerFor("host_not_allowed", &problem.Error{Kind: problem.Forbidden,
		Problem: fmt.Sprintf("Host %q is not allowed (a guard against DNS rebinding)", r.Host),
		Fix:     "connect by localhost or 127.0.0.1, or start the server with --allowed-host NAME"})
}

// hostOK writes the Host problem, if any, for the probes and metadata.
func (s *Server) hostOK(w http.ResponseWriter, r *http.Request) bool {
	if p := s.checkHost(r); p != nil {
		writeProblem(w, *p)
		return false
	}
	return true
}

// checkOrigin refuses browser requests from other sites: an Origin must be
// the server's own or an allowed one. Requests without Origin (not from a
// browser) pass.
func (s *Server) checkOrigin(r *http.Request) *answer {
	origin := r.Header.Get("Origin")
	if origin == "" || slices.Contains(s.cfg.AllowedOrigins, "*") {
		return nil
	}
	if u, err := url.Parse(origin); err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != "" {
		if strings.EqualFold(u.Host, r.Host) {
			return nil
		}
		for _, a := range s.cfg.AllowedOrigins {
			if strings.EqualFold(strings.TrimSuffix(a, "/"), u.Scheme+"://"+u.Host) {
				return nil
			}
		}
	}
	fix := "call from the server's own origin, or start the server with --allowed-origin ORIGIN"
	if len(origin) < 200 {
		fix = "call from the server's own origin, or start the server with --allowed-origin " + origin
	}
	return answerFor("origin_not_allowed", &problem.Error{Kind: problem.Forbidden,
		Problem: fmt.Sprintf("Origin %.200q is not allowed", origin), Fix: fix})
}

// authenticate finds the request's token; with no tokens configured every
// request passes with none.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (*Token, *answer) {
	if !s.AuthRequired() {
		return nil, nil
	}
	h := r.Header.Get("Authorization")
	scheme, secret, _ := strings.Cut(strings.TrimSpace(h), " ")
	secret = strings.TrimSpace(secret)
	switch {
	case h == "":
		s.challenge(w, r, "", "")
		return nil, answerFor("missing_token", &problem.Error{Kind: problem.Unauthorized,
			Problem: "this server needs a bearer token",
			Fix:     "send Authorization: Bearer <token>; tokens are configured with CAIRN_TOKENS or --tokens-file"})
	case !strings.EqualFold(scheme, "Bearer") || secret == "":
		s.challenge(w, r, "invalid_request", "use the Bearer scheme")
		return nil, answerFor("invalid_authorization", &problem.Error{Kind: problem.Unauthorized,
			Problem: "the Authorization header is not a bearer token",
			Fix:     "send Authorization: Bearer <token>"})
	}
	tok, ok := s.tokens.find(secret)
	if !ok {
		if n, log := s.badTokens.note(secret); log {
			s.log.Warn("rejected an unknown bearer token", "remote", r.RemoteAddr, "path", r.URL.Path, "times", n)
		}
		s.challenge(w, r, "invalid_token", "unknown token")
		return nil, answerFor("invalid_token", &problem.Error{Kind: problem.Unauthorized,
			Problem: "the bearer token is not one this server knows",
			Fix:     "check the token for typos, or ask the server's operator for one"})
	}
	return &tok, nil
}

// challenge sets WWW-Authenticate, pointing at the protected-resource
// metadata for the endpoint the request went to (RFC 9728 §5.1).
func (s *Server) challenge(w http.ResponseWriter, r *http.Request, code, desc string) {
	v := fmt.Sprintf(`Bearer resource_metadata=%q`, baseURL(r)+metadataPath+r.URL.Path)
	if code != "" {
		v += fmt.Sprintf(`, error=%q`, code)
	}
	if desc != "" {
		v += fmt.Sprintf(`, error_description=%q`, desc)
	}
	w.Header().Set("WWW-Authenticate", v)
}

// project decides which project a request is for: the URL path
// (/p/{project}/mcp), else the X-Cairn-Project header, else the token's only
// project, else the default project.
func (s *Server) project(r *http.Request, fromPath string, tok *Token) (string, *answer) {
	fromHeader := r.Header.Get(HeaderProject)
	name := app.DefaultProject
	switch {
	case fromPath != "":
		name = fromPath
		if fromHeader != "" && fromHeader != fromPath {
			return "", answerFor("conflicting_project", &problem.Error{Kind: problem.Invalid,
				Problem: fmt.Sprintf("the path names project %q but %s names %q", fromPath, HeaderProject, fromHeader),
				Fix:     "name the project once, in the path or in the header"})
		}
	case fromHeader != "":
		name = fromHeader
	case tok != nil:
		if only, ok := tok.only(); ok {
			name = only
		}
	}
	if err := app.CheckProjectName(name); err != nil {
		return "", answerFor("invalid_project", &problem.Error{Kind: problem.Invalid, Problem: err.Error()})
	}
	if tok != nil && !tok.allows(name) {
		return "", answerFor("project_not_allowed", &problem.Error{Kind: problem.Forbidden,
			Problem: fmt.Sprintf("this token may not use project %q", name),
			Fix:     fmt.Sprintf("use a project it allows (%s), or a token for %s", strings.Join(tok.Projects, ", "), name)})
	}
	if err := s.cfg.Projects.Check(name); err != nil {
		return "", answerFor("unknown_project", &problem.Error{Kind: problem.NotFound, Problem: err.Error()})
	}
	return name, nil
}

// readBody reads a POST body up to the limit, so that an oversized one gets
// 413 however it is sent, and checks what the SDK would refuse less clearly:
// the content type and that the body is JSON at all.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *answer) {
	limit := s.cfg.MaxBodyBytes
	tooLarge := answerFor("body_too_large", &problem.Error{Kind: problem.TooLarge,
		Problem: fmt.Sprintf("the request body is over the limit of %d bytes", limit),
		Fix:     "send a smaller message: keep large material in files and store a summary or the file's path (a task body holds at most 1 MiB); the server's operator can raise --max-body"})
	if r.ContentLength > limit {
		w.Header().Set("Connection", "close")
		return nil, tooLarge
	}
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return nil, answerFor("unsupported_media_type", &problem.Error{Kind: problem.UnsupportedMedia,
			Problem: fmt.Sprintf("Content-Type %.100q is not application/json", ct),
			Fix:     "send Content-Type: application/json with a JSON-RPC message"})
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			w.Header().Set("Connection", "close")
			return nil, tooLarge
		}
		return nil, answerFor("invalid_request", &problem.Error{Kind: problem.Invalid, Problem: "could not read the request body",
			Fix: "send the whole body, with a correct Content-Length"})
	}
	if !json.Valid(body) {
		return nil, answerFor("parse_error", &problem.Error{Kind: problem.Invalid,
			Problem: "the request body is not valid JSON",
			Fix:     "send one JSON-RPC message, or an array of them, as JSON"})
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return body, nil
}

func hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

func isLoopbackHost(host string) bool {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// inflight counts calls being served, so shutdown can wait for them.
type inflight struct {
	mu     sync.Mutex
	n      int
	last   time.Time // when a call last finished
	closed bool
	zero   chan struct{} // closed when n drops to 0 after close
}

func (f *inflight) add() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	f.n++
	return true
}

func (f *inflight) done() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n--
	f.last = time.Now()
	if f.n == 0 && f.zero != nil {
		close(f.zero)
		f.zero = nil
	}
}

func (f *inflight) lastDone() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.last
}

func (f *inflight) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.n
}

// wait refuses new calls and waits for those in flight, until ctx is done;
// it reports whether they all finished.
func (f *inflight) wait(ctx context.Context) bool {
	f.mu.Lock()
	f.closed = true
	if f.n == 0 {
		f.mu.Unlock()
		return true
	}
	zero := make(chan struct{})
	f.zero = zero
	f.mu.Unlock()
	select {
	case <-zero:
		return true
	case <-ctx.Done():
		return false
	}
}
