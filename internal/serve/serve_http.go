package serve

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/httpserver"
)

// httpFlags are `cairn serve`'s Streamable HTTP settings.
type httpFlags struct {
	addr           string
	stateless      bool
	jsonResponse   bool
	sessionTimeout time.Duration
	drainTimeout   time.Duration
	maxBody        int64
	tokensFile     string
	projects       []string
	allowedHosts   []string
	allowedOrigins []string

	maxSessions         int
	maxSessionsPerToken int
	sessionEvict        string
	readTimeout         time.Duration
	idleTimeout         time.Duration
	maxConns            int

	// onListen, if set, is told the address once the server listens
	// (`cairn board` prints and opens it).
	onListen func(addr string)
}

func (h *httpFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&h.addr, "http", app.EnvDefault("CAIRN_HTTP", ""),
		"serve Streamable HTTP on ADDR (HOST:PORT, e.g. "+httpserver.DefaultAddr+") instead of stdio (env CAIRN_HTTP)")
	f.BoolVar(&h.stateless, "stateless", envBool("CAIRN_STATELESS"), "HTTP: no sessions; each request stands alone (env CAIRN_STATELESS=1)")
	f.BoolVar(&h.jsonResponse, "json-response", envBool("CAIRN_JSON_RESPONSE"), "HTTP: answer with application/json rather than an SSE stream (env CAIRN_JSON_RESPONSE=1)")
	f.DurationVar(&h.sessionTimeout, "session-timeout", httpserver.DefaultSessionTimeout, "HTTP: close sessions idle this long; 0: never")
	f.DurationVar(&h.drainTimeout, "drain-timeout", httpserver.DefaultDrainTimeout, "HTTP: on SIGTERM, how long to wait for calls in flight")
	f.Int64Var(&h.maxBody, "max-body", httpserver.DefaultMaxBodyBytes, "HTTP: largest request body in bytes; larger ones get 413")
	f.StringVar(&h.tokensFile, "tokens-file", app.EnvDefault("CAIRN_TOKENS_FILE", ""),
		"HTTP: bearer tokens file (JSON, or lines of SECRET:PROJECTS:rw|ro); tokens in $CAIRN_TOKENS are added (env CAIRN_TOKENS_FILE)")
	f.StringArrayVar(&h.projects, "project", nil,
		"HTTP: serve a named project, NAME=DIR, at /p/NAME/mcp; repeatable; $CAIRN_PROJECTS (NAME=DIR,...) adds more")
	f.StringArrayVar(&h.allowedHosts, "allowed-host", nil, "HTTP: a Host name to accept besides loopback ones; repeatable")
	f.StringArrayVar(&h.allowedOrigins, "allowed-origin", nil, "HTTP: a browser Origin to accept besides the server's own (scheme://host[:port], or *); repeatable")
	f.IntVar(&h.maxSessions, "max-sessions", httpserver.DefaultMaxSessions, "HTTP: most live sessions on the server; beyond it a new one gets 503")
	f.IntVar(&h.maxSessionsPerToken, "max-sessions-per-token", httpserver.DefaultMaxSessionsPerToken, "HTTP: most live sessions of one token; beyond it a new one gets 429")
	f.StringVar(&h.sessionEvict, "session-evict", httpserver.EvictRefuse, "HTTP: at a session cap, refuse the new session or close the idlest (refuse|idlest)")
	f.DurationVar(&h.readTimeout, "read-timeout", httpserver.DefaultReadTimeout, "HTTP: bound on reading one request, headers and body")
	f.DurationVar(&h.idleTimeout, "idle-timeout", httpserver.DefaultIdleTimeout, "HTTP: close a keep-alive connection idle this long")
	f.IntVar(&h.maxConns, "max-conns", httpserver.DefaultMaxConns, "HTTP: most open connections; beyond it a new one gets 503 and is closed")
}

// stdioOnly refuses HTTP-only flags without --http: they would do nothing.
func (h *httpFlags) stdioOnly(cmd *cobra.Command) error {
	for _, name := range []string{"stateless", "json-response", "session-timeout", "drain-timeout", "max-body", "tokens-file", "project", "allowed-host", "allowed-origin",
		"max-sessions", "max-sessions-per-token", "session-evict", "read-timeout", "idle-timeout", "max-conns"} {
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("--%s applies to HTTP only: add --http %s (or remove --%s)", name, httpserver.DefaultAddr, name)
		}
	}
	return nil
}

func envBool(name string) bool {
	v := strings.ToLower(os.Getenv(name))
	return v == "1" || v == "true"
}

// httpGCPercent is the garbage collector's least target for `serve --http`
// when GOGC is not set. A server's live heap is small (tens of MiB) and most
// of what it allocates lives for one call, so collecting half as often is
// cheap in memory: under scripts/load.sh at 16 clients it cut the server's
// CPU per call by about 9% (1,170 -> 1,070 µs) for 18 MiB more RSS (46 -> 64).
const httpGCPercent = 200

// httpGCHeadroom is how far, at least, the heap may grow past what is live
// before the next collection, when neither GOGC nor GOMEMLIMIT is set (see
// tuneGC). The SDK allocates about 200 KiB a tool call over HTTP (a 32 KiB
// buffer for each JSON decode), so with tens of MiB live, GOGC 200 still
// collected several times a second under load.
const httpGCHeadroom = 64 << 20

func serveHTTP(ctx context.Context, log *slog.Logger, h httpFlags, cfg httpserver.Config, base app.Config) error {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(httpGCPercent)
		if os.Getenv("GOMEMLIMIT") == "" {
			defer tuneGC(httpGCPercent, httpGCHeadroom)()
		}
	}
	stop, err := startProfiles(log)
	if err != nil {
		return err
	}
	defer stop()
	trimCtx, stopTrim := context.WithCancel(ctx)
	defer stopTrim()
	go trimWhenIdle(trimCtx)
	pairs := h.projects
	if env := os.Getenv("CAIRN_PROJECTS"); env != "" {
		pairs = append(pairs, strings.Split(env, ",")...)
	}
	named, err := app.ParseProjects(pairs)
	if err != nil {
		return err
	}
	if err := app.CheckStore(base); err != nil {
		return err // an empty database: refuse to start rather than make a new store
	}
	for _, dir := range named {
		if err := app.CheckStore(app.Config{Root: dir}); err != nil {
			return err
		}
	}
	projects, err := app.NewDirProjects(base, named)
	if err != nil {
		return err
	}
	if db, ok := projects.DatabaseProjects()[app.DefaultProject]; ok {
		log.Info("team mode: the default project (/mcp) is this project in the database", "database_project", db)
	}
	defer func() {
		if err := projects.Close(); err != nil {
			log.Error("close projects", "error", err)
		}
	}()
	if h.tokensFile != "" {
		t, err := httpserver.LoadTokensFile(h.tokensFile)
		if err != nil {
			return err
		}
		cfg.Tokens = append(cfg.Tokens, t...)
	}
	if env := os.Getenv("CAIRN_TOKENS"); env != "" {
		t, err := httpserver.ParseTokens("CAIRN_TOKENS", env)
		if err != nil {
			return err
		}
		cfg.Tokens = append(cfg.Tokens, t...)
	}
	cfg.Projects = projects
	cfg.Stateless = h.stateless
	cfg.JSONResponse = h.jsonResponse
	cfg.SessionTimeout = h.sessionTimeout
	if cfg.SessionTimeout == 0 {
		cfg.SessionTimeout = -1 // the flag's 0 means never
	}
	cfg.DrainTimeout = h.drainTimeout
	cfg.MaxBodyBytes = h.maxBody
	cfg.AllowedHosts = h.allowedHosts
	cfg.AllowedOrigins = h.allowedOrigins
	cfg.MaxSessions = h.maxSessions
	cfg.MaxSessionsPerToken = h.maxSessionsPerToken
	cfg.SessionEvict = h.sessionEvict
	cfg.ReadTimeout = h.readTimeout
	cfg.IdleTimeout = h.idleTimeout
	cfg.MaxConns = h.maxConns
	srv, err := httpserver.New(cfg)
	if err != nil {
		return err
	}
	ln, err := srv.Listen(h.addr)
	if err != nil {
		return err
	}
	// While the server waits for its first requests, the projects it
	// serves are opened and their plans loaded. Stopped and waited for
	// before the projects close, so no load is in flight then.
	ahead, stopAhead := context.WithCancel(ctx)
	var loading sync.WaitGroup
	loading.Go(func() { projects.Preload(ahead, log) })
	defer func() {
		stopAhead()
		loading.Wait()
	}()
	// Always said, whatever --log-level: tests and scripts that ask for
	// port 0 learn the address here.
	slog.New(slog.NewTextHandler(os.Stderr, nil)).Info("serving MCP over HTTP",
		"url", "http://"+ln.Addr().String()+"/mcp", "auth", srv.AuthRequired(), "stateless", h.stateless)
	if h.onListen != nil {
		h.onListen(ln.Addr().String())
	}
	return srv.Serve(ctx, ln)
}
