package insight_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service/insight"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/usage"
)

var historyEnd = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// history seeds h into a new store and returns the insight service over
// it, on a clock fixed at the history's end.
func history(t *testing.T, h benchseed.HistoryShape) *insight.Service {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	h.End, h.Days = historyEnd, 25
	if err := benchseed.SeedHistory(ctx, st, h); err != nil {
		t.Fatal(err)
	}
	s := insight.New(st, insight.Options{Now: func() time.Time { return historyEnd }})
	t.Cleanup(s.Close)
	return s
}

func model(name string, pass float64) benchseed.ModelProfile {
	return benchseed.ModelProfile{Name: name, DefaultPass: pass, Unresolved: 0.1, TaskMinutes: 20, CallErrors: 0.1}
}

var phases = []benchseed.PhaseProfile{{Name: "PLAN", Median: 2 * time.Hour}, {Name: "BUILD", Median: 6 * time.Hour}, {Name: "VERIFY", Median: 2 * time.Hour}, {Name: "SHIP", Median: 2 * time.Hour}}

func within(v float64, lo, hi float64) bool { return lo <= v && v <= hi }

// planted is the history with planted differences: model-b passes its
// tests 20 points less often on frontend work, and BUILD takes three times
// as long as the other phases.
func planted(t *testing.T, seed uint64) ([]benchseed.ModelProfile, *insight.Service) {
	b := model("model-b", 0.85)
	b.Pass = map[string]float64{usage.TypeFrontend: 0.65}
	models := []benchseed.ModelProfile{model("model-a", 0.85), b, model("model-c", 0.85)}
	return models, history(t, benchseed.HistoryShape{Models: models, Sessions: 1080, Lifecycles: 60, Phases: phases, Seed: seed})
}

// coverage counts the planted values the analyses' 95% intervals hold:
// each model's pass rate on each task type and time per task, and each
// phase's median time.
func coverage(t *testing.T, models []benchseed.ModelProfile, s *insight.Service) (held, total int, misses []string) {
	ctx := context.Background()
	perf, err := s.Performance(ctx, insight.Query{})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, planted, lo, hi float64) {
		total++
		if within(planted, lo, hi) {
			held++
		} else {
			misses = append(misses, fmt.Sprintf("%s: [%.3g, %.3g] misses %.3g", what, lo, hi, planted))
		}
	}
	for _, g := range perf.Groups {
		m := models[map[string]int{"model-a": 0, "model-b": 1, "model-c": 2}[g.Key]]
		for _, ty := range []string{usage.TypeFrontend, usage.TypeBackend, usage.TypeData} {
			r := g.ByType[ty].TestPass
			check(g.Key+" "+ty+" pass rate", m.PassOn(ty), r.Lo, r.Hi)
		}
		check(g.Key+" minutes per task", 20, g.TimePerTask.Lo, g.TimePerTask.Hi)
	}
	h, err := s.Health(ctx, 30)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range h.Components {
		for _, p := range c.Phases {
			want := map[string]float64{"BUILD": 6}[p.Phase]
			if want == 0 {
				want = 2
			}
			check("phase "+p.Phase+" hours", want, p.Median.Lo, p.Median.Hi)
		}
	}
	return held, total, misses
}

// frontendDifference reports whether the frontend comparison ranks model-b
// last with every difference naming it worse by an interval that holds
// the planted 20 points.
func frontendDifference(t *testing.T, s *insight.Service) (bool, string) {
	front, err := s.Compare(context.Background(), insight.Query{TaskType: usage.TypeFrontend})
	if err != nil {
		t.Fatal(err)
	}
	tp := front.Measures[0]
	if tp.Measure != insight.MeasureTestPass || !tp.Enough || len(tp.Ranking) != 3 || tp.Ranking[2] != "model-b" || len(tp.Differences) == 0 {
		return false, fmt.Sprintf("%+v", tp)
	}
	for _, d := range tp.Differences {
		if d.Worse != "model-b" || !within(0.20, d.Diff.Lo, d.Diff.Hi) {
			return false, fmt.Sprintf("difference %+v", d)
		}
	}
	return true, ""
}

// TestPlantedDifferences: the planted history comes back as planted, on
// one history (its draws fixed by the seed): the intervals hold the
// planted values, the difference is named on frontend work and on no
// other measure or type, the recommendation avoids model-b there, the
// bottleneck is BUILD, and tool usage shows the planted errors, latency
// and sequences. TestPlantedCoverage checks the same over many draws.
func TestPlantedDifferences(t *testing.T) {
	models, s := planted(t, 4)
	ctx := context.Background()
	if held, total, misses := coverage(t, models, s); held != total {
		t.Errorf("%d of %d planted values in their intervals: %v", held, total, misses)
	}
	if ok, why := frontendDifference(t, s); !ok {
		t.Errorf("frontend test pass: %s; want model-b ranked last, worse by about 20 points", why)
	}
	front, err := s.Compare(ctx, insight.Query{TaskType: usage.TypeFrontend})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range front.Measures[1:] {
		if len(m.Differences) > 0 || len(m.Ranking) > 0 {
			t.Errorf("frontend %s: %+v, but nothing was planted there", m.Measure, m.Differences)
		}
	}
	for _, ty := range []string{usage.TypeBackend, usage.TypeData} {
		c, err := s.Compare(ctx, insight.Query{TaskType: ty})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range c.Measures {
			if len(m.Ranking) > 0 {
				t.Errorf("%s %s ranked %v, but nothing was planted there", ty, m.Measure, m.Ranking)
			}
		}
	}
	perf, err := s.Performance(ctx, insight.Query{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range perf.Groups {
		if g.FromSession != g.Sessions || g.Sessions != 360 {
			t.Errorf("%s: %d of %d sessions name their model, want all 360", g.Key, g.FromSession, g.Sessions)
		}
	}

	rec, err := s.Recommend(ctx, insight.Query{Task: "style the settings page form"})
	if err != nil {
		t.Fatal(err)
	}
	if rec.TaskType != usage.TypeFrontend || rec.Model == "model-b" {
		t.Errorf("recommendation for frontend work: %+v", rec)
	}

	h, err := s.Health(ctx, 30)
	if err != nil {
		t.Fatal(err)
	}
	if h.Bottleneck != "BUILD" {
		t.Errorf("bottleneck %q, want BUILD", h.Bottleneck)
	}
	for _, c := range h.Components {
		if c.Name == "tests" && (!c.HasData || c.N != 1080) {
			t.Errorf("tests component %+v, want all 1080 sessions", c)
		}
	}
	if h.Score <= 0 || h.Score >= 100 {
		t.Errorf("score %d", h.Score)
	}

	u, err := s.ToolUsage(ctx, 30, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	if u.Calls != 3*1080 || len(u.Tools) != 3 {
		t.Fatalf("tool usage: %d calls of %d tools, want 3240 of 3", u.Calls, len(u.Tools))
	}
	for _, ts := range u.Tools {
		if ts.Tool == "memory_search" {
			if !within(0.1, ts.Errors.Lo, ts.Errors.Hi) || ts.P50 < 6*time.Millisecond || ts.P50 > 11*time.Millisecond {
				t.Errorf("memory_search: errors %.3f [%.3f, %.3f], p50 %v; planted 10%%, 8ms", ts.Errors.P, ts.Errors.Lo, ts.Errors.Hi, ts.P50)
			}
		}
	}
	if len(u.Sequences) < 2 || u.Sequences[0].Count != 1080 {
		t.Errorf("sequences %+v, want each of the two pairs 1080 times", u.Sequences)
	}
}

// TestPlantedCoverage: over many draws of the planted history, the 95%
// intervals hold the planted values about 95% of the time (at least 88%:
// narrower intervals would fail this), and the planted difference is found
// in nearly every history (the Bonferroni level costs some power).
func TestPlantedCoverage(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("many histories: run without -short and -race")
	}
	const seeds = 10
	var held, total, found int
	for seed := uint64(100); seed < 100+seeds; seed++ {
		models, s := planted(t, seed)
		h, n, _ := coverage(t, models, s)
		held, total = held+h, total+n
		if ok, _ := frontendDifference(t, s); ok {
			found++
		}
	}
	t.Logf("coverage %d of %d (%.1f%%); difference found in %d of %d histories", held, total, 100*float64(held)/float64(total), found, seeds)
	if float64(held) < 0.88*float64(total) {
		t.Errorf("95%% intervals held the planted values %d times of %d", held, total)
	}
	if found < seeds-2 {
		t.Errorf("the planted 20-point difference was found in %d of %d histories", found, seeds)
	}
}

// TestNoDifferenceNoRanking: when every model does the same, a comparison
// ranks nothing (each is at a 95% level over all its pairs and measures,
// so over many histories a few may: at most 3 of the 24 asked here), and
// no model is recommended.
func TestNoDifferenceNoRanking(t *testing.T) {
	ranked, asked, seeds := 0, 0, uint64(8)
	if raceEnabled {
		seeds = 1
	}
	for seed := uint64(1); seed <= seeds; seed++ {
		models := []benchseed.ModelProfile{model("model-a", 0.8), model("model-b", 0.8), model("model-c", 0.8)}
		s := history(t, benchseed.HistoryShape{Models: models, Sessions: 720, Lifecycles: 30, Phases: phases[:1], Seed: seed})
		ctx := context.Background()
		for _, ty := range []string{"", usage.TypeFrontend, usage.TypeBackend} {
			c, err := s.Compare(ctx, insight.Query{TaskType: ty})
			if err != nil {
				t.Fatal(err)
			}
			asked++
			for _, m := range c.Measures {
				if !m.Enough {
					t.Errorf("seed %d, type %q, %s: not enough data in 720 sessions", seed, ty, m.Measure)
				}
				if len(m.Ranking) > 0 {
					ranked++
					t.Logf("seed %d, type %q, %s ranked %v: %+v", seed, ty, m.Measure, m.Ranking, m.Differences)
					break
				}
			}
		}
		if seed == 1 {
			rec, err := s.Recommend(ctx, insight.Query{TaskType: usage.TypeFrontend})
			if err != nil || rec.Model != "" {
				t.Errorf("recommendation %+v, %v; want an abstention", rec, err)
			}
			c, _ := s.Compare(ctx, insight.Query{})
			for _, m := range c.Measures {
				if len(m.Ranking) > 0 {
					t.Errorf("seed 1 ranks %s: %v", m.Measure, m.Ranking)
				}
			}
		}
	}
	if ranked > 3 {
		t.Errorf("%d of %d comparisons of equal models ranked them", ranked, asked)
	}
}

// TestNotEnoughData: below the minimum sample, a comparison gives the
// counts and no ranking, however different the rates.
func TestNotEnoughData(t *testing.T) {
	models := []benchseed.ModelProfile{model("model-a", 1), model("model-b", 0)}
	s := history(t, benchseed.HistoryShape{Models: models, Sessions: 12, Seed: 1})
	c, err := s.Compare(context.Background(), insight.Query{TaskType: usage.TypeBackend})
	if err != nil {
		t.Fatal(err)
	}
	tp := c.Measures[0]
	if tp.Enough || len(tp.Ranking) > 0 || tp.Sides[0].N == 0 {
		t.Errorf("12 sessions: %+v; want not enough data, with the counts", tp)
	}
}
