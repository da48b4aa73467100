package findcap

import (
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
)

func TestApply(t *testing.T) {
	var fs []check.Finding
	for i := range PerRule + 7 {
		fs = append(fs, check.Finding{Rule: "x/a", File: "f", Line: i + 1, Message: "m"})
	}
	fs = append(fs, check.Finding{Rule: "x/b", File: "f", Line: 1, Message: "m"})
	out := Apply(fs)
	if len(out) != PerRule+2 {
		t.Fatalf("kept %d findings, want %d", len(out), PerRule+2)
	}
	if last := out[len(out)-1]; last.Rule != "x/a" || last.Line != PerRule || last.Message != "and 7 more findings of x/a in this file, not listed" {
		t.Errorf("closing finding %+v", last)
	}
}
