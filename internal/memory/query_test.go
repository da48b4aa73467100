package memory

import (
	"fmt"
	"testing"
)

// TestTerms: a question in plain English searches for what a keyword query
// would: question words and other stopwords left out, possessives and
// contractions split off, plurals and tenses stemmed, numbers as digits.
func TestTerms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"When did Caroline go to the support group?", "[carolin go support group]"},
		{"caroline support groups", "[carolin support group]"},
		{"What are Melanie's kids' names?", "[melani child name]"},
		{"Who painted the sunsets she'd shown?", "[paint sunset shown]"},
		{"How many times did he run ten kilometres?", "[mani time run 10 kilometr]"},
		{"ran a 10 kilometre race", "[run 10 kilometr race]"},
		{"what did they do", "[]"},
		{`"busy" AND (NOT) col:x`, "[busi col x]"},
	} {
		if got := fmt.Sprint(Terms(tc.in)); got != tc.want {
			t.Errorf("Terms(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestTermsTenses: a question in the present finds a turn told in the past,
// irregular verbs included.
func TestTermsTenses(t *testing.T) {
	for q, told := range map[string]string{
		"When did she go to the lake?":     "we went to the lake",
		"When did Sam run the race?":       "I ran a race",
		"What bike did Nadia buy?":         "I bought a bike",
		"Where did they meet the painter?": "we met a painter",
		"When did he paint it?":            "I painted it",
	} {
		want := map[string]bool{}
		for _, t := range Terms(told) {
			want[t] = true
		}
		shared := 0
		for _, t := range Terms(q) {
			if want[t] {
				shared++
			}
		}
		if shared < 2 && !(shared == 1 && len(Terms(q)) == 1) {
			t.Errorf("%q and %q share %d terms (%v, %v)", q, told, shared, Terms(q), Terms(told))
		}
	}
}

// TestTermsFamily: irregular plurals and the words for close family are
// one word, so a question's "grandmother" finds a turn's "grandma".
func TestTermsFamily(t *testing.T) {
	for q, told := range map[string]string{
		"What happened to Leo's grandmother?": "my grandma had a fall",
		"How many children does she have?":    "the kids are at camp",
		"When did his mother visit?":          "Mum came over",
		"What does her father do?":            "my dad is a pilot",
		"Did the women win?":                  "a woman won",
		"What picture did she share?":         "[photo: a lake at sunrise]",
	} {
		want := map[string]bool{}
		for _, t := range Terms(told) {
			want[t] = true
		}
		shared := false
		for _, t := range Terms(q) {
			shared = shared || want[t]
		}
		if !shared {
			t.Errorf("%q shares no term with %q: %v vs %v", q, told, Terms(q), Terms(told))
		}
	}
	if got := fmt.Sprint(Terms("NaN values")); got != "[nan valu]" {
		t.Errorf("NaN values: %s, want NaN kept as itself", got)
	}
}

// TestNames: the words a query writes with a capital, other than a
// sentence's first, are its names, as terms.
func TestNames(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"When did Caroline go to the LGBTQ support group?", "map[carolin:true lgbtq:true]"},
		{"What is the name of Hannah's cat?", "map[hannah:true]"},
		{"Hannah's cat. Is Biscuit ill? Yes, Biscuit!", "map[biscuit:true]"},
		{"What did she say?", "map[]"},
		{"connection pool PostgreSQL v1.2 Timeout", "map[postgresql:true timeout:true]"},
		{"Who did I meet?", "map[]"},
	} {
		if got := fmt.Sprint(Names(tc.in)); got != tc.want {
			t.Errorf("Names(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
