package dockerfile

import (
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

// TestCorpus runs the checker over the hand-written corpus: realistic
// Dockerfiles (Go, Node, Python, Rust, static site, Windows, heredocs,
// cross-platform) that must give no error, and seeded defects, each to be
// found at its line.
func TestCorpus(t *testing.T) {
	tally := checktest.Corpus(t, New(), "testdata/corpus", nil)
	t.Log(tally)
	if tally.ValidFiles < 8 || tally.Seeded < 40 {
		t.Errorf("the corpus shrank: %s", tally)
	}
}

func TestRulesDeclared(t *testing.T) {
	checktest.Rules(t, New())
}

// TestEveryRuleSeeded checks that each declared rule has a seeded defect.
func TestEveryRuleSeeded(t *testing.T) {
	wants, err := checktest.ReadWants("testdata/corpus/defects/want.txt")
	if err != nil {
		t.Fatal(err)
	}
	seeded := map[string]bool{}
	for _, w := range wants {
		seeded[w.Rule] = true
	}
	for _, r := range New().Rules() {
		if !seeded[r.ID] {
			t.Errorf("rule %s has no seeded defect in testdata/corpus/defects/want.txt", r.ID)
		}
	}
}
