package e2e

// End-to-end benchmarks of the plan toolset: the real cairn binary over real
// stdio, driven by the official Go MCP SDK client (helpers in bench_test.go).
// They report numbers and assert none:
//
//	go test -run '^$' -bench '^BenchmarkPlanWorkload$' -benchtime 1x ./internal/e2e/
//	go test -run '^$' -bench '^BenchmarkPlanNextTask$' -benchtime 2000x ./internal/e2e/
//
// CAIRN_BENCH_PLAN_PROJECT picks a prepared plan project (go run ./bench/seed
// -plan DIR) instead of the cached seed; it is cloned for each run.

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/tiktoken-go/tokenizer"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/service/plan"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// planBenchProject returns a fresh copy of the seeded 10,000-task plan.
func planBenchProject(b *testing.B) string {
	b.Helper()
	src := os.Getenv("CAIRN_BENCH_PLAN_PROJECT")
	if src == "" {
		var err error
		if src, err = benchseed.CachedPlan(context.Background(), benchseed.DefaultPlan); err != nil {
			b.Fatal(err)
		}
	}
	dst := b.TempDir()
	if err := benchseed.Clone(src, dst); err != nil {
		b.Fatal(err)
	}
	return dst
}

// timedCall makes one call and returns its result and latency.
func (s *benchServer) timedCall(b *testing.B, name string, args any) (cairntest.Result, time.Duration) {
	start := time.Now()
	res := s.call(b, name, args)
	d := time.Since(start)
	r, err := cairntest.Decode(res)
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	return r, d
}

// latencies collects durations by step, in the order steps first appear.
type latencies struct {
	order []string
	by    map[string][]time.Duration
}

func (l *latencies) add(step string, d time.Duration) {
	if l.by == nil {
		l.by = map[string][]time.Duration{}
	}
	if _, ok := l.by[step]; !ok {
		l.order = append(l.order, step)
	}
	l.by[step] = append(l.by[step], d)
}

// report reports each step's p50 and p99 in µs, as STEP-p50-µs and STEP-p99-µs.
func (l *latencies) report(b *testing.B) {
	for _, step := range l.order {
		ds := slices.Clone(l.by[step])
		slices.Sort(ds)
		b.ReportMetric(benchMicros(cairntest.Percentile(ds, 50)), step+"-p50-µs")
		b.ReportMetric(benchMicros(cairntest.Percentile(ds, 99)), step+"-p99-µs")
	}
}

func nextID(b *testing.B, r cairntest.Result) string {
	t, _ := r.Structured["task"].(map[string]any)
	id, _ := t["id"].(string)
	if id == "" {
		b.Fatalf("get_next_task recommends nothing: %s", r.Text)
	}
	return id
}

var benchPriorities = []string{"critical", "high", "high", "medium", "medium", "medium", "low", "low"}

// pageSize is what one get_tasks page costs a client.
type pageSize struct {
	textBytes, structBytes, textTokens, structTokens, wireBytes int
}

func measurePage(b *testing.B, r cairntest.Result, wire int64) pageSize {
	enc, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		b.Fatalf("o200k_base tokenizer: %v", err)
	}
	count := func(s string) int {
		ids, _, err := enc.Encode(s)
		if err != nil {
			b.Fatalf("tokenize: %v", err)
		}
		return len(ids)
	}
	structured, err := json.Marshal(r.Raw.StructuredContent)
	if err != nil {
		b.Fatal(err)
	}
	return pageSize{textBytes: len(r.Text), structBytes: len(structured),
		textTokens: count(r.Text), structTokens: count(string(structured)), wireBytes: int(wire)}
}

// runPlanWorkload is one pass of the plan workload on an empty project.
func runPlanWorkload(b *testing.B, s *benchServer, lat *latencies) pageSize {
	const (
		creates = 1000
		pages   = 50
		queries = 50
		nexts   = 100
		updates = 100
	)
	rng := rand.New(rand.NewPCG(7, 7))

	// Create 1,000 tasks, each depending on 0-3 of the 50 before it.
	ids := make([]string, 0, creates)
	for i := range creates {
		var deps []string
		for range rng.IntN(4) {
			if i == 0 {
				break
			}
			if d := ids[i-1-rng.IntN(min(i, 50))]; !slices.Contains(deps, d) {
				deps = append(deps, d)
			}
		}
		args := map[string]any{"title": benchseed.PlanTitle(i), "priority": benchPriorities[rng.IntN(len(benchPriorities))]}
		if len(deps) > 0 {
			args["dependencies"] = deps
		}
		if i%3 == 0 {
			args["description"] = "Acceptance: the tests pass and the docs say how to use it."
		}
		r, d := s.timedCall(b, "create_task", args)
		lat.add("create", d)
		ids = append(ids, r.Str("id"))
	}

	// List: 50 pages of 20.
	var page pageSize
	for p := range pages {
		before := s.t.arrived.Load()
		r, d := s.timedCall(b, "get_tasks", map[string]any{"offset": p * 20})
		lat.add("list", d)
		if n := len(r.Structured["tasks"].([]any)); n != 20 {
			b.Fatalf("get_tasks page %d: %d tasks", p, n)
		}
		if p == pages/2 {
			page = measurePage(b, r, s.t.arrived.Load()-before)
		}
	}

	// Query: filters, sort and projection, in a few shapes.
	shapes := []map[string]any{
		{"filters": map[string]any{"status": "pending", "priority": []string{"critical", "high"}},
			"sort": map[string]any{"field": "priority"}, "fields": []string{"id", "title", "priority", "dependencies"}},
		{"filters": map[string]any{"priority": "medium"}, "sort": map[string]any{"field": "created", "order": "desc"},
			"fields": []string{"id", "title", "createdAt"}},
		{"filters": map[string]any{"status": []string{"pending", "in-progress"}, "createdAfter": "2000-01-01"},
			"sort": map[string]any{"field": "updated", "order": "desc"}, "fields": []string{"id", "status", "updatedAt"}},
		{"sort": map[string]any{"field": "status"}, "fields": []string{"id", "title", "status", "priority", "dependencies"}},
		{"filters": map[string]any{"priority": []string{"low"}}, "fields": []string{"id", "title", "description"}, "limit": 50},
	}
	for i := range queries {
		args := map[string]any{"offset": (i / len(shapes)) % 3 * 20}
		for k, v := range shapes[i%len(shapes)] {
			args[k] = v
		}
		_, d := s.timedCall(b, "query_tasks", args)
		lat.add("query", d)
	}

	// Next, with nothing written in between (the graph cached), after one
	// untimed call that loads it.
	s.call(b, "get_next_task", map[string]any{})
	for range nexts {
		_, d := s.timedCall(b, "get_next_task", map[string]any{})
		lat.add("next", d)
	}

	// Work the plan: complete the recommended task, or change another one's
	// priority and title; then ask again (the graph reloaded after the write).
	r := s.call(b, "get_next_task", map[string]any{})
	rec, _ := cairntest.Decode(r)
	next := nextID(b, rec)
	for i := range updates {
		args := map[string]any{"id": next, "status": "done"}
		if i%2 == 1 {
			args = map[string]any{"id": ids[rng.IntN(len(ids))], "priority": benchPriorities[rng.IntN(len(benchPriorities))],
				"title": "Revised: " + benchseed.PlanTitle(i)}
		}
		_, d := s.timedCall(b, "update_task", args)
		lat.add("update", d)
		rec, d := s.timedCall(b, "get_next_task", map[string]any{})
		lat.add("next-after-write", d)
		next = nextID(b, rec)
	}
	return page
}

// BenchmarkPlanWorkload runs the plan workload on an empty project, b.N
// times with a fresh server and project each time: create 1,000 tasks with
// dependencies (each on 0-3 earlier ones), list 50 pages (get_tasks), 50
// query_tasks (filters, sort, fields), 100 get_next_task, then 100 rounds of
// update_task followed by get_next_task. It reports each step's p50/p99, and
// the size of a get_tasks page of 20 short tasks: text content and
// structuredContent in bytes and o200k_base tokens, and the whole response
// on the wire. ns/op is one whole pass.
func BenchmarkPlanWorkload(b *testing.B) {
	cairntest.Binary(b) // build outside the timing
	var (
		lat  latencies
		page pageSize
		rss  int64
		cpu  time.Duration
		// anon and file are the resident set after the last pass
		anon, file int64
	)
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		s := startBench(b, cairntest.Project(b))
		cpu0 := benchProcCPU(b, s.cmd.Process.Pid)
		b.StartTimer()
		page = runPlanWorkload(b, s, &lat)
		b.StopTimer()
		cpu += benchProcCPU(b, s.cmd.Process.Pid) - cpu0
		rss = max(rss, s.peakRSS(b))
		anon, file = s.rssNow(b)
		s.close()
		b.StartTimer()
	}
	b.StopTimer()
	lat.report(b)
	b.ReportMetric(float64(page.textBytes), "page-text-B")
	b.ReportMetric(float64(page.textTokens), "page-text-tok")
	b.ReportMetric(float64(page.structBytes), "page-struct-B")
	b.ReportMetric(float64(page.structTokens), "page-struct-tok")
	b.ReportMetric(float64(page.wireBytes), "page-resp-B")
	b.ReportMetric(benchMicros(cpu)/1e3/float64(b.N), "server-CPU-ms/op")
	b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MB")
	b.ReportMetric(float64(anon)/(1<<20), "RSS-anon-MB")
	b.ReportMetric(float64(file)/(1<<20), "RSS-file-MB")
}

// BenchmarkPlanNextTask: get_next_task on the 10,000-task plan
// (benchseed.DefaultPlan: 14,500 dependencies, 7,000 open tasks). ns/op,
// next-p50-µs and next-p99-µs are b.N calls in a row, the graph cached
// between them; next-miss-* are b.N/10 calls (at least 50) each right after
// a write, which makes the server reload the graph. The writes alternate
// update_task (a new title) and create_task (with 0-3 dependencies), and
// their latencies at 10,000 tasks are reported too.
func BenchmarkPlanNextTask(b *testing.B) {
	s := startBench(b, planBenchProject(b))
	defer s.close()
	empty := map[string]any{}
	for range benchWarmup {
		s.call(b, "get_next_task", empty)
	}
	hits := make([]time.Duration, b.N)
	cpu0 := benchProcCPU(b, s.cmd.Process.Pid)
	b.ResetTimer()
	for i := range b.N {
		start := time.Now()
		s.call(b, "get_next_task", empty)
		hits[i] = time.Since(start)
	}
	b.StopTimer()
	cpu := benchProcCPU(b, s.cmd.Process.Pid) - cpu0

	var lat latencies
	rng := rand.New(rand.NewPCG(9, 9))
	n := benchseed.DefaultPlan.Tasks
	if os.Getenv("CAIRN_BENCH_PLAN_PROJECT") != "" {
		r, _ := s.timedCall(b, "get_task_stats", empty)
		n = int(r.Structured["total"].(float64)) // ids are 1..n in a fresh seed
	}
	for i := range max(b.N/10, 50) {
		if i%2 == 0 {
			_, d := s.timedCall(b, "update_task", map[string]any{"id": strconv.Itoa(1 + rng.IntN(n)), "title": fmt.Sprintf("Retitled %d", i)})
			lat.add("update", d)
		} else {
			var deps []string
			for range rng.IntN(4) {
				deps = append(deps, strconv.Itoa(n-rng.IntN(50)))
			}
			_, d := s.timedCall(b, "create_task", map[string]any{"title": fmt.Sprintf("Follow-up %d", i), "dependencies": deps})
			lat.add("create", d)
		}
		start := time.Now()
		s.call(b, "get_next_task", empty)
		lat.add("next-miss", time.Since(start))
	}
	slices.Sort(hits)
	b.ReportMetric(benchMicros(cairntest.Percentile(hits, 50)), "next-p50-µs")
	b.ReportMetric(benchMicros(cairntest.Percentile(hits, 99)), "next-p99-µs")
	b.ReportMetric(benchMicros(cpu)/float64(b.N), "next-server-CPU-µs/op")
	lat.report(b)
	s.reportRSS(b)
}

// openPlanBenchProject opens a copy of the 10,000-task plan in process.
func openPlanBenchProject(b *testing.B) *app.Services {
	b.Helper()
	b.Setenv("CAIRN_PROJECT_ROOT", "")
	svc, err := app.Open(context.Background(), app.Config{Dir: planBenchProject(b)})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { svc.Close() })
	return svc
}

// BenchmarkPlanInProc runs plan tool calls through the MCP server and the Go
// client in one process (mcp.NewInMemoryTransports) on the 10,000-task plan,
// for profiling:
//
//	go test -run '^$' -bench 'PlanInProc/next' -benchtime 2000x -cpuprofile cpu.prof ./internal/e2e/
//
// next calls get_next_task again and again (the graph cached); next-miss
// renames a task before each call (untimed), so each call reloads the graph.
func BenchmarkPlanInProc(b *testing.B) {
	for _, bc := range []struct {
		name, tool string
		args       map[string]any
		miss       bool
	}{
		{"next", "get_next_task", map[string]any{}, false},
		{"next-miss", "get_next_task", map[string]any{}, true},
		{"create", "create_task", map[string]any{"title": "Follow-up", "priority": "high", "dependencies": []string{"9990", "9995"}}, false},
		{"list", "get_tasks", map[string]any{"offset": 5000}, false},
		{"list-filtered", "get_tasks", map[string]any{"status": "pending", "priority": []string{"high", "critical"}}, false},
		{"query", "query_tasks", map[string]any{"filters": map[string]any{"status": "pending"},
			"sort": map[string]any{"field": "priority", "order": "desc"}, "fields": []string{"id", "title", "priority", "dependencies"}}, false},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx, cs := inProcSession(b, openPlanBenchProject(b))
			call := func(name string, args map[string]any) {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
				if err != nil || res.IsError {
					b.Fatalf("call %s: %v %v", name, err, res)
				}
			}
			for range 20 {
				call(bc.tool, bc.args)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if bc.miss {
					b.StopTimer()
					call("update_task", map[string]any{"id": strconv.Itoa(1 + i%1000), "title": fmt.Sprint("Retitled ", i)})
					b.StartTimer()
				}
				call(bc.tool, bc.args)
			}
		})
	}
}

// BenchmarkPlanService is the plan service alone on the 10,000-task plan:
// Next with the graph cached, Board reloading the graph, and Get of a task.
func BenchmarkPlanService(b *testing.B) {
	ctx := context.Background()
	b.Run("Next", func(b *testing.B) {
		p := openPlanBenchProject(b).Plan
		if _, err := p.Next(ctx, plan.NextQuery{}); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			if _, err := p.Next(ctx, plan.NextQuery{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// NextAfterWrite is get_next_task after a task changed (untimed): the
	// board catches up with the change and ranks again.
	b.Run("NextAfterWrite", func(b *testing.B) {
		p := openPlanBenchProject(b).Plan
		if _, err := p.Next(ctx, plan.NextQuery{}); err != nil {
			b.Fatal(err)
		}
		prios := []task.Priority{task.PriorityLow, task.PriorityMedium}
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			b.StopTimer()
			if _, err := p.Update(ctx, fmt.Sprint(1+i%1000), plan.Change{Priority: &prios[i%2]}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := p.Next(ctx, plan.NextQuery{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("ListPending", func(b *testing.B) {
		p := openPlanBenchProject(b).Plan
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			if _, err := p.List(ctx, plan.TaskQuery{Statuses: []string{"pending"}}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("BoardReload", func(b *testing.B) {
		svc := openPlanBenchProject(b)
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			b.StopTimer()
			// A write (here a focus move) changes the store's version.
			if err := svc.Store.Update(ctx, func(tx store.Tx) error {
				return tx.SetFocus(ctx, "bench", task.ID(1+i%1000), time.Now())
			}); err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			if _, err := svc.Plan.Board(ctx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkFocusZen is get_current_task's service call for an agent in zen
// on the 10,000-task plan: zen names the task get_next_task recommends.
func BenchmarkFocusZen(b *testing.B) {
	ctx := context.Background()
	svc := openPlanBenchProject(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		v, err := svc.Focus.Current(ctx, "zen-agent")
		if err != nil || !v.Zen || v.ZenHint.Next == nil {
			b.Fatalf("%+v %v", v.ZenHint, err)
		}
	}
}

// BenchmarkFocusComplete is complete_current_task's service call on the
// 10,000-task plan when focus moves to a sibling (the first focus rule,
// which judges the sibling's readiness).
func BenchmarkFocusComplete(b *testing.B) {
	ctx := context.Background()
	f := openPlanBenchProject(b).Focus
	const agent = "bench-complete"
	if _, err := f.CreateNewTask(ctx, agent, "bench root", ""); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		if _, err := f.CreateNewTask(ctx, agent, fmt.Sprint("left ", i), ""); err != nil {
			b.Fatal(err)
		}
		if _, err := f.ExtendCurrentTask(ctx, agent, fmt.Sprint("right ", i), ""); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		c, err := f.CompleteCurrentTask(ctx, agent, false)
		if err != nil || c.Next.Title != fmt.Sprint("left ", i) {
			b.Fatalf("%+v %v", c.Next, err)
		}
		b.StopTimer()
		if _, err := f.CompleteCurrentTask(ctx, agent, false); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
