// Command stdiobridge is test tooling, not part of Cairn: it serves MCP over
// Streamable HTTP and forwards each HTTP session to its own child stdio MCP
// server, so that HTTP-only tools (the official MCP conformance suite) can
// test `cairn serve`.
//
// Usage:
//
//	stdiobridge [-listen 127.0.0.1:0] [-url-file FILE] [-idle-timeout 1m] -- COMMAND [ARG...]
//
// for example `stdiobridge -url-file /tmp/url -- cairn serve`. The endpoint
// is http://ADDR/mcp; with -url-file the bridge writes that URL to FILE once
// it is listening (useful with port 0).
//
// Both sides use the official Go SDK, no JSON-RPC is written by hand. One
// proxy mcp.Server serves every HTTP session. Its receiving middleware
//   - on "initialize", starts the child (mcp.CommandTransport plus an
//     mcp.Client, initialized with the HTTP client's name and protocol
//     version) and answers with the child's server info, capabilities and
//     instructions;
//   - forwards the client's requests (tools, prompts, resources, completion,
//     ping, logging level) to the child's session and returns its answers and
//     errors unchanged.
//
// The child's log and progress notifications are passed back to the HTTP
// client. Not bridged, as Cairn uses none of them: server-to-client requests
// (sampling, elicitation, roots), list-changed and resource-updated
// notifications, and the sessionless protocol (2026-07-28), which has no
// initialize to start a child on. A child is stopped when its HTTP session
// ends (DELETE, -idle-timeout, or the bridge exiting); its stderr goes to the
// bridge's.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on")
	urlFile := flag.String("url-file", "", "write the endpoint URL to this file once listening")
	idle := flag.Duration("idle-timeout", time.Minute, "end a session (and its child) after this long without a request; 0 never")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: stdiobridge [-listen ADDR] [-url-file FILE] [-idle-timeout D] -- COMMAND [ARG...]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := run(*listen, *urlFile, *idle, flag.Args(), log); err != nil {
		log.Error("stdiobridge", "error", err)
		os.Exit(1)
	}
}

func run(listen, urlFile string, idle time.Duration, command []string, log *slog.Logger) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	b := &bridge{command: command, log: log, children: make(map[*mcp.ServerSession]*mcp.ClientSession)}
	defer b.closeAll()
	proxy := mcp.NewServer(&mcp.Implementation{Name: "stdiobridge", Version: "0"}, &mcp.ServerOptions{
		// The SDK's own resources/(un)subscribe handlers call these hooks.
		SubscribeHandler: func(ctx context.Context, req *mcp.SubscribeRequest) error {
			return b.childOrErr(req.Session, func(cs *mcp.ClientSession) error { return cs.Subscribe(ctx, req.Params) })
		},
		UnsubscribeHandler: func(ctx context.Context, req *mcp.UnsubscribeRequest) error {
			return b.childOrErr(req.Session, func(cs *mcp.ClientSession) error { return cs.Unsubscribe(ctx, req.Params) })
		},
	})
	proxy.AddReceivingMiddleware(b.middleware)

	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String() + "/mcp"
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return proxy },
		// Clients often end without DELETE; the timeout reaps their children.
		&mcp.StreamableHTTPOptions{SessionTimeout: idle}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if urlFile != "" {
		// Write then rename, so a reader never sees a partial URL.
		if err := os.WriteFile(urlFile+".tmp", []byte(url+"\n"), 0o644); err != nil {
			return err
		}
		if err := os.Rename(urlFile+".tmp", urlFile); err != nil {
			return err
		}
	}
	log.Info("listening", "url", url, "command", command)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
		// Open SSE streams never finish on their own, so close rather than
		// shut down gracefully; the deferred closeAll then stops the children.
		return srv.Close()
	}
}

// bridge maps each proxy session to the child session serving it.
type bridge struct {
	command []string
	log     *slog.Logger

	mu       sync.Mutex
	children map[*mcp.ServerSession]*mcp.ClientSession
}

func (b *bridge) child(ss *mcp.ServerSession) *mcp.ClientSession {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.children[ss]
}

func (b *bridge) childOrErr(ss *mcp.ServerSession, f func(*mcp.ClientSession) error) error {
	cs := b.child(ss)
	if cs == nil {
		return errors.New("stdiobridge: no child server for this session")
	}
	return passError(f(cs))
}

// start runs a child for ss and connects to it as the client described by
// the HTTP client's initialize params. The child is closed when ss ends.
func (b *bridge) start(ctx context.Context, ss *mcp.ServerSession, params *mcp.InitializeParams) (*mcp.ClientSession, error) {
	cmd := exec.Command(b.command[0], b.command[1:]...)
	cmd.Stderr = os.Stderr
	info := &mcp.Implementation{Name: "stdiobridge", Version: "0"}
	version := ""
	if params != nil {
		if params.ClientInfo != nil {
			info = params.ClientInfo
		}
		version = params.ProtocolVersion
	}
	client := mcp.NewClient(info, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{}, // nothing the bridge cannot pass on
		LoggingMessageHandler: func(ctx context.Context, req *mcp.LoggingMessageRequest) {
			_ = ss.Log(ctx, req.Params)
		},
		ProgressNotificationHandler: func(ctx context.Context, req *mcp.ProgressNotificationClientRequest) {
			_ = ss.NotifyProgress(ctx, req.Params)
		},
	})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, fmt.Errorf("stdiobridge: start %v: %w", b.command, err)
	}
	b.mu.Lock()
	b.children[ss] = cs
	b.mu.Unlock()
	b.log.Info("session started", "session", ss.ID(), "pid", cmd.Process.Pid)
	go func() {
		_ = ss.Wait()
		b.mu.Lock()
		delete(b.children, ss)
		b.mu.Unlock()
		err := cs.Close()
		b.log.Info("session ended", "session", ss.ID(), "child_exit", err)
	}()
	return cs, nil
}

func (b *bridge) closeAll() {
	b.mu.Lock()
	children := b.children
	b.children = make(map[*mcp.ServerSession]*mcp.ClientSession)
	b.mu.Unlock()
	for _, cs := range children {
		_ = cs.Close()
	}
}

// middleware forwards the HTTP client's requests to the session's child.
// Methods it does not list (notifications such as initialized and
// cancelled, which the SDK handles itself) go to the proxy's own handlers.
func (b *bridge) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ss, _ := req.GetSession().(*mcp.ServerSession)
		cs := b.child(ss)
		if method == "initialize" && cs == nil && ss != nil {
			p, _ := req.GetParams().(*mcp.InitializeParams)
			child, err := b.start(ctx, ss, p)
			if err != nil {
				return nil, err
			}
			// Let the SDK record the session's initialization, then answer
			// as the child: its name, capabilities and instructions.
			res, err := next(ctx, method, req)
			if ir, ok := res.(*mcp.InitializeResult); ok && err == nil {
				cir := child.InitializeResult()
				ir.ServerInfo, ir.Capabilities, ir.Instructions = cir.ServerInfo, cir.Capabilities, cir.Instructions
			}
			return res, err
		}
		if cs == nil {
			return next(ctx, method, req)
		}
		switch method {
		case "ping":
			if err := cs.Ping(ctx, params[*mcp.PingParams](req)); err != nil {
				return nil, passError(err)
			}
			return next(ctx, method, req) // the SDK's empty result
		case "logging/setLevel":
			if err := cs.SetLoggingLevel(ctx, params[*mcp.SetLoggingLevelParams](req)); err != nil {
				return nil, passError(err)
			}
			return next(ctx, method, req) // the proxy filters forwarded logs too
		case "tools/list":
			return result(cs.ListTools(ctx, params[*mcp.ListToolsParams](req)))
		case "tools/call":
			p := params[*mcp.CallToolParamsRaw](req)
			if p == nil {
				return next(ctx, method, req) // let the SDK reject it
			}
			return result(cs.CallTool(ctx, &mcp.CallToolParams{
				Meta: p.Meta, Name: p.Name, Arguments: p.Arguments,
				InputResponses: p.InputResponses, RequestState: p.RequestState,
			}))
		case "prompts/list":
			return result(cs.ListPrompts(ctx, params[*mcp.ListPromptsParams](req)))
		case "prompts/get":
			return result(cs.GetPrompt(ctx, params[*mcp.GetPromptParams](req)))
		case "resources/list":
			return result(cs.ListResources(ctx, params[*mcp.ListResourcesParams](req)))
		case "resources/templates/list":
			return result(cs.ListResourceTemplates(ctx, params[*mcp.ListResourceTemplatesParams](req)))
		case "resources/read":
			return result(cs.ReadResource(ctx, params[*mcp.ReadResourceParams](req)))
		case "completion/complete":
			return result(cs.Complete(ctx, params[*mcp.CompleteParams](req)))
		}
		return next(ctx, method, req)
	}
}

// params returns a request's params as P, or P's zero value.
func params[P mcp.Params](req mcp.Request) P {
	p, _ := req.GetParams().(P)
	return p
}

// result adapts a typed client call to a middleware result, never returning
// a typed nil.
func result[R mcp.Result](r R, err error) (mcp.Result, error) {
	if err != nil {
		return nil, passError(err)
	}
	return r, nil
}

// passError returns the child's JSON-RPC error as is, so the HTTP client sees
// the child's code, message and data rather than the client's wrapping.
func passError(err error) error {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return werr
	}
	return err
}
