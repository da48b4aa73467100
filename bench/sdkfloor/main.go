// Command sdkfloor serves one tool, get_current_task (and the three cairn-load
// sets its agents up with), over the same MCP SDK
// and Streamable HTTP options as `cairn serve --http`, answering every call
// with one fixed, typical YOU ARE HERE (text and structured content, as
// Cairn answers it) and doing nothing else: no store, no services, no
// argument checks. Driven by cairn-load, its server CPU per call is the
// floor under every Cairn tool call that Cairn's own code cannot lower:
// the SDK's transport, JSON-RPC dispatch, JSON decoding and encoding, and
// net/http.
//
//	go build -o /tmp/sdkfloor ./bench/sdkfloor && GOGC=1000 /tmp/sdkfloor -addr 127.0.0.1:8090 &
//	go run ./cmd/cairn-load -url http://127.0.0.1:8090/mcp -server-pid $! -clients 16 -seed 0 -mix get_current_task=1
//
// GOGC=1000 stands for serve --http's GC tuner, which lets the heap grow
// 64 MiB past what is live: here almost nothing is.
package main

import (
	"context"
	"flag"
	"log"
	"net/http"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// current is the structured content of a typical get_current_task answer.
type current struct {
	Agent      string  `json:"agent"`
	TaskID     string  `json:"task_id"`
	Title      string  `json:"title"`
	Body       string  `json:"body,omitempty"`
	Status     string  `json:"status"`
	Depth      int     `json:"depth"`
	CreatedAt  string  `json:"created_at"`
	Breadcrumb []crumb `json:"breadcrumb,omitempty"`
}

type crumb struct {
	TaskID string `json:"task_id"`
	Title  string `json:"title"`
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "listen address")
	resumable := flag.Bool("resumable", true, "keep each stream's events for Last-Event-ID, as serve --http does")
	flag.Parse()
	srv := mcp.NewServer(&mcp.Implementation{Name: "sdkfloor", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "get_current_task", Description: "YOU ARE HERE",
		InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{
			Content: []mcp.Content{&mcp.TextContent{Text: "YOU ARE HERE: [2] Add jitter to the backoff (depth 2; agent load-7)\n" +
				"Path: [1] Wire the retry budget into the HTTP client\nBody:\nFull jitter, as in the AWS architecture blog; unit test with a fixed seed."}},
			StructuredContent: current{Agent: "load-7", TaskID: "2", Title: "Add jitter to the backoff",
				Body: "Full jitter, as in the AWS architecture blog; unit test with a fixed seed.", Status: "current", Depth: 2,
				CreatedAt: "2026-11-26T20:30:23Z", Breadcrumb: []crumb{{TaskID: "1", Title: "Wire the retry budget into the HTTP client"}}},
		}, nil
	})
	opts := &mcp.StreamableHTTPOptions{DisableLocalhostProtection: true}
	if *resumable {
		opts.EventStore = mcp.NewMemoryEventStore(nil)
	}
	// What cairn-load calls to set up its agents, answered as simply.
	for _, name := range []string{"create_task", "switch_focus", "create_new_task"} {
		srv.AddTool(&mcp.Tool{Name: name, InputSchema: &jsonschema.Schema{Type: "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "[1] set up"}}, StructuredContent: map[string]string{"id": "1"}}, nil
		})
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, opts)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	hs := &http.Server{Addr: *addr, Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	log.Fatal(hs.ListenAndServe())
}
