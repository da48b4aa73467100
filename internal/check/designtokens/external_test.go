package designtokens

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

// TestExternal runs the check over token files nobody here wrote (npm
// packages from testdata/corpus.txt). Errors must be the real defects
// listed, each read and confirmed by hand; any other is a false error.
func TestExternal(t *testing.T) {
	for _, tc := range []struct {
		pkg   string
		known []string // real defects: FILE:LINE RULE
	}{
		{pkg: "@primer/primitives"},
		{pkg: "@adobe/spectrum-tokens"},
		{pkg: "style-dictionary"},
		{pkg: "dtcg-examples", known: []string{
			// {"value": 0, "unit": ""}: the format requires a unit even for 0.
			"ibm-carbon/layout.tokens.json:25 designtokens/invalid-value",
		}},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			dir := checktest.External(t, tc.pkg)
			rep := runOn(t, dir, nil)
			checktest.Declared(t, New(), rep.Findings)
			var errs []string
			for _, f := range rep.Findings {
				if f.Severity == check.Error {
					errs = append(errs, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Rule))
				}
			}
			for _, e := range errs {
				if !slices.Contains(tc.known, e) {
					t.Errorf("false error: %s", e)
				}
			}
			for _, k := range tc.known {
				if !slices.Contains(errs, k) {
					t.Errorf("known defect not found: %s", k)
				}
			}
			if rep.ByChecker["designtokens"] == 0 {
				t.Errorf("no token file found in %s", dir)
			}
			_, byRule := rep.Counts()
			t.Logf("%s: %d files, %d real defects, findings by rule %v", tc.pkg, rep.ByChecker["designtokens"], len(tc.known), byRule)
		})
	}
}
