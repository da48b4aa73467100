package usage

import (
	"math"
	"testing"
	"time"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{8, 10, 0.4902, 0.9433}, // textbook values
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
		{50, 100, 0.4038, 0.5962},
	} {
		r := Wilson(tc.k, tc.n)
		if !near(r.Lo, tc.lo, 5e-4) || !near(r.Hi, tc.hi, 5e-4) {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tc.k, tc.n, r.Lo, r.Hi, tc.lo, tc.hi)
		}
	}
	if r := Wilson(0, 0); r != (Rate{}) {
		t.Errorf("Wilson(0, 0) = %+v", r)
	}
}

func TestDiff(t *testing.T) {
	// Newcombe (1998), method 10, example: 56/70 vs 48/80 gives
	// 0.2 [0.0524, 0.3339].
	d := DiffOf(Wilson(56, 70), Wilson(48, 80), ZFor(0.05))
	if !near(d.D, 0.2, 1e-9) || !near(d.Lo, 0.0524, 5e-4) || !near(d.Hi, 0.3339, 5e-4) || !d.Separated() {
		t.Errorf("Newcombe's example: %+v, want 0.2 [0.0524, 0.3339]", d)
	}
	if z := ZFor(0.05); !near(z, 1.95996, 1e-4) {
		t.Errorf("ZFor(0.05) = %v", z)
	}
}

func TestMedian(t *testing.T) {
	var xs []float64
	for i := 1; i <= 100; i++ {
		xs = append(xs, float64(i))
	}
	m := MedianOf(xs)
	// Ranks 40 and 61 (1-based) bound a 95% interval for n = 100.
	if m.Mid != 50.5 || m.Lo != 41 || m.Hi != 60 {
		t.Errorf("median of 1..100 = %+v", m)
	}
	if m := MedianOf([]float64{3}); m.Mid != 3 || m.Lo != 3 || m.Hi != 3 {
		t.Errorf("median of one value = %+v", m)
	}
}

func TestHist(t *testing.T) {
	var h Hist
	for i := 1; i <= 1000; i++ {
		h.Add(time.Duration(i) * time.Microsecond * 10) // 10µs .. 10ms
	}
	for _, q := range []float64{0.5, 0.95} {
		exact := float64(q * 10000)
		got := float64(h.Quantile(q).Microseconds())
		if got < exact/math.Sqrt2-1 || got > exact*math.Sqrt2+1 {
			t.Errorf("Quantile(%v) = %vµs, want within √2 of %vµs", q, got, exact)
		}
	}
	if back := ParseHist(h.String()); back != h {
		t.Errorf("ParseHist(String()) = %v, want %v", back, h)
	}
	if Bucket(0) != 0 || Bucket(time.Hour) != Buckets-1 {
		t.Error("bucket bounds")
	}
}

func TestRollUp(t *testing.T) {
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	es := []Event{
		{At: day.Add(time.Hour), Kind: KindCall, Name: "a", Outcome: OK, Duration: time.Millisecond, Bytes: 10},
		{At: day.Add(2 * time.Hour), Kind: KindCall, Name: "a", Outcome: OK, Duration: 3 * time.Millisecond, Bytes: 20},
		{At: day.Add(25 * time.Hour), Kind: KindCall, Name: "a", Outcome: OK},
		{At: day.Add(3 * time.Hour), Kind: KindCall, Name: "a", Outcome: "invalid_argument"},
	}
	ds := RollUp(es)
	if len(ds) != 3 || ds[1].Count != 2 || ds[1].Duration != 4*time.Millisecond || ds[1].Bytes != 30 || ds[0].Outcome != "invalid_argument" || !ds[2].Day.Equal(day.AddDate(0, 0, 1)) {
		t.Errorf("RollUp = %+v", ds)
	}
}

func TestTaskType(t *testing.T) {
	for text, want := range map[string]string{
		"Fix the layout of the login form component": TypeFrontend,
		"Add the refresh endpoint to the auth API":   TypeBackend,
		"Write the migration for the orders table":   TypeData,
		"Speed up the Dockerfile build in CI":        TypeInfra,
		"Update the README":                          TypeDocs,
		"Fix the flaky e2e test":                     TypeTests,
		"think about it":                             TypeOther,
	} {
		if got := TaskType(text); got != want {
			t.Errorf("TaskType(%q) = %s, want %s", text, got, want)
		}
	}
}
