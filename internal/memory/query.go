package memory

import (
	"strings"
	"unicode"
)

// MaxTerms bounds how many words of a query are searched for.
const MaxTerms = 32

// stopwords are words too common to rank by; they are dropped from a query
// unless nothing else is left.
var stopwords = map[string]bool{
	"a": true, "an": true, "and": true, "are": true, "as": true, "at": true, "be": true, "by": true,
	"did": true, "do": true, "does": true, "for": true, "from": true, "has": true, "have": true,
	"how": true, "i": true, "in": true, "is": true, "it": true, "its": true, "of": true, "on": true,
	"or": true, "our": true, "that": true, "the": true, "this": true, "to": true, "was": true,
	"we": true, "what": true, "when": true, "where": true, "which": true, "why": true, "with": true,
	"you": true,
}

// Terms splits a plain-words query into the terms a full-text search looks
// for: lower-cased runs of letters and digits, stopwords dropped (unless
// they are all there is), duplicates dropped, at most MaxTerms. Query syntax
// is not interpreted, so any text is a valid query.
func Terms(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	var kept, all []string
	seen := map[string]bool{}
	for _, w := range words {
		if seen[w] {
			continue
		}
		seen[w] = true
		all = append(all, w)
		if !stopwords[w] {
			kept = append(kept, w)
		}
	}
	if len(kept) == 0 {
		kept = all
	}
	if len(kept) > MaxTerms {
		kept = kept[:MaxTerms]
	}
	return kept
}
