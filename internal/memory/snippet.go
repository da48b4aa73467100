package memory

import (
	"strings"
	"unicode"
)

// Snippet is the window of about n words of text that holds the most of
// the query's terms (as Terms gives them), marked with "…" where it cuts.
// Without a match it is text's first n words.
func Snippet(text string, terms []string, n int) string {
	ws := strings.Fields(text)
	if len(ws) <= n {
		return strings.Join(ws, " ")
	}
	want := make(map[string]bool, len(terms))
	for _, t := range terms {
		want[t] = true
	}
	hit := make([]int, len(ws))
	for i, w := range ws {
		for _, part := range strings.FieldsFunc(strings.ToLower(w), func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r)
		}) {
			if want[Term(part)] {
				hit[i] = 1
				break
			}
		}
	}
	best, bestAt, sum := -1, 0, 0
	for i := range ws {
		sum += hit[i]
		if i >= n {
			sum -= hit[i-n]
		}
		if i >= n-1 && sum > best {
			best, bestAt = sum, i-n+1
		}
	}
	// Start a little before the first match, so it reads in context.
	if best > 0 {
		for bestAt < len(ws)-n && hit[bestAt] == 0 {
			bestAt++
		}
		bestAt = max(0, bestAt-2)
	}
	s := strings.Join(ws[bestAt:bestAt+n], " ")
	if bestAt > 0 {
		s = "…" + s
	}
	if bestAt+n < len(ws) {
		s += "…"
	}
	return s
}
