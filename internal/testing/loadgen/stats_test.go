package loadgen

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

func TestPercentile(t *testing.T) {
	var hundred []time.Duration
	for i := 1; i <= 100; i++ {
		hundred = append(hundred, time.Duration(i))
	}
	for _, tc := range []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty", nil, 50, 0},
		{"one sample is every percentile", []time.Duration{7}, 99, 7},
		{"p50 of 1..100", hundred, 50, 50},
		{"p90 of 1..100", hundred, 90, 90},
		{"p99 of 1..100", hundred, 99, 99},
		{"p100 is the max", hundred, 100, 100},
		{"nearest rank rounds up", []time.Duration{1, 2, 3}, 50, 2},
		{"p99 of 3 samples is the max", []time.Duration{1, 2, 3}, 99, 3},
		{"p90 of 10 samples", []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 90, 9},
		{"p91 of 10 samples", []time.Duration{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 91, 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Percentile(tc.sorted, tc.p); got != tc.want {
				t.Fatalf("Percentile(%v, %v) = %v, want %v", tc.sorted, tc.p, got, tc.want)
			}
		})
	}
}

func TestSummarizeAndMerge(t *testing.T) {
	a, b := newSamples(), newSamples()
	for i := 1; i <= 50; i++ {
		a.add("get_task", time.Duration(i)*time.Millisecond, nil)
	}
	for i := 51; i <= 100; i++ {
		b.add("get_task", time.Duration(i)*time.Millisecond, nil)
	}
	b.add("create_task", 500*time.Millisecond, errors.New("boom"))
	b.add("create_task", 300*time.Millisecond, nil)

	overall, per, msgs := merge([]*samples{a, b}, 2*time.Second)
	if overall.Calls != 102 || overall.Errors != 1 || overall.PerSec != 51 || overall.Max != 500*time.Millisecond {
		t.Fatalf("overall = %+v", overall)
	}
	if len(per) != 2 || per[0].Tool != "create_task" || per[1].Tool != "get_task" {
		t.Fatalf("per tool = %+v, want create_task then get_task", per)
	}
	g := per[1]
	if g.Calls != 100 || g.Errors != 0 || g.P50 != 50*time.Millisecond || g.P90 != 90*time.Millisecond ||
		g.P99 != 99*time.Millisecond || g.Max != 100*time.Millisecond || g.Mean != 50500*time.Microsecond || g.PerSec != 50 {
		t.Fatalf("get_task = %+v", g)
	}
	c := per[0]
	if c.Calls != 2 || c.Errors != 1 || c.P50 != 300*time.Millisecond || c.Max != 500*time.Millisecond {
		t.Fatalf("create_task = %+v", c)
	}
	if len(msgs) != 1 || msgs[0] != "create_task: boom" {
		t.Fatalf("error samples = %q", msgs)
	}

	var buf bytes.Buffer
	if err := WriteTable(&buf, []Result{{Clients: 16, Elapsed: 2 * time.Second, Overall: overall, PerTool: per, ErrorMsg: msgs,
		Server: &ProcStats{CPU: 204 * time.Millisecond, RSS: 30 << 20}}}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"calls/s", "all", "102", "51", "2000" /* µs/call: 204ms/102 */, "30.0", "create_task: boom"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestParseMix(t *testing.T) {
	m, err := ParseMix(DefaultMix)
	if err != nil {
		t.Fatal(err)
	}
	if m.String() != DefaultMix {
		t.Fatalf("round trip: %q", m.String())
	}
	m, err = ParseMix(" get_task=3, get_tasks=0 ,focus_cycle=1")
	if err != nil {
		t.Fatal(err)
	}
	if m.Has(OpGetTasks) || !m.Has(OpGetTask) || m.String() != "get_task=3,focus_cycle=1" {
		t.Fatalf("mix = %q", m)
	}
	for _, tc := range []struct{ in, want string }{
		{"", "weighs nothing"},
		{"get_task=0", "weighs nothing"},
		{"get_tsk=1", `unknown operation "get_tsk"`},
		{"get_task", "has no weight"},
		{"get_task=-1", "whole number"},
		{"get_task=x", "whole number"},
		{"get_task=1,get_task=2", "weighted twice"},
	} {
		if _, err := ParseMix(tc.in); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMix(%q) = %v, want an error saying %q", tc.in, err, tc.want)
		}
	}
}

func TestProcStats(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc on this system")
	}
	pid := os.Getpid()
	t0 := time.Now()
	for x := 0; time.Since(t0) < 50*time.Millisecond; x++ {
		_ = strings.Repeat("x", x%64)
	}
	cpu, err := procCPU(pid)
	if err != nil || cpu <= 0 {
		t.Fatalf("procCPU = %v, %v; want a positive time after 50ms of work", cpu, err)
	}
	rss, peak, err := procMem(pid)
	if err != nil || rss <= 0 || peak < rss {
		t.Fatalf("procMem = %d, %d, %v; want 0 < rss <= peak", rss, peak, err)
	}
	if _, err := procCPU(-1); err == nil {
		t.Fatal("procCPU(-1): want an error")
	}
}
