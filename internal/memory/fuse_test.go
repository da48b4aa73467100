package memory

import (
	"math"
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
