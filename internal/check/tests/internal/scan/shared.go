package scan

import (
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// SaysNoPanic reports whether a test's name or title says that not
// failing is what it checks: TestParseDoesNotPanic, TestWatchIsSafe,
// shouldNotThrowForTrue, test_load_does_not_raise, "compiles".
func SaysNoPanic(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"panic", "safe", "smoke", "compile", "crash", "throw", "raise", "not error"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// HelperModule reports whether a module a test imports from holds test
// helpers (./helpers, ../test-utils, tests.support) rather than the code
// under test: a call of one of its functions may assert.
func HelperModule(mod string) bool {
	m := strings.ToLower(mod)
	for _, w := range []string{"test", "helper", "util", "fixture", "spec", "mock", "support", "setup", "assert", "expect", "check", "harness"} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}

// Within marks the tokens inside any of the ranges (exclusive ends), in
// time linear in n and the ranges.
func Within(n int, ranges [][2]int) []bool {
	diff := make([]int, n+2)
	for _, r := range ranges {
		if r[0] < 0 || r[1] <= r[0] || r[0] > n {
			continue
		}
		diff[r[0]]++
		diff[min(r[1], n+1)]--
	}
	out := make([]bool, n)
	c := 0
	for i := range n {
		c += diff[i]
		out[i] = c > 0
	}
	return out
}

// The rules.
const (
	RuleSyntax         = "tests/syntax"
	RuleNoAssertion    = "tests/no-assertion"
	RuleEmpty          = "tests/empty-test"
	RuleFocused        = "tests/focused"
	RuleSkipped        = "tests/skipped-without-reason"
	RuleSleep          = "tests/sleep-as-wait"
	RuleMissing        = "tests/missing-tests"
	RuleSetenvParallel = "tests/setenv-in-parallel-test"
	RuleGoroutineFatal = "tests/fatal-in-goroutine"
	RuleBelow          = "tests/coverage-below-threshold"
	RuleUncovered      = "tests/uncovered-lines"
)

// TokenSyntax is the finding of a file a tokenizer could not read: a
// warning, since the file may be valid in a dialect the tokenizer does not
// know, and the checks of that file were not made.
func TokenSyntax(p string, err *LexError, language string) check.Finding {
	return check.Finding{Rule: RuleSyntax, Severity: check.Warning, File: p, Line: err.line, Col: err.col,
		Message: "could not read this " + language + " file: " + err.msg + "; its tests were not checked",
		Fix:     "fix the syntax if it is wrong; if the file is valid, report it with the construct at this position"}
}

func Quote(s string) string {
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return strconv.Quote(s)
}

func Itoa(n int) string { return strconv.Itoa(n) }
