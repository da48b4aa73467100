package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/testutil/cairntest"
)

// httpRemote is a real Cairn server over Streamable HTTP on a real SQLite
// project: mcpserver.New with the services of app.Open, behind the SDK's
// Streamable HTTP handler, and a bearer token check. It stands in for
// `cairn serve --http` until that exists; Stop and a new httpRemote on the
// same Addr and Dir is a restart (the sessions are gone, the data is not).
type httpRemote struct {
	URL, Addr, Dir string

	srv  *http.Server
	svc  *app.Services
	stop context.CancelFunc

	mu   sync.Mutex
	auth []string // the Authorization header of every request
}

const bridgeToken = "s3cret-token"

func startHTTPRemote(t testing.TB, addr, dir string) *httpRemote {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := app.Open(ctx, app.Config{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := mcpserver.New(mcpserver.Options{Version: "test", Toolsets: []string{"all"}, Context: ctx,
		Services: func(context.Context) (*service.Set, error) { return &svc.Set, nil }})
	if err != nil {
		t.Fatal(err)
	}
	var ln net.Listener
	for i := 0; ; i++ { // a restart may find the port in TIME_WAIT briefly
		if ln, err = net.Listen("tcp", addr); err == nil || i == 50 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	r := &httpRemote{Addr: ln.Addr().String(), Dir: dir, svc: svc, stop: cancel}
	r.URL = "http://" + r.Addr + "/mcp"
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil)
	r.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		a := req.Header.Get("Authorization")
		r.mu.Lock()
		r.auth = append(r.auth, a)
		r.mu.Unlock()
		if a != "Bearer "+bridgeToken {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, req)
	})}
	go r.srv.Serve(ln)
	t.Cleanup(r.Stop)
	return r
}

// Stop closes the listener and every connection, as a crash would.
func (r *httpRemote) Stop() {
	r.srv.Close()
	r.stop()
	r.svc.Close()
}

func (r *httpRemote) authHeaders() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.auth...)
}

// direct connects an SDK client straight to the remote, for comparison.
func (r *httpRemote) direct(t testing.TB, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: bridgeBearer{http.DefaultTransport}}
	c := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, copts)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: r.URL, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

type bridgeBearer struct{ rt http.RoundTripper }

func (b bridgeBearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+bridgeToken)
	return b.rt.RoundTrip(r)
}

// bridgeProc is a running `cairn bridge` with an SDK client on its stdio.
type bridgeProc struct {
	t       *testing.T
	Session *mcp.ClientSession
	stderr  *syncBuf
	Started time.Duration // spawn to initialized
}

type syncBuf struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startBridge runs `cairn bridge url args...` and connects to it. The cache
// lives in cacheDir; reconnects are fast so tests need not wait.
func startBridge(t *testing.T, url, cacheDir string, copts *mcp.ClientOptions, extra ...string) *bridgeProc {
	t.Helper()
	a := append([]string{"bridge", url, "--cache-dir", cacheDir, "--retry-min", "50ms", "--retry-max", "200ms", "--log-level", "debug"}, extra...)
	cmd := exec.Command(cairntest.Binary(t), a...)
	cmd.Env = os.Environ()
	errBuf := &syncBuf{}
	cmd.Stderr = errBuf
	c := mcp.NewClient(&mcp.Implementation{Name: "editor", Version: "1"}, copts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect to cairn bridge: %v\nstderr: %s", err, errBuf.String())
	}
	p := &bridgeProc{t: t, Session: cs, stderr: errBuf, Started: time.Since(start)}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("bridge stderr:\n%s", errBuf.String())
		}
	})
	return p
}

func callVia(t testing.TB, cs *mcp.ClientSession, name string, a args) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: a})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	return res
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	_ = json.Unmarshal(b, &x)
	b, _ = json.MarshalIndent(x, "", " ")
	return string(b)
}

func jsonrpcErr(t *testing.T, err error) *jsonrpc.Error {
	t.Helper()
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		t.Fatalf("want a JSON-RPC error, got %v", err)
	}
	return je
}

// TestBridgeForwards: through the bridge, lists and results are the
// remote's own, tool errors and JSON-RPC errors included, and the bearer
// token reaches the remote.
func TestBridgeForwards(t *testing.T) {
	r := startHTTPRemote(t, "127.0.0.1:0", cairntest.Project(t))
	direct := r.direct(t, nil)
	b := startBridge(t, r.URL, t.TempDir(), nil, "--token", bridgeToken, "--header", "X-Team: core")
	ctx := context.Background()

	bt, err := b.Session.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	dt, err := direct.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(asJSON(t, dt.Tools), asJSON(t, bt.Tools)); d != "" || len(bt.Tools) < 20 {
		t.Fatalf("tools/list through the bridge differs from the remote's (-direct +bridge):\n%s", d)
	}
	bp, _ := b.Session.ListPrompts(ctx, nil)
	dp, _ := direct.ListPrompts(ctx, nil)
	if d := cmp.Diff(asJSON(t, dp.Prompts), asJSON(t, bp.Prompts)); d != "" || len(bp.Prompts) == 0 {
		t.Fatalf("prompts/list (-direct +bridge):\n%s", d)
	}
	brt, _ := b.Session.ListResourceTemplates(ctx, nil)
	drt, _ := direct.ListResourceTemplates(ctx, nil)
	if d := cmp.Diff(asJSON(t, drt.ResourceTemplates), asJSON(t, brt.ResourceTemplates)); d != "" || len(brt.ResourceTemplates) == 0 {
		t.Fatalf("resources/templates/list (-direct +bridge):\n%s", d)
	}

	// A write through the bridge lands on the remote.
	created := callVia(t, b.Session, "create_task", args{"title": "Ship the bridge", "description": "over stdio"})
	c, _ := cairntest.Decode(created)
	id := c.Str("id")
	if created.IsError || id == "" {
		t.Fatalf("create_task through the bridge: %+v", c)
	}
	// The same reads give the same results, by both routes.
	for _, tc := range []struct {
		name string
		a    args
	}{
		{"get_task", args{"id": id}},
		{"get_tasks", args{}},
		{"get_task_stats", args{}},
		{"get_task", args{"id": "999"}},    // a tool error (isError)
		{"create_task", args{"title": ""}}, // bad input, refused
	} {
		viaBridge := callVia(t, b.Session, tc.name, tc.a)
		viaDirect := callVia(t, direct, tc.name, tc.a)
		if d := cmp.Diff(asJSON(t, viaDirect), asJSON(t, viaBridge)); d != "" {
			t.Errorf("%s(%v) (-direct +bridge):\n%s", tc.name, tc.a, d)
		}
	}
	if r := callVia(t, b.Session, "get_task", args{"id": "999"}); !r.IsError {
		t.Errorf("get_task 999: want isError")
	}

	// A JSON-RPC error passes through with its code and message.
	_, errB := b.Session.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: args{}})
	_, errD := direct.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool", Arguments: args{}})
	if jb, jd := jsonrpcErr(t, errB), jsonrpcErr(t, errD); jb.Code != jd.Code || jb.Message != jd.Message {
		t.Errorf("unknown tool: bridge %v, direct %v", jb, jd)
	}

	// Prompts and completion.
	pb, err := b.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "task_context", Arguments: map[string]string{"taskId": id}})
	if err != nil {
		t.Fatal(err)
	}
	pd, _ := direct.GetPrompt(ctx, &mcp.GetPromptParams{Name: "task_context", Arguments: map[string]string{"taskId": id}})
	if d := cmp.Diff(asJSON(t, pd), asJSON(t, pb)); d != "" {
		t.Errorf("prompts/get (-direct +bridge):\n%s", d)
	}
	comp := &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "task_context"}, Argument: mcp.CompleteParamsArgument{Name: "taskId", Value: ""}}
	cb, err := b.Session.Complete(ctx, comp)
	if err != nil {
		t.Fatal(err)
	}
	cd, err := direct.Complete(ctx, comp)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(asJSON(t, cd), asJSON(t, cb)); d != "" || len(cb.Completion.Values) == 0 {
		t.Errorf("completion/complete (-direct +bridge):\n%s", d)
	}
	if _, err := b.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "no_such_prompt"}); !strings.Contains(jsonrpcErr(t, err).Message, "no_such_prompt") {
		t.Errorf("unknown prompt: %v", err)
	}
	if err := b.Session.Ping(ctx, nil); err != nil {
		t.Errorf("ping: %v", err)
	}

	// The token went with every request, and the remote refuses without it.
	for _, a := range r.authHeaders() {
		if a != "Bearer "+bridgeToken && a != "" {
			t.Fatalf("remote saw Authorization %q", a)
		}
	}
	if n := len(r.authHeaders()); n < 10 {
		t.Fatalf("remote saw %d requests", n)
	}
	noToken := startBridge(t, r.URL, t.TempDir(), nil, "--no-cache")
	res := callVia(t, noToken.Session, "get_tasks", args{})
	if text := resultText(res); !res.IsError || !strings.Contains(text, "Unauthorized (check --token") {
		t.Fatalf("bridge without a token: %s", text)
	}
}

func resultText(r *mcp.CallToolResult) string {
	var s string
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			s += tc.Text
		}
	}
	return s
}

// TestBridgeDegraded: with the remote down the bridge still starts, lists
// what it cached, and answers each call with a clear error; with no cache it
// starts empty and says so.
func TestBridgeDegraded(t *testing.T) {
	cache := t.TempDir()
	r := startHTTPRemote(t, "127.0.0.1:0", cairntest.Project(t))
	first := startBridge(t, r.URL, cache, nil, "--token", bridgeToken)
	live, err := first.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	first.Session.Close()
	r.Stop()

	b := startBridge(t, r.URL, cache, nil, "--token", bridgeToken)
	t.Logf("degraded start (spawn to initialized): %v", b.Started)
	cached, err := b.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(asJSON(t, live.Tools), asJSON(t, cached.Tools)); d != "" {
		t.Fatalf("tools listed from cache differ from the remote's (-live +cached):\n%s", d)
	}
	res := callVia(t, b.Session, "get_tasks", args{})
	text := resultText(res)
	for _, want := range []string{"remote " + r.URL + " unreachable since ", "connection refused", "retrying every ", "the last known tools are listed from cache"} {
		if !res.IsError || !strings.Contains(text, want) {
			t.Fatalf("degraded tools/call: want isError containing %q, got %v %q", want, res.IsError, text)
		}
	}
	_, err = b.Session.GetPrompt(context.Background(), &mcp.GetPromptParams{Name: "task_context", Arguments: map[string]string{"taskId": "1"}})
	if je := jsonrpcErr(t, err); !strings.Contains(je.Message, "unreachable since") {
		t.Fatalf("degraded prompts/get: %v", je)
	}
	if ir := b.Session.InitializeResult(); !strings.Contains(ir.Instructions, "unreachable") || ir.ServerInfo.Name != "cairn" {
		t.Fatalf("degraded initialize: %+v %q", ir.ServerInfo, ir.Instructions)
	}

	// No cache, no remote: it starts, lists nothing, and says so.
	empty := startBridge(t, r.URL, t.TempDir(), nil)
	if tools, err := empty.Session.ListTools(context.Background(), nil); err != nil || len(tools.Tools) != 0 {
		t.Fatalf("no cache, no remote: tools %v %v", tools, err)
	}
	res = callVia(t, empty.Session, "get_tasks", args{})
	if text := resultText(res); !res.IsError || !strings.Contains(text, "no tools are known yet") {
		t.Fatalf("no cache, no remote: %q", text)
	}
	if !strings.Contains(empty.Session.InitializeResult().Instructions, "no tools are known yet") {
		t.Fatalf("no cache, no remote: instructions %q", empty.Session.InitializeResult().Instructions)
	}
}

// TestBridgeReconnects: a remote that comes up after the bridge is found,
// its tools announced with tools/list_changed; a remote that restarts (its
// sessions gone) is reconnected to without the client noticing.
func TestBridgeReconnects(t *testing.T) {
	// Reserve an address, then leave it unserved.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	url := "http://" + addr + "/mcp"
	dir := cairntest.Project(t)

	changed := make(chan struct{}, 8)
	updated := make(chan string, 16)
	b := startBridge(t, url, t.TempDir(), &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	}, "--token", bridgeToken)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if tools, _ := b.Session.ListTools(ctx, nil); len(tools.Tools) != 0 {
		t.Fatalf("remote down, no cache: %d tools", len(tools.Tools))
	}

	r := startHTTPRemote(t, addr, dir)
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no tools/list_changed after the remote came up")
	}
	tools, err := b.Session.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) < 20 {
		t.Fatalf("tools after the remote came up: %d %v", len(tools.Tools), err)
	}
	id := func() string {
		res := callVia(t, b.Session, "create_task", args{"title": "after reconnect"})
		d, _ := cairntest.Decode(res)
		if res.IsError {
			t.Fatalf("create_task after reconnect: %s", d.Text)
		}
		return d.Str("id")
	}()

	// A subscription made before the restart is renewed after it.
	loop, _ := cairntest.Decode(callVia(t, b.Session, "loop_start", args{"objective": "o", "completion_criteria": "c"}))
	loopURI := "cairn://loops/" + loop.Str("id")
	if err := b.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: loopURI}); err != nil {
		t.Fatal(err)
	}

	// Restart: the new process knows no sessions; the data survives.
	r.Stop()
	r = startHTTPRemote(t, addr, dir)
	var res *mcp.CallToolResult
	for {
		if res = callVia(t, b.Session, "get_task", args{"id": id}); !res.IsError {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no recovery after a restart: %s", resultText(res))
		case <-time.After(50 * time.Millisecond):
		}
	}
	if d, _ := cairntest.Decode(res); d.Str("title") != "after reconnect" {
		t.Fatalf("get_task after restart: %v", d.Structured)
	}
	time.Sleep(300 * time.Millisecond) // the new remote's watcher sees the loop first
	callVia(t, r.direct(t, nil), "loop_record", args{"id": loop.Str("id"), "last_action": "after the restart"})
	select {
	case got := <-updated:
		if got != loopURI {
			t.Fatalf("resources/updated for %q, want %q", got, loopURI)
		}
	case <-ctx.Done():
		t.Fatal("no resources/updated after the restart: the subscription was not renewed")
	}
}

// TestBridgeResourceUpdated: a subscription made through the bridge hears
// the remote's resources/updated.
func TestBridgeResourceUpdated(t *testing.T) {
	r := startHTTPRemote(t, "127.0.0.1:0", cairntest.Project(t))
	updated := make(chan string, 16)
	b := startBridge(t, r.URL, t.TempDir(), &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	}, "--token", bridgeToken)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	res := callVia(t, b.Session, "loop_start", args{"objective": "watch me", "completion_criteria": "c"})
	d, _ := cairntest.Decode(res)
	uri := "cairn://loops/" + d.Str("id")
	if lr, err := b.Session.ListResources(ctx, nil); err != nil || len(lr.Resources) != 1 || lr.Resources[0].URI != uri {
		t.Fatalf("resources/list through the bridge: %v %v", lr, err)
	}
	if rr, err := b.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil || !strings.Contains(rr.Contents[0].Text, `"objective":"watch me"`) {
		t.Fatalf("resources/read through the bridge: %v %v", rr, err)
	}
	if err := b.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the remote's watcher sees the current state first
	// Change the loop from another client, straight on the remote.
	callVia(t, r.direct(t, nil), "loop_record", args{"id": d.Str("id"), "last_action": "changed elsewhere"})
	select {
	case got := <-updated:
		if got != uri {
			t.Fatalf("resources/updated for %q, want %q", got, uri)
		}
	case <-ctx.Done():
		t.Fatal("no resources/updated through the bridge")
	}
}

// TestBridgeBadInput: a bad command line is refused with what to do, and
// nothing reaches stdout (the protocol channel).
func TestBridgeBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bridge"}, "accepts 1 arg(s)"},
		{[]string{"bridge", "ftp://example.com/mcp"}, "use an http:// or https:// URL"},
		{[]string{"bridge", "http://127.0.0.1:1/mcp", "--header", "no-colon"}, "use Name:value"},
		{[]string{"bridge", "http://127.0.0.1:1/mcp", "--log-level", "loud"}, "--log-level"},
	} {
		cmd := exec.Command(cairntest.Binary(t), tc.args...)
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if err == nil || !strings.Contains(stderr.String(), tc.want) || stdout.Len() != 0 {
			t.Errorf("cairn %v: err %v, stdout %q, stderr %q; want an error containing %q", tc.args, err, stdout.String(), stderr.String(), tc.want)
		}
	}
}
