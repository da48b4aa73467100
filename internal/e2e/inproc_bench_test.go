package e2e

// In-process benchmarks for profiling: the same server (mcpserver.New over
// the project's real SQLite store) with the Go SDK client on in-memory
// transports, and the focus service alone, on the 10,000-task project. The
// difference between the layers says where a call's time goes. Profile with
//
//	go test -run '^$' -bench InProc/get_current_task -benchtime 5000x \
//	    -cpuprofile cpu.prof -memprofile mem.prof ./internal/e2e/
//	go tool pprof -top e2e.test cpu.prof

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
)

func openBenchProject(b *testing.B) *app.Services {
	b.Helper()
	b.Setenv("CAIRN_PROJECT_ROOT", "")
	svc, err := app.Open(context.Background(), app.Config{Dir: benchProject(b)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { svc.Close() })
	return svc
}

// benchCreateArgs are the arguments of the i-th create_new_task call.
func benchCreateArgs(i int) map[string]any {
	return map[string]any{"title": fmt.Sprintf("Benchmark step %d", i), "body": "Created by the end-to-end benchmark."}
}

// inProcServer builds the MCP server with the default toolsets over svc.
func inProcServer(b *testing.B, svc *app.Services) *mcp.Server {
	b.Helper()
	srv, err := mcpserver.New(mcpserver.Options{
		Version:  "bench",
		Services: func(context.Context) (*service.Set, error) { return &svc.Set, nil },
	})
	if err != nil {
		b.Fatal(err)
	}
	return srv
}

// inProcSession connects an SDK client to the server over in-memory
// transports; both end with the benchmark.
func inProcSession(b *testing.B, svc *app.Services) (context.Context, *mcp.ClientSession) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	b.Cleanup(cancel)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := inProcServer(b, svc).Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return ctx, cs
}

// BenchmarkInProc runs tool calls through the MCP server and SDK client in
// one process, over mcp.NewInMemoryTransports.
func BenchmarkInProc(b *testing.B) {
	for _, bc := range []struct {
		tool string
		args func(int) any
	}{
		{"get_current_task", func(int) any { return map[string]any{} }},
		{"create_new_task", func(i int) any { return benchCreateArgs(i) }},
		// The rest of scripts/load.sh's mix of reads.
		{"get_task", func(i int) any { return map[string]any{"id": fmt.Sprint(1 + (i+1000)%1000)} }},
		{"get_tasks", func(int) any { return map[string]any{"status": "pending"} }},
		{"get_next_task", func(int) any { return map[string]any{} }},
		{"get_big_picture", func(int) any { return map[string]any{} }},
	} {
		b.Run(bc.tool, func(b *testing.B) {
			ctx, cs := inProcSession(b, openBenchProject(b))
			call := func(i int) {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: bc.tool, Arguments: bc.args(i)})
				if err != nil || res.IsError {
					b.Fatalf("call %s: %v %v", bc.tool, err, res)
				}
			}
			for i := range benchWarmup {
				call(-1 - i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				call(i)
			}
		})
	}
}

// BenchmarkServer measures the server alone: the product's StdioTransport
// and MCP server on in-memory pipes, driven by hand-written JSON-RPC lines
// (the initialize handshake a TypeScript client does, then tools/call), so
// a profile shows only the server's costs.
func BenchmarkServer(b *testing.B) {
	for _, bc := range []struct {
		tool string
		args func(int) string
	}{
		{"get_current_task", func(int) string { return `{}` }},
		{"create_new_task", func(i int) string {
			return fmt.Sprintf(`{"title":"Benchmark step %d","body":"Created by the end-to-end benchmark."}`, i)
		}},
	} {
		b.Run(bc.tool, func(b *testing.B) {
			srv := inProcServer(b, openBenchProject(b))
			ctx, cancel := context.WithCancel(context.Background())
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan error, 1)
			go func() { done <- srv.Run(ctx, &mcpserver.StdioTransport{In: inR, Out: outW}) }()
			defer func() { inW.Close(); cancel(); <-done }()
			out := bufio.NewReaderSize(outR, 64<<10)
			id := 0
			roundTrip := func(method, params string) []byte {
				id++
				if _, err := fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", id, method, params); err != nil {
					b.Fatal(err)
				}
				line, err := out.ReadBytes('\n')
				if err != nil {
					b.Fatal(err)
				}
				if !bytes.Contains(line, []byte(`"result"`)) || bytes.Contains(line, []byte(`"isError":true`)) {
					b.Fatalf("%s: %s", method, line)
				}
				return line
			}
			roundTrip("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}`)
			if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
				b.Fatal(err)
			}
			call := func(i int) []byte {
				name, _ := json.Marshal(bc.tool)
				return roundTrip("tools/call", `{"name":`+string(name)+`,"arguments":`+bc.args(i)+`}`)
			}
			for i := range benchWarmup {
				call(-1 - i)
			}
			b.ReportAllocs()
			b.ResetTimer()
			var n int
			for i := range b.N {
				n += len(call(i))
			}
			b.StopTimer()
			b.ReportMetric(float64(n)/float64(b.N), "resp-B/op")
		})
	}
}

// BenchmarkService calls the focus service directly: the store's share of a
// tool call.
func BenchmarkService(b *testing.B) {
	ctx := context.Background()
	b.Run("Current", func(b *testing.B) {
		f := openBenchProject(b).Focus
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			if _, err := f.Current(ctx, benchseed.Agent); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("CreateNewTask", func(b *testing.B) {
		f := openBenchProject(b).Focus
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			if _, err := f.CreateNewTask(ctx, benchseed.Agent, fmt.Sprintf("Benchmark step %d", i), "Created by the benchmark."); err != nil {
				b.Fatal(err)
			}
		}
	})
}
