package e2e

import (
	"database/sql"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/testing/wait"
)

// BenchmarkInsightOverhead measures what recording usage costs a call end
// to end: two copies of the benchmark project served in this process (the
// real server and SDK client on in-memory transports), one recording
// (insight on, the default) and one with CAIRN_INSIGHT=off, called in
// alternating rounds so that the machine's load falls on both alike. It
// reports each side's p50 and p95 and their ratios (on / off): the goal is
// at most 1.03.
//
//	go test -run '^$' -bench InsightOverhead -benchtime 4000x -count 3 ./internal/e2e/
func BenchmarkInsightOverhead(b *testing.B) {
	b.Setenv(app.EnvInsight, "")
	on := openBenchProject(b)
	b.Setenv(app.EnvInsight, "off")
	off := openBenchProject(b)
	if !on.Insight.Enabled() || off.Insight.Enabled() {
		b.Fatalf("insight enabled: on %v, off %v", on.Insight.Enabled(), off.Insight.Enabled())
	}
	type side struct {
		cs   *mcp.ClientSession
		durs []float64
	}
	var sides [2]*side
	for i, svc := range []*app.Services{on, off} {
		ctx, cs := inProcSession(b, svc)
		_ = ctx
		sides[i] = &side{cs: cs}
	}
	ctx := b.Context()
	call := func(s *side, keep bool) {
		start := time.Now()
		res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_current_task", Arguments: map[string]any{}})
		d := time.Since(start)
		if err != nil || res.IsError {
			b.Fatalf("get_current_task: %v %v", err, res)
		}
		if keep {
			s.durs = append(s.durs, float64(d))
		}
	}
	for range benchWarmup {
		call(sides[0], false)
		call(sides[1], false)
	}
	b.ResetTimer()
	alternate(b, func(i int) { call(sides[i], true) })
	b.StopTimer()
	if err := on.Insight.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	if c := on.Insight.Counts(); c.Recorded < int64(b.N) {
		b.Fatalf("insight on recorded %d events of %d calls", c.Recorded, b.N)
	}
	reportRatios(b, sides[0].durs, sides[1].durs)
}

// alternate makes b.N calls on each side (0: insight on, 1: off) in rounds
// of 25, the side that goes first changing each round.
func alternate(b *testing.B, call func(side int)) {
	const round = 25
	for n, r := 0, 0; n < b.N; r++ {
		k := min(round, b.N-n)
		for _, i := range [][2]int{{0, 1}, {1, 0}}[r%2] {
			for range k {
				call(i)
			}
		}
		n += k
	}
}

// reportRatios reports each side's p50 and p95 (nanoseconds in, µs out)
// and the ratios on / off.
func reportRatios(b *testing.B, on, off []float64) {
	q := func(ds []float64, p float64) float64 {
		slices.Sort(ds)
		return ds[min(len(ds)-1, int(p*float64(len(ds))))]
	}
	p50on, p50off, p95on, p95off := q(on, 0.5), q(off, 0.5), q(on, 0.95), q(off, 0.95)
	b.ReportMetric(p50on/1e3, "p50-on-µs")
	b.ReportMetric(p50off/1e3, "p50-off-µs")
	b.ReportMetric(p95on/1e3, "p95-on-µs")
	b.ReportMetric(p95off/1e3, "p95-off-µs")
	b.ReportMetric(p50on/p50off, "p50-ratio")
	b.ReportMetric(p95on/p95off, "p95-ratio")
}

// BenchmarkInsightOverheadStdio is BenchmarkInsightOverhead through the
// real binary: two `cairn serve` processes on copies of the benchmark
// project over stdio, one with CAIRN_INSIGHT=off, called in alternating
// rounds. Beside the latency ratios it reports each server's CPU per call
// (from /proc, both of its goroutines: the call's and the recorder's) and
// their ratio.
//
//	go test -run '^$' -bench InsightOverheadStdio -benchtime 4000x -count 3 ./internal/e2e/
func BenchmarkInsightOverheadStdio(b *testing.B) {
	var servers [2]*benchServer
	var dirs [2]string
	for i, env := range []string{"", app.EnvInsight + "=off"} {
		b.Setenv("CAIRN_BENCH_SERVER_ENV", env)
		dirs[i] = benchProject(b)
		servers[i] = startBench(b, dirs[i])
		b.Cleanup(servers[i].close)
	}
	db, err := sql.Open("sqlite", filepath.Join(dirs[0], ".cairn", "cairn.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	recorded := func() (n int) {
		if err := db.QueryRow(`SELECT count(*) FROM usage_events WHERE name = 'get_current_task'`).Scan(&n); err != nil {
			b.Fatal(err)
		}
		return n
	}
	before := recorded()
	var durs [2][]float64
	call := func(i int, keep bool) {
		start := time.Now()
		servers[i].call(b, "get_current_task", map[string]any{})
		if keep {
			durs[i] = append(durs[i], float64(time.Since(start)))
		}
	}
	for range benchWarmup {
		call(0, false)
		call(1, false)
	}
	var cpu0 [2]time.Duration
	for i, s := range servers {
		cpu0[i] = benchProcCPU(b, s.cmd.Process.Pid)
	}
	b.ResetTimer()
	alternate(b, func(i int) { call(i, true) })
	b.StopTimer()
	// The recorder, in the server, writes its batches every second: its
	// CPU counts once the last of the timed calls is in the store.
	wait.Until(b, time.Minute, "the recorder to write the timed calls", func() bool { return recorded() >= before+benchWarmup+b.N })
	var cpu [2]float64
	for i, s := range servers {
		cpu[i] = float64(benchProcCPU(b, s.cmd.Process.Pid)-cpu0[i]) / float64(b.N)
	}
	reportRatios(b, durs[0], durs[1])
	b.ReportMetric(cpu[0]/1e3, "cpu-on-µs/op")
	b.ReportMetric(cpu[1]/1e3, "cpu-off-µs/op")
	if cpu[1] > 0 {
		b.ReportMetric(cpu[0]/cpu[1], "cpu-ratio")
	}
}
