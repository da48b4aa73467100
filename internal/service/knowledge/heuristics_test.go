package knowledge

import (
	"reflect"
	"testing"
)

func TestParseHeuristics(t *testing.T) {
	cases := []struct {
		name, text string
		want       []Heuristic
	}{
		{"sections", "# Heuristics\n\n## Reversibility\nCan we undo it?\n\n## Evidence\n\n- What says it works?\n",
			[]Heuristic{{"Reversibility", "Can we undo it?"}, {"Evidence", "What says it works?"}}},
		{"list", "Our rules:\n1. **KISS**: is there a simpler way?\n- Ask a teammate before adding a dependency.\nprose line\n",
			[]Heuristic{{"KISS", "is there a simpler way?"}, {"", "Ask a teammate before adding a dependency."}}},
		{"nothing", "Just prose.\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := parseHeuristics(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
}
