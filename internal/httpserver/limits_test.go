package httpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type bearer struct{ secret string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.secret)
	return http.DefaultTransport.RoundTrip(r)
}

func connectAs(url, secret string) (*mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: url + "/mcp", MaxRetries: -1, DisableStandaloneSSE: true,
		HTTPClient: &http.Client{Transport: bearer{secret}}}, nil)
}

// refusal posts an initialize and returns the status and the problem.
func refusal(t *testing.T, url, secret string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Error struct {
			Data map[string]any `json:"data"`
		} `json:"error"`
	}
	json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body.Error.Data
}

// TestSessionCaps: a token cannot open sessions without limit: beyond its
// cap it gets 429, beyond the server's 503, in the JSON refusal shape; with
// --session-evict idlest the least recently used session makes room.
func TestSessionCaps(t *testing.T) {
	const a, b = "aK3v9QxZ2mP7wL4t", "bR8n2YcF6hJ1sD5q"
	toks := []Token{{Name: "a", Secret: a, Projects: []string{"*"}}, {Name: "b", Secret: b, Projects: []string{"*"}, ReadOnly: true}}
	_, ts := newTestServer(t, Config{Tokens: toks, MaxSessions: 3, MaxSessionsPerToken: 2})
	for i := range 2 {
		cs, err := connectAs(ts.URL, a)
		if err != nil {
			t.Fatalf("session %d of token a: %v", i, err)
		}
		defer cs.Close()
	}
	if st, p := refusal(t, ts.URL, a); st != http.StatusTooManyRequests || p["reason"] != "too_many_sessions" || !strings.Contains(fmt.Sprint(p["fix"]), "--max-sessions-per-token") {
		t.Fatalf("third session of token a: %d %v", st, p)
	}
	cs, err := connectAs(ts.URL, b)
	if err != nil {
		t.Fatal(err)
	}
	if st, p := refusal(t, ts.URL, b); st != http.StatusServiceUnavailable || p["reason"] != "too_many_sessions" {
		t.Fatalf("a session over the server's cap: %d %v", st, p)
	}
	// A session that ends makes room.
	cs.Close()
	cs, err = connectAs(ts.URL, b)
	if err != nil {
		t.Fatalf("after a DELETE: %v", err)
	}
	cs.Close()

	// Evicting the idlest.
	_, ts = newTestServer(t, Config{Tokens: toks, MaxSessions: 10, MaxSessionsPerToken: 2, SessionEvict: EvictIdlest})
	old, err := connectAs(ts.URL, a)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	recent, err := connectAs(ts.URL, a)
	if err != nil {
		t.Fatal(err)
	}
	defer recent.Close()
	ctx := context.Background()
	if err := recent.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	third, err := connectAs(ts.URL, a)
	if err != nil {
		t.Fatalf("with eviction, a third session: %v", err)
	}
	defer third.Close()
	if err := recent.Ping(ctx, nil); err != nil {
		t.Fatalf("the recently used session was evicted: %v", err)
	}
	if err := old.Ping(ctx, nil); err == nil {
		t.Fatal("the idlest session still works after eviction")
	}
}

// TestSessionCapMemory: 500 initialize calls from one token hold at most
// the cap's worth of sessions.
func TestSessionCapMemory(t *testing.T) {
	const a = "aK3v9QxZ2mP7wL4t"
	s, ts := newTestServer(t, Config{Tokens: []Token{{Name: "a", Secret: a, Projects: []string{"*"}}}, MaxSessionsPerToken: 20})
	refused := 0
	for range 500 {
		if st, _ := refusal(t, ts.URL, a); st == http.StatusTooManyRequests {
			refused++
		}
	}
	if n := s.liveSessions(); n > 20 || refused != 480 {
		t.Fatalf("live sessions %d (cap 20), refused %d of 500", n, refused)
	}
}

// serveReal runs s.Serve on a real loopback listener (timeouts and the
// connection limit live there, not in the handler).
func serveReal(t *testing.T, cfg Config) string {
	t.Helper()
	return serveRealOn(t, cfg, nil)
}

// serveRealOn is serveReal with the listener wrapped by wrap, if set.
func serveRealOn(t *testing.T, cfg Config, wrap func(net.Listener) net.Listener) string {
	t.Helper()
	s, _ := newTestServer(t, cfg)
	ln, err := s.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		ln = wrap(ln)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// closedWithin reports whether the server closes c within d (reading
// whatever it sends first).
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false
	}
	return true
}

// TestSlowAndIdleConnections: unauthenticated clients that trickle a body
// are cut off by the read deadline (the refusal's drain included), an idle
// keep-alive connection is closed after the idle timeout, and connections
// over the limit are refused at once.
func TestSlowAndIdleConnections(t *testing.T) {
	addr := serveReal(t, Config{Tokens: []Token{{Name: "a", Secret: "aK3v9QxZ2mP7wL4t", Projects: []string{"*"}}},
		ReadTimeout: 500 * time.Millisecond, IdleTimeout: 500 * time.Millisecond, MaxConns: 40})

	t.Run("trickling", func(t *testing.T) {
		var wg sync.WaitGroup
		open := make(chan int, 30)
		for i := range 30 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := net.Dial("tcp", addr)
				if err != nil {
					open <- i
					return
				}
				defer c.Close()
				fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{", addr)
				// One byte every 100ms, for at most 10 s.
				deadline := time.Now().Add(10 * time.Second)
				for time.Now().Before(deadline) {
					c.SetWriteDeadline(time.Now().Add(time.Second))
					if _, err := c.Write([]byte(" ")); err != nil {
						return // closed by the server
					}
					if closedWithin(c, 100*time.Millisecond) {
						return
					}
				}
				open <- i
			}()
		}
		wg.Wait()
		close(open)
		if n := len(open); n > 0 {
			t.Fatalf("%d of 30 trickling connections were still open after 10 s", n)
		}
	})

	t.Run("idle keep-alive", func(t *testing.T) {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "GET /healthz HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("healthz: %v %v", resp, err)
		}
		io.Copy(io.Discard, resp.Body)
		if !closedWithin(c, 5*time.Second) {
			t.Fatal("an idle keep-alive connection was still open 5 s after a 500ms idle timeout")
		}
	})

	t.Run("connection limit", func(t *testing.T) {
		// A server of its own, whose held connections are not closed for
		// being slow while the test runs.
		var accepting *acceptSignal
		addr := serveRealOn(t, Config{ReadTimeout: 30 * time.Second, MaxConns: 40}, func(ln net.Listener) net.Listener {
			accepting = &acceptSignal{Listener: ln, calls: make(chan int, 64)}
			return accepting
		})
		var conns []net.Conn
		defer func() {
			for _, c := range conns {
				c.Close()
			}
		}()
		for range 40 {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		// The server asks for a 41st connection once it has taken the 40th
		// (a connection is given its slot before the next is accepted).
		accepting.await(t, 41)
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("over the limit: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "too_many_connections") {
			t.Fatalf("over the limit: %d %s", resp.StatusCode, body)
		}
	})
}

// acceptSignal reports each call of Accept, numbered from 1, before it
// waits for a connection.
type acceptSignal struct {
	net.Listener
	n     int // only the server's accept loop counts
	calls chan int
}

func (l *acceptSignal) Accept() (net.Conn, error) {
	l.n++
	select {
	case l.calls <- l.n:
	default: // the test reads only up to the call it waits for
	}
	return l.Listener.Accept()
}

// await waits until the server calls Accept for the nth time.
func (l *acceptSignal) await(t *testing.T, n int) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case got := <-l.calls:
			if got >= n {
				return
			}
		case <-timeout:
			t.Fatalf("the server did not come to accept connection %d within 10s", n)
		}
	}
}
