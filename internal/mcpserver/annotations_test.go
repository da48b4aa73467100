package mcpserver

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
)

// TestAnnotationsDecided holds every tool to a decision on each hint, so a
// new tool cannot ship with the cautious defaults by omission, and checks
// the decisions against what the names promise.
func TestAnnotationsDecided(t *testing.T) {
	declared := map[string]bool{}
	check := func(tl tool.Tool) {
		a, name := tl.Def.Annotations, tl.Def.Name
		switch {
		case a == nil:
			t.Errorf("%s has no annotations: add it to writeHints (annotations.go), or mark it readOnly if it changes nothing", name)
			return
		case a.OpenWorldHint == nil || *a.OpenWorldHint:
			t.Errorf("%s: openWorldHint is not false; every Cairn tool works on the project alone", name)
		case !a.ReadOnlyHint && a.DestructiveHint == nil:
			t.Errorf("%s writes but says nothing of destructiveHint", name)
		}
		if a.ReadOnlyHint && writeHints[name] != nil && tl.ReadOnlyVariant == nil && !strings.HasSuffix(tl.Key, " read-only") {
			t.Errorf("%s is read-only and also in writeHints: decide which", name)
		}
		destroys := a.DestructiveHint != nil && *a.DestructiveHint
		for _, verb := range []string{"delete_", "remove_", "_prune", "_revert"} {
			if strings.Contains(name, verb) && !destroys {
				t.Errorf("%s deletes, removes, prunes or reverts, but is not destructive", name)
			}
		}
		if a.ReadOnlyHint && destroys {
			t.Errorf("%s is read-only and destructive", name)
		}
	}
	for _, tl := range allTools() {
		declared[tl.Def.Name] = true
		check(tl)
		if tl.ReadOnlyVariant != nil {
			if !tl.ReadOnlyVariant.Def.Annotations.ReadOnlyHint {
				t.Errorf("%s's read-only variant is not read-only", tl.Def.Name)
			}
			check(*tl.ReadOnlyVariant)
		}
	}
	for name := range writeHints {
		if !declared[name] {
			t.Errorf("writeHints names %s, which is no tool", name)
		}
	}
}
