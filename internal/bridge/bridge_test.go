package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// remoteServer is a small MCP server over real Streamable HTTP whose tools
// exercise what Cairn's own do not: progress, a slow call to cancel.
type remoteServer struct {
	*httptest.Server
	slowStarted   chan struct{} // a slow call is running
	slowCancelled chan struct{} // a slow call saw its cancellation
}

func newRemote(t testing.TB) *remoteServer {
	t.Helper()
	r := &remoteServer{slowStarted: make(chan struct{}, 1), slowCancelled: make(chan struct{}, 1)}
	s := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "1"}, &mcp.ServerOptions{Instructions: "use echo"})
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echo with progress"},
		func(ctx context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "half"})
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "waits to be cancelled"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			signal(r.slowStarted)
			select {
			case <-ctx.Done():
				signal(r.slowCancelled)
				return nil, nil, ctx.Err()
			case <-time.After(10 * time.Second):
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "not cancelled"}}}, nil, nil
			}
		})
	r.Server = httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(r.Close)
	return r
}

// local runs a bridge to url on an in-memory transport and connects a client.
func local(t testing.TB, url string, opts Options, copts *mcp.ClientOptions) (*Bridge, *mcp.ClientSession) {
	t.Helper()
	opts.URL = url
	if opts.CacheDir == "" {
		opts.CacheDir = t.TempDir()
	}
	opts.RetryMin, opts.RetryMax = 20*time.Millisecond, 100*time.Millisecond
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, ct := mcp.NewInMemoryTransports()
	done := make(chan error, 1)
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
	ss, err := b.Server().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	go func() { done <- ss.Wait() }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "editor", Version: "1"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		<-done
		cancel()
		b.Close()
	})
	return b, cs
}

// signal records an event on a channel of capacity 1, once.
func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// await waits for an event on c; the timeout only fails a hung test.
func await(t *testing.T, c <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: not within 10s", what)
	}
}

func TestNotificationsBothWays(t *testing.T) {
	r := newRemote(t)
	progress := make(chan string, 1)
	_, cs := local(t, r.URL, Options{}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			select {
			case progress <- req.Params.Message:
			default: // one is enough
			}
		},
	})
	ctx := context.Background()
	ir := cs.InitializeResult()
	if ir.ServerInfo.Name != "remote" || ir.Instructions != "use echo" {
		t.Fatalf("initialize shows the remote: %+v %q", ir.ServerInfo, ir.Instructions)
	}
	// MCP logging is deprecated (SEP-2577): the bridge does not offer it.
	if caps, _ := json.Marshal(ir.Capabilities); strings.Contains(string(caps), `"logging"`) {
		t.Errorf("the bridge advertises logging: %s", caps)
	}
	p := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}
	p.SetProgressToken("tok-1")
	res, err := cs.CallTool(ctx, p)
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "hi" {
		t.Fatalf("echo: %v %v", res, err)
	}
	select {
	case m := <-progress:
		if m != "half" {
			t.Fatalf("progress %q", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no progress notification within 10s")
	}

	// The local client's cancellation reaches the remote.
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		<-r.slowStarted // the call is running on the remote
		cancel()
	}()
	if _, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "slow"}); err == nil {
		t.Fatal("slow: want cancelled")
	}
	await(t, r.slowCancelled, "the remote's handler cancelled")
}

func TestCacheWrittenAtomically(t *testing.T) {
	r := newRemote(t)
	dir := t.TempDir()
	local(t, r.URL, Options{CacheDir: dir}, nil)
	s, err := loadSnapshot(CachePath(dir, r.URL), r.URL)
	if err != nil || s == nil || len(s.Tools) != 2 || s.ServerInfo.Name != "remote" {
		t.Fatalf("cache: %+v %v", s, err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".bridge-*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
	// A cache for another URL, or a corrupt one, is not used.
	if _, err := loadSnapshot(CachePath(dir, r.URL), "http://elsewhere/mcp"); err == nil {
		t.Fatal("cache for another URL accepted")
	}
	os.WriteFile(CachePath(dir, r.URL), []byte("{not json"), 0o600)
	if _, err := loadSnapshot(CachePath(dir, r.URL), r.URL); err == nil || !strings.Contains(err.Error(), "read cache") {
		t.Fatalf("corrupt cache: %v", err)
	}
}

func TestBackoff(t *testing.T) {
	for range 100 {
		if d := jitter(time.Second); d < 800*time.Millisecond || d > 1200*time.Millisecond {
			t.Fatalf("jitter(1s) = %v", d)
		}
	}
	if _, err := New(Options{URL: "ftp://x"}); err == nil || !strings.Contains(err.Error(), "http://") {
		t.Fatalf("bad URL: %v", err)
	}
	if _, err := New(Options{}); err == nil {
		t.Fatal("no URL accepted")
	}
}

func TestCleanMeta(t *testing.T) {
	m := mcp.Meta{"progressToken": "t", "io.modelcontextprotocol/protocolVersion": "2026-07-28"}
	got := cleanMeta(m)
	if len(got) != 1 || got["progressToken"] != "t" || len(m) != 2 {
		t.Fatalf("cleanMeta: %v (input %v)", got, m)
	}
}

func TestCloseIsPrompt(t *testing.T) {
	r := newRemote(t)
	b, err := New(Options{URL: r.URL, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.Start(ctx)
	if b.current() == nil {
		t.Fatal("not connected")
	}
	start := time.Now()
	b.Close()
	if d := time.Since(start); d > 10*time.Second { // waiting out a reconnect backoff, not a speed budget
		t.Fatalf("Close took %v", d)
	}
}

// BenchmarkForward is the bridge's own cost per call, in process: a client
// on an in-memory transport, through the bridge, to a remote over real
// HTTP on loopback, against the same client straight to the remote.
//
//	go test -run '^$' -bench Forward -benchtime 5000x ./internal/bridge/
func BenchmarkForward(b *testing.B) {
	r := newRemote(b)
	args := map[string]any{"text": "hi"}
	b.Run("direct", func(b *testing.B) {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "direct", Version: "1"}, nil).Connect(context.Background(),
			&mcp.StreamableClientTransport{Endpoint: r.URL}, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		benchEcho(b, cs, args)
	})
	b.Run("bridge", func(b *testing.B) {
		_, cs := local(b, r.URL, Options{NoCache: true}, nil)
		benchEcho(b, cs, args)
	})
}

func benchEcho(b *testing.B, cs *mcp.ClientSession, args map[string]any) {
	ctx := context.Background()
	for range 100 {
		cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: args})
	}
	b.ResetTimer()
	for range b.N {
		if res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: args}); err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

// TestRedirectKeepsCredentials: a remote that answers 307 to another
// origin (another port on loopback) does not get the bridge's token or
// --header values sent there; the redirect is refused and said so.
func TestRedirectKeepsCredentials(t *testing.T) {
	var (
		mu   sync.Mutex
		seen []string
	)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Header.Get("Authorization")+"|"+r.Header.Get("X-Team")+"|"+r.URL.RawQuery)
		mu.Unlock()
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer other.Close()
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/mcp", http.StatusTemporaryRedirect)
	}))
	defer redirector.Close()

	b, cs := local(t, redirector.URL+"/mcp", Options{Token: "s3cret-token-0123456789", Header: http.Header{"X-Team": {"core-secret"}}, ConnectTimeout: 2 * time.Second}, nil)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo"})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || !strings.Contains(text, "another origin") {
		t.Fatalf("a redirect elsewhere: want the refusal, got %v %q", res.IsError, text)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, s := range seen {
		if strings.Contains(s, "s3cret") || strings.Contains(s, "core-secret") {
			t.Fatalf("the other origin received credentials: %q", s)
		}
	}
	if b.current() != nil {
		t.Fatal("connected through a cross-origin redirect")
	}

	// The transport adds credentials to the configured origin only, even
	// if a request for elsewhere reaches it.
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{redirector.URL + "/mcp", true},
		{redirector.URL + "/other", true},
		{other.URL + "/mcp", false},
		{strings.Replace(redirector.URL, "http://", "https://", 1) + "/mcp", false},
		{strings.Replace(redirector.URL, "127.0.0.1", "localhost", 1) + "/mcp", false},
	} {
		var got http.Header
		tr := &originTransport{base: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			got = r.Header
			return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
		}), origin: b.origin, header: http.Header{"Authorization": {"Bearer x"}}}
		req, _ := http.NewRequest("POST", tc.url, nil)
		tr.RoundTrip(req)
		if (got.Get("Authorization") != "") != tc.want {
			t.Errorf("%s: Authorization sent = %v, want %v", tc.url, !tc.want, tc.want)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// hostileRemote is a remote whose tools/list is n tools in pages of
// pageSize, or endless (every page says there is another) if n < 0.
func hostileRemote(t *testing.T, n, pageSize int) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "hostile", Version: "1"}, nil)
	desc := strings.Repeat("padding ", 250) // ~2 KB a tool, as in the report
	tool := func(i int) *mcp.Tool {
		return &mcp.Tool{Name: fmt.Sprintf("t%06d", i), Description: desc, InputSchema: map[string]any{"type": "object"}}
	}
	s.AddTool(tool(0), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/list" {
				return next(ctx, method, req)
			}
			start := 0
			if c := req.GetParams().(*mcp.ListToolsParams).Cursor; c != "" {
				fmt.Sscan(c, &start)
			}
			res := &mcp.ListToolsResult{}
			for i := start; i < start+pageSize && (n < 0 || i < n); i++ {
				res.Tools = append(res.Tools, tool(i))
			}
			if n < 0 || start+pageSize < n {
				res.NextCursor = fmt.Sprint(start + pageSize)
			}
			return res, nil
		}
	})
	h := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(h.Close)
	return h.URL
}

// TestListCaps: a remote that pages forever, or lists 10,000 tools, is
// refused with the cap in the error; nothing of it is cached or served, and
// the bridge's memory stays bounded.
func TestListCaps(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n, page  int
		wantCap  string
		pageSize int
	}{
		{"endless", -1, 5, "cap of 100 pages", 0},
		{"huge", 10000, 1000, "cap of 1000 items", 0},
		{"large page", 600, 600, "cap of 1048576 bytes", 1 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := hostileRemote(t, tc.n, tc.page)
			runtime.GC()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			dir := t.TempDir()
			// A generous bound: under -race on a busy machine reading two 2 MB
			// pages takes seconds; the caps, not the timeout, must end it.
			b, cs := local(t, url, Options{CacheDir: dir, MaxListBytes: tc.pageSize, ConnectTimeout: time.Minute}, nil)
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "t000000"})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if !res.IsError || !strings.Contains(text, tc.wantCap) || !strings.Contains(text, "nothing of it is kept") {
				t.Fatalf("want a refusal naming %q, got %v %q", tc.wantCap, res.IsError, text)
			}
			if b.current() != nil {
				t.Fatal("connected to a remote over the caps")
			}
			if lt, err := cs.ListTools(context.Background(), nil); err != nil || len(lt.Tools) != 0 {
				t.Fatalf("tools listed from a remote over the caps: %d %v", len(lt.Tools), err)
			}
			if _, err := os.Stat(CachePath(dir, url)); !os.IsNotExist(err) {
				t.Fatalf("a list over the caps was cached: %v", err)
			}
			runtime.GC()
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 64<<20 {
				t.Fatalf("heap grew by %d MB", grew>>20)
			}
		})
	}
}

// TestNoCredentialsInCacheOrLogs: user:password@ in the URL and ?token=
// values are not written to the cache file or the log.
func TestNoCredentialsInCacheOrLogs(t *testing.T) {
	r := newRemote(t)
	raw := strings.Replace(r.URL, "http://", "http://alice:pa%2Fss-word-9@", 1) + "/?token=qtok-123456&project=web"
	var logs syncBuf
	dir := t.TempDir()
	_, cs := local(t, raw, Options{CacheDir: dir, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}, nil)
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x"}}); err != nil {
		t.Fatal(err)
	}
	cache, err := os.ReadFile(CachePath(dir, raw))
	if err != nil {
		t.Fatal(err)
	}
	// A remote that is down: its URL is in the log and in the answer.
	down := "http://bob:hunter2-pw@127.0.0.1:1/mcp?access_token=qtok-999"
	_, cs2 := local(t, down, Options{CacheDir: dir, Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}, nil)
	res, err := cs2.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "x"}})
	if err != nil || !res.IsError {
		t.Fatalf("remote down: %v %v", res, err)
	}
	answer := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(answer, "127.0.0.1:1/mcp?access_token=REDACTED") {
		t.Errorf("answer while down: %s", answer)
	}
	logs.Write([]byte(answer))
	for name, text := range map[string]string{"cache": string(cache), "log": logs.String()} {
		for _, secret := range []string{"pa%2Fss", "pa/ss", "qtok", "alice", "hunter2", "bob"} {
			if strings.Contains(text, secret) {
				t.Errorf("%s holds %q:\n%s", name, secret, text)
			}
		}
	}
	if !strings.Contains(string(cache), "token=REDACTED") || !strings.Contains(string(cache), "project=web") {
		t.Errorf("cache URL: %s", cache)
	}
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
