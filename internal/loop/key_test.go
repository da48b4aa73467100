package loop

import (
	"regexp"
	"strings"
	"testing"
)

// TestValidKeyIsTheGrammar: validKey accepts exactly what the documented
// grammar, ^[A-Za-z][A-Za-z0-9_.-]{0,63}$, does.
func TestValidKeyIsTheGrammar(t *testing.T) {
	grammar := regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,63}$`)
	cases := []string{"", "a", "Z", "9lives", "_x", ".x", "-x", "a9", "a_b.c-d", "has space", "ünïcode", "a\n", "a/b", "a:b",
		strings.Repeat("a", 64), strings.Repeat("a", 65), "a" + strings.Repeat("9", 63), "a" + strings.Repeat("9", 64)}
	for c := 0; c < 256; c++ {
		cases = append(cases, "k"+string(rune(c)), string(rune(c)))
	}
	for _, k := range cases {
		if got, want := validKey(k), grammar.MatchString(k); got != want {
			t.Errorf("validKey(%q) = %v; the grammar says %v", k, got, want)
		}
	}
}
