package e2e

// The bridge measured against mcp-remote, both in front of the same remote:
// the real `cairn serve --http` binary on a real SQLite project, requiring a
// bearer token. Measured: the latency each adds to a tool call (p50 through
// the proxy minus p50 straight to the remote), startup (spawn to
// initialized), peak RSS and the proxy's CPU per call. scripts/bridge-bench.sh installs mcp-remote and prints a table;
// by hand:
//
//	CAIRN_MCP_REMOTE=".tools/node-22.23.3/.../node .tools/mcp-remote-0.15.1/node_modules/mcp-remote/dist/proxy.js" \
//	  go test -run '^$' -bench BenchmarkBridge -benchtime 2000x ./internal/e2e/
//
// Without CAIRN_MCP_REMOTE the mcp-remote case is skipped.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// benchTool is a cheap read-only call whose cost is mostly the round trip.
const benchTool = "get_task_stats"

func BenchmarkBridge(b *testing.B) {
	r := startRemote(b, "127.0.0.1:0", cairntest.Project(b))
	cache := b.TempDir()
	proxies := map[string]func() *exec.Cmd{
		"cairn-bridge": func() *exec.Cmd {
			cmd := exec.Command(cairntest.Binary(b), "bridge", r.URL, "--token", bridgeToken, "--cache-dir", cache)
			cmd.Env = append(os.Environ(), strings.Fields(os.Getenv("CAIRN_BENCH_BRIDGE_ENV"))...)
			return cmd
		},
	}
	if mr := os.Getenv("CAIRN_MCP_REMOTE"); mr != "" {
		f := strings.Fields(mr)
		cfg := b.TempDir()
		proxies["mcp-remote"] = func() *exec.Cmd {
			cmd := exec.Command(f[0], append(f[1:], r.URL, "--header", "Authorization:Bearer "+bridgeToken, "--transport", "http-only", "--allow-http")...)
			cmd.Env = append(os.Environ(), "MCP_REMOTE_CONFIG_DIR="+cfg)
			return cmd
		}
	}

	b.Run("direct", func(b *testing.B) {
		bridgeBenchCalls(b, r.direct(b, nil))
	})
	for _, name := range []string{"cairn-bridge", "mcp-remote"} {
		mk, ok := proxies[name]
		if !ok {
			continue
		}
		b.Run(name, func(b *testing.B) {
			// Startup: the median of five spawns (the first one fills the
			// bridge's cache, as any earlier use would have).
			var starts []time.Duration
			for range 6 {
				cs, d := spawnProxy(b, mk())
				starts = append(starts, d)
				cs.Close()
			}
			slices.Sort(starts[1:])
			cs, _ := spawnProxy(b, mk())
			defer cs.Close()
			cpu0 := procCPU(b, proxyPID(cs))
			bridgeBenchCalls(b, cs)
			b.ReportMetric(float64((procCPU(b, proxyPID(cs))-cpu0).Microseconds())/float64(b.N+benchWarmup), "cpu-µs/call")
			b.ReportMetric(float64(starts[1+len(starts[1:])/2].Microseconds())/1000, "start-ms")
			b.ReportMetric(peakRSS(b, proxyPID(cs)), "peak-RSS-MB")
		})
	}
}

// bridgeBenchCalls warms up, then times b.N calls one at a time and reports the
// median and the 90th percentile.
func bridgeBenchCalls(b *testing.B, cs *mcp.ClientSession) {
	ctx := context.Background()
	call := func() {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: benchTool, Arguments: map[string]any{}})
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %v", benchTool, err, res)
		}
	}
	for range benchWarmup {
		call()
	}
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		call()
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1000, "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*9/10].Nanoseconds())/1000, "p90-µs")
}

var pids = map[*mcp.ClientSession]int{}

func spawnProxy(b *testing.B, cmd *exec.Cmd) (*mcp.ClientSession, time.Duration) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	t0 := time.Now()
	cs, err := c.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		b.Fatalf("start %s: %v", filepath.Base(cmd.Path), err)
	}
	d := time.Since(t0)
	pids[cs] = cmd.Process.Pid
	return cs, d
}

func proxyPID(cs *mcp.ClientSession) int { return pids[cs] }

// procCPU is the process's user and system CPU time so far.
func procCPU(b *testing.B, pid int) time.Duration {
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		b.Logf("cpu: %v", err)
		return 0
	}
	// Fields after the command (which may hold spaces) in parentheses;
	// utime and stime are the 14th and 15th, in clock ticks (USER_HZ, 100).
	f := strings.Fields(string(st[strings.LastIndexByte(string(st), ')')+1:]))
	ut, _ := strconv.Atoi(f[11])
	stime, _ := strconv.Atoi(f[12])
	return time.Duration(ut+stime) * 10 * time.Millisecond
}

// peakRSS is the process's high-water resident set (VmHWM), in MB.
func peakRSS(b *testing.B, pid int) float64 {
	st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		b.Logf("peak RSS: %v", err)
		return 0
	}
	for _, line := range strings.Split(string(st), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}
