package check

import (
	"regexp"
	"sync"
)

// LazyRegexp returns a regexp compiled on first use, not at init: every
// cairn process (a hook included) links the checks, and compiling their
// expressions at start-up would cost each one of them.
func LazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
