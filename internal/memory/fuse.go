package memory

import (
	"cmp"
	"slices"
	"sort"
)

// DefaultRRFK is the rank constant of reciprocal rank fusion. Sixty is the value of
// Cormack, Clarke and Büttcher's paper and what most hybrid search engines use: it
// keeps the first few ranks of one list from drowning a hit that every list agrees on.
const DefaultRRFK = 60

// Scored is an entry id with its fused score; a higher score ranks better.
type Scored struct {
	ID    int64
	Score float64
}

// Fuse merges ranked lists of ids (best first) by reciprocal rank fusion: an id scores
// the sum over the lists that hold it of 1/(k+rank), rank counting from 1. A k of zero
// or less means DefaultRRFK. An id repeated within one list counts at its best rank
// only. The result is ordered by score, best first, and by lower id on equal scores,
// so the same lists always give the same order.
func Fuse(k int, lists ...[]int64) []Scored {
	return FuseWeighted(k, nil, lists...)
}

// FuseWeighted is Fuse with a weight per list: list i's terms are multiplied by
// weights[i]. A nil weights slice weighs every list 1. Plain fusion rewards agreement
// so much that an entry only one ranking finds loses to entries both rank middling;
// weighting the more trustworthy ranking (the semantic one when the query shares few
// words with its target) is the usual remedy.
func FuseWeighted(k int, weights []float64, lists ...[]int64) []Scored {
	if weights != nil && len(weights) != len(lists) {
		panic("memory.FuseWeighted: one weight per list")
	}
	if k <= 0 {
		k = DefaultRRFK
	}
	type term struct {
		rank   int
		weight float64
	}
	ranks := make(map[int64][]term)
	for li, list := range lists {
		w := 1.0
		if weights != nil {
			w = weights[li]
		}
		seen := make(map[int64]bool, len(list))
		for i, id := range list {
			if seen[id] {
				continue
			}
			seen[id] = true
			ranks[id] = append(ranks[id], term{i + 1, w})
		}
	}
	out := make([]Scored, 0, len(ranks))
	for id, rs := range ranks {
		// Adding the terms in a fixed order makes equal rank sets give bit-identical
		// scores, whatever order the lists came in, so ties are real ties.
		slices.SortFunc(rs, func(a, b term) int {
			if a.rank != b.rank {
				return a.rank - b.rank
			}
			return cmp.Compare(a.weight, b.weight)
		})
		var score float64
		for _, r := range rs {
			score += r.weight / float64(k+r.rank)
		}
		out = append(out, Scored{ID: id, Score: score})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// FuseScores merges a full-text ranking and an embedding ranking (each
// best first, with its scores) by a convex combination of their scores:
// alpha times the full-text score over the best one's, plus 1-alpha times
// how far the similarity stands above pack (the similarity of the embedding
// ranking's last candidate) as a share of the best similarity. An entry
// missing from a list gets 0 from it. Unlike rank fusion, scores keep how
// far ahead a hit is: a best word match far above the rest stays first,
// and an embedding ranking whose similarities barely differ (a model that
// does not know the memory's language) moves little, while one whose best
// stands out (a paraphrase it recognises) counts nearly in full. The
// result is ordered by score, best first, and by lower id on equal scores.
func FuseScores(alpha float64, lexical, semantic []Scored, pack float64) []Scored {
	sc := make(map[int64]float64, len(lexical)+len(semantic))
	if len(lexical) > 0 && lexical[0].Score > 0 {
		for _, s := range lexical {
			if _, dup := sc[s.ID]; !dup {
				sc[s.ID] = alpha * s.Score / lexical[0].Score
			}
		}
	}
	if len(semantic) > 0 && semantic[0].Score > 0 {
		best := semantic[0].Score
		seen := make(map[int64]bool, len(semantic))
		for _, s := range semantic {
			if seen[s.ID] {
				continue
			}
			seen[s.ID] = true
			sc[s.ID] += (1 - alpha) * max(0, s.Score-pack) / best
		}
	}
	out := make([]Scored, 0, len(sc))
	for id, v := range sc {
		out = append(out, Scored{ID: id, Score: v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Score != out[j].Score {
			return out[i].Score > out[j].Score
		}
		return out[i].ID < out[j].ID
	})
	return out
}
