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
		{"What are Melanie's kids' names?", "[melani kid name]"},
		{"Who painted the sunsets she'd shown?", "[paint sunset shown]"},
		{"How many times did he run ten kilometres?", "[mani time run 10 kilometr]"},
		{"ran a 10 kilometre race", "[ran 10 kilometr race]"},
		{"what did they do", "[]"},
		{`"busy" AND (NOT) col:x`, "[busi col x]"},
	} {
		if got := fmt.Sprint(Terms(tc.in)); got != tc.want {
			t.Errorf("Terms(%q) = %s, want %s", tc.in, got, tc.want)
		}
	}
}
