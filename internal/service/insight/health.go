package insight

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cairn-dev/cairn/internal/lifecycle"
	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
	"github.com/cairn-dev/cairn/internal/usage"
)

// HealthComponents are project_health's components, in order, with their
// default weights; the project's [insight.health_weights] changes them.
var HealthComponents = []struct {
	Name   string
	Weight float64
}{{"tests", 3}, {"failures", 2}, {"mistakes", 1}, {"memory", 1}, {"plan", 1}, {"loops", 1}, {"lifecycle", 1}, {"checks", 2}, {"tools", 1}, {"feedback", 2}, {"reverts", 1}}

// Component is one part of the health score.
type Component struct {
	Name   string
	Weight float64
	// Score is 0 (bad) to 1 (good); HasData is false when nothing measures
	// it yet (it is left out of the score, and says so).
	Score   float64
	HasData bool
	// Value is the measure the score is made from, with its sample (N).
	Value float64
	N     int
	// Prev is the same measure over the window before, for the trend
	// (HasPrev false when it has no time window or no data then); Trend
	// says "better", "worse" or "steady" (no change the sample can show).
	Prev    float64
	HasPrev bool
	Trend   string
	// Detail says what the value is and what it is made from.
	Detail string
	// Phases, for lifecycle: the median time spent in each phase.
	Phases []PhaseTime
}

// PhaseTime is a lifecycle phase's median duration, in hours, with its
// interval, over the transitions out of it.
type PhaseTime struct {
	Phase  string
	Median usage.Median
}

// Health is project_health's answer.
type Health struct {
	Days       int
	Score      int // 0 to 100
	Components []Component
	// Bottleneck is the lifecycle phase whose median time is longest and
	// clearly (intervals apart) longer than every other's, among phases
	// with the minimum sample; "" if none.
	Bottleneck string
}

// Health scores the project from its components over the window.
func (s *Service) Health(ctx context.Context, days int) (Health, error) {
	q := Query{Days: days}
	if err := q.clean(); err != nil {
		return Health{}, err
	}
	if err := s.Flush(ctx); err != nil {
		return Health{}, err
	}
	w := s.window(q.Days)
	h := Health{Days: q.Days}
	err := s.st.View(ctx, func(tx store.Tx) error {
		cur, err := s.facts(ctx, tx, w)
		if err != nil {
			return err
		}
		prev, err := s.facts(ctx, tx, w.previous())
		if err != nil {
			return err
		}
		calls, _, err := tx.Usage(ctx, store.UsageQuery{Since: w.previous().since, Before: w.until, Kinds: []usage.Kind{usage.KindCall, usage.KindCheck}})
		if err != nil {
			return err
		}
		mc, mp := measure(cur, usage.ZFor(0.05)), measure(prev, usage.ZFor(0.05))
		add := func(c Component) { h.Components = append(h.Components, c) }
		add(rateComponent("tests", mc.TestPass, mp.TestPass, true, "sessions whose tests passed at their end"))
		add(rateComponent("failures", mc.Failure, mp.Failure, false, "sessions that left a failed command unresolved"))
		comps, err := s.storeComponents(ctx, tx, w)
		if err != nil {
			return err
		}
		for _, c := range comps {
			add(c)
			if c.Name == "lifecycle" {
				h.Bottleneck = bottleneck(c.Phases, s.opts.MinSample)
			}
		}
		cc, cp := eventRate(calls, w, usage.KindCheck), eventRate(calls, w.previous(), usage.KindCheck)
		add(rateComponent("checks", cc, cp, false, "check runs (hands) that found problems"))
		tc, tp := eventRate(calls, w, usage.KindCall), eventRate(calls, w.previous(), usage.KindCall)
		add(rateComponent("tools", tc, tp, false, "tool calls that ended in an error"))
		fc, fp := feedbackRate(mc.Feedback), feedbackRate(mp.Feedback)
		f := rateComponent("feedback", fc, fp, true, "ratings good (feedback tool, cairn feedback)")
		if fc.N > 0 {
			f.Detail += fmt.Sprintf(": sessions %d good, %d bad; answers %d good, %d bad", mc.Feedback.Good, mc.Feedback.Bad, mc.Feedback.AnswersGood, mc.Feedback.AnswersBad)
		}
		add(f)
		r := rateComponent("reverts", mc.Revert, mp.Revert, false, "sessions that reverted work")
		if mc.Revert.K > 0 {
			r.Detail += fmt.Sprintf(" (%d commits reverted, %d edits undone, the rest tasks reopened)", mc.Commits, mc.Edits)
		}
		add(r)
		return nil
	})
	if err != nil {
		return Health{}, fmt.Errorf("project health: %w", err)
	}
	var sum, weights float64
	for i := range h.Components {
		c := &h.Components[i]
		c.Weight = s.weight(c.Name)
		if c.HasData && c.Weight > 0 {
			sum, weights = sum+c.Weight*c.Score, weights+c.Weight
		}
	}
	if weights > 0 {
		h.Score = int(100*sum/weights + 0.5)
	}
	return h, nil
}

func (s *Service) weight(name string) float64 {
	if w, ok := s.opts.Weights[name]; ok {
		return w
	}
	for _, c := range HealthComponents {
		if c.Name == name {
			return c.Weight
		}
	}
	return 0
}

// rateComponent scores a rate: itself when higher is better, else its
// complement.
func rateComponent(name string, cur, prev usage.Rate, higher bool, what string) Component {
	c := Component{Name: name, HasData: cur.N > 0, Value: cur.P, N: cur.N, Prev: prev.P, HasPrev: prev.N > 0 && cur.N > 0,
		Detail: fmt.Sprintf("%d of %d %s", cur.K, cur.N, what)}
	c.Score = cur.P
	if !higher {
		c.Score = 1 - cur.P
	}
	if !c.HasData {
		c.Detail = "no data yet"
	}
	c.Trend = "steady"
	if c.HasPrev {
		if d := usage.DiffOf(cur, prev, usage.ZFor(0.05)); d.Separated() {
			if (d.D > 0) == higher {
				c.Trend = "better"
			} else {
				c.Trend = "worse"
			}
		}
	} else {
		c.Trend = "n/a"
	}
	return c
}

// feedbackRate is the share of ratings that were good.
func feedbackRate(c FeedbackCounts) usage.Rate {
	return usage.Wilson(c.Good+c.AnswersGood, c.Total())
}

// eventRate is the share of events of kind k in w that failed.
func eventRate(es []usage.Event, w window, k usage.Kind) usage.Rate {
	var n, bad int
	for _, e := range es {
		if e.Kind == k && !e.At.Before(w.since) && e.At.Before(w.until) {
			n++
			if e.Failed() {
				bad++
			}
		}
	}
	return usage.Wilson(bad, n)
}

// storeComponents are the components read from the project's state rather
// than its sessions: memory, plan, loops, lifecycles.
func (s *Service) storeComponents(ctx context.Context, tx store.Tx, w window) ([]Component, error) {
	var out []Component
	// Recurring mistakes: mistakes recorded more than once.
	mistakes, _, err := tx.SelectMemories(ctx, store.MemorySelector{Types: []memory.Type{memory.Mistake}, SkipCount: true})
	if err != nil {
		return nil, err
	}
	recurring := 0
	for _, m := range mistakes {
		if m.Occurrences > 1 {
			recurring++
		}
	}
	out = append(out, stateComponent("mistakes", recurring, len(mistakes), "mistakes that recurred (recorded again after the first time)"))
	// Stale and superseded memory.
	total, err := store.CountMemories(ctx, tx, store.MemorySelector{})
	if err != nil {
		return nil, err
	}
	current, err := store.CountMemories(ctx, tx, store.MemorySelector{HideSuperseded: true, Now: w.until})
	if err != nil {
		return nil, err
	}
	out = append(out, stateComponent("memory", total-current, total, "memory entries superseded or expired"))
	// Blocked plan work.
	// Two counts (a page of one row each), not the whole plan read.
	_, open, err := tx.Query(ctx, store.Query{Statuses: task.OpenStatuses, Limit: 1})
	if err != nil {
		return nil, err
	}
	_, blocked, err := tx.Query(ctx, store.Query{Statuses: []task.Status{task.StatusBlocked}, Limit: 1})
	if err != nil {
		return nil, err
	}
	out = append(out, stateComponent("plan", blocked, open, "open tasks blocked"))
	// Loops that failed, of those finished.
	loops, err := tx.Loops(ctx, 0)
	if err != nil {
		return nil, err
	}
	var finished, failed int
	for _, l := range loops {
		var st loop.State
		if json.Unmarshal(l.State, &st) != nil || !st.Finished() || st.Status == loop.Cancelled {
			continue
		}
		finished++
		if st.Status == loop.Failed {
			failed++
		}
	}
	out = append(out, stateComponent("loops", failed, finished, "finished loops that failed"))
	lc, err := lifecycleComponent(ctx, tx)
	if err != nil {
		return nil, err
	}
	return append(out, lc), nil
}

// stateComponent scores a share of bad things (bad of n) as 1 - share.
func stateComponent(name string, bad, n int, what string) Component {
	r := usage.Wilson(bad, n)
	c := Component{Name: name, HasData: n > 0, Value: r.P, N: n, Score: 1 - r.P, Trend: "n/a",
		Detail: fmt.Sprintf("%d of %d %s", bad, n, what)}
	if n == 0 {
		c.Detail = "no data yet"
	}
	return c
}

// lifecycleComponent scores lifecycles by their loop-backs (transitions
// back to an earlier phase) and lists the median time in each phase.
func lifecycleComponent(ctx context.Context, tx store.Tx) (Component, error) {
	ls, _, err := tx.Lifecycles(ctx, store.LifecycleQuery{})
	if err != nil {
		return Component{}, err
	}
	spent := map[string][]float64{}
	var order []string
	var transitions, back int
	for _, l := range ls {
		var st lifecycle.State
		if len(l.State) == 0 || json.Unmarshal(l.State, &st) != nil {
			continue
		}
		for _, t := range st.History {
			transitions++
			if t.Back {
				back++
			}
			if _, ok := spent[t.From]; !ok {
				order = append(order, t.From)
			}
			spent[t.From] = append(spent[t.From], t.Spent.Hours())
		}
	}
	c := stateComponent("lifecycle", back, transitions, "phase changes that looped back")
	for _, p := range order {
		c.Phases = append(c.Phases, PhaseTime{Phase: p, Median: usage.MedianOf(spent[p])})
	}
	return c, nil
}

// bottleneck is the phase whose median is longest and whose interval lies
// above every other phase's, among the phases left at least minSample
// times.
func bottleneck(all []PhaseTime, minSample int) string {
	var ps []PhaseTime
	for _, p := range all {
		if p.Median.N >= minSample {
			ps = append(ps, p)
		}
	}
	if len(ps) < 2 {
		return ""
	}
	i := 0
	for j, p := range ps {
		if p.Median.Mid > ps[i].Median.Mid {
			i = j
		}
	}
	if !slices.ContainsFunc(ps, func(p PhaseTime) bool { return p.Phase != ps[i].Phase && !(p.Median.Hi < ps[i].Median.Lo) }) {
		return ps[i].Phase
	}
	return ""
}
