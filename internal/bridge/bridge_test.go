package bridge

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// remoteServer is a small MCP server over real Streamable HTTP whose tools
// exercise what Cairn's own do not: progress, log messages, a slow call to
// cancel.
type remoteServer struct {
	*httptest.Server
	mu        sync.Mutex
	cancelled bool
}

func newRemote(t testing.TB) *remoteServer {
	t.Helper()
	r := &remoteServer{}
	s := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "1"}, &mcp.ServerOptions{Instructions: "use echo"})
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "echo with progress and a log line"},
		func(ctx context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
			if tok := req.Params.GetProgressToken(); tok != nil {
				req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 2, Message: "half"})
			}
			req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "echoing " + a.Text})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "slow", Description: "waits to be cancelled"},
		func(ctx context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			select {
			case <-ctx.Done():
				r.mu.Lock()
				r.cancelled = true
				r.mu.Unlock()
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

func TestNotificationsBothWays(t *testing.T) {
	r := newRemote(t)
	var (
		mu       sync.Mutex
		progress []string
		logs     []string
	)
	_, cs := local(t, r.URL, Options{}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			progress = append(progress, req.Params.Message)
			mu.Unlock()
		},
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			logs = append(logs, req.Params.Data.(string))
			mu.Unlock()
		},
	})
	ctx := context.Background()
	if ir := cs.InitializeResult(); ir.ServerInfo.Name != "remote" || ir.Instructions != "use echo" {
		t.Fatalf("initialize shows the remote: %+v %q", ir.ServerInfo, ir.Instructions)
	}
	if err := cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "info"}); err != nil {
		t.Fatal(err)
	}
	p := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}}
	p.SetProgressToken("tok-1")
	res, err := cs.CallTool(ctx, p)
	if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != "hi" {
		t.Fatalf("echo: %v %v", res, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		ok := len(progress) == 1 && len(logs) == 1
		mu.Unlock()
		if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("progress %v, logs %v", progress, logs)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if progress[0] != "half" || logs[0] != "echoing hi" {
		t.Fatalf("progress %v, logs %v", progress, logs)
	}

	// The local client's cancellation reaches the remote.
	cctx, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	if _, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "slow"}); err == nil {
		t.Fatal("slow: want cancelled")
	}
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		r.mu.Lock()
		c := r.cancelled
		r.mu.Unlock()
		if c {
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("the remote's handler was not cancelled")
		}
	}
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
	if d := time.Since(start); d > time.Second {
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
