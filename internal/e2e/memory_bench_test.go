package e2e

// memory_search end to end: the real binary over real stdio, on projects
// with 10,000 and 100,000 generated entries. Reports latency percentiles,
// answer size and tokens per index hit; asserts none of it.
//
//	go test -run '^$' -bench '^BenchmarkMemorySearch$' -benchtime 2000x ./internal/e2e/

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tiktoken-go/tokenizer"

	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

func BenchmarkMemorySearch(b *testing.B) {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		b.Fatalf("o200k_base tokenizer: %v", err)
	}
	queries := benchseed.MemoryQueries(200)
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprintf("entries=%d", n), func(b *testing.B) {
			src, err := benchseed.CachedMemory(context.Background(), n)
			if err != nil {
				b.Fatal(err)
			}
			dir := b.TempDir()
			if err := benchseed.Clone(src, dir); err != nil {
				b.Fatal(err)
			}
			s := startBench(b, dir)
			defer s.close()
			for i := range 50 {
				s.call(b, "memory_search", map[string]any{"query": queries[i%len(queries)]})
			}
			lat := make([]time.Duration, b.N)
			var hits, textTokens, textBytes, respBytes int
			arrived0 := s.t.arrived.Load()
			b.ResetTimer()
			for i := range b.N {
				r, d := s.timedCall(b, "memory_search", map[string]any{"query": queries[i%len(queries)]})
				lat[i] = d
				if i < 200 {
					ids, _, _ := enc.Encode(r.Text)
					hs, _ := r.Structured["hits"].([]any)
					hits += len(hs)
					textTokens += len(ids)
					textBytes += len(r.Text)
				}
			}
			b.StopTimer()
			respBytes = int(s.t.arrived.Load() - arrived0)
			slices.Sort(lat)
			b.ReportMetric(benchMicros(cairntest.Percentile(lat, 50)), "p50-µs")
			b.ReportMetric(benchMicros(cairntest.Percentile(lat, 99)), "p99-µs")
			b.ReportMetric(float64(respBytes)/float64(b.N), "resp-B/op")
			if hits > 0 {
				b.ReportMetric(float64(textTokens)/float64(hits), "text-tokens/hit")
				b.ReportMetric(float64(textBytes)/float64(min(b.N, 200)), "text-B/op")
			}
			s.reportRSS(b)
		})
	}
}
