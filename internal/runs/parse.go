package runs

import "strings"

// Outcome is how a test run ended.
type Outcome string

// The outcomes.
const (
	TestsPassed Outcome = "passed"
	TestsFailed Outcome = "failed"
	NoTests     Outcome = "no tests" // the run found no test to run
)

// TestResult is what a test run's output says.
type TestResult struct {
	// Runner is the runner whose output was read: for make and scripts,
	// the runner they ran when its output was recognised.
	Runner  Runner
	Outcome Outcome
	// Counted says the counts are the runner's own: without it they are
	// what the output showed (plain go test names only failing tests).
	Counted bool
	Passed  int
	Failed  int
	Skipped int // skipped, ignored, pending, xfailed
	Errors  int // errors outside tests: collection, build, suites that did not load
	// Summary is the runner's summary line, on one line and clipped (for
	// go test and runners whose counts are summed, one written from them).
	Summary string
	// Failing are the first failing tests' names (at most 5).
	Failing []string
}

// report is what one runner's reader found.
type report struct {
	TestResult
	found   bool // the output is this runner's: its summary or verdict was seen
	bad     bool // the output says the run failed
	none    bool // the output says no test ran
	failing names
}

// reader reads one runner's output lines.
type reader func(ls []string) report

// readers are the runners' readers; detection tries them in this order.
var readers = []struct {
	runner Runner
	read   reader
}{
	{GoTest, readGo}, {Pytest, readPytest}, {Unittest, readUnittest}, {Vitest, readVitest}, {Jest, readJest},
	{Mocha, readMocha}, {NodeTest, readNodeTest}, {Nextest, readNextest}, {Cargo, readCargo}, {Maven, readMaven},
	{Gradle, readGradle}, {Dotnet, readDotnet}, {RSpec, readRSpec}, {Minitest, readMinitest}, {PHPUnit, readPHPUnit},
	{ExUnit, readExUnit}, {Deno, readDeno}, {Bun, readBun}, {CTest, readCTest}, {Playwright, readPlaywright},
}

// ParseTest reads a test run's output (stdout and stderr, in any order;
// a Claude Code "Exit code N" line is fine): its outcome, counts, summary
// and failing tests. The exit status decides the outcome unless the
// output's own summary says the run failed or ran no test. Output that
// no reader recognises is judged by its exit status alone.
func ParseTest(runner Runner, output string, exitOK bool) TestResult {
	ls := outputLines(output)
	r, ok := readAs(runner, ls)
	for i := 0; !ok && i < len(readers); i++ {
		if readers[i].runner != runner {
			r, ok = readAs(readers[i].runner, ls)
		}
	}
	if !ok {
		r, ok = readPlain(ls), true
		r.Runner = runner
		if !r.found {
			r = report{TestResult: TestResult{Runner: runner}}
		}
	}
	return r.result(exitOK)
}

// readAs reads the lines as runner's output.
func readAs(runner Runner, ls []string) (report, bool) {
	as := runner
	if runner == Pest {
		as = Jest // Pest and Collision print Jest's summary
	}
	for _, x := range readers {
		if x.runner == as {
			r := x.read(ls)
			r.Runner = runner
			return r, r.found
		}
	}
	return report{}, false
}

// result settles the outcome.
func (r report) result(exitOK bool) TestResult {
	res := r.TestResult
	res.Failing = r.failing.first()
	res.Summary = shown(res.Summary)
	broke := res.Failed > 0 || res.Errors > 0
	switch {
	case r.none && !broke && !r.bad:
		res.Outcome = NoTests
	case !exitOK || r.bad || broke:
		res.Outcome = TestsFailed
	case r.found && res.Counted && res.Passed == 0:
		res.Outcome = NoTests
	default:
		res.Outcome = TestsPassed
	}
	return res
}

// last is the index of the last line for which match is true, -1 if none.
func last(ls []string, match func(string) bool) int {
	for i := len(ls) - 1; i >= 0; i-- {
		if match(ls[i]) {
			return i
		}
	}
	return -1
}

// readPlain reads the plain closing line any runner may print: "N
// passed, N failed" alone on a line (", N skipped" may follow, and a word
// with a colon may come first).
func readPlain(ls []string) report {
	var r report
	i := last(ls, func(l string) bool {
		l = strings.TrimSpace(l)
		if w, rest, ok := strings.Cut(l, ":"); ok && !strings.ContainsAny(w, " \t") {
			l = strings.TrimSpace(rest)
		}
		c, ok := countWords(l, ",")
		_, p := c["passed"]
		_, f := c["failed"]
		return ok && p && f && len(c) <= 3 && (len(c) == 2 || hasKey(c, "skipped"))
	})
	if i < 0 {
		return r
	}
	l := ls[i]
	if w, rest, ok := strings.Cut(l, ":"); ok && !strings.ContainsAny(strings.TrimSpace(w), " \t") {
		l = rest
	}
	c, _ := countWords(l, ",")
	r.found, r.Counted, r.Summary = true, true, ls[i]
	r.Passed, r.Failed, r.Skipped = c["passed"], c["failed"], c["skipped"]
	return r
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}
