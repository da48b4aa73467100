package cairntest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A Window is a fake agent client window: a process of its own (the test
// binary run again in window mode, see WindowMain) that starts `cairn
// serve` over stdio as its child and talks to it with the SDK client, and
// runs `cairn hook EVENT` as its children through `sh -c`, as Claude Code
// runs its hook commands. The client is the parent of both its hooks and
// its server, which is what Cairn links a window's session by, so the
// window must be a real process and not the test itself (which would be
// the parent of every window's children at once).
//
// The test drives a window one step at a time over its stdin and stdout,
// one JSON line a step, each step answered when it is done: interleaving
// two windows needs no sleeps.
type Window struct {
	tb     testing.TB
	Name   string
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *json.Decoder
	stderr *lockedWriter
	closed bool
}

// windowEnv switches the test binary into window mode; windowBinEnv names
// the cairn binary the window runs.
const (
	windowEnv    = "CAIRNTEST_WINDOW"
	windowBinEnv = "CAIRNTEST_WINDOW_BIN"
	windowArgs   = "CAIRNTEST_WINDOW_ARGS" // serve's arguments, one a line
	windowClient = "CAIRNTEST_WINDOW_CLIENT"
)

// WindowOptions configure a window.
type WindowOptions struct {
	Name string // for messages
	Dir  string // the project: where the client runs
	// Args follow "serve" for the window's MCP server.
	Args []string
	// ClientName is the name the window's MCP client gives at initialize;
	// default "claude-code", as Claude Code names itself.
	ClientName string
}

// WindowMain runs the process as a window when it was started as one, and
// then exits; otherwise it returns at once. Call it first in TestMain.
func WindowMain() {
	if os.Getenv(windowEnv) == "" {
		return
	}
	if err := runWindow(); err != nil {
		fmt.Fprintln(os.Stderr, "window:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// StartWindow starts a window in o.Dir and waits until its server answers
// initialize. The window is closed when the test ends.
func StartWindow(tb testing.TB, o WindowOptions) *Window {
	tb.Helper()
	self, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	if o.ClientName == "" {
		o.ClientName = "claude-code"
	}
	cmd := exec.Command(self, "-test.run=^$")
	cmd.Dir = o.Dir
	cmd.Env = append(cleanEnv(), windowEnv+"="+o.Name, windowBinEnv+"="+Binary(tb),
		windowArgs+"="+strings.Join(o.Args, "\n"), windowClient+"="+o.ClientName)
	w := &Window{tb: tb, Name: o.Name, cmd: cmd, stderr: &lockedWriter{w: &strings.Builder{}}}
	cmd.Stderr = w.stderr
	if w.in, err = cmd.StdinPipe(); err != nil {
		tb.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	w.out = json.NewDecoder(bufio.NewReader(stdout))
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { w.Close() })
	var ready windowReply
	if err := w.out.Decode(&ready); err != nil || ready.Err != "" {
		tb.Fatalf("window %s did not start: %v %s\nstderr: %s", o.Name, err, ready.Err, w.stderr.String())
	}
	return w
}

// PID is the window's process id: the client process Cairn links its
// hooks and its server by.
func (w *Window) PID() int { return w.cmd.Process.Pid }

// HookResult is what one hook command printed.
type HookResult struct {
	Stdout, Stderr string
}

// Hook runs `sh -c "cairn hook EVENT"` from the window with payload on
// stdin, and fails the test unless it exits 0 (a hook never fails the
// client).
func (w *Window) Hook(event string, payload []byte) HookResult {
	w.tb.Helper()
	r := w.step(windowStep{Hook: event, Payload: string(payload)})
	if r.Err != "" {
		w.tb.Fatalf("window %s: cairn hook %s: %s (a hook must exit 0)\nstderr: %s", w.Name, event, r.Err, r.Stderr)
	}
	return HookResult{Stdout: r.Stdout, Stderr: r.Stderr}
}

// Call calls a tool on the window's server; a protocol error fails the
// test.
func (w *Window) Call(tool string, args any) Result {
	w.tb.Helper()
	r := w.step(windowStep{Tool: tool, Args: args})
	if r.Err != "" {
		w.tb.Fatalf("window %s: call %s: %s", w.Name, tool, r.Err)
	}
	res := Result{IsError: r.IsError, Text: r.Text}
	if len(r.Structured) > 0 {
		if err := json.Unmarshal(r.Structured, &res.Structured); err != nil {
			w.tb.Fatalf("window %s: %s: structuredContent is not an object: %s", w.Name, tool, r.Structured)
		}
	}
	return res
}

// OK is Call failing the test on a tool error.
func (w *Window) OK(tool string, args any) Result {
	w.tb.Helper()
	r := w.Call(tool, args)
	if r.IsError {
		w.tb.Fatalf("window %s: %s(%v): unexpected tool error: %s", w.Name, tool, args, r.Text)
	}
	return r
}

// Close quits the window as a client quits: its server's stdin closes and
// the window waits for it, then exits. It may be called more than once.
func (w *Window) Close() {
	if w.closed {
		return
	}
	w.closed = true
	w.in.Close()
	done := make(chan error, 1)
	go func() { done <- w.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			w.tb.Errorf("window %s exited: %v\nstderr: %s", w.Name, err, w.stderr.String())
		}
	case <-time.After(20 * time.Second):
		_ = w.cmd.Process.Kill()
		<-done
		w.tb.Errorf("window %s did not exit\nstderr: %s", w.Name, w.stderr.String())
	}
}

func (w *Window) step(s windowStep) windowReply {
	w.tb.Helper()
	if w.closed {
		w.tb.Fatalf("window %s is closed", w.Name)
	}
	if err := json.NewEncoder(w.in).Encode(s); err != nil {
		w.tb.Fatalf("window %s: %v\nstderr: %s", w.Name, err, w.stderr.String())
	}
	var r windowReply
	if err := w.out.Decode(&r); err != nil {
		w.tb.Fatalf("window %s: no answer: %v\nstderr: %s", w.Name, err, w.stderr.String())
	}
	return r
}

// windowStep is one thing the test asks a window to do: a hook or a tool
// call.
type windowStep struct {
	Hook    string `json:"hook,omitempty"`
	Payload string `json:"payload,omitempty"`
	Tool    string `json:"tool,omitempty"`
	Args    any    `json:"args,omitempty"`
}

// windowReply is what it did.
type windowReply struct {
	Err        string          `json:"err,omitempty"`
	Stdout     string          `json:"stdout,omitempty"`
	Stderr     string          `json:"stderr,omitempty"`
	IsError    bool            `json:"is_error,omitempty"`
	Text       string          `json:"text,omitempty"`
	Structured json.RawMessage `json:"structured,omitempty"`
}

// runWindow is the window process: its server started and initialized, it
// says so, then does each step it reads until its stdin closes.
func runWindow() error {
	bin := os.Getenv(windowBinEnv)
	args := []string{"serve"}
	if a := os.Getenv(windowArgs); a != "" {
		args = append(args, strings.Split(a, "\n")...)
	}
	enc := json.NewEncoder(os.Stdout)
	server := exec.Command(bin, args...)
	server.Stderr = os.Stderr
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: os.Getenv(windowClient), Version: "1"}, nil)
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	sess, err := client.Connect(cctx, &mcp.CommandTransport{Command: server, TerminateDuration: 5 * time.Second}, nil)
	cancel()
	if err != nil {
		_ = enc.Encode(windowReply{Err: "connect to cairn serve: " + err.Error()})
		return err
	}
	defer sess.Close()
	if err := enc.Encode(windowReply{}); err != nil {
		return err
	}
	dec := json.NewDecoder(bufio.NewReader(os.Stdin))
	for {
		var s windowStep
		if err := dec.Decode(&s); err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		var r windowReply
		switch {
		case s.Hook != "":
			r = windowHook(bin, s)
		case s.Tool != "":
			r = windowCall(ctx, sess, s)
		default:
			r.Err = "a step names a hook or a tool"
		}
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
}

// windowHook runs a hook command as Claude Code does: through the shell,
// the payload on stdin, in the project.
func windowHook(bin string, s windowStep) windowReply {
	cmd := exec.Command("sh", "-c", shellQuote(bin)+" hook "+shellQuote(s.Hook))
	cmd.Stdin = strings.NewReader(s.Payload)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	r := windowReply{}
	if err := cmd.Run(); err != nil {
		r.Err = err.Error()
	}
	r.Stdout, r.Stderr = out.String(), errb.String()
	return r
}

func windowCall(ctx context.Context, sess *mcp.ClientSession, s windowStep) windowReply {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	res, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: s.Tool, Arguments: s.Args})
	if err != nil {
		return windowReply{Err: err.Error()}
	}
	d, err := Decode(res)
	if err != nil {
		return windowReply{Err: err.Error()}
	}
	r := windowReply{IsError: d.IsError, Text: d.Text}
	if res.StructuredContent != nil {
		if r.Structured, err = json.Marshal(res.StructuredContent); err != nil {
			return windowReply{Err: err.Error()}
		}
	}
	return r
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
