package memory

import (
	"regexp"
	"testing"

	"github.com/cairn-dev/cairn/internal/lazyre"
)

// TestPatternsCompile compiles every lazily compiled pattern, so a bad one
// fails here rather than in the first call that needs it.
func TestPatternsCompile(t *testing.T) {
	all := []*lazyre.Regexp{tagPattern, fpHexRun, fpSpace, lineSpec, symbolSpec,
		mentionTick, mentionCall, mentionQual, mentionKeyword, mentionShape, identRE}
	for _, b := range fpBlurs {
		all = append(all, b.re)
	}
	for _, l := range all {
		if _, err := regexp.Compile(l.String()); err != nil {
			t.Errorf("pattern %q: %v", l.String(), err)
		}
	}
}
