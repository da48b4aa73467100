package convbench

import (
	"strings"
	"testing"
)

// TestGenerate checks the set's shape: dialogues of hundreds of turns, at
// least 1,000 questions in every category, answers that are turns.
func TestGenerate(t *testing.T) {
	set := Generate(2, 6)
	if len(set.Questions) < 1000 {
		t.Errorf("%d questions, want ≥ 1000", len(set.Questions))
	}
	cats := map[string]int{}
	for _, q := range set.Questions {
		cats[q.Category]++
		for _, a := range q.Answers {
			if a < 0 || a >= len(set.Dialogues[q.Dialogue].Turns) {
				t.Fatalf("%q: answer %d is no turn", q.Text, a)
			}
		}
	}
	for _, c := range Categories {
		if cats[c] == 0 {
			t.Errorf("no %s questions", c)
		}
	}
	for i, d := range set.Dialogues {
		if len(d.Turns) < 300 {
			t.Errorf("dialogue %d has %d turns, want hundreds", i, len(d.Turns))
		}
	}
	if a, b := Generate(2, 6), Generate(2, 6); a.Questions[500].Text != b.Questions[500].Text {
		t.Error("the same seed made different sets")
	}
	t.Logf("%d dialogues, %d questions %v", len(set.Dialogues), len(set.Questions), cats)
	res := map[string]*Scores{}
	idx := map[int]*BM25{}
	for _, q := range set.Questions {
		if idx[q.Dialogue] == nil {
			idx[q.Dialogue] = NewBM25(set.Dialogues[q.Dialogue].Turns)
		}
		for _, c := range []string{q.Category, "all"} {
			if res[c] == nil {
				res[c] = &Scores{}
			}
			res[c].Add(idx[q.Dialogue].Search(q.Text, 10), q.Answers)
		}
	}
	for _, c := range append(Categories, "all") {
		t.Logf("plain BM25 %-11s %4d  %s", c, res[c].N, res[c])
	}
}

// TestWritten checks the hand-written dialogues' shape: two splits, each
// dialogue eight or more sessions and 120 or more turns, 300 or more
// questions in all, every category in each split, answers that are turns.
func TestWritten(t *testing.T) {
	total := 0
	for _, split := range []string{Dev, Report} {
		set, err := Written(split)
		if err != nil {
			t.Fatal(err)
		}
		cats := map[string]int{}
		for _, q := range set.Questions {
			cats[q.Category]++
			if len(q.Answers) == 0 {
				t.Errorf("%q has no answer", q.Text)
			}
			for _, a := range q.Answers {
				if a < 0 || a >= len(set.Dialogues[q.Dialogue].Turns) {
					t.Fatalf("%q: answer %d is no turn", q.Text, a)
				}
			}
			if q.Category == MultiHop && len(q.Answers) < 2 {
				t.Errorf("multi-hop %q has %d answers, want 2", q.Text, len(q.Answers))
			}
		}
		for _, c := range WrittenCategories {
			if cats[c] < 20 {
				t.Errorf("%s: %d %s questions, want ≥ 20", split, cats[c], c)
			}
		}
		for i, d := range set.Dialogues {
			if n := d.Turns[len(d.Turns)-1].Session; len(d.Turns) < 120 || n < 8 {
				t.Errorf("%s dialogue %d: %d turns in %d sessions, want ≥ 120 in ≥ 8", split, i, len(d.Turns), n)
			}
			for _, tn := range d.Turns {
				if !strings.HasPrefix(tn.Text, tn.Speaker+": ") || strings.Contains(tn.Text, "^") {
					t.Fatalf("turn %q: want %q and no label", tn.Text, tn.Speaker+": …")
				}
			}
		}
		total += len(set.Questions)
		t.Logf("%s: %d dialogues, %d questions %v", split, len(set.Dialogues), len(set.Questions), cats)
	}
	if total < 300 {
		t.Errorf("%d questions, want ≥ 300", total)
	}
}
