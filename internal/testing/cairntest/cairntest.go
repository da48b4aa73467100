// Package cairntest starts the real cairn binary for end-to-end tests and
// talks to it with the official Go MCP SDK client over real stdio.
package cairntest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// Binary builds cmd/cairn once per test process and returns its path. Set
// CAIRN_BIN to test a binary built elsewhere (scripts/test builds it once
// for all the end-to-end packages).
func Binary(tb testing.TB) string {
	tb.Helper()
	if p := os.Getenv("CAIRN_BIN"); p != "" {
		return p
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "cairn-bin-")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "cairn")
		// The end-to-end packages' test processes run at once: one builds
		// while the others wait, and then find the build in Go's cache.
		unlock := lockBuild()
		defer unlock()
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/cairn")
		cmd.Dir = moduleRoot()
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return binPath
}

func moduleRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// Project makes a fresh project directory (with .cairn) and returns it.
func Project(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".cairn"), 0o755); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// Server is a running `cairn serve` with a connected SDK client.
type Server struct {
	tb      testing.TB
	Cmd     *exec.Cmd
	Session *mcp.ClientSession
	Stderr  *strings.Builder

	stderr *lockedWriter // guards Stderr while the process runs
}

// Options for Start.
type Options struct {
	Dir  string   // working directory; the project
	Args []string // extra arguments after "serve"
	Env  []string // extra environment, KEY=VALUE
	// ClientName is the name the client gives at initialize; default
	// "cairntest".
	ClientName string
	// ProtocolVersion is the version the client asks for at initialize;
	// default the SDK's latest.
	ProtocolVersion string
}

// Start runs `cairn serve` in dir and connects a client. The server is
// stopped when the test ends.
func Start(tb testing.TB, o Options) *Server {
	tb.Helper()
	return StartWith(tb, o, nil)
}

// StartWith is Start with client options, such as notification handlers.
func StartWith(tb testing.TB, o Options, copts *mcp.ClientOptions) *Server {
	tb.Helper()
	// The first start of a test process builds the binary: on a loaded
	// machine that takes longer than a connect may, so it is done before
	// the connect's deadline starts.
	Binary(tb)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := startErr(ctx, tb, o, copts)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// StartErr is Start returning the error; the caller closes the server.
func StartErr(ctx context.Context, tb testing.TB, o Options) (*Server, error) {
	return startErr(ctx, tb, o, nil)
}

func startErr(ctx context.Context, tb testing.TB, o Options, copts *mcp.ClientOptions) (*Server, error) {
	cmd := exec.Command(Binary(tb), append([]string{"serve"}, o.Args...)...)
	cmd.Dir = o.Dir
	cmd.Env = append(cleanEnv(), o.Env...)
	stderr := &strings.Builder{}
	lw := &lockedWriter{w: stderr}
	cmd.Stderr = lw
	name := o.ClientName
	if name == "" {
		name = "cairntest"
	}
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, copts)
	sess, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: o.ProtocolVersion})
	if err != nil {
		return nil, fmt.Errorf("connect to cairn serve: %w (stderr: %s)", err, lw.String())
	}
	return &Server{tb: tb, Cmd: cmd, Session: sess, Stderr: stderr, stderr: lw}, nil
}

// cleanEnv is the test process's environment without Cairn's own settings,
// so a developer's shell cannot change what a test sees.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CAIRN_") {
			env = append(env, kv)
		}
	}
	return env
}

// lockedWriter keeps what a process writes to stderr, safe to read while
// the process runs, and tells waiters of each write (wrote is closed and
// replaced), so a test waits for a log line on that signal, not on a sleep.
type lockedWriter struct {
	mu    sync.Mutex
	w     *strings.Builder
	wrote chan struct{}
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wrote != nil {
		close(l.wrote)
		l.wrote = nil
	}
	return l.w.Write(p)
}

// next returns the text so far and a channel closed at the next write.
func (l *lockedWriter) next() (string, <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.wrote == nil {
		l.wrote = make(chan struct{})
	}
	return l.w.String(), l.wrote
}

// waitFor waits until ok holds of the text written so far, woken by each
// write. It returns false if exited is closed first (the process ended
// without writing it) or the timeout passes.
func (l *lockedWriter) waitFor(ok func(string) bool, exited <-chan struct{}, timeout time.Duration) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for {
		text, wrote := l.next()
		if ok(text) {
			return true
		}
		select {
		case <-wrote:
		case <-exited:
			text, _ := l.next()
			return ok(text)
		case <-deadline.C:
			return false
		}
	}
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}

// Log returns what the server has written to stderr so far. Unlike reading
// Stderr directly, it is safe while the process runs.
func (s *Server) Log() string {
	if s.stderr == nil {
		return s.Stderr.String()
	}
	return s.stderr.String()
}

// Kill sends SIGKILL to the server process: no shutdown, no flush, as a
// crash, an OOM kill or a closed terminal would end it. Calls in flight fail
// with a protocol error once the client sees the pipe close; Close reaps the
// process.
func (s *Server) Kill() error { return s.Cmd.Process.Kill() }

// Proc is a `cairn serve` process with no client: its stdin is held open and
// silent, so the server only does what it does on its own at start (it opens
// the project's store in the background).
type Proc struct {
	Cmd   *exec.Cmd
	stdin interface{ Close() error }
	log   *lockedWriter

	waitOnce sync.Once
	waitErr  error
}

// Spawn starts `cairn serve` in o.Dir with no client. The process is killed
// when the test ends if it is still running.
func Spawn(tb testing.TB, o Options) *Proc {
	tb.Helper()
	cmd := exec.Command(Binary(tb), append([]string{"serve"}, o.Args...)...)
	cmd.Dir = o.Dir
	cmd.Env = append(cleanEnv(), o.Env...)
	lw := &lockedWriter{w: &strings.Builder{}}
	cmd.Stderr = lw
	stdin, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	p := &Proc{Cmd: cmd, stdin: stdin, log: lw}
	tb.Cleanup(func() { p.Kill() })
	return p
}

// Kill sends SIGKILL and waits for the process to be gone.
func (p *Proc) Kill() error {
	_ = p.Cmd.Process.Kill()
	return p.Wait()
}

// Wait waits for the process to exit; it may be called more than once.
func (p *Proc) Wait() error {
	p.waitOnce.Do(func() {
		p.waitErr = p.Cmd.Wait()
		p.stdin.Close()
	})
	return p.waitErr
}

// Log returns what the process has written to stderr so far.
func (p *Proc) Log() string { return p.log.String() }

// Close ends the session (closing stdin) and waits for the process.
func (s *Server) Close() error { return s.Session.Close() }

// Result is a decoded tool result.
type Result struct {
	IsError    bool
	Text       string
	Structured map[string]any
	Raw        *mcp.CallToolResult
}

// Call calls a tool and fails the test on a protocol error (not on a tool
// error: that is in Result.IsError).
func (s *Server) Call(name string, args any) Result {
	s.tb.Helper()
	r, err := s.CallErr(name, args)
	if err != nil {
		s.tb.Fatalf("call %s: %v", name, err)
	}
	return r
}

// CallErr is Call returning a protocol error.
func (s *Server) CallErr(name string, args any) (Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := s.Session.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return Result{}, err
	}
	return Decode(res)
}

// Decode turns a CallToolResult into a Result.
func Decode(res *mcp.CallToolResult) (Result, error) {
	r := Result{IsError: res.IsError, Raw: res}
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			r.Text += tc.Text
		}
	}
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return r, err
		}
		if err := json.Unmarshal(b, &r.Structured); err != nil {
			return r, fmt.Errorf("structuredContent is not an object: %s", b)
		}
	}
	return r, nil
}

// OK calls a tool and fails the test if it returns a tool error.
func (s *Server) OK(name string, args any) Result {
	s.tb.Helper()
	r := s.Call(name, args)
	if r.IsError {
		s.tb.Fatalf("%s(%v): unexpected tool error: %s", name, args, r.Text)
	}
	return r
}

// Err calls a tool and fails the test unless it returns a tool error.
func (s *Server) Err(name string, args any) Result {
	s.tb.Helper()
	r := s.Call(name, args)
	if !r.IsError {
		s.tb.Fatalf("%s(%v): want a tool error, got: %s", name, args, r.Text)
	}
	return r
}

// Str returns a string field of the structured result.
func (r Result) Str(key string) string {
	v, _ := r.Structured[key].(string)
	return v
}
