package words

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// queryRef is Query as it was written first: lower the whole text, split it
// on what is not a word character, keep each new word worth matching.
func queryRef(q string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(q), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r > 127)
	}) {
		if len(w) >= 3 && !stopWords()[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

func TestQueryNReadsWordsAsQueryDid(t *testing.T) {
	pieces := []string{"Database", "busy", "timeout", "the", "FIX", "naïve", "Überall", "go-sqlite", "x_y", "ab", "a",
		" ", "  ", ",", ".", "\n", "é", "日本語", "42", "sqlite3", "--", "don't"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			if rng.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		q := b.String()
		want := queryRef(q)
		if got := Query(q); !slices.Equal(got, want) {
			t.Fatalf("Query(%q) = %q, want %q", q, got, want)
		}
		if got := QueryN(q, 3); !slices.Equal(got, want[:min(3, len(want))]) {
			t.Fatalf("QueryN(%q, 3) = %q, want %q", q, got, want[:min(3, len(want))])
		}
	}
}

// TestQueryNStopsReading: the words past the first n are not read, however
// long the text; a long prompt of distinct words costs what its first
// words cost.
func TestQueryNStopsReading(t *testing.T) {
	q := "alpha beta gamma" + strings.Repeat(" Delta", 100_000) // each Delta read would allocate its lower case
	allocs := testing.AllocsPerRun(5, func() { QueryN(q, 3) })
	if allocs > 20 {
		t.Fatalf("QueryN(q, 3) made %.0f allocations: it read past its third word", allocs)
	}
}
