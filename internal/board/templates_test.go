package board

import (
	"html/template"
	"strings"
	"testing"
)

// TestWordingFuncs: the board words elapsed times and counts as the tools
// and the CLI do.
func TestWordingFuncs(t *testing.T) {
	tm := template.Must(template.New("t").Funcs(funcs).Parse(`{{took .From .To}}|{{took .From "open"}}|{{plural .One "entry" "entries"}}|{{plural .Two "entry" "entries"}}`))
	var b strings.Builder
	err := tm.Execute(&b, map[string]any{"From": "2026-11-29T03:50:00Z", "To": "2026-11-29T03:50:48Z", "One": 1, "Two": 2})
	if want := "48s||1 entry|2 entries"; err != nil || b.String() != want {
		t.Errorf("got %q, %v; want %q", b.String(), err, want)
	}
}
