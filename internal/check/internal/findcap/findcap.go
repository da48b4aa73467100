// Package findcap bounds how many findings of one rule a checker reports
// in one file: hostile or generated input (a file of 100,000 broken
// aliases) would otherwise make an answer no one can read, and cost
// memory in proportion. The findings past the cap are counted in one
// closing finding.
package findcap

import (
	"fmt"

	"github.com/cairn-dev/cairn/internal/check"
)

// PerRule is how many findings of one rule one file keeps.
const PerRule = 500

// Apply keeps the first PerRule findings of each rule in each file, in
// order, and adds for each capped pair one finding that counts the rest,
// at the last kept one's line.
func Apply(fs []check.Finding) []check.Finding {
	type key struct{ file, rule string }
	count := map[key]int{}
	last := map[key]check.Finding{}
	out := fs[:0]
	for _, f := range fs {
		k := key{f.File, f.Rule}
		count[k]++
		if count[k] <= PerRule {
			out = append(out, f)
			last[k] = f
		}
	}
	for k, n := range count {
		if n <= PerRule {
			continue
		}
		f := last[k]
		out = append(out, check.Finding{Rule: k.rule, Severity: f.Severity, File: k.file, Line: f.Line,
			Message: fmt.Sprintf("and %d more findings of %s in this file, not listed", n-PerRule, k.rule),
			Fix:     "fix the ones listed, then check again"})
	}
	return out
}
