package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver"
)

// BenchmarkServerVsPing measures the server alone, as BenchmarkServer, for
// the reads of issue 34's per-call goal, beside pings on the same server:
// the product's StdioTransport and MCP server on pipes, fed JSON-RPC lines
// as the Go SDK client sends them at protocol 2026-07-28 (every call
// carries its _meta; a ping, which that protocol keeps from the old one,
// none), beside pings to the same server and the same call to a bare SDK
// server on the same transport whose one tool answers Cairn's answer, fixed
// (the floor, as bench/sdkfloor is over HTTP). The three alternate in
// blocks, and the process's CPU time (getrusage: the servers, their garbage
// collection, and this driver's few writes and reads) is summed for each, so
// that the ratios hold on a busy machine, where wall time does not.
// Allocations (allocs/op, B/op) count the three together.
//
//	go test -run '^$' -bench '^BenchmarkServerVsPing$' -benchtime 5000x -benchmem ./internal/e2e/
func BenchmarkServerVsPing(b *testing.B) {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},` +
		`"io.modelcontextprotocol/clientCapabilities":{}}`
	for _, bc := range []struct {
		name   string
		params func(int) string
	}{
		{"get_task", func(i int) string {
			return fmt.Sprintf(`{`+meta+`,"name":"get_task","arguments":{"id":"%d"}}`, 1+(i+1000)%1000)
		}},
		{"get_current_task", func(int) string {
			return `{` + meta + `,"name":"get_current_task","arguments":{}}`
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			cairn := pipeServer(b, inProcServer(b, openBenchProject(b)))
			// The floor: the same SDK server and transport with one tool that
			// answers Cairn's own first answer, fixed, doing nothing else
			// (as bench/sdkfloor over HTTP).
			first := cairn("tools/call", bc.params(0))
			var answer struct {
				Result mcp.CallToolResult `json:"result"`
			}
			if err := json.Unmarshal(first, &answer); err != nil {
				b.Fatal(err)
			}
			bare := mcp.NewServer(&mcp.Implementation{Name: "floor", Version: "1"}, nil)
			tool := bc.name
			bare.AddTool(&mcp.Tool{Name: tool, InputSchema: &jsonschema.Schema{Type: "object"}},
				func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: answer.Result.Content, StructuredContent: answer.Result.StructuredContent}, nil
				})
			floor := pipeServer(b, bare)
			call := func(i int) int { return len(cairn("tools/call", bc.params(i))) }
			// Only Cairn's answers count in resp-B/op.
			ping := func(int) int { cairn("ping", `{}`); return 0 }
			sdk := func(i int) int { floor("tools/call", bc.params(i)); return 0 }
			cairn("server/discover", `{`+meta+`}`)
			floor("server/discover", `{`+meta+`}`)
			for i := range benchWarmup {
				call(-1 - i)
				ping(i)
				sdk(i)
			}
			const block = 50
			var callCPU, pingCPU, sdkCPU time.Duration
			var n int
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += block {
				k := min(block, b.N-i)
				for _, phase := range []struct {
					f   func(int) int
					sum *time.Duration
				}{{call, &callCPU}, {ping, &pingCPU}, {sdk, &sdkCPU}} {
					c0 := selfCPU(b)
					for j := range k {
						n += phase.f(i + j)
					}
					*phase.sum += selfCPU(b) - c0
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(n)/float64(b.N), "resp-B/op")
			b.ReportMetric(benchMicros(callCPU)/float64(b.N), "call-CPU-µs")
			b.ReportMetric(benchMicros(pingCPU)/float64(b.N), "ping-CPU-µs")
			b.ReportMetric(benchMicros(sdkCPU)/float64(b.N), "sdk-tool-CPU-µs")
			b.ReportMetric(float64(callCPU)/float64(pingCPU), "x-ping-CPU")
			b.ReportMetric(float64(callCPU)/float64(sdkCPU), "x-sdk-tool-CPU")
		})
	}
}

// pipeServer runs srv on the product's StdioTransport over pipes until the
// benchmark ends, and returns a function that sends it one request and
// returns its answer, failing on an error.
func pipeServer(b *testing.B, srv *mcp.Server) func(method, params string) []byte {
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, &mcpserver.StdioTransport{In: inR, Out: outW}) }()
	b.Cleanup(func() { inW.Close(); cancel(); <-done })
	out := bufio.NewReaderSize(outR, 64<<10)
	id := 0
	return func(method, params string) []byte {
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
}

// selfCPU is the CPU time this process has used, user and system.
func selfCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
