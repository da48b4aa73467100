package i18n

import (
	"os"
	"testing"
)

// TestShow prints the report on $I18N_DIR, for a person looking at real files.
func TestShow(t *testing.T) {
	dir := os.Getenv("I18N_DIR")
	if dir == "" {
		t.Skip("set I18N_DIR")
	}
	rep := runOn(t, dir, nil)
	for _, f := range rep.Findings {
		t.Log(f)
	}
	for _, n := range rep.Notes {
		t.Log("note:", n)
	}
	for _, s := range rep.Skipped {
		t.Log("skipped:", s)
	}
	t.Log("files:", rep.Files)
}
