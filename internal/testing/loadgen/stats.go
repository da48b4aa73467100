package loadgen

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"
)

// Summary is the latency distribution and error count of a set of calls.
// Percentiles are exact: nearest rank over every recorded sample.
type Summary struct {
	Tool   string        `json:"tool"` // "all" for the overall summary
	Calls  int           `json:"calls"`
	Errors int           `json:"errors"`
	PerSec float64       `json:"callsPerSec"`
	Mean   time.Duration `json:"meanNs"`
	P50    time.Duration `json:"p50Ns"`
	P90    time.Duration `json:"p90Ns"`
	P99    time.Duration `json:"p99Ns"`
	Max    time.Duration `json:"maxNs"`
}

// Percentile returns the p-th percentile (0 < p <= 100) of sorted by the
// nearest-rank method: the smallest sample such that at least p percent of
// the samples are at or below it. It returns zero for no samples.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(n)))
	rank = min(max(rank, 1), n)
	return sorted[rank-1]
}

// Summarize sorts samples in place and summarizes them; calls counted over
// elapsed give the rate. errors is how many of the calls failed (their
// latencies are among the samples: a failed call still took its time).
func Summarize(tool string, samples []time.Duration, errors int, elapsed time.Duration) Summary {
	slices.Sort(samples)
	s := Summary{Tool: tool, Calls: len(samples), Errors: errors}
	if len(samples) == 0 {
		return s
	}
	var total time.Duration
	for _, d := range samples {
		total += d
	}
	s.Mean = total / time.Duration(len(samples))
	s.P50 = Percentile(samples, 50)
	s.P90 = Percentile(samples, 90)
	s.P99 = Percentile(samples, 99)
	s.Max = samples[len(samples)-1]
	if elapsed > 0 {
		s.PerSec = float64(len(samples)) / elapsed.Seconds()
	}
	return s
}

// samples are one client's recorded calls, by tool.
type samples struct {
	lat    map[string][]time.Duration
	errors map[string]int
	errMsg []string // the first few error messages, for the report
}

func newSamples() *samples {
	return &samples{lat: make(map[string][]time.Duration), errors: make(map[string]int)}
}

const keepErrors = 5

func (s *samples) add(tool string, d time.Duration, err error) {
	s.lat[tool] = append(s.lat[tool], d)
	if err != nil {
		s.errors[tool]++
		if len(s.errMsg) < keepErrors {
			s.errMsg = append(s.errMsg, tool+": "+err.Error())
		}
	}
}

// merge summarizes every client's samples per tool (sorted by name) and
// overall.
func merge(all []*samples, elapsed time.Duration) (overall Summary, perTool []Summary, errMsgs []string) {
	lat := make(map[string][]time.Duration)
	errs := make(map[string]int)
	for _, s := range all {
		for tool, ds := range s.lat {
			lat[tool] = append(lat[tool], ds...)
		}
		for tool, n := range s.errors {
			errs[tool] += n
		}
		for _, m := range s.errMsg {
			if len(errMsgs) < keepErrors {
				errMsgs = append(errMsgs, m)
			}
		}
	}
	var every []time.Duration
	nerr := 0
	tools := make([]string, 0, len(lat))
	for tool := range lat {
		tools = append(tools, tool)
	}
	sort.Strings(tools)
	for _, tool := range tools {
		every = append(every, lat[tool]...)
		nerr += errs[tool]
		perTool = append(perTool, Summarize(tool, lat[tool], errs[tool], elapsed))
	}
	return Summarize("all", every, nerr, elapsed), perTool, errMsgs
}

// Result is what one load level measured.
type Result struct {
	Clients  int           `json:"clients"`
	Elapsed  time.Duration `json:"elapsedNs"` // from the end of warmup to the last call's answer
	Overall  Summary       `json:"overall"`
	PerTool  []Summary     `json:"perTool"`
	ErrorMsg []string      `json:"errorSamples,omitempty"`
	// WarmupErrors are failed calls during warmup, which are not recorded.
	WarmupErrors int        `json:"warmupErrors,omitempty"`
	Server       *ProcStats `json:"server,omitempty"`
	// HostLoad is the host's one-minute load average at the end of the
	// level (-1: unknown); above the CPU count, the server was starved.
	HostLoad float64 `json:"hostLoad1m"`
	CPUs     int     `json:"cpus"`
}

// ms renders a duration in milliseconds with enough digits for sub-millisecond
// latencies.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond))
}

// WriteTable prints results as a table: one overall line per level, then the
// per-tool lines, then any error samples.
func WriteTable(w io.Writer, results []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "clients\ttool\tcalls\terrors\tcalls/s\tp50 ms\tp90 ms\tp99 ms\tmax ms\tserver cpu µs/call\tserver rss MiB\t")
	line := func(clients int, s Summary, srv *ProcStats) {
		cpu, rss := "", ""
		if srv != nil {
			if s.Calls > 0 {
				cpu = fmt.Sprintf("%.0f", float64(srv.CPU.Microseconds())/float64(s.Calls))
			}
			rss = fmt.Sprintf("%.1f", float64(srv.RSS)/(1<<20))
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t%.0f\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
			clients, s.Tool, s.Calls, s.Errors, s.PerSec, ms(s.P50), ms(s.P90), ms(s.P99), ms(s.Max), cpu, rss)
	}
	for _, r := range results {
		line(r.Clients, r.Overall, r.Server)
	}
	for _, r := range results {
		for _, s := range r.PerTool {
			line(r.Clients, s, nil)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	var loads []string
	for _, r := range results {
		if r.HostLoad >= 0 && r.CPUs > 0 {
			loads = append(loads, fmt.Sprintf("%.1f at %d clients", r.HostLoad, r.Clients))
		}
	}
	if len(loads) > 0 {
		fmt.Fprintf(w, "host load average (1 min, %d CPUs): %s\n", results[0].CPUs, strings.Join(loads, ", "))
	}
	for _, r := range results {
		if r.WarmupErrors > 0 {
			fmt.Fprintf(w, "%d calls failed during warmup at %d clients\n", r.WarmupErrors, r.Clients)
		}
		if len(r.ErrorMsg) > 0 {
			fmt.Fprintf(w, "errors at %d clients (first %d): %s\n", r.Clients, len(r.ErrorMsg), strings.Join(r.ErrorMsg, " | "))
		}
	}
	return nil
}
