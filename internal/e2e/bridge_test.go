package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/bridge"
	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// bridgeToken is the remote's only bearer token (read-write, every
// project): with it set, the remote answers nothing without it.
const bridgeToken = "bridge-e2e-secret-0123456789"

// httpRemote is the bridge's remote: the real `cairn serve --http` binary
// with every toolset, on a real SQLite project, requiring bridgeToken. Kill
// and startRemote again on the same address and project is a restart (the
// sessions are gone, the data is not).
type httpRemote struct {
	*cairntest.HTTPServer
	URL string // the MCP endpoint, http://HOST:PORT/mcp
}

func startRemote(tb testing.TB, addr, dir string, extra ...string) *httpRemote {
	tb.Helper()
	h := cairntest.StartHTTPAt(tb, addr, cairntest.Options{Dir: dir,
		Args: append([]string{"--toolsets", "all"}, extra...),
		Env:  []string{"CAIRN_TOKENS=" + bridgeToken + ":*:rw"}})
	r := &httpRemote{HTTPServer: h, URL: h.URL + "/mcp"}
	tb.Cleanup(func() {
		if tb.Failed() {
			tb.Logf("remote %s stderr:\n%s", r.URL, h.Log())
		}
	})
	return r
}

// direct connects an SDK client straight to the remote, with the token and
// the headers given, for comparison.
func (r *httpRemote) direct(tb testing.TB, copts *mcp.ClientOptions, header ...string) *mcp.ClientSession {
	tb.Helper()
	h := http.Header{"Authorization": {"Bearer " + bridgeToken}}
	for i := 0; i+1 < len(header); i += 2 {
		h.Set(header[i], header[i+1])
	}
	return r.Connect(cairntest.Client{Name: "direct", Header: h, Opts: copts}).Session
}

// bridgeProc is a running `cairn bridge` with an SDK client on its stdio.
type bridgeProc struct {
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
	p := &bridgeProc{Session: cs, stderr: errBuf, Started: time.Since(start)}
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
// token and the headers reach the remote.
func TestBridgeForwards(t *testing.T) {
	r := startRemote(t, "127.0.0.1:0", cairntest.Project(t), "--log-level", "debug")
	// The same agent by both routes: X-Cairn-Agent picks whose focus a
	// call sees, so identical focus answers mean the header got through.
	direct := r.direct(t, nil, "X-Cairn-Agent", "bridged")
	b := startBridge(t, r.URL, t.TempDir(), nil, "--token", bridgeToken, "--header", "X-Cairn-Agent: bridged")
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
	// The bridged agent's focus goes back to the first task; an agent with
	// no focus of its own is in zen, told what to start.
	if res := callVia(t, b.Session, "create_new_task", args{"title": "Focus through the bridge"}); res.IsError {
		t.Fatalf("create_new_task through the bridge: %s", resultText(res))
	}
	if res := callVia(t, b.Session, "switch_focus", args{"task_id": id}); res.IsError {
		t.Fatalf("switch_focus through the bridge: %s", resultText(res))
	}
	if d, _ := cairntest.Decode(callVia(t, r.direct(t, nil, "X-Cairn-Agent", "someone-else"), "get_current_task", args{})); d.Structured["zen"] != true || d.Str("next_task_id") != id {
		t.Fatalf("another agent's current task: %v", d.Structured)
	}
	// The same reads give the same results, by both routes.
	for _, tc := range []struct {
		name string
		a    args
	}{
		{"get_current_task", args{}},
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

	// The remote answered all that only because the token went with every
	// request: without it, or with another, it refuses, and the bridge says
	// what to check.
	if cs, err := r.ConnectErr(cairntest.Client{}); err == nil || !strings.Contains(err.Error(), "Unauthorized") {
		if cs != nil {
			cs.Close()
		}
		t.Fatalf("the remote without a token: %v", err)
	}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"no token", nil},
		{"wrong token", []string{"--token", "not-the-token-0123456789"}},
	} {
		nb := startBridge(t, r.URL, t.TempDir(), nil, append([]string{"--no-cache"}, tc.args...)...)
		res := callVia(t, nb.Session, "get_tasks", args{})
		if text := resultText(res); !res.IsError || !strings.Contains(text, "Unauthorized (check --token") {
			t.Fatalf("bridge with %s: %s", tc.name, text)
		}
	}
	if !strings.Contains(r.Log(), "rejected an unknown bearer token") {
		t.Fatalf("the remote did not log the wrong token:\n%s", r.Log())
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
// lists the tools and prompts of its own build, says they are not yet
// confirmed by the remote, and answers calls with the same error.
func TestBridgeDegraded(t *testing.T) {
	cache := t.TempDir()
	r := startRemote(t, "127.0.0.1:0", cairntest.Project(t), "--log-level", "debug")
	first := startBridge(t, r.URL, cache, nil, "--token", bridgeToken)
	live, err := first.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	first.Session.Close()
	r.Kill()

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

	// No cache, no remote: it starts with its own build's lists (the
	// remote's defaults: this test's remote is the same build), marked
	// as not confirmed.
	empty := startBridge(t, r.URL, t.TempDir(), nil)
	own, err := empty.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The remote serves every toolset; the bridge, not knowing, its
	// build's default ones: each exactly as the remote lists it.
	def, err := mcpserver.ToolNames(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	remote := map[string]*mcp.Tool{}
	for _, tl := range live.Tools {
		remote[tl.Name] = tl
	}
	var names []string
	for _, tl := range own.Tools {
		names = append(names, tl.Name)
		if d := cmp.Diff(asJSON(t, remote[tl.Name]), asJSON(t, tl)); d != "" {
			t.Errorf("no cache, no remote: built-in %s differs from the remote's (-remote +built-in):\n%s", tl.Name, d)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, def) {
		t.Fatalf("no cache, no remote: lists %v, want this build's defaults %v", names, def)
	}
	if ps, err := empty.Session.ListPrompts(context.Background(), nil); err != nil || len(ps.Prompts) == 0 {
		t.Fatalf("no cache, no remote: prompts %v %v", ps, err)
	}
	res = callVia(t, empty.Session, "get_tasks", args{})
	if text := resultText(res); !res.IsError || !strings.Contains(text, "not yet confirmed by the remote") || !strings.Contains(text, "unreachable since") {
		t.Fatalf("no cache, no remote: %q", text)
	}
	if ir := empty.Session.InitializeResult(); !strings.Contains(ir.Instructions, bridge.BuiltinNote) || !strings.Contains(ir.Instructions, "get_current_task") {
		t.Fatalf("no cache, no remote: instructions %q", ir.Instructions)
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
	if tools, _ := b.Session.ListTools(ctx, nil); len(tools.Tools) == 0 || slices.ContainsFunc(tools.Tools, func(tl *mcp.Tool) bool { return tl.Name == "loop_start" }) {
		t.Fatalf("remote never reached, no cache: %d tools, want the built-in default ones", len(tools.Tools))
	}

	r := startRemote(t, addr, dir, "--log-level", "debug")
	select {
	case <-changed:
	case <-ctx.Done():
		t.Fatal("no tools/list_changed after the remote came up")
	}
	tools, err := b.Session.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) < 20 || !slices.ContainsFunc(tools.Tools, func(tl *mcp.Tool) bool { return tl.Name == "loop_start" }) {
		t.Fatalf("tools after the remote came up (--toolsets all): %d %v", len(tools.Tools), err)
	}
	if ir := b.Session.InitializeResult(); !strings.Contains(ir.Instructions, bridge.BuiltinNote) {
		t.Errorf("initialize with the remote never reached: %q", ir.Instructions)
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

	// Restart: the new process knows no sessions; the data survives. Killed
	// (a crash), with a call through the bridge right after: the remote
	// answers "session not found", the bridge reconnects, renews the
	// subscription and sends the call again. Stopped with SIGTERM (calls
	// drained, SSE streams ended), with the bridge left idle: it finds out
	// from its standalone SSE stream (about a second later, the SDK's retry)
	// and renews the subscription without any call.
	for _, stop := range []struct {
		name string
		do   func(*httpRemote)
		idle bool
	}{
		{"kill", func(r *httpRemote) { r.Kill() }, false},
		{"sigterm", func(r *httpRemote) {
			if err := r.Terminate(); err != nil {
				t.Fatal(err)
			}
			if err := r.Wait(); err != nil {
				t.Fatalf("the remote after SIGTERM: %v\n%s", err, r.Log())
			}
		}, true},
	} {
		stop.do(r)
		r = startRemote(t, addr, dir, "--log-level", "debug")
		direct := r.direct(t, nil)
		record := func() {
			for len(updated) > 0 {
				<-updated
			}
			callVia(t, direct, "loop_record", args{"id": loop.Str("id"), "last_action": "after the " + stop.name})
		}
		heard := func(wait time.Duration) bool {
			select {
			case got := <-updated:
				if got != loopURI {
					t.Fatalf("%s: resources/updated for %q, want %q", stop.name, got, loopURI)
				}
				return true
			case <-time.After(wait):
				return false
			case <-ctx.Done():
				t.Fatalf("%s: no resources/updated after the restart: the subscription was not renewed", stop.name)
				return false
			}
		}
		if stop.idle {
			// Change the loop until the renewed subscription hears it.
			for record(); !heard(250 * time.Millisecond); record() {
			}
		}
		var res *mcp.CallToolResult
		refused := 0 // calls answered "unreachable" while the bridge reconnects
		for {
			if res = callVia(t, b.Session, "get_task", args{"id": id}); !res.IsError {
				break
			}
			if text := resultText(res); !strings.Contains(text, "unreachable since") {
				t.Fatalf("%s: during the reconnect: %s", stop.name, text)
			}
			refused++
			select {
			case <-ctx.Done():
				t.Fatalf("%s: no recovery after a restart: %s", stop.name, resultText(res))
			case <-time.After(50 * time.Millisecond):
			}
		}
		t.Logf("restart after %s: %d calls refused while reconnecting", stop.name, refused)
		if d, _ := cairntest.Decode(res); d.Str("title") != "after reconnect" {
			t.Fatalf("%s: get_task after restart: %v", stop.name, d.Structured)
		}
		if !stop.idle {
			// The call's retry renewed the subscription; resources/list,
			// forwarded, brings the new remote's loop watcher up to date
			// (it looks before it answers): the next change is news to it.
			if _, err := b.Session.ListResources(ctx, nil); err != nil {
				t.Fatalf("%s: resources/list after the restart: %v", stop.name, err)
			}
			record()
			heard(time.Hour) // until ctx ends
		}
	}
}

// TestBridgeResourceUpdated: a subscription made through the bridge hears
// the remote's resources/updated.
func TestBridgeResourceUpdated(t *testing.T) {
	r := startRemote(t, "127.0.0.1:0", cairntest.Project(t), "--log-level", "debug")
	updated := make(chan string, 16)
	b := startBridge(t, r.URL, t.TempDir(), &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	}, "--token", bridgeToken)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()

	res := callVia(t, b.Session, "loop_start", args{"objective": "watch me", "completion_criteria": "c"})
	d, _ := cairntest.Decode(res)
	uri := "cairn://loops/" + d.Str("id")
	if lr, err := b.Session.ListResources(ctx, nil); err != nil || !slices.Equal(loopURIs(lr.Resources), []string{uri}) {
		t.Fatalf("resources/list through the bridge: %v %v", lr, err)
	}
	if rr, err := b.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri}); err != nil || !strings.Contains(rr.Contents[0].Text, `"objective":"watch me"`) {
		t.Fatalf("resources/read through the bridge: %v %v", rr, err)
	}
	if err := b.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	// resources/list (forwarded) brought the remote's loop watcher up to
	// date, and the subscription is in: the next change is news to it.
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
		{[]string{"bridge", "http://127.0.0.1:1/mcp", "--max-list-items", "0"}, "--max-list-items 0: must be a positive number"},
		{[]string{"bridge", "http://127.0.0.1:1/mcp", "--max-response-bytes", "-1"}, "--max-response-bytes -1: must be a positive number"},
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

// TestBridgeListCaps: a remote whose tool list is over the bridge's cap is
// refused with the flag that raises the cap (the bridge's own lists are
// listed meanwhile), and the flag lets it through.
func TestBridgeListCaps(t *testing.T) {
	r := startRemote(t, "127.0.0.1:0", cairntest.Project(t))
	capped := startBridge(t, r.URL, t.TempDir(), nil, "--token", bridgeToken, "--max-list-items", "10")
	// The remote's list is refused, so the bridge has only its own
	// build's, unconfirmed (the remote serves every toolset).
	if tools, err := capped.Session.ListTools(context.Background(), nil); err != nil || slices.ContainsFunc(tools.Tools, func(tl *mcp.Tool) bool { return tl.Name == "loop_start" }) {
		t.Fatalf("over the cap: tools %v %v; want only the built-in ones listed", tools, err)
	}
	res := callVia(t, capped.Session, "get_tasks", args{})
	if text := resultText(res); !res.IsError || !strings.Contains(text, "cap of 10 items (raise it with --max-list-items)") {
		t.Fatalf("over the cap: call answered %v %q; want the cap and the flag that raises it", res.IsError, text)
	}
	raised := startBridge(t, r.URL, t.TempDir(), nil, "--token", bridgeToken, "--max-list-items", "500")
	tools, err := raised.Session.ListTools(context.Background(), nil)
	if err != nil || len(tools.Tools) <= 10 {
		t.Fatalf("cap raised: tools %d %v; want the remote's whole list", len(tools.Tools), err)
	}
	if res := callVia(t, raised.Session, "get_tasks", args{}); res.IsError {
		t.Fatalf("cap raised: get_tasks failed: %s", resultText(res))
	}
}

// TestBridgeOutage: the remote (a real `cairn serve --http`) dies in the
// middle of a session, by kill -9 and by SIGTERM. While it is down the
// bridge answers ping itself, lists from what it holds, and answers each
// call at once with the degraded error (since when, why, when it retries),
// never the SDK's transport error (-32005, "task closed" in Cairn). The
// first call after the remote is back on the same port goes through.
func TestBridgeOutage(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := cairntest.Project(t)
	r := startRemote(t, addr, dir)
	// A long backoff: only the calls themselves can bring the bridge back
	// in time.
	b := startBridge(t, r.URL, t.TempDir(), nil, "--token", bridgeToken, "--retry-min", "30s", "--retry-max", "30s")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	live, err := b.Session.ListTools(ctx, nil)
	if err != nil || len(live.Tools) < 20 {
		t.Fatalf("tools: %v %v", live, err)
	}
	d, _ := cairntest.Decode(callVia(t, b.Session, "create_task", args{"title": "survives outages"}))
	id := d.Str("id")

	for _, stop := range []struct {
		name string
		do   func(*httpRemote)
	}{
		{"kill -9", func(r *httpRemote) { r.Kill() }},
		{"SIGTERM", func(r *httpRemote) {
			if err := r.Terminate(); err != nil {
				t.Fatal(err)
			}
			if err := r.Wait(); err != nil {
				t.Fatalf("the remote after SIGTERM: %v\n%s", err, r.Log())
			}
		}},
	} {
		stop.do(r)
		for i := range 3 {
			start := time.Now()
			if err := b.Session.Ping(ctx, nil); err != nil {
				t.Fatalf("%s: ping %d during the outage: %v", stop.name, i, err)
			}
			tools, err := b.Session.ListTools(ctx, nil)
			if err != nil {
				t.Fatalf("%s: tools/list during the outage: %v", stop.name, err)
			}
			if d := cmp.Diff(asJSON(t, live.Tools), asJSON(t, tools.Tools)); d != "" {
				t.Fatalf("%s: tools listed during the outage differ (-before +during):\n%s", stop.name, d)
			}
			res := callVia(t, b.Session, "get_task", args{"id": id})
			text := resultText(res)
			for _, want := range []string{"unreachable since ", "connection refused", "retrying every ", "the last known tools are listed"} {
				if !res.IsError || !strings.Contains(text, want) {
					t.Fatalf("%s: call %d during the outage: want isError with %q, got %v %q", stop.name, i, want, res.IsError, text)
				}
			}
			if strings.Contains(text, "rejected by transport") || strings.Contains(text, "-32005") {
				t.Fatalf("%s: the SDK's transport error reached the client: %q", stop.name, text)
			}
			_, err = b.Session.GetPrompt(ctx, &mcp.GetPromptParams{Name: "task_context", Arguments: map[string]string{"taskId": id}})
			if je := jsonrpcErr(t, err); je.Code != -32000 || !strings.Contains(je.Message, "unreachable since") {
				t.Fatalf("%s: prompts/get during the outage: %d %q", stop.name, je.Code, je.Message)
			}
			t.Logf("%s: ping, tools/list, a call and prompts/get during the outage answered in %v", stop.name, time.Since(start))
		}
		r = startRemote(t, addr, dir)
		res := callVia(t, b.Session, "get_task", args{"id": id})
		if res.IsError {
			t.Fatalf("%s: the first call after the restart: %s", stop.name, resultText(res))
		}
		if d, _ := cairntest.Decode(res); d.Str("title") != "survives outages" {
			t.Fatalf("%s: get_task after the restart: %v", stop.name, d.Structured)
		}
	}
}
