// Package mcpserver is Cairn's MCP surface: the toolsets as data, the one
// place where errors become tool results, resources, prompts and the stdio
// transport. Each toolset's tools are declared in a package of its own under
// toolsets/, with the toolkit in tool/ (a declaration with typed arguments
// and a thin handler over a service); this package assembles them in
// allTools and serves them.
package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/agent"
	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	evolutiontools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/evolution"
	focustools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/focus"
	handstools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/hands"
	insighttools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/insight"
	lifecycletools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/lifecycle"
	loopstools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/loops"
	memorytools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/memory"
	plantools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/plan"
	projecttools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/project"
	sessiontools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/session"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/brief"
)

// Options configure a server.
type Options struct {
	Version string
	// Toolsets names the toolsets to serve: toolset names, "default" or
	// "all". Empty means "default".
	Toolsets []string
	// ReadOnly drops every tool that is not annotated read-only.
	ReadOnly bool
	// Services returns the project's services; it is called on every tool
	// call, so it may open the project lazily and report why it cannot.
	Services func(ctx context.Context) (*service.Set, error)
	// Agent names the agent behind a request (from its session, such as the
	// client's name, or its transport's extra information, such as HTTP
	// headers); each agent's focus is its own. Nil, or an empty answer,
	// means one agent, "default".
	Agent  func(mcp.Request) string
	Logger *slog.Logger
	// Context bounds the server's background work (the loop watcher);
	// default context.Background().
	Context context.Context
	// Initialized, if set, is called once the client has the answer to its
	// first message (initialize, or server/discover in protocol 2026-07-28,
	// which has no initialized notification), when its next one arrives:
	// work kept off the path of that answer, such as opening the project,
	// can start then. It is called at most once.
	Initialized func()
	// Settings are the surface's configuration and where each value came
	// from (flags, environment), for get_config.
	Settings []brief.Setting
	// Procs are this server's ancestor processes, parent first (a stdio
	// server's, proc.Ancestors). A client runs its hooks and its stdio
	// servers as children, so the session a hook of the same window opened
	// names one of them: the server's calls are that session's, and speak
	// as its agent (a second window of a client has an agent of its own).
	// Empty: a call that writes belongs to the agent's open session.
	Procs []memory.Proc
	// ConfigProblems are the refusals of malformed configuration files;
	// the instructions say them.
	ConfigProblems []string
	// Stateless says the transport keeps no session between requests (HTTP
	// with --stateless): what a session would hold, such as the toolsets
	// a client turned on, cannot outlive the call, so it is refused.
	Stateless bool
}

// ClientAgent is the agent a request's client names itself at initialize
// (clientInfo.name), or "" if it gave no usable name. Two editors on one
// project thus keep their own focus without configuration.
func ClientAgent(req mcp.Request) string {
	if req == nil {
		return ""
	}
	ss, ok := req.GetSession().(*mcp.ServerSession)
	if !ok || ss == nil {
		return ""
	}
	if ip := ss.InitializeParams(); ip != nil && ip.ClientInfo != nil {
		return agent.FromClient(ip.ClientInfo.Name)
	}
	return ""
}

// A toolset groups tools that are served together.
type toolset struct {
	name        string
	description string
	isDefault   bool
}

// toolsets lists every toolset in the order people read them.
var toolsets = []toolset{
	{"focus", "the focus stack: YOU ARE HERE, deeper and next steps, completion", true},
	{"plan", "the task board: dependencies, next task, queries, stats, subtasks", true},
	{"loops", "iterative loops with completion criteria, checkpoints, live resources", false},
	{"memory", "project memory: 3-layer search, decisions, mistakes, conventions, observations", true},
	{"session", "working sessions (threaded) and git-branch context", false},
	{"context", "session start in one call (bootstrap), project detection, configuration, next steps", false},
	{"lifecycle", "phases with exit criteria and gates for a story: advance with evidence, loop back", false},
	{"insight", "measured use: model performance, comparison, recommendation, project health, tool usage", false},
	{"evolution", "patterns across sessions become drafts and changes: analyze, status, review, revert, drafts", false},
	{"hands", "validators of the agent's work: OpenAPI, SQL, Dockerfiles, Mermaid, tests, locales, tokens, markup, secrets", false},
}

// definition is the tool as tools/list shows it, with its input schema:
// the JSON generated from the declaration (schemas_gen.go), so a server
// starts without deriving and marshaling every schema, which took most of
// the time before it could answer initialize. TestInputSchemasGenerated
// holds the generated JSON to the declarations.
func definition(t tool.Tool) mcp.Tool {
	def := t.Def
	if js, ok := inputSchemas[t.Key]; ok {
		def.InputSchema = json.RawMessage(js)
	} else {
		def.InputSchema = tool.WireSchema(t.Schema())
	}
	return def
}

// allTools is every declared tool, in declaration order, each writing
// tool with its hints from writeHints.
func allTools() []tool.Tool {
	ts := slices.Concat([]tool.Tool{toolsetsToolDecl()}, focustools.Tools(), plantools.Tools(), loopstools.Tools(), memorytools.Tools(), sessiontools.Tools(), projecttools.Tools(), lifecycletools.Tools(), insighttools.Tools(), handstools.Tools(), evolutiontools.Tools(), projecttools.ScaffoldTools())
	for i := range ts {
		if ts[i].Def.Annotations == nil {
			ts[i].Def.Annotations = writeHints[ts[i].Def.Name]
		}
	}
	return ts
}

type server struct {
	attached attachment
	opts     Options
	log      *slog.Logger
	loops    atomic.Pointer[loopWatch] // nil until the loops toolset is served
	loopOnce sync.Once
	watch    *resourceWatch // the other live resources' subscribers
	// resources are the resources and templates served (resources.go).
	resources []resourceDef
	subs      subscriptions   // each session's resource subscriptions
	served    map[string]bool // the names of the tools served from the start
	dyn       *dynamic        // each session's toolsets
}

// handler is a tool's MCP handler on this server: measured, its panics
// recovered, its arguments decoded, its refusals made results.
func (s *server) handler(t tool.Tool) mcp.ToolHandler {
	if t.Always {
		return s.toolsetsHandler(t)
	}
	ts, def := t.Toolset, t.Def
	return s.measured(ts, def.Name, func(ctx context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		defer func() {
			if r := recover(); r != nil {
				s.log.ErrorContext(ctx, "tool panicked", "tool", def.Name, "panic", r, "stack", string(debug.Stack()))
				res, err = errorResult(ctx, s.log, def.Name, fmt.Errorf("panic: %v", r)), nil
			}
		}()
		growStack(0)
		run, err := t.Bind(req.Params.Arguments)
		if err != nil {
			return errorResult(ctx, s.log, def.Name, err), nil
		}
		svc, err := s.opts.Services(ctx)
		if err != nil {
			return errorResult(ctx, s.log, def.Name, err), nil
		}
		tool.NoteServices(ctx, svc)
		ctx, agent := s.attach(ctx, svc, s.agent(req), def.Annotations != nil && def.Annotations.ReadOnlyHint)
		text, out, err := run(ctx, tool.Call{Set: svc, Agent: agent, Host: s})
		if err != nil {
			return errorResult(ctx, s.log, def.Name, err), nil
		}
		// out itself, not its JSON: the SDK marshals the result once
		// more at each level, re-compacting a json.RawMessage each
		// time, while a value is encoded once, where it sits.
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: text}},
			StructuredContent: out,
		}, nil
	})
}

// The server is its handlers' host.

func (s *server) LoopChanged() {
	if lw := s.loops.Load(); lw != nil {
		lw.changed()
	}
}

func (s *server) Version() string { return s.opts.Version }

func (s *server) Settings() []brief.Setting {
	if len(s.opts.Settings) > 0 {
		return s.opts.Settings
	}
	ts := s.opts.Toolsets
	if len(ts) == 0 {
		ts = []string{"default"}
	}
	return []brief.Setting{{Name: "toolsets", Value: strings.Join(ts, ","), Source: "server"},
		{Name: "read-only", Value: fmt.Sprint(s.opts.ReadOnly), Source: "server"}}
}

func (s *server) Served(name string) bool { return s.served[name] }

func (s *server) NumServed() int { return len(s.served) }

func (s *server) ToolsetOf(name string) string { return toolsetOf(name) }

// attachment is the session a server's calls were last found to work in,
// kept for attachFor: sessions start and end far less often than calls.
type attachment struct {
	mu    sync.Mutex
	agent string
	at    time.Time
	s     memory.Session
	found bool
}

// attachFor is how long a server trusts the session it found for its calls.
const attachFor = 2 * time.Second

// attach returns ctx carrying the session the call works in (see
// Options.Procs) and the agent the call speaks as. A read needs it only to
// know its agent, which only a linked window changes.
func (s *server) attach(ctx context.Context, svc *service.Set, agent string, read bool) (context.Context, string) {
	if read && len(s.opts.Procs) == 0 {
		return ctx, agent
	}
	a := &s.attached
	a.mu.Lock()
	sess, found, fresh := a.s, a.found, a.agent == agent && time.Since(a.at) < attachFor
	a.mu.Unlock()
	if !fresh {
		var err error
		if sess, found, err = svc.Memory.Attach(ctx, agent, s.opts.Procs); err != nil {
			s.log.WarnContext(ctx, "find the session of a call", "error", err)
			return ctx, agent
		}
		a.mu.Lock()
		a.agent, a.at, a.s, a.found = agent, time.Now(), sess, found
		a.mu.Unlock()
	}
	if !found {
		return ctx, agent
	}
	if sess.Client.Proc.PID != 0 && sess.Agent != "" {
		agent = sess.Agent // the window's own agent
	}
	return memory.WithSession(ctx, sess.ID), agent
}

func (s *server) agent(req mcp.Request) string {
	if s.opts.Agent != nil {
		if a := s.opts.Agent(req); a != "" {
			return a
		}
	}
	return agent.Default
}

// instructions are sent to the client at initialization; clients show them
// to the model, so they say in a few lines how to use Cairn well, naming
// only the tools of the toolsets served.
func instructions(want map[string]bool, problems ...string) string {
	var b strings.Builder
	b.WriteString("Cairn is your working memory for this project.")
	if want["focus"] {
		b.WriteString(" Start each session with get_current_task (YOU ARE HERE); in zen it names the next task, which switch_focus starts. " +
			"Break work down with create_new_task (a deeper step) and extend_current_task (the next step at the same level); " +
			"finish with complete_current_task, which moves focus on. Keep notes in the task body with update_current_task.")
	}
	if want["plan"] {
		b.WriteString(" The plan tools (get_tasks, get_next_task, create_task with dependencies) see the same tasks.")
	}
	if want["memory"] {
		b.WriteString(" Before you design or debug, memory_search for past decisions and mistakes; on an error, diagnose_error first. " +
			"Record choices with memory_add_decision and fixed failures with memory_add_mistake.")
	}
	var off []string
	for _, ts := range toolsets {
		if !want[ts.name] {
			off = append(off, ts.name)
		}
	}
	if len(off) > 0 {
		b.WriteString(" Off at the start: the " + strings.Join(off, ", ") + " toolsets; call toolsets to see them and enable one for this session.")
	}
	for _, p := range problems {
		b.WriteString(" Configuration refused: " + p + "; tell the user.")
	}
	return b.String()
}

// New builds the MCP server with the selected tools and prompts.
func New(opts Options) (*mcp.Server, error) {
	srv, _, err := newServer(opts)
	return srv, err
}

// NewWithDirect is New, and a Direct that calls the same server's tools
// without an MCP session (the REST surface).
func NewWithDirect(opts Options) (*mcp.Server, *Direct, error) {
	srv, s, err := newServer(opts)
	if err != nil {
		return nil, nil, err
	}
	return srv, &Direct{s: s}, nil
}

func newServer(opts Options) (*mcp.Server, *server, error) {
	want, err := resolveToolsets(opts.Toolsets)
	if err != nil {
		return nil, nil, err
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Services == nil {
		return nil, nil, fmt.Errorf("mcpserver: Options.Services is required")
	}
	s := &server{opts: opts, log: opts.Logger}
	var prompts []prompt
	for _, p := range allPrompts() {
		if p.toolset == "" || want[p.toolset] {
			prompts = append(prompts, p)
		}
	}
	so := &mcp.ServerOptions{Instructions: instructions(want, opts.ConfigProblems...), Logger: opts.Logger,
		// Tools come and go per session (the toolsets tool): the server
		// says it sends tools/list_changed.
		//
		// No logging capability: MCP logging is deprecated (SEP-2577), and
		// Cairn never sent a log message over MCP; its log goes to stderr
		// (stdio) or the HTTP server's log. The SDK still answers a client
		// that sends logging/setLevel anyway with {}.
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}}}
	so.CompletionHandler = s.completion(prompts)
	// Subscriptions are tracked by the SDK; the watchers notify them.
	// Cairn admits only loops that exist and live resources that read, and
	// a bounded number a session: 30,000 subscriptions on one session held
	// 264 MB for its life.
	so.SubscribeHandler = s.subscribe
	so.UnsubscribeHandler = s.unsubscribe
	srv := mcp.NewServer(&mcp.Implementation{Name: "cairn", Title: "Cairn", Version: opts.Version}, so)
	s.addResources(srv)
	s.watch = newResourceWatch(s, srv)
	// A write by this process is seen at once, not at the change feed's
	// next wake-up.
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method == "tools/call" {
				s.watch.changed()
			}
			return res, err
		}
	})
	if want["loops"] {
		s.startLoops(srv)
	}
	// resources/list must show the loops as they are now, not as of the
	// watcher's last poll: bring it up to date first.
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "resources/list" {
				if lw := s.loops.Load(); lw != nil {
					if err := lw.check(ctx); err != nil {
						s.log.Debug("loop watch before resources/list", "error", err)
					}
				}
			}
			return next(ctx, method, req)
		}
	})
	if opts.Initialized != nil {
		var seen atomic.Int32
		srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if seen.Add(1) == 2 {
					opts.Initialized()
				}
				return next(ctx, method, req)
			}
		})
	}
	s.served = make(map[string]bool)
	tools := selectTools(want, opts.ReadOnly)
	for _, t := range tools {
		s.served[t.Def.Name] = true
	}
	s.dyn = &dynamic{srv: srv, base: want, added: maps.Clone(want), tools: map[string]tool.Tool{}, owner: map[string]string{}, order: ToolsetNames()}
	every := map[string]bool{}
	for _, n := range ToolsetNames() {
		every[n] = true
	}
	var ctl tool.Tool
	for _, t := range selectTools(every, opts.ReadOnly) {
		if t.Always {
			ctl = t
			continue
		}
		s.dyn.tools[t.Def.Name] = t
		s.dyn.owner[t.Def.Name] = t.Toolset
	}
	ctlDef, ctlHandler := definition(ctl), s.handler(ctl)
	s.dyn.ctl = func() (*mcp.Tool, mcp.ToolHandler) { d := ctlDef; return &d, ctlHandler }
	s.dyn.added1 = func(ts string, tools []tool.Tool) {
		for _, t := range tools {
			def := definition(t)
			srv.AddTool(&def, s.handler(t))
		}
		if ts == "loops" {
			s.startLoops(srv)
		}
	}
	// Adding the tools is most of what New costs (the SDK checks each
	// schema by marshaling and decoding it, twice), and the answer to
	// initialize needs none of them: they are added beside it, and every
	// other message waits until they are. The goroutine yields after each
	// tool: one is not preempted for 10 ms, and when the answer's
	// goroutines get no other processor they would wait for all of them.
	added := make(chan struct{})
	go func() {
		defer close(added)
		for _, t := range tools {
			def := definition(t)
			srv.AddTool(&def, s.handler(t))
			runtime.Gosched()
		}
	}()
	srv.AddReceivingMiddleware(s.filterTools)
	srv.AddSendingMiddleware(s.quietStart)
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "initialize" && method != "server/discover" {
				<-added
			}
			return next(ctx, method, req)
		}
	})
	for _, p := range prompts {
		def := p.def
		srv.AddPrompt(&def, p.build(s))
	}
	return srv, s, nil
}

func selectTools(want map[string]bool, readOnly bool) []tool.Tool {
	var out []tool.Tool
	for _, t := range allTools() {
		switch {
		case t.Always:
			out = append(out, t)
		case !want[t.Toolset]:
		case !readOnly || t.ReadOnly():
			out = append(out, t)
		case t.ReadOnlyVariant != nil:
			out = append(out, *t.ReadOnlyVariant)
		}
	}
	return out
}

// SelectTools applies --toolsets and --read-only to the declared tools.
func SelectTools(names []string, readOnly bool) ([]tool.Tool, error) {
	want, err := resolveToolsets(names)
	if err != nil {
		return nil, err
	}
	return selectTools(want, readOnly), nil
}

func resolveToolsets(names []string) (map[string]bool, error) {
	want := make(map[string]bool)
	if len(names) == 0 {
		names = []string{"default"}
	}
	for _, n := range names {
		n = strings.ToLower(strings.TrimSpace(n))
		switch n {
		case "":
			continue
		case "default":
			for _, ts := range toolsets {
				if ts.isDefault {
					want[ts.name] = true
				}
			}
		case "all":
			for _, ts := range toolsets {
				want[ts.name] = true
			}
		default:
			if !slices.ContainsFunc(toolsets, func(ts toolset) bool { return ts.name == n }) {
				return nil, fmt.Errorf("unknown toolset %q: choose from %s, default, all", n, strings.Join(ToolsetNames(), ", "))
			}
			want[n] = true
		}
	}
	if len(want) == 0 {
		return nil, fmt.Errorf("no toolset selected: choose from %s, default, all", strings.Join(ToolsetNames(), ", "))
	}
	return want, nil
}

// ToolsetNames lists the toolsets this build has.
func ToolsetNames() []string {
	var out []string
	for _, ts := range toolsets {
		out = append(out, ts.name)
	}
	return out
}

// ToolNames lists the names of the tools that SelectTools would serve, sorted.
func ToolNames(names []string, readOnly bool) ([]string, error) {
	ts, err := SelectTools(names, readOnly)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Def.Name
	}
	sort.Strings(out)
	return out, nil
}

// startLoops serves the loop resources and starts their watcher, once: at
// New when the loops toolset is served from the start, else when a session
// first turns it on.
func (s *server) startLoops(srv *mcp.Server) {
	s.loopOnce.Do(func() {
		srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: loopURITemplate, Name: "loop", Title: "Loop",
			Description: "An iterative loop's state, live: subscribe for resources/updated.", MIMEType: "application/json"}, s.readLoop)
		lw := newLoopWatch(s, srv)
		s.loops.Store(lw)
		ctx := s.opts.Context
		if ctx == nil {
			ctx = context.Background()
		}
		go lw.run(ctx)
	})
}

// growStack grows the calling goroutine's stack while it is shallow. The SDK
// runs each call on a new goroutine, with a small stack, and a call's SQLite
// statements (the pure-Go VM has large frames) grew it several times while
// it was deep, each time copying and adjusting every frame: about 5% of the
// server's CPU under scripts/load.sh. Growing it here, once, copies a few
// frames. The pad is in the frame, so the stack grows on entry, but it is
// declared, and so zeroed (1% of the server's CPU), only on a branch that
// callers never take (i < 0); using it there keeps it in the frame.
//
//go:noinline
func growStack(i int) byte {
	if i < 0 {
		var pad [32 << 10]byte
		return touch(pad[:], i)
	}
	return 0
}

//go:noinline
func touch(b []byte, i int) byte { return b[-i%len(b)] }

// toolsetOf names the toolset that declares a tool.
func toolsetOf(name string) string {
	for _, t := range allTools() {
		if t.Def.Name == name {
			return t.Toolset
		}
	}
	return "?"
}
