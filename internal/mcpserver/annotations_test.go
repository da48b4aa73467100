package mcpserver

import (
	"strings"
	"testing"
)

// TestAnnotationsDecided holds every tool to a decision on each hint, so a
// new tool cannot ship with the cautious defaults by omission, and checks
// the decisions against what the names promise.
func TestAnnotationsDecided(t *testing.T) {
	declared := map[string]bool{}
	check := func(tl tool) {
		a, name := tl.def.Annotations, tl.def.Name
		switch {
		case a == nil:
			t.Errorf("%s has no annotations: add it to writeHints (annotations.go), or mark it readOnly if it changes nothing", name)
			return
		case a.OpenWorldHint == nil || *a.OpenWorldHint:
			t.Errorf("%s: openWorldHint is not false; every Cairn tool works on the project alone", name)
		case !a.ReadOnlyHint && a.DestructiveHint == nil:
			t.Errorf("%s writes but says nothing of destructiveHint", name)
		}
		if a.ReadOnlyHint && writeHints[name] != nil && tl.readOnlyVariant == nil && !strings.HasSuffix(tl.key, " read-only") {
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
		declared[tl.def.Name] = true
		check(tl)
		if tl.readOnlyVariant != nil {
			if !tl.readOnlyVariant.def.Annotations.ReadOnlyHint {
				t.Errorf("%s's read-only variant is not read-only", tl.def.Name)
			}
			check(*tl.readOnlyVariant)
		}
	}
	for name := range writeHints {
		if !declared[name] {
			t.Errorf("writeHints names %s, which is no tool", name)
		}
	}
}
