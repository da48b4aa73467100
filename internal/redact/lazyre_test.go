package redact

import (
	"regexp"
	"testing"

	"github.com/cairn-dev/cairn/internal/lazyre"
)

// TestPatternsCompile compiles every lazily compiled pattern, so a bad one
// fails here rather than in the first call that needs it.
func TestPatternsCompile(t *testing.T) {
	all := []*lazyre.Regexp{privateTag, pemBegin, pemEnd}
	for _, r := range secretRules {
		if r.re != nil {
			all = append(all, r.re)
		} else if r.find == nil {
			t.Errorf("rule %s has neither a pattern nor a find", r.kind)
		}
	}
	for _, l := range all {
		if _, err := regexp.Compile(l.String()); err != nil {
			t.Errorf("pattern %q: %v", l.String(), err)
		}
	}
}
