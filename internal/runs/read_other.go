package runs

import (
	"fmt"
	"strings"
)

// readCargo reads cargo test's "test result:" lines, summed over the
// targets, its "test x ... FAILED" lines and compile errors.
func readCargo(ls []string) report {
	var r report
	targets := 0
	for _, l := range ls {
		switch {
		case strings.HasPrefix(l, "test result: "):
			verdict, rest, _ := strings.Cut(l[len("test result: "):], ". ")
			c, _ := countWords(rest, ";")
			r.Passed += c["passed"]
			r.Failed += c["failed"]
			r.Skipped += c["ignored"]
			r.bad = r.bad || verdict == "FAILED"
			r.found, r.Counted = true, true
			targets++
		case strings.HasPrefix(l, "error[E") || strings.HasPrefix(l, "error: could not compile"):
			r.found, r.bad = true, true
			r.Errors = 1
		case strings.HasPrefix(l, "test ") && strings.HasSuffix(l, " ... FAILED"):
			r.failing.add(strings.TrimSuffix(l[len("test "):], " ... FAILED"))
		}
	}
	verdict := "ok"
	if r.bad {
		verdict = "FAILED"
	}
	if targets > 0 {
		r.Summary = fmt.Sprintf("test result: %s. %d passed; %d failed; %d ignored (%s)", verdict, r.Passed, r.Failed, r.Skipped, plural(targets, "target"))
	}
	return r
}

// readNextest reads cargo nextest's "Summary [...] 5 tests run: 4
// passed, 1 failed" line and its "FAIL [...] crate test" lines.
func readNextest(ls []string) report {
	var r report
	for _, l := range ls {
		t := strings.TrimSpace(l)
		if rest, ok := strings.CutPrefix(t, "Summary ["); ok {
			_, counts, ok := strings.Cut(rest, " run: ")
			if !ok {
				continue
			}
			c, _ := countWords(counts, ",")
			r.found, r.Counted, r.Summary = true, true, t
			r.Passed, r.Failed, r.Skipped = c["passed"]+c["passed (flaky)"], c["failed"]+c["timed out"], c["skipped"]
			r.none = strings.Contains(rest, "] 0 tests run")
		}
		if rest, ok := strings.CutPrefix(t, "FAIL ["); ok {
			if _, name, ok := strings.Cut(rest, "] "); ok {
				r.failing.add(name)
			}
		}
	}
	return r
}

// readMaven reads Surefire's "Tests run: 5, Failures: 1, Errors: 0,
// Skipped: 0" lines (the results, summed over modules; the per-class
// lines when there are none), the build's verdict and failing tests.
func readMaven(ls []string) report {
	var r report
	var results, classes map[string]int
	for _, l := range ls {
		t := mavenText(l)
		switch {
		case strings.HasPrefix(t, "Tests run: "):
			c := keyCounts(t, ",")
			if strings.Contains(t, "Time elapsed") {
				classes = sum(classes, c)
			} else {
				results = sum(results, c)
			}
		case t == "BUILD FAILURE":
			r.found, r.bad = true, true
		case t == "BUILD SUCCESS":
			r.found = true
		case strings.HasPrefix(t, "COMPILATION ERROR"):
			r.found, r.bad, r.Errors = true, true, 1
		case t == "No tests to run." || t == "No tests were executed!" || strings.HasPrefix(t, "No tests matching pattern"):
			r.found, r.none = true, true
		case strings.Contains(t, "<<< FAILURE!") || strings.Contains(t, "<<< ERROR!"):
			r.failing.add(javaTestName(strings.Fields(t)[0]))
		}
	}
	if results == nil {
		results = classes
	}
	if results != nil {
		r.found, r.Counted = true, true
		r.Failed, r.Skipped = results["failures"], results["skipped"]
		r.Failed += results["errors"]
		r.Passed = max(0, results["tests run"]-r.Failed-r.Skipped)
		r.Summary = fmt.Sprintf("Tests run: %d, Failures: %d, Errors: %d, Skipped: %d", results["tests run"], results["failures"], results["errors"], results["skipped"])
	}
	return r
}

// mavenText is a Maven line without its [INFO]/[ERROR]/[WARNING] level.
func mavenText(l string) string {
	if strings.HasPrefix(l, "[") {
		if i := strings.IndexByte(l, ']'); i > 0 && i < 10 {
			return strings.TrimSpace(l[i+1:])
		}
	}
	return strings.TrimSpace(l)
}

func sum(into, c map[string]int) map[string]int {
	if into == nil {
		into = map[string]int{}
	}
	for k, v := range c {
		into[k] += v
	}
	return into
}

// javaTestName turns JUnit 4's "method(pkg.Class)" into pkg.Class.method.
func javaTestName(s string) string {
	if m, class, ok := strings.Cut(s, "("); ok && strings.HasSuffix(class, ")") {
		return strings.TrimSuffix(class, ")") + "." + m
	}
	return s
}

// readGradle reads Gradle's "5 tests completed, 1 failed, 1 skipped",
// its BUILD verdict and "Class > test() FAILED" lines.
func readGradle(ls []string) report {
	var r report
	for _, l := range ls {
		t := strings.TrimSpace(l)
		switch {
		case t == "BUILD SUCCESSFUL" || strings.HasPrefix(t, "BUILD SUCCESSFUL in "):
			r.found = true
		case t == "BUILD FAILED" || strings.HasPrefix(t, "BUILD FAILED in "):
			r.found, r.bad = true, true
		case strings.Contains(t, " tests completed, ") || strings.HasSuffix(t, " tests completed"):
			c, _ := countWords(t, ",")
			r.found, r.Counted, r.Summary = true, true, t
			r.Failed, r.Skipped = c["failed"], c["skipped"]
			r.Passed = max(0, c["tests completed"]-r.Failed-r.Skipped)
		case strings.HasSuffix(t, " FAILED") && strings.Contains(t, " > "):
			r.failing.add(strings.TrimSuffix(t, " FAILED"))
		}
	}
	return r
}

// readDotnet reads dotnet test's "Passed!  - Failed: 0, Passed: 5, …"
// lines (summed over projects), the older "Total tests:" block, the
// newer "Test summary: total: 5, failed: 1, …" and "Failed Name [12 ms]"
// lines.
func readDotnet(ls []string) report {
	var r report
	for i, l := range ls {
		t := strings.TrimSpace(l)
		switch {
		case (strings.HasPrefix(t, "Passed!") || strings.HasPrefix(t, "Failed!")) && strings.Contains(t, " - "):
			_, rest, _ := strings.Cut(t, " - ")
			r.addDotnet(keyCounts(rest, ","), t)
		case strings.HasPrefix(t, "Test summary: "):
			c := keyCounts(t[len("Test summary: "):], ",")
			c["passed"] = c["succeeded"]
			r.addDotnet(c, t)
		case strings.HasPrefix(t, "Total tests: "):
			c := keyCounts(strings.Join(ls[i:min(len(ls), i+5)], "\n"), "\n")
			r.addDotnet(c, t)
		case strings.HasPrefix(t, "No test is available in ") || strings.HasPrefix(t, "No test matches the given testcase filter"):
			r.found, r.none = true, true
		case strings.Contains(t, ": error CS") || strings.Contains(t, ": error MSB"):
			r.found, r.bad, r.Errors = true, true, 1
		}
		if name, ok := strings.CutPrefix(t, "Failed "); ok && strings.HasSuffix(name, "]") {
			r.failing.add(trimBrackets(name))
		}
	}
	return r
}

func (r *report) addDotnet(c map[string]int, line string) {
	r.found, r.Counted, r.Summary = true, true, line
	r.Passed += c["passed"]
	r.Failed += c["failed"]
	r.Skipped += c["skipped"]
	r.bad = r.bad || c["failed"] > 0
}

// readRSpec reads "5 examples, 2 failures, 2 pending" and the "rspec
// ./spec/x_spec.rb:8 # Calc adds" lines.
func readRSpec(ls []string) report {
	var r report
	i := last(ls, func(l string) bool {
		_, rest, ok := leadingInt(l)
		return ok && (strings.HasPrefix(rest, " examples, ") || strings.HasPrefix(rest, " example, "))
	})
	if i < 0 {
		return r
	}
	c, _ := countWords(ls[i], ",")
	examples := c["examples"] + c["example"]
	r.found, r.Counted, r.Summary = true, true, ls[i]
	r.Failed = c["failures"] + c["failure"]
	r.Skipped = c["pending"]
	r.Errors = c["error occurred outside of examples"] + c["errors occurred outside of examples"]
	r.Passed = max(0, examples-r.Failed-r.Skipped)
	r.none = examples == 0
	for _, l := range ls[i:] {
		if rest, ok := strings.CutPrefix(l, "rspec "); ok {
			if _, name, ok := strings.Cut(rest, " # "); ok {
				r.failing.add(name)
			}
		}
	}
	return r
}

// readMinitest reads "4 runs, 2 assertions, 1 failures, 1 errors, 1
// skips" and the "Class#test_name [file:line]:" lines after "1) Failure:".
func readMinitest(ls []string) report {
	var r report
	i := last(ls, func(l string) bool {
		_, rest, ok := leadingInt(l)
		return ok && (strings.HasPrefix(rest, " runs, ") || strings.HasPrefix(rest, " tests, ")) && strings.Contains(rest, " assertions, ")
	})
	if i < 0 {
		return r
	}
	c, _ := countWords(ls[i], ",")
	runs := c["runs"] + c["tests"]
	r.found, r.Counted, r.Summary = true, true, ls[i]
	r.Failed, r.Errors, r.Skipped = c["failures"], c["errors"], c["skips"]
	r.Passed = max(0, runs-r.Failed-r.Errors-r.Skipped)
	r.none = runs == 0
	for j, l := range ls[:i] {
		t := strings.TrimSpace(l)
		if (strings.HasSuffix(t, ") Failure:") || strings.HasSuffix(t, ") Error:")) && j+1 < i {
			name, _, _ := strings.Cut(strings.TrimSuffix(ls[j+1], ":"), " [")
			r.failing.add(name)
		}
	}
	return r
}

// readPHPUnit reads "OK (2 tests, 2 assertions)", "Tests: 4, Assertions:
// 2, Errors: 1, Failures: 1, Skipped: 1." and "1) Class::test" lines.
func readPHPUnit(ls []string) report {
	var r report
	for _, l := range ls {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "OK (") && strings.Contains(t, " test"):
			c, _ := countWords(strings.Trim(t[len("OK"):], " ()"), ",")
			r.found, r.Counted, r.Summary = true, true, t
			r.Passed = c["tests"] + c["test"]
		case strings.HasPrefix(t, "Tests: ") && strings.Contains(t, "Assertions: "):
			c := keyCounts(strings.TrimSuffix(t, "."), ",")
			r.found, r.Counted, r.Summary = true, true, t
			r.Failed, r.Errors = c["failures"], c["errors"]
			r.Skipped = c["skipped"] + c["incomplete"]
			r.Passed = max(0, c["tests"]-r.Failed-r.Errors-r.Skipped)
		case t == "FAILURES!" || t == "ERRORS!":
			r.found, r.bad = true, true
		case t == "No tests executed!":
			r.found, r.none = true, true
		}
		if n, rest, ok := leadingInt(t); ok && n > 0 && strings.HasPrefix(rest, ") ") && strings.Contains(rest, "::") {
			r.failing.add(rest[2:])
		}
	}
	return r
}

// exunitWords are the words of ExUnit's closing line.
var exunitWords = map[string]bool{"doctest": true, "doctests": true, "test": true, "tests": true, "property": true,
	"properties": true, "failure": true, "failures": true, "skipped": true, "excluded": true, "invalid": true}

// readExUnit reads "1 doctest, 4 tests, 2 failures, 1 skipped" and the
// "1) test name (Module)" headers.
func readExUnit(ls []string) report {
	var r report
	i := last(ls, func(l string) bool {
		c, ok := countWords(l, ",")
		for w := range c {
			if !exunitWords[w] {
				return false
			}
		}
		return ok && (hasKey(c, "failures") || hasKey(c, "failure"))
	})
	for _, l := range ls {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "== Compilation error") || strings.HasPrefix(t, "** (CompileError)") {
			r.found, r.bad, r.Errors = true, true, 1
		}
		if n, rest, ok := leadingInt(t); ok && n > 0 && (strings.HasPrefix(rest, ") test ") || strings.HasPrefix(rest, ") doctest ")) {
			r.failing.add(rest[2:])
		}
	}
	if i < 0 {
		return r
	}
	c, _ := countWords(ls[i], ",")
	total := c["doctest"] + c["doctests"] + c["test"] + c["tests"] + c["property"] + c["properties"]
	r.found, r.Counted, r.Summary = true, true, ls[i]
	r.Failed = c["failure"] + c["failures"]
	r.Errors += c["invalid"]
	r.Skipped = c["skipped"]
	r.Passed = max(0, total-r.Failed-r.Skipped-c["excluded"]-c["invalid"])
	r.none = r.Passed+r.Failed+r.Errors == 0
	return r
}

// readCTest reads "50% tests passed, 2 tests failed out of 4" and the
// list under "The following tests FAILED:".
func readCTest(ls []string) report {
	var r report
	listing := false
	for _, l := range ls {
		t := strings.TrimSpace(l)
		switch {
		case strings.Contains(t, "% tests passed, ") && strings.Contains(t, " out of "):
			_, rest, _ := strings.Cut(t, "% tests passed, ")
			failed, rest, _ := leadingInt(rest)
			_, total, _ := strings.Cut(rest, " out of ")
			n, _, _ := leadingInt(total)
			r.found, r.Counted, r.Summary = true, true, t
			r.Failed, r.Passed = failed, max(0, n-failed)
		case t == "No tests were found!!!":
			r.found, r.none = true, true
		case t == "The following tests FAILED:":
			listing = true
		case listing:
			if _, rest, ok := strings.Cut(t, " - "); ok {
				r.failing.add(trimParens(rest))
			} else {
				listing = false
			}
		}
	}
	return r
}
