package memory

import (
	"regexp"
	"sort"
)

// TEMPORARY until the redaction and fusion files land.

type Redactions struct{ Total int }

var privRe = regexp.MustCompile(`(?is)<private>.*?(</private>|$)`)

func Redact(s string) (string, Redactions) {
	n := len(privRe.FindAllStringIndex(s, -1))
	return privRe.ReplaceAllString(s, ""), Redactions{Total: n}
}

type Fused struct {
	ID    int64
	Score float64
}

func Fuse(k int, lists ...[]int64) []Fused {
	m := map[int64]float64{}
	for _, l := range lists {
		for i, id := range l {
			m[id] += 1 / float64(k+i+1)
		}
	}
	out := make([]Fused, 0, len(m))
	for id, s := range m {
		out = append(out, Fused{id, s})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	return out
}
