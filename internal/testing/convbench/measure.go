package convbench

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"unicode"
)

// Scores are recall@5, recall@10 and MRR over some questions. Recall
// counts the share of a question's answers found (a multi-hop question with
// one of its two turns in the top 10 scores 0.5).
type Scores struct {
	N                 int
	Recall5, Recall10 float64 // sums; see Mean
	RRSum             float64
}

// Add scores one ranking (turn indexes, best first) against the answers.
func (s *Scores) Add(ranked []int, answers []int) {
	s.N++
	rel := map[int]bool{}
	for _, a := range answers {
		rel[a] = true
	}
	f5, f10, first := 0, 0, 0
	for i, id := range ranked {
		if !rel[id] {
			continue
		}
		if first == 0 {
			first = i + 1
		}
		if i < 5 {
			f5++
		}
		if i < 10 {
			f10++
		}
	}
	s.Recall5 += float64(f5) / float64(len(rel))
	s.Recall10 += float64(f10) / float64(len(rel))
	if first > 0 {
		s.RRSum += 1 / float64(first)
	}
}

// R5, R10 and MRR are the means.
func (s Scores) R5() float64  { return s.Recall5 / math.Max(1, float64(s.N)) }
func (s Scores) R10() float64 { return s.Recall10 / math.Max(1, float64(s.N)) }
func (s Scores) MRR() float64 { return s.RRSum / math.Max(1, float64(s.N)) }

func (s Scores) String() string {
	return fmt.Sprintf("recall@5 %.3f  recall@10 %.3f  MRR %.3f", s.R5(), s.R10(), s.MRR())
}

// Words splits text as the plain baseline does: lower-cased runs of
// letters and digits, nothing dropped, nothing stemmed.
func Words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// BM25 is the plain baseline: Okapi BM25 (k1 1.2, b 0.75) over each turn's
// title, text and tags as one field, any of the question's words.
type BM25 struct {
	docs  []map[string]int
	lens  []int
	df    map[string]int
	avgdl float64
}

// NewBM25 indexes a dialogue's turns.
func NewBM25(turns []Turn) *BM25 {
	b := &BM25{df: map[string]int{}}
	total := 0
	for _, t := range turns {
		ws := Words(t.Title + " " + t.Text + " " + strings.Join(t.Tags, " "))
		tf := map[string]int{}
		for _, w := range ws {
			tf[w]++
		}
		for w := range tf {
			b.df[w]++
		}
		b.docs = append(b.docs, tf)
		b.lens = append(b.lens, len(ws))
		total += len(ws)
	}
	b.avgdl = float64(total) / math.Max(1, float64(len(turns)))
	return b
}

// Search returns the indexes of the k best turns for q.
func (b *BM25) Search(q string, k int) []int {
	const k1, bb = 1.2, 0.75
	n := float64(len(b.docs))
	seen := map[string]bool{}
	scores := make([]float64, len(b.docs))
	for _, w := range Words(q) {
		if seen[w] || b.df[w] == 0 {
			continue
		}
		seen[w] = true
		df := float64(b.df[w])
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for i, d := range b.docs {
			if tf := float64(d[w]); tf > 0 {
				scores[i] += idf * tf * (k1 + 1) / (tf + k1*(1-bb+bb*float64(b.lens[i])/b.avgdl))
			}
		}
	}
	var idx []int
	for i, s := range scores {
		if s > 0 {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(i, j int) bool { return scores[idx[i]] > scores[idx[j]] })
	return idx[:min(k, len(idx))]
}
