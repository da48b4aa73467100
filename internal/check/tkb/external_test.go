package tkb

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

// TestExternal reads real Markdown documents with front matter and links
// (nobody here wrote them) as a knowledge folder: the package's ai/
// folder copied to knowledge/ in a temporary project. They were not
// written for Cairn, so missing fields are expected (warnings); errors
// must be the real defects listed.
func TestExternal(t *testing.T) {
	for _, tc := range []struct {
		pkg, dir string
		known    []string
	}{
		{pkg: "aidd", dir: "ai", known: []string{
			// SKILL.md files name themselves as the command files do:
			// get_tkb_entry by that name returns the command, not the skill.
			"knowledge/skills/aidd-churn/SKILL.md:2 tkb/duplicate-name",
			"knowledge/skills/aidd-fix/SKILL.md:2 tkb/duplicate-name",
		}},
	} {
		t.Run(tc.pkg, func(t *testing.T) {
			src := filepath.Join(checktest.External(t, tc.pkg), tc.dir)
			root := t.TempDir()
			if err := os.CopyFS(filepath.Join(root, "knowledge"), os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			rep := runOn(t, root, nil)
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
			_, byRule := rep.Counts()
			t.Logf("%s: %d entries, %d real defects, findings by rule %v", tc.pkg, rep.ByChecker["tkb"], len(tc.known), byRule)
		})
	}
}
