package memory

import (
	"strings"
	"sync"
	"unicode"
)

// MaxTerms bounds how many words of a query are searched for.
const MaxTerms = 32

// AnalyzerVersion changes whenever Tokens would split, fold or stem any text
// differently, or the index holds other words (3: the entry before's
// words, see rank.Context; 4: a dialogue's two turns before; 5: irregular
// plurals, family and photo words, see irregular; 6: dialogues whose
// speakers are in the titles; 7: answer cues, see Cues, and turn ids such as
// "D1:3" before a speaker left out); an index built by
// another version is rebuilt.
const AnalyzerVersion = 7

// stopwords are words too common to rank by, and the leftovers of
// contractions and possessives ("Caroline's" splits into "caroline" and
// "s"). Neither the index nor a query holds them: a question's "when did
// she…" would otherwise match every entry.
//
// Built on first use, not at every process start.
var stopwords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an and are as at be been being but by can could did do does doing done she
		for from had has have having he her hers herself him himself his how i if in into is it its itself
		me my myself no nor not of off on once only or our ours so some such than that the their theirs them
		then there these they this those to too us very was we were what when where which while who whom
		whose why will with would you your yours s t d ll m re ve don didn doesn isn wasn`) {
		m[w] = true
	}
	return m
})

// numberWords are spelled numbers, indexed and searched as digits so "ten"
// finds "10" and the other way round.
var numberWords = map[string]string{
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
	"eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12", "thirteen": "13", "fourteen": "14",
	"fifteen": "15", "sixteen": "16", "seventeen": "17", "eighteen": "18", "nineteen": "19", "twenty": "20",
	"thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "seventy": "70", "eighty": "80", "ninety": "90",
	"hundred": "100", "thousand": "1000",
}

// IsStopword reports whether w (lower case) is left out of index and query.
func IsStopword(w string) bool { return stopwords()[w] }

// words splits text into lower-cased runs of letters and digits.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// Term is how a word is indexed and searched: number words as digits, an
// irregular verb's past as the verb, then its Porter stem. Stopwords give "".
func Term(w string) string {
	if stopwords()[w] {
		return ""
	}
	if d, ok := numberWords[w]; ok {
		return d
	}
	if v, ok := irregular()[w]; ok {
		w = v
	}
	return Stem(w)
}

// Tokens is text as the full-text index holds it: every word's Term, in
// order, stopwords left out.
func Tokens(text string) []string {
	ws := words(text)
	out := ws[:0]
	for _, w := range ws {
		if t := Term(w); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// Terms splits a plain-words query into the terms a full-text search looks
// for: Tokens, duplicates dropped, at most MaxTerms. Query syntax is not
// interpreted, so any text is a valid query; a query of stopwords alone has
// no terms.
func Terms(text string) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range Tokens(text) {
		if seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, t)
		if len(out) == MaxTerms {
			break
		}
	}
	return out
}

// Names returns the terms of the words of text written with a capital
// letter, other than a sentence's first word: the names of people, pets
// and places a question asks about ("What is the name of Hannah's cat?",
// "Is Leo good with his hands?"), and the acronyms and proper nouns of a
// keyword query ("connection pool PostgreSQL").
func Names(text string) map[string]bool {
	var names map[string]bool
	start := true // at the start of a sentence
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(".!?", r)
	}) {
		// A run of sentence ends ("?", "...") ends a sentence; inside a
		// word ("e.g", "v1.2") they split it.
		for w != "" {
			i := strings.IndexAny(w, ".!?")
			if i < 0 {
				break
			}
			if head := w[:i]; head != "" {
				names = addName(names, head, start)
			}
			start = true
			w = w[i+1:]
		}
		if w == "" {
			continue
		}
		names = addName(names, w, start)
		start = false
	}
	return names
}

func addName(names map[string]bool, w string, start bool) map[string]bool {
	r := []rune(w)
	if start || !unicode.IsUpper(r[0]) {
		return names
	}
	if t := Term(strings.ToLower(w)); t != "" {
		if names == nil {
			names = map[string]bool{}
		}
		names[t] = true
	}
	return names
}
