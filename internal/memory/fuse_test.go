package memory

import (
	"math"
	"slices"
	"testing"
)

func TestFuse(t *testing.T) {
	tests := []struct {
		name  string
		k     int
		lists [][]int64
		want  []Scored
	}{
		{
			name:  "two lists, k=60",
			k:     60,
			lists: [][]int64{{1, 2, 3}, {3, 1, 4}},
			// 1: 1/61+1/62, 3: 1/61+1/63, 2: 1/62, 4: 1/63.
			want: []Scored{{1, 0.032522474}, {3, 0.032266458}, {2, 0.016129032}, {4, 0.015873016}},
		},
		{
			name:  "k of zero means the default",
			k:     0,
			lists: [][]int64{{10}, {20, 10}},
			want:  []Scored{{10, 1.0/61 + 1.0/62}, {20, 1.0 / 61}},
		},
		{
			name:  "small k favours the top ranks",
			k:     1,
			lists: [][]int64{{1}, {2, 1}},
			// 1: 1/2+1/3, 2: 1/2.
			want: []Scored{{1, 0.833333333}, {2, 0.5}},
		},
		{
			name:  "equal scores: lower id first",
			k:     60,
			lists: [][]int64{{7, 5}, {5, 7}},
			want:  []Scored{{5, 1.0/61 + 1.0/62}, {7, 1.0/61 + 1.0/62}},
		},
		{
			name:  "three-way tie in any list order",
			k:     60,
			lists: [][]int64{{3, 2, 1}, {1, 3, 2}, {2, 1, 3}},
			want:  []Scored{{1, 1.0/61 + 1.0/62 + 1.0/63}, {2, 1.0/61 + 1.0/62 + 1.0/63}, {3, 1.0/61 + 1.0/62 + 1.0/63}},
		},
		{
			name:  "an id repeated in one list counts at its best rank",
			k:     60,
			lists: [][]int64{{9, 9, 8}},
			want:  []Scored{{9, 1.0 / 61}, {8, 1.0 / 63}},
		},
		{
			name:  "one list keeps its order",
			k:     60,
			lists: [][]int64{{42, 7, 100}},
			want:  []Scored{{42, 1.0 / 61}, {7, 1.0 / 62}, {100, 1.0 / 63}},
		},
		{
			name:  "an empty list adds nothing",
			k:     60,
			lists: [][]int64{{}, {4, 2}},
			want:  []Scored{{4, 1.0 / 61}, {2, 1.0 / 62}},
		},
		{name: "no lists", k: 60, lists: nil, want: []Scored{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Fuse(tt.k, tt.lists...)
			if len(got) != len(tt.want) {
				t.Fatalf("Fuse = %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i].ID != tt.want[i].ID || math.Abs(got[i].Score-tt.want[i].Score) > 1e-9 {
					t.Fatalf("Fuse = %v, want %v (differs at %d)", got, tt.want, i)
				}
			}
		})
	}
}

// Ties must be exact, not merely close: otherwise the order of the input lists would
// decide which of two equally ranked entries comes first.
func TestFuse_TiesAreExact(t *testing.T) {
	a := Fuse(60, []int64{1, 2, 3, 4}, []int64{4, 3, 2, 1}, []int64{2, 4, 1, 3})
	b := Fuse(60, []int64{2, 4, 1, 3}, []int64{1, 2, 3, 4}, []int64{4, 3, 2, 1})
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("list order changed the result:\n%v\n%v", a, b)
		}
	}
}

func BenchmarkFuse(b *testing.B) {
	bm25 := make([]int64, 100)
	vec := make([]int64, 100)
	for i := range bm25 {
		bm25[i] = int64(i)
		vec[i] = int64(150 - i)
	}
	for b.Loop() {
		Fuse(DefaultRRFK, bm25, vec)
	}
}

func TestFuseWeighted(t *testing.T) {
	// 1: 0.5/61 + 1/62 = 0.024326, 2: 0.5/62 + 1/61 = 0.024458, 3: 1/63 = 0.015873.
	got := FuseWeighted(60, []float64{0.5, 1}, []int64{1, 2}, []int64{2, 1, 3})
	want := []Scored{{2, 0.5/62 + 1.0/61}, {1, 0.5/61 + 1.0/62}, {3, 1.0 / 63}}
	if len(got) != len(want) {
		t.Fatalf("FuseWeighted = %v, want %v", got, want)
	}
	for i := range got {
		if got[i].ID != want[i].ID || math.Abs(got[i].Score-want[i].Score) > 1e-12 {
			t.Fatalf("FuseWeighted = %v, want %v", got, want)
		}
	}
	// Equal weights are plain fusion.
	a := FuseWeighted(60, []float64{1, 1}, []int64{4, 5, 6}, []int64{6, 4})
	b := Fuse(60, []int64{4, 5, 6}, []int64{6, 4})
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("weights of 1: %v, plain: %v", a, b)
		}
	}
	// A zero weight drops a list's say entirely.
	if got := FuseWeighted(60, []float64{0, 1}, []int64{9}, []int64{8}); got[0].ID != 8 || got[1].Score != 0 {
		t.Fatalf("zero weight: %v", got)
	}
}

func TestFuseWeighted_OneWeightPerList(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for two weights and one list")
		}
	}()
	FuseWeighted(60, []float64{1, 1}, []int64{1})
}

// TestFuseScores: full-text scores count over the best one's,
// similarities by how far they stand above the pack as a share of the
// best; alpha moves the balance, and an entry in both lists adds both.
func TestFuseScores(t *testing.T) {
	lexical := []Scored{{1, 10}, {2, 5}}
	semantic := []Scored{{3, 0.9}, {2, 0.5}, {4, 0.1}}
	ids := func(s []Scored) []int64 {
		var out []int64
		for _, x := range s {
			out = append(out, x.ID)
		}
		return out
	}
	for _, c := range []struct {
		alpha float64
		want  []int64
	}{{0.7, []int64{1, 2, 3, 4}}, {0.2, []int64{3, 2, 1, 4}}, {1, []int64{1, 2, 3, 4}}} {
		got := FuseScores(c.alpha, lexical, semantic, 0.1)
		if !slices.Equal(ids(got), c.want) {
			t.Errorf("alpha %v: %v, want ids %v", c.alpha, got, c.want)
		}
	}
	// alpha 0.7: entry 2 has half the best full-text score and stands 0.4
	// above the pack, of the best's 0.9.
	if got := FuseScores(0.7, lexical, semantic, 0.1); math.Abs(got[1].Score-(0.7*0.5+0.3*0.4/0.9)) > 1e-12 {
		t.Errorf("entry 2 scores %v, want %v", got[1].Score, 0.7*0.5+0.3*0.4/0.9)
	}
	// Similarities that do not stand out from the pack add nothing; from a
	// pack at zero, the best counts in full.
	flat := []Scored{{7, 0.3}, {8, 0.3}}
	if got := FuseScores(0.5, lexical, flat, 0.3); !slices.Equal(ids(got), []int64{1, 2, 7, 8}) || got[2].Score != 0 {
		t.Errorf("similarities level with the pack: %v, want them last at 0", got)
	}
	if got := FuseScores(0.5, nil, flat, 0); got[0].Score != 0.5 || got[1].Score != 0.5 || got[0].ID != 7 {
		t.Errorf("a pack at zero: %v, want 7 and 8 at 0.5", got)
	}
	if got := FuseScores(0.5, nil, nil, 0); len(got) != 0 {
		t.Errorf("no lists: %v", got)
	}
}
