// Package words holds how Cairn words what it says and reads what it is
// told: a count with its noun, a clipped list, text on one line, and the
// words of a query worth matching. It is pure: no I/O.
package words

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Count words n with its noun: "1 file", "3 files".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Plural words n with the noun's own forms: "1 entry", "3 entries".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// List joins the first n items with commas and counts the rest:
// "a, b and 3 more".
func List(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return strings.Join(items[:n], ", ") + fmt.Sprintf(" and %d more", len(items)-n)
}

// OneLine flattens whitespace and clips s to n bytes on a rune boundary.
func OneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	return problem.Clip(s, n)
}

// Query returns a query's words worth matching, in order and once each:
// lower case, three letters or more, not the commonest English words. It
// is linear in the query's length, however many distinct words it has.
func Query(q string) []string { return QueryN(q, -1) }

// QueryN is Query's first n words (all of them when n < 0): it stops
// reading the query once it has them, so a caller that uses a few words
// of a long text pays for those alone.
func QueryN(q string, n int) []string {
	var (
		out  []string
		seen = map[string]bool{}
		stop = stopWords()
	)
	isWord := func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r > 127
	}
	for i := 0; i < len(q) && (n < 0 || len(out) < n); {
		r, size := utf8.DecodeRuneInString(q[i:])
		if !isWord(r) {
			i += size
			continue
		}
		j := i
		for j < len(q) {
			r, size := utf8.DecodeRuneInString(q[j:])
			if !isWord(r) {
				break
			}
			j += size
		}
		w := strings.ToLower(q[i:j])
		i = j
		if len(w) >= 3 && !stop[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// stopWords are left out of the words a query is made of: built on first
// use, not at every process start.
var stopWords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`the and for are but not you all any can had her was one our out has him his how its may new now old see two who
		did get got let put say she too use with this that from they will would there their what about which when make like time just know take
		into year your good some could them than then look only come over think also back after work first well even want because these give most
		please should does doing done have been being were here where why while again each other such very more much many can't don't i'm it's
		let's need needs want wants help fix add make lets`) {
		m[w] = true
	}
	return m
})

// Overlap is the share of words (lower case) that text holds, 0 to 1.
func Overlap(words []string, text string) float64 {
	if len(words) == 0 {
		return 0
	}
	low := strings.ToLower(text)
	n := 0
	for _, w := range words {
		if strings.Contains(low, w) {
			n++
		}
	}
	return float64(n) / float64(len(words))
}
