package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/mcpserver"
)

// BenchmarkServerVsPing measures the server alone, as BenchmarkServer, for
// the reads of issue 34's per-call goal, beside pings on the same server:
// the product's StdioTransport and MCP server on pipes, fed JSON-RPC lines
// as the Go SDK client sends them at protocol 2026-07-28 (every call
// carries its _meta; a ping, which that protocol keeps from the old one,
// none). Calls and pings alternate in blocks, and the process's CPU time
// (getrusage: the server, its garbage collection, and this driver's few
// writes and reads) is summed for each, so that the ratio of a call's CPU to
// a ping's holds on a busy machine, where wall time does not. Allocations
// (allocs/op, B/op) count a call and a ping together.
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
			call := func(i int) int { return len(roundTrip("tools/call", bc.params(i))) }
			ping := func(int) int { return len(roundTrip("ping", `{}`)) }
			roundTrip("server/discover", `{`+meta+`}`)
			for i := range benchWarmup {
				call(-1 - i)
				ping(i)
			}
			const block = 50
			var callCPU, pingCPU time.Duration
			var n int
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += block {
				k := min(block, b.N-i)
				for _, phase := range []struct {
					f   func(int) int
					sum *time.Duration
				}{{call, &callCPU}, {ping, &pingCPU}} {
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
			b.ReportMetric(float64(callCPU)/float64(pingCPU), "x-ping-CPU")
		})
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
