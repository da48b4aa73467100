package cairntest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPServer is a running `cairn serve --http` on a free loopback port.
type HTTPServer struct {
	tb  testing.TB
	Cmd *exec.Cmd
	// URL is the server's base, http://127.0.0.1:PORT, without a path.
	URL string
	log *lockedWriter

	exited   chan struct{} // closed when the process has exited
	waitOnce sync.Once
	waitErr  error
}

var urlLine = regexp.MustCompile(`url=(http://\S+)/mcp`)

// StartHTTP runs `cairn serve --http 127.0.0.1:0` (and o.Args) in o.Dir and
// waits until it listens. It is killed when the test ends if still running.
func StartHTTP(tb testing.TB, o Options) *HTTPServer {
	tb.Helper()
	return StartHTTPAt(tb, "127.0.0.1:0", o)
}

// StartHTTPAt is StartHTTP on addr (HOST:PORT). Starting a server on the
// address and project of one that was killed is a restart: its sessions are
// gone, its data is not.
func StartHTTPAt(tb testing.TB, addr string, o Options) *HTTPServer {
	tb.Helper()
	cmd := exec.Command(Binary(tb), append([]string{"serve", "--http", addr}, o.Args...)...)
	cmd.Dir = o.Dir
	cmd.Env = append(cleanEnv(), o.Env...)
	lw := &lockedWriter{w: &strings.Builder{}}
	cmd.Stderr = lw
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	s := &HTTPServer{tb: tb, Cmd: cmd, log: lw}
	tb.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = s.Wait()
	})
	s.exited = make(chan struct{})
	go func() { _ = s.Wait(); close(s.exited) }()
	if !lw.waitFor(urlLine.MatchString, s.exited, 20*time.Second) {
		select {
		case <-s.exited:
			tb.Fatalf("cairn serve --http exited: %v\n%s", s.waitErr, lw.String())
		default:
			tb.Fatalf("cairn serve --http did not listen within 20s\n%s", lw.String())
		}
	}
	s.URL = urlLine.FindStringSubmatch(lw.String())[1]
	return s
}

// WaitLog waits until the server has logged line more than seen times,
// woken by each write to its stderr; it fails the test if the server exits
// first or 10 s pass.
func (s *HTTPServer) WaitLog(tb testing.TB, line string, seen int) {
	tb.Helper()
	if !s.log.waitFor(func(l string) bool { return strings.Count(l, line) > seen }, s.exited, 10*time.Second) {
		tb.Fatalf("the server did not log %s:\n%s", line, s.log.String())
	}
}

// Wait waits for the process to exit; it may be called more than once.
func (s *HTTPServer) Wait() error {
	s.waitOnce.Do(func() { s.waitErr = s.Cmd.Wait() })
	return s.waitErr
}

// Terminate sends SIGTERM, as a service manager stops a server.
func (s *HTTPServer) Terminate() error { return s.Cmd.Process.Signal(syscall.SIGTERM) }

// Kill kills the process with SIGKILL, as a crash would (every connection
// drops, nothing is drained), and waits until it has exited and its port
// is free.
func (s *HTTPServer) Kill() {
	_ = s.Cmd.Process.Kill()
	_ = s.Wait()
}

// Log returns what the server has written to stderr so far.
func (s *HTTPServer) Log() string { return s.log.String() }

// Client says how Connect reaches the server.
type Client struct {
	Path   string      // default /mcp
	Header http.Header // sent with every request (Authorization, X-Cairn-Agent, ...)
	Name   string      // the client's name at initialize; default "cairntest"
	Opts   *mcp.ClientOptions
}

// Connect connects the official SDK client over Streamable HTTP and fails
// the test if it cannot. The session is closed when the test ends.
func (s *HTTPServer) Connect(c Client) *Server {
	s.tb.Helper()
	sess, err := s.ConnectErr(c)
	if err != nil {
		s.tb.Fatalf("connect over HTTP: %v\n%s", err, s.Log())
	}
	srv := &Server{tb: s.tb, Cmd: s.Cmd, Session: sess, Stderr: &strings.Builder{}, stderr: s.log}
	s.tb.Cleanup(func() { sess.Close() })
	return srv
}

// ConnectErr is Connect returning the error; the caller closes the session.
func (s *HTTPServer) ConnectErr(c Client) (*mcp.ClientSession, error) {
	path := c.Path
	if path == "" {
		path = "/mcp"
	}
	name := c.Name
	if name == "" {
		name = "cairntest"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, c.Opts)
	t := &mcp.StreamableClientTransport{
		Endpoint:   s.URL + path,
		HTTPClient: &http.Client{Transport: headerTransport{c.Header}},
		MaxRetries: -1,
	}
	sess, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", t.Endpoint, err)
	}
	return sess, nil
}

// headerTransport adds headers to every request.
type headerTransport struct{ h http.Header }

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.h) > 0 {
		r = r.Clone(r.Context())
		for k, v := range t.h {
			r.Header[k] = v
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// Get fetches u (with cookie c, if not nil) and returns the response, its
// body read and closed.
func Get(tb testing.TB, u string, c *http.Cookie) (*http.Response, string) {
	tb.Helper()
	req, err := http.NewRequest("GET", u, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if c != nil {
		req.AddCookie(c)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp, string(b)
}
