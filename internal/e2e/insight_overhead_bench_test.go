package e2e

import (
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/app"
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
	const round = 25
	b.ResetTimer()
	for n, r := 0, 0; n < b.N; r++ {
		k := min(round, b.N-n)
		for _, i := range [][2]int{{0, 1}, {1, 0}}[r%2] {
			for range k {
				call(sides[i], true)
			}
		}
		n += k
	}
	b.StopTimer()
	if err := on.Insight.Flush(ctx); err != nil {
		b.Fatal(err)
	}
	if c := on.Insight.Counts(); c.Recorded < int64(b.N) {
		b.Fatalf("insight on recorded %d events of %d calls", c.Recorded, b.N)
	}
	q := func(s *side, p float64) float64 {
		slices.Sort(s.durs)
		return s.durs[min(len(s.durs)-1, int(p*float64(len(s.durs))))]
	}
	p50on, p50off, p95on, p95off := q(sides[0], 0.5), q(sides[1], 0.5), q(sides[0], 0.95), q(sides[1], 0.95)
	b.ReportMetric(p50on/1e3, "p50-on-µs")
	b.ReportMetric(p50off/1e3, "p50-off-µs")
	b.ReportMetric(p95on/1e3, "p95-on-µs")
	b.ReportMetric(p95off/1e3, "p95-off-µs")
	b.ReportMetric(p50on/p50off, "p50-ratio")
	b.ReportMetric(p95on/p95off, "p95-ratio")
}
