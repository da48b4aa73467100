// Package bridge serves MCP over stdio and forwards every request to a
// remote Streamable HTTP MCP server, for editors that only speak stdio. The
// remote's tools, prompts and resources are discovered, never declared here;
// the last known lists are cached on disk so the bridge starts, lists them
// and answers clearly while the remote is down, and it reconnects with
// backoff when the remote comes back or restarts.
package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options configure a bridge.
type Options struct {
	// URL is the remote Streamable HTTP endpoint.
	URL string
	// Token, if set, is sent as "Authorization: Bearer <Token>".
	Token string
	// Header is sent with every HTTP request to the remote.
	Header http.Header
	// CacheDir holds the list cache; empty means DefaultCacheDir. The
	// cache is off if NoCache is set.
	CacheDir string
	NoCache  bool
	// RetryMin and RetryMax bound the reconnect backoff: it starts at
	// RetryMin, doubles after each failed attempt up to RetryMax, and each
	// wait is jittered by ±20%. Defaults 500ms and 30s.
	RetryMin, RetryMax time.Duration
	// ConnectTimeout bounds one connection attempt (HTTP, initialize and
	// discovery), and how long a request waits for the first attempt.
	// Default 10s.
	ConnectTimeout time.Duration
	// Version is the bridge's own version, shown while the remote's
	// identity is unknown.
	Version string
	Logger  *slog.Logger
	// HTTPClient is the base client for the remote; default a clone of
	// http.DefaultTransport with no overall timeout (SSE streams are long).
	// The bridge adds the token and Header only to requests for the URL's
	// own origin, and refuses redirects to any other.
	HTTPClient *http.Client
	// MaxListPages, MaxListItems and MaxListBytes cap each of the remote's
	// lists (tools, prompts, resources, templates) as the bridge reads
	// them: a list over a cap is refused, with the cap in the error, and
	// never cached. Defaults 100 pages, 1000 items, 4 MiB of JSON.
	MaxListPages, MaxListItems, MaxListBytes int
	// MaxResponseBytes caps the body of each of the remote's answers to a
	// request. Default 32 MiB.
	MaxResponseBytes int64
	// Builtin, if set, are the lists of the Cairn this bridge is built
	// into: served, marked as not confirmed, while the remote has never
	// answered and nothing is cached, so a client's first lists are not
	// empty. The remote's own lists replace them when it answers.
	Builtin *Builtin
}

// Builtin are a build's own lists (see Options.Builtin).
type Builtin struct {
	ServerInfo   *mcp.Implementation
	Instructions string
	Tools        []*mcp.Tool
	Prompts      []*mcp.Prompt
}

// Default caps on what the bridge accepts from the remote.
const (
	DefaultMaxListPages     = 100
	DefaultMaxListItems     = 1000
	DefaultMaxListBytes     = 4 << 20
	DefaultMaxResponseBytes = 32 << 20
)

// remoteProtocolVersion is the protocol the bridge speaks to the remote: the
// session-based Streamable HTTP of 2025-11-25, whose sessions it keeps and
// re-establishes. The local client may negotiate any version with the
// bridge; the SDK translates.
const remoteProtocolVersion = "2025-11-25"

// localProtocolVersions are the versions the bridge offers its local client:
// up to the one it speaks to the remote.
var localProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}

// BuiltinNote ends the instructions while the lists are the bridge's own
// (Options.Builtin): the model knows they may not be the remote's.
const BuiltinNote = "(Not yet confirmed by the remote: these tools and prompts are the ones this bridge's build of Cairn serves; calls fail until the remote answers, and its own lists then replace these.)"

// CodeUnavailable is the JSON-RPC error code of a request the bridge cannot
// forward because the remote is unreachable (a tools/call gets an isError
// result instead).
const CodeUnavailable = -32000

// Bridge is one stdio session forwarded to one remote.
type Bridge struct {
	opts      Options
	log       *slog.Logger
	server    *mcp.Server
	client    *mcp.Client
	httpc     *http.Client
	cachePath string
	origin    origin // where credentials may go
	safeURL   string // opts.URL without credentials, for logs, messages and the cache

	regMu sync.Mutex // serializes apply
	reg   *registry

	mu        sync.Mutex
	sess      *mcp.ClientSession // nil while disconnected
	snap      *snapshot          // last known lists: from the remote, else the cache
	fromCache bool               // snap came from the cache and the remote was not reached since
	builtin   bool               // snap is Options.Builtin: the remote was never reached
	downSince time.Time
	cause     error
	retry     time.Duration
	attempts  int             // connection attempts made, successful or not
	begun     int             // connection attempts started
	changed   chan struct{}   // closed and replaced on every connection state change
	subs      map[string]bool // resources the local client subscribed to

	attempted chan struct{} // closed when the first connection attempt is over
	broken    chan brokenSession
	refresh   chan struct{}
	kick      chan struct{}
}

// New builds a bridge; Run serves it.
func New(opts Options) (*Bridge, error) {
	if opts.URL == "" {
		return nil, errors.New("bridge: the remote URL is required, such as http://127.0.0.1:8080/mcp")
	}
	u, err := url.Parse(opts.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("bridge: remote URL %q: use an http:// or https:// URL of a Streamable HTTP MCP endpoint", RedactURL(opts.URL))
	}
	if opts.MaxListPages <= 0 {
		opts.MaxListPages = DefaultMaxListPages
	}
	if opts.MaxListItems <= 0 {
		opts.MaxListItems = DefaultMaxListItems
	}
	if opts.MaxListBytes <= 0 {
		opts.MaxListBytes = DefaultMaxListBytes
	}
	if opts.MaxResponseBytes <= 0 {
		opts.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if opts.RetryMin <= 0 {
		opts.RetryMin = 500 * time.Millisecond
	}
	if opts.RetryMax <= 0 {
		opts.RetryMax = 30 * time.Second
	}
	if opts.RetryMax < opts.RetryMin {
		opts.RetryMax = opts.RetryMin
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = 10 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Version == "" {
		opts.Version = "dev"
	}
	b := &Bridge{
		opts:      opts,
		log:       opts.Logger,
		reg:       newRegistry(),
		changed:   make(chan struct{}),
		subs:      map[string]bool{},
		attempted: make(chan struct{}),
		broken:    make(chan brokenSession, 1),
		refresh:   make(chan struct{}, 1),
		kick:      make(chan struct{}, 1),
		retry:     opts.RetryMin,
		origin:    originOf(u),
		safeURL:   RedactURL(opts.URL),
	}
	if !opts.NoCache {
		dir := opts.CacheDir
		if dir == "" {
			d, err := DefaultCacheDir()
			if err != nil {
				return nil, err
			}
			dir = d
		}
		b.cachePath = CachePath(dir, opts.URL)
	}
	b.httpc = b.newHTTPClient()
	b.client = mcp.NewClient(&mcp.Implementation{Name: "cairn-bridge", Version: opts.Version}, &mcp.ClientOptions{
		Logger: opts.Logger,
		// The bridge offers the remote nothing of its own (no roots).
		Capabilities:                &mcp.ClientCapabilities{},
		MultiRoundTrip:              &mcp.MultiRoundTripOptions{Disabled: true},
		ToolListChangedHandler:      func(context.Context, *mcp.ToolListChangedRequest) { b.askRefresh() },
		PromptListChangedHandler:    func(context.Context, *mcp.PromptListChangedRequest) { b.askRefresh() },
		ResourceListChangedHandler:  func(context.Context, *mcp.ResourceListChangedRequest) { b.askRefresh() },
		ResourceUpdatedHandler:      b.onResourceUpdated,
		ProgressNotificationHandler: b.onRemoteProgress,
	})
	b.server = mcp.NewServer(&mcp.Implementation{Name: "cairn-bridge", Version: opts.Version}, &mcp.ServerOptions{
		Logger: opts.Logger,
		// Everything a remote may offer is advertised up front: the
		// remote may be down at start, and capabilities cannot change
		// after initialize. A request the remote does not support gets
		// the remote's own error.
		//
		// Logging is not among them: MCP logging is deprecated (SEP-2577:
		// a server's log belongs on its stderr, or OpenTelemetry). The
		// bridge's own log goes to its stderr; a remote's stays in the
		// remote's log (Cairn's never sent any over MCP), so the bridge
		// neither sets a level on the remote nor relays its messages.
		Capabilities: &mcp.ServerCapabilities{
			Tools:       &mcp.ToolCapabilities{ListChanged: true},
			Prompts:     &mcp.PromptCapabilities{ListChanged: true},
			Resources:   &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
			Completions: &mcp.CompletionCapabilities{},
		},
		// The local client gets the protocol the remote is spoken to in,
		// so what it sees is what the remote sent.
		SupportedProtocolVersions:   localProtocolVersions,
		SubscribeHandler:            b.subscribe,
		UnsubscribeHandler:          b.unsubscribe,
		ProgressNotificationHandler: b.onLocalProgress,
	})
	b.server.AddReceivingMiddleware(b.forward)
	return b, nil
}

// Server is the local MCP server, for callers that run it on their own
// transport.
func (b *Bridge) Server() *mcp.Server { return b.server }

// Run loads the cache, starts connecting to the remote and serves the local
// client on t until it disconnects or ctx ends.
func (b *Bridge) Run(ctx context.Context, t mcp.Transport) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := b.Start(ctx); err != nil {
		return err
	}
	defer b.Close()
	err := b.server.Run(ctx, t)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// Start loads the cache and starts the connection to the remote in the
// background; until ctx ends it keeps the connection up. Without a cache it
// makes the first attempt before returning (bounded by ConnectTimeout), so
// the local client's first lists are the remote's rather than empty.
func (b *Bridge) Start(ctx context.Context) error {
	if b.cachePath != "" {
		s, err := loadSnapshot(b.cachePath, b.safeURL)
		if err != nil {
			b.log.Warn("ignoring the list cache", "error", err)
		}
		if s != nil {
			b.mu.Lock()
			b.snap, b.fromCache = s, true
			b.mu.Unlock()
			b.regMu.Lock()
			b.apply(s)
			b.regMu.Unlock()
			b.log.Info("lists loaded from cache", "path", b.cachePath, "saved_at", s.SavedAt, "tools", len(s.Tools))
		}
	}
	b.mu.Lock()
	noLists := b.snap == nil
	b.mu.Unlock()
	if bi := b.opts.Builtin; noLists && bi != nil {
		s := &snapshot{URL: b.safeURL, ServerInfo: bi.ServerInfo, Tools: bi.Tools, Prompts: bi.Prompts,
			Instructions: strings.TrimSpace(bi.Instructions + "\n\n" + BuiltinNote)}
		b.mu.Lock()
		b.snap, b.fromCache, b.builtin = s, true, true
		b.mu.Unlock()
		b.regMu.Lock()
		b.apply(s)
		b.regMu.Unlock()
		b.log.Info("remote never reached and no cache: serving this build's own lists until it answers", "tools", len(s.Tools), "prompts", len(s.Prompts))
	}
	go b.supervise(ctx)
	if noLists {
		// The first attempt is waited for even with the built-in lists, so
		// that a reachable remote's own lists are the client's first.
		select {
		case <-b.attempted:
		case <-ctx.Done():
		}
		b.mu.Lock()
		if b.sess == nil {
			serving := "empty lists"
			if b.builtin {
				serving = "this build's own lists, unconfirmed,"
			}
			b.log.Warn("remote unreachable and no cached lists: serving "+serving+" until it is reachable",
				"url", b.safeURL, "cause", b.cause)
		}
		b.mu.Unlock()
	}
	return nil
}

// Close ends the remote session.
func (b *Bridge) Close() error {
	b.mu.Lock()
	cs := b.sess
	b.sess = nil
	b.mu.Unlock()
	if cs != nil {
		return cs.Close()
	}
	return nil
}

// forward is the local server's receiving middleware: requests for the
// remote go there, the rest to the SDK.
func (b *Bridge) forward(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		defer func() {
			// A bug here must cost one request, not the editor's session.
			if r := recover(); r != nil {
				b.log.Error("bridge panicked", "method", method, "panic", r, "stack", string(debug.Stack()))
				res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("cairn bridge: internal error in %s: %v", method, r)}
			}
		}()
		switch method {
		case "tools/call":
			return b.callTool(ctx, req.GetParams().(*mcp.CallToolParamsRaw))
		case "prompts/get":
			return b.getPrompt(ctx, req.GetParams().(*mcp.GetPromptParams))
		case "resources/read":
			return b.readResource(ctx, req.GetParams().(*mcp.ReadResourceParams))
		case "completion/complete":
			p := *req.GetParams().(*mcp.CompleteParams)
			p.Meta = cleanMeta(p.Meta)
			res, err := call(ctx, b, func(cs *mcp.ClientSession) (*mcp.CompleteResult, error) { return cs.Complete(ctx, &p) })
			return res, wireError(err)
		case "tools/list":
			return b.list(ctx, method, req, next, func(cs *mcp.ClientSession, cursor string) (mcp.Result, error) {
				return cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
			})
		case "prompts/list":
			return b.list(ctx, method, req, next, func(cs *mcp.ClientSession, cursor string) (mcp.Result, error) {
				return cs.ListPrompts(ctx, &mcp.ListPromptsParams{Cursor: cursor})
			})
		case "resources/list":
			return b.list(ctx, method, req, next, func(cs *mcp.ClientSession, cursor string) (mcp.Result, error) {
				return cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			})
		case "resources/templates/list":
			return b.list(ctx, method, req, next, func(cs *mcp.ClientSession, cursor string) (mcp.Result, error) {
				return cs.ListResourceTemplates(ctx, &mcp.ListResourceTemplatesParams{Cursor: cursor})
			})
		case "ping":
			// The bridge answers for itself; while connected the ping goes
			// through to the remote too, so a client's liveness check sees
			// a dead remote at once (it is then reported as degraded).
			if cs := b.current(); cs != nil {
				pctx, cancel := context.WithTimeout(ctx, kickWait)
				err := b.classify(cs, cs.Ping(pctx, nil))
				cancel()
				if isRemoteError(err) {
					return nil, err
				}
			}
			return next(ctx, method, req)
		case "initialize", "server/discover":
			res, err := next(ctx, method, req)
			if err == nil {
				b.describe(res)
			}
			return res, err
		}
		return next(ctx, method, req)
	}
}

// describe presents the remote's identity and instructions at initialize
// (from the cache when the remote has not been reached), and says so when
// nothing is known of it.
func (b *Bridge) describe(res mcp.Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var info *mcp.Implementation
	var instructions string
	if b.snap != nil {
		if b.snap.ServerInfo != nil {
			si := *b.snap.ServerInfo
			info = &si
		}
		instructions = b.snap.Instructions
	}
	if b.sess == nil {
		note := b.unavailableLocked().Error()
		if instructions != "" {
			note = instructions + "\n\n(" + note + ")"
		}
		instructions = note
	}
	switch r := res.(type) {
	case *mcp.InitializeResult:
		if info != nil {
			r.ServerInfo = info
		}
		r.Instructions = instructions
	case *mcp.DiscoverResult:
		// The 2026 protocol's handshake: the server's identity is in _meta.
		if info != nil {
			m := r.GetMeta()
			if m == nil {
				m = map[string]any{}
			}
			m[mcp.MetaKeyServerInfo] = info
			r.SetMeta(m)
		}
		r.Instructions = instructions
	}
}

func (b *Bridge) callTool(ctx context.Context, p *mcp.CallToolParamsRaw) (*mcp.CallToolResult, error) {
	q := &mcp.CallToolParams{Meta: cleanMeta(p.Meta), Name: p.Name, InputResponses: p.InputResponses, RequestState: p.RequestState}
	if len(p.Arguments) > 0 {
		q.Arguments = p.Arguments
	}
	res, err := call(ctx, b, func(cs *mcp.ClientSession) (*mcp.CallToolResult, error) { return cs.CallTool(ctx, q) })
	var u *unavailableError
	if errors.As(err, &u) {
		// A tool's failure is for the model to read and act on: an isError
		// result rather than a protocol error.
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: u.Error()}}}, nil
	}
	return res, err
}

func (b *Bridge) getPrompt(ctx context.Context, p *mcp.GetPromptParams) (*mcp.GetPromptResult, error) {
	q := *p
	q.Meta = cleanMeta(p.Meta)
	res, err := call(ctx, b, func(cs *mcp.ClientSession) (*mcp.GetPromptResult, error) { return cs.GetPrompt(ctx, &q) })
	return res, wireError(err)
}

func (b *Bridge) readResource(ctx context.Context, p *mcp.ReadResourceParams) (*mcp.ReadResourceResult, error) {
	q := *p
	q.Meta = cleanMeta(p.Meta)
	res, err := call(ctx, b, func(cs *mcp.ClientSession) (*mcp.ReadResourceResult, error) { return cs.ReadResource(ctx, &q) })
	return res, wireError(err)
}

// list answers a list request: from the remote while it is reachable (so
// the answer is the remote's own, page by page), else from the last known
// lists.
func (b *Bridge) list(ctx context.Context, method string, req mcp.Request, next mcp.MethodHandler, f func(*mcp.ClientSession, string) (mcp.Result, error)) (mcp.Result, error) {
	select {
	case <-b.attempted:
	default:
		// Still connecting: answer from the cache rather than wait on a
		// slow remote; a difference is announced with list_changed.
		b.mu.Lock()
		cached := b.snap != nil
		b.mu.Unlock()
		if cached {
			return next(ctx, method, req)
		}
	}
	cursor := cursorOf(req.GetParams())
	res, err := call(ctx, b, func(cs *mcp.ClientSession) (mcp.Result, error) { return f(cs, cursor) })
	var u *unavailableError
	if errors.As(err, &u) {
		return next(ctx, method, req)
	}
	if err == nil {
		err = b.checkPage(method, res)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// checkPage refuses a page of a forwarded list that is over the caps on
// items or bytes (the local client pages on its own, so pages are not
// counted here).
func (b *Bridge) checkPage(method string, res mcp.Result) error {
	n := 0
	switch r := res.(type) {
	case *mcp.ListToolsResult:
		n = len(r.Tools)
	case *mcp.ListPromptsResult:
		n = len(r.Prompts)
	case *mcp.ListResourcesResult:
		n = len(r.Resources)
	case *mcp.ListResourceTemplatesResult:
		n = len(r.ResourceTemplates)
	}
	if n > b.opts.MaxListItems {
		return &jsonrpc.Error{Code: CodeUnavailable, Message: fmt.Sprintf("cairn bridge: the remote's %s page has %d items, over the bridge's cap of %d items (--max-list-items); refused", method, n, b.opts.MaxListItems)}
	}
	j, err := json.Marshal(res)
	if err != nil {
		return &jsonrpc.Error{Code: CodeUnavailable, Message: fmt.Sprintf("cairn bridge: the remote's %s page: %v", method, err)}
	}
	if len(j) > b.opts.MaxListBytes {
		return &jsonrpc.Error{Code: CodeUnavailable, Message: fmt.Sprintf("cairn bridge: the remote's %s page is %d bytes, over the bridge's cap of %d bytes (--max-list-bytes); refused", method, len(j), b.opts.MaxListBytes)}
	}
	return nil
}

func cursorOf(p mcp.Params) string {
	switch p := p.(type) {
	case *mcp.ListToolsParams:
		if p != nil {
			return p.Cursor
		}
	case *mcp.ListPromptsParams:
		if p != nil {
			return p.Cursor
		}
	case *mcp.ListResourcesParams:
		if p != nil {
			return p.Cursor
		}
	case *mcp.ListResourceTemplatesParams:
		if p != nil {
			return p.Cursor
		}
	}
	return ""
}

func (b *Bridge) subscribe(ctx context.Context, req *mcp.SubscribeRequest) error {
	uri := req.Params.URI
	b.mu.Lock()
	b.subs[uri] = true
	cs := b.sess
	b.mu.Unlock()
	if cs == nil {
		return nil // subscribed on (re)connect
	}
	err := b.classify(cs, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}))
	if isRemoteError(err) {
		b.mu.Lock()
		delete(b.subs, uri)
		b.mu.Unlock()
		return err
	}
	return nil
}

func (b *Bridge) unsubscribe(ctx context.Context, req *mcp.UnsubscribeRequest) error {
	uri := req.Params.URI
	b.mu.Lock()
	delete(b.subs, uri)
	cs := b.sess
	b.mu.Unlock()
	if cs == nil {
		return nil
	}
	if err := b.classify(cs, cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uri})); isRemoteError(err) {
		return err
	}
	return nil
}

// Notifications from the remote, passed to the local client.

func (b *Bridge) onResourceUpdated(ctx context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
	if err := b.server.ResourceUpdated(ctx, req.Params); err != nil {
		b.log.Debug("forward resources/updated", "error", err)
	}
}

func (b *Bridge) onRemoteProgress(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
	for ss := range b.server.Sessions() {
		if err := ss.NotifyProgress(ctx, req.Params); err != nil {
			b.log.Debug("forward notifications/progress", "error", err)
		}
	}
}

// onLocalProgress passes the local client's progress (on a request the
// remote made of it) to the remote.
func (b *Bridge) onLocalProgress(ctx context.Context, req *mcp.ProgressNotificationServerRequest) {
	if cs := b.current(); cs != nil {
		if err := cs.NotifyProgress(ctx, req.Params); err != nil {
			b.log.Debug("forward notifications/progress to the remote", "error", err)
		}
	}
}

// cleanMeta drops the per-request protocol fields of the 2026 protocol
// (io.modelcontextprotocol/...) that the local SDK session may carry: the
// remote session has its own, negotiated at initialize. Everything else,
// such as progressToken, is passed on.
func cleanMeta(m mcp.Meta) mcp.Meta {
	if len(m) == 0 {
		return m
	}
	var out mcp.Meta
	for k := range m {
		if strings.HasPrefix(k, "io.modelcontextprotocol/") {
			if out == nil {
				out = maps.Clone(m)
			}
			delete(out, k)
		}
	}
	if out == nil {
		return m
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// unavailableError is the answer to a request while the remote is down.
type unavailableError struct{ msg string }

func (e *unavailableError) Error() string { return e.msg }

// wire is the JSON-RPC error the local client sees.
func (e *unavailableError) wire() *jsonrpc.Error {
	return &jsonrpc.Error{Code: CodeUnavailable, Message: e.msg}
}

func (b *Bridge) unavailableLocked() *unavailableError {
	var tail string
	switch {
	case b.snap == nil:
		tail = "no tools are known yet: there is no cached list from an earlier connection; they will be announced with tools/list_changed once the remote answers"
	case b.builtin:
		tail = "the tools listed are this bridge's own build of Cairn's, not yet confirmed by the remote; the remote's own are announced with tools/list_changed once it answers"
	case b.fromCache:
		tail = "the last known tools are listed from cache"
	default:
		tail = "the last known tools are listed"
	}
	cause := "not connected yet"
	if b.cause != nil {
		cause = b.cause.Error()
		if strings.Contains(cause, "Unauthorized") || strings.Contains(cause, "Forbidden") {
			cause += " (check --token or CAIRN_BRIDGE_TOKEN)"
		}
	}
	since := b.downSince
	if since.IsZero() {
		since = time.Now()
	}
	return &unavailableError{msg: fmt.Sprintf("remote %s unreachable since %s: %s; retrying every %s; %s",
		b.safeURL, since.UTC().Format(time.RFC3339), cause, roundRetry(b.retry), tail)}
}

func roundRetry(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
