package board_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/board"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
)

// BenchmarkBoardPages renders the board's pages on a seeded 10,000-task plan
// (benchseed.DefaultPlan, SQLite) on the server, as a browser asks for them:
// the time to the whole HTML of a page, which is what the first paint waits
// for. "cold" opens the project and renders the plan once (the plan's board
// cache is built by that request); the others are warm. It reports
// percentiles. Baseline, on 2 shared cores
// (go test -run XXX -bench BoardPages -benchtime 20x ./internal/board/):
//
//	plan-cold   p50  66 ms   p95 147 ms
//	plan        p50  11 ms   p95  13 ms
//	outline     p50  72 ms   p95 258 ms   (200 lines of the whole outline)
//	task        p50 0.9 ms   p95  13 ms
//	loops       p50 0.1 ms   p95   4 ms
//	memory      p50 0.2 ms   p95   5 ms
func BenchmarkBoardPages(b *testing.B) {
	ctx := context.Background()
	src, err := benchseed.CachedPlan(ctx, benchseed.DefaultPlan)
	if err != nil {
		b.Fatal(err)
	}
	open := func() (*app.Services, *board.Board) {
		dst := b.TempDir()
		if err := benchseed.Clone(src, dst); err != nil {
			b.Fatal(err)
		}
		s, err := app.Open(ctx, app.Config{Root: dst})
		if err != nil {
			b.Fatal(err)
		}
		bd, err := board.New(board.Options{Services: func(context.Context, string) (*service.Set, error) { return &s.Set, nil }})
		if err != nil {
			b.Fatal(err)
		}
		return s, bd
	}
	get := func(b *testing.B, bd *board.Board, path string) time.Duration {
		req := httptest.NewRequest("GET", "/"+path, nil)
		w := httptest.NewRecorder()
		start := time.Now()
		bd.ServeHTTP(w, req, board.Access{Project: "default", Base: "/"}, path)
		d := time.Since(start)
		if w.Code != http.StatusOK {
			b.Fatalf("GET /%s: %d %s", path, w.Code, w.Body.String())
		}
		return d
	}
	report := func(b *testing.B, ds []time.Duration) {
		slices.Sort(ds)
		q := func(p float64) float64 { return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) / 1000 }
		b.ReportMetric(q(0.5), "p50-ms")
		b.ReportMetric(q(0.95), "p95-ms")
		b.ReportMetric(q(0.99), "p99-ms")
		b.ReportMetric(0, "ns/op")
	}
	b.Run("plan-cold", func(b *testing.B) {
		var ds []time.Duration
		for b.Loop() {
			b.StopTimer()
			s, bd := open()
			b.StartTimer()
			ds = append(ds, get(b, bd, "plan"))
			b.StopTimer()
			s.Close()
			b.StartTimer()
		}
		report(b, ds)
	})
	s, bd := open()
	defer s.Close()
	for _, page := range []string{"plan", "", "task/5000", "loops", "memory"} {
		name := page
		if name == "" {
			name = "outline"
		}
		if name == "task/5000" {
			name = "task"
		}
		b.Run(name, func(b *testing.B) {
			var ds []time.Duration
			for b.Loop() {
				ds = append(ds, get(b, bd, page))
			}
			report(b, ds)
		})
	}
}
