package insight

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/usage"
)

// ToolStat is one tool's calls over the window.
type ToolStat struct {
	Tool     string
	Toolset  string
	Calls    int
	Errors   usage.Rate
	P50, P95 time.Duration
	Bytes    int64 // the answers' mean size
	Agents   int   // how many agents called it
	// Retried counts the answers that succeeded but were retried at once
	// with other arguments; Bad is errored and retried answers of all
	// (AnswerDerivation; raw events only: the daily aggregates keep no
	// order).
	Retried int
	Bad     usage.Rate
}

// Sequence is two tools called one after the other by the same session
// (or agent), and how often.
type Sequence struct {
	From, To string
	Count    int
}

// ToolUsage is tool_usage's answer.
type ToolUsage struct {
	Days      int
	Calls     int
	Tools     []ToolStat // most called first
	Sequences []Sequence // most frequent first
	ByClient  map[string]int
	// Recorded and Dropped are this process's recorder's counters: drops
	// mean the store could not keep up.
	Recorded, Dropped int64
	// RolledUp says part of the window was read from daily aggregates
	// (older than the retention): latencies there are from histograms,
	// within a factor of √2, and they have no sequences.
	RolledUp bool
}

// maxSequenceGap is the longest pause between two calls that still makes
// them a sequence.
const maxSequenceGap = 10 * time.Minute

// MaxTop is the most tools a tool usage lists.
const MaxTop = 50

// ToolUsage reads which tools are called, how often, by whom, how well and
// how fast, over the window (tool, when set, only that tool): the top most
// called (0: every one).
func (s *Service) ToolUsage(ctx context.Context, days int, tool string, top int) (ToolUsage, error) {
	q := Query{Days: days}
	if err := q.clean(); err != nil {
		return ToolUsage{}, err
	}
	if top < 0 || top > MaxTop {
		return ToolUsage{}, &problem.FieldError{Field: "top", Problem: fmt.Sprintf("is %d", top), Fix: fmt.Sprintf("use 1 to %d", MaxTop)}
	}
	if err := s.Flush(ctx); err != nil {
		return ToolUsage{}, err
	}
	w := s.window(q.Days)
	var (
		es     []usage.Event
		rolled []usage.Day
	)
	err := s.st.View(ctx, func(tx store.Tx) (err error) {
		kinds := []usage.Kind{usage.KindCall}
		if es, _, err = tx.Usage(ctx, store.UsageQuery{Since: w.since, Before: w.until, Kinds: kinds}); err != nil {
			return err
		}
		_, rolled, err = tx.Usage(ctx, store.UsageQuery{Since: usage.DayOf(w.since), Before: w.until, Kinds: kinds, Days: true})
		return err
	})
	if err != nil {
		return ToolUsage{}, fmt.Errorf("tool usage: %w", err)
	}
	c := s.Counts()
	out := ToolUsage{Days: q.Days, ByClient: map[string]int{}, Recorded: c.Recorded, Dropped: c.Dropped, RolledUp: len(rolled) > 0}
	type acc struct {
		ToolStat
		bad     int
		answers Answers
		durs    []float64
		hist    usage.Hist
		agents  map[string]bool
	}
	byTool := map[string]*acc{}
	get := func(name, ts string) *acc {
		a := byTool[name]
		if a == nil {
			a = &acc{ToolStat: ToolStat{Tool: name, Toolset: ts}, agents: map[string]bool{}}
			byTool[name] = a
		}
		return a
	}
	qs := qualities(es)
	for i, e := range es {
		if tool != "" && e.Name != tool {
			continue
		}
		a := get(e.Name, e.Toolset)
		a.answers.count(qs[i])
		a.Calls++
		a.Bytes += int64(e.Bytes)
		a.durs = append(a.durs, float64(e.Duration))
		a.hist.Add(e.Duration)
		a.agents[e.Agent] = true
		if e.Failed() {
			a.bad++
		}
		out.ByClient[cmp.Or(e.Client, usage.Unknown)]++
	}
	for _, d := range rolled {
		if tool != "" && d.Name != tool {
			continue
		}
		a := get(d.Name, d.Toolset)
		a.Calls += d.Count
		a.Bytes += d.Bytes
		a.hist.Merge(d.Hist)
		a.agents[d.Agent] = true
		if d.Outcome != usage.OK {
			a.bad += d.Count
		}
		out.ByClient[cmp.Or(d.Client, usage.Unknown)] += d.Count
	}
	for _, a := range byTool {
		st := a.ToolStat
		st.Errors, st.Agents = usage.Wilson(a.bad, a.Calls), len(a.agents)
		st.Retried, st.Bad = a.answers.Retried, a.answers.Rate(usage.ZFor(0.05))
		if a.Calls > 0 {
			st.Bytes /= int64(a.Calls)
		}
		if len(a.durs) == a.Calls { // all raw: exact
			slices.Sort(a.durs)
			st.P50, st.P95 = time.Duration(usage.Quantile(a.durs, 0.5)), time.Duration(usage.Quantile(a.durs, 0.95))
		} else {
			st.P50, st.P95 = a.hist.Quantile(0.5), a.hist.Quantile(0.95)
		}
		out.Calls += st.Calls
		out.Tools = append(out.Tools, st)
	}
	slices.SortFunc(out.Tools, func(a, b ToolStat) int { return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Tool, b.Tool)) })
	if top > 0 && len(out.Tools) > top {
		out.Tools = out.Tools[:top]
	}
	if tool == "" {
		out.Sequences = sequences(es, 5)
	}
	return out, nil
}

// sequences counts consecutive calls of one caller (its session, else its
// agent and client) no more than maxSequenceGap apart: the top n pairs.
func sequences(es []usage.Event, n int) []Sequence {
	last := map[string]usage.Event{}
	counts := map[[2]string]int{}
	for _, e := range es { // oldest first
		who := "a:" + e.Agent + "/" + e.Client
		if e.Session != 0 {
			who = "s:" + strconv.FormatInt(e.Session, 10)
		}
		if p, ok := last[who]; ok && e.At.Sub(p.At) <= maxSequenceGap {
			counts[[2]string{p.Name, e.Name}]++
		}
		last[who] = e
	}
	var out []Sequence
	for k, c := range counts {
		if c > 1 {
			out = append(out, Sequence{From: k[0], To: k[1], Count: c})
		}
	}
	slices.SortFunc(out, func(a, b Sequence) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
	return out[:min(n, len(out))]
}
