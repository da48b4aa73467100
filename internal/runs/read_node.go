package runs

import "strings"

// readJest reads Jest's "Tests: 2 failed, 3 passed, 5 total" and "Test
// Suites:" lines (Pest and Laravel's Collision print the same form, with
// "(9 assertions)"), and the "● Suite › test" headers of failures.
func readJest(ls []string) report {
	var r report
	i := last(ls, func(l string) bool { _, ok := jestCounts(l, "Tests:"); return ok })
	if i < 0 {
		if last(ls, func(l string) bool { return strings.HasPrefix(l, "No tests found") }) >= 0 {
			r.found, r.none = true, true
		}
		return r
	}
	c, _ := jestCounts(ls[i], "Tests:")
	r.found, r.Counted, r.Summary = true, true, strings.TrimSpace(ls[i])
	r.Passed, r.Failed, r.Skipped = c["passed"], c["failed"], c["skipped"]+c["todo"]+c["pending"]
	if s, ok := jestCounts(lineBefore(ls, i, "Test Suites:"), "Test Suites:"); ok && r.Failed == 0 {
		r.Errors = s["failed"]
	}
	for _, l := range ls {
		t := strings.TrimSpace(l)
		if name, ok := strings.CutPrefix(t, "● "); ok && name != "Test suite failed to run" {
			r.failing.add(name)
		}
		if name, ok := strings.CutPrefix(t, "FAILED  "); ok { // Pest
			r.failing.add(name)
		}
	}
	return r
}

// jestCounts reads a "Tests: 1 failed, 4 passed, 5 total" line.
func jestCounts(l, label string) (map[string]int, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(l), label)
	if !ok {
		return nil, false
	}
	c, ok := countWords(trimParens(rest), ",")
	return c, ok && hasKey(c, "total") || ok && (hasKey(c, "passed") || hasKey(c, "failed"))
}

// lineBefore is the nearest line before i (within a few) starting with
// prefix once trimmed.
func lineBefore(ls []string, i int, prefix string) string {
	for j := i - 1; j >= 0 && j >= i-4; j-- {
		if strings.HasPrefix(strings.TrimSpace(ls[j]), prefix) {
			return ls[j]
		}
	}
	return ""
}

// readVitest reads Vitest's "Test Files  1 failed | 1 passed (2)" and
// "Tests  2 failed | 3 passed (5)" lines and its "FAIL  file > suite >
// test" headers.
func readVitest(ls []string) report {
	var r report
	if last(ls, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "No test files found") }) >= 0 {
		r.found, r.none = true, true
		return r
	}
	i := last(ls, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "Tests  ") })
	files := last(ls, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "Test Files  ") })
	if i < 0 || files < 0 {
		return r
	}
	r.found, r.Summary = true, strings.TrimSpace(ls[i])
	c, ok := countWords(trimParens(strings.TrimSpace(ls[i])[len("Tests"):]), "|")
	r.Counted = ok
	r.Passed, r.Failed, r.Skipped = c["passed"], c["failed"], c["skipped"]+c["todo"]
	if f, _ := countWords(trimParens(strings.TrimSpace(ls[files])[len("Test Files"):]), "|"); r.Failed == 0 {
		r.Errors = f["failed"]
	}
	r.none = !ok && strings.Contains(ls[i], "no tests") && r.Errors == 0
	for _, l := range ls {
		if name, ok := strings.CutPrefix(strings.TrimSpace(l), "FAIL "); ok && (strings.Contains(name, " > ") || strings.Contains(name, " [ ")) {
			name, _, _ = strings.Cut(name, " [ ")
			r.failing.add(name)
		}
	}
	return r
}

// readMocha reads Mocha's "3 passing (20ms)", "2 failing", "1 pending"
// and the numbered failures after them.
func readMocha(ls []string) report {
	var r report
	failingAt := -1
	for i, l := range ls {
		t := strings.TrimSpace(l)
		n, rest, ok := leadingInt(t)
		switch {
		case ok && strings.HasPrefix(rest, " passing ("):
			r.Passed, r.found, r.Counted, r.Summary = n, true, true, t
		case ok && rest == " failing":
			r.Failed, failingAt = n, i
			r.Summary += ", " + t
		case ok && rest == " pending":
			r.Skipped = n
			r.Summary += ", " + t
		case strings.HasPrefix(t, "Exception during run:"):
			r.found, r.bad, r.Errors = true, true, 1
		case t == "Error: No test files found":
			r.found, r.none = true, true
		}
	}
	if failingAt >= 0 {
		mochaFailing(&r, ls[failingAt+1:])
	}
	return r
}

// mochaFailing reads "  1) suite" followed by "       test name:".
func mochaFailing(r *report, ls []string) {
	for i, l := range ls {
		t := strings.TrimSpace(l)
		n, rest, ok := leadingInt(t)
		if !ok || n == 0 || !strings.HasPrefix(rest, ") ") || !strings.HasPrefix(l, "  ") {
			continue
		}
		name := rest[2:]
		if i+1 < len(ls) && strings.HasSuffix(ls[i+1], ":") {
			name += " " + strings.TrimSuffix(strings.TrimSpace(ls[i+1]), ":")
		}
		r.failing.add(strings.TrimSuffix(name, ":"))
	}
}

// readNodeTest reads node --test's closing counts, TAP ("# tests 3") or
// spec ("ℹ tests 3"), and its "not ok" or "✖" lines.
func readNodeTest(ls []string) report {
	var r report
	c := map[string]int{}
	for _, l := range ls {
		rest, ok := strings.CutPrefix(l, "# ")
		if !ok {
			rest, ok = strings.CutPrefix(l, "ℹ ")
		}
		key, val, _ := strings.Cut(rest, " ")
		if n, tail, isInt := leadingInt(val); ok && isInt && tail == "" {
			c[key] = n
		}
		nodeFailing(&r, l)
	}
	total, ok := c["tests"]
	if !ok || !hasKey(c, "pass") {
		return report{}
	}
	r.found, r.Counted = true, true
	r.Passed, r.Failed, r.Skipped = c["pass"], c["fail"]+c["cancelled"], c["skipped"]+c["todo"]
	r.Summary = strings.Join([]string{plural(total, "test"), itoa(r.Passed) + " pass", itoa(r.Failed) + " fail", itoa(r.Skipped) + " skipped"}, ", ")
	r.none = total == 0
	return r
}

func nodeFailing(r *report, l string) {
	if rest, ok := strings.CutPrefix(l, "not ok "); ok {
		if _, name, ok := strings.Cut(rest, " - "); ok {
			r.failing.add(name)
		}
		return
	}
	if name, ok := strings.CutPrefix(l, "✖ "); ok && name != "failing tests:" {
		r.failing.add(trimParens(name))
	}
}

// readBun reads bun test's " 2 pass", " 1 fail", " 1 skip" and "Ran 4
// tests across 1 file." lines and its "(fail) suite > test" lines.
func readBun(ls []string) report {
	var r report
	for _, l := range ls {
		t := strings.TrimSpace(l)
		n, rest, ok := leadingInt(t)
		switch {
		case ok && rest == " pass":
			r.Passed, r.found, r.Counted = n, true, true
		case ok && rest == " fail":
			r.Failed = n
		case ok && (rest == " skip" || rest == " todo"):
			r.Skipped += n
		case ok && (rest == " error" || rest == " errors"):
			r.Errors = n
		case strings.HasPrefix(t, "Ran ") && strings.Contains(t, " across "):
			r.Summary = t
			r.found = true
		case strings.Contains(t, "did not match any test files") || t == "No tests found!":
			r.found, r.none = true, true
		}
		if name, ok := strings.CutPrefix(t, "(fail) "); ok {
			r.failing.add(trimBrackets(name))
		}
	}
	if r.Counted && r.Summary == "" {
		r.Summary = itoa(r.Passed) + " pass, " + itoa(r.Failed) + " fail"
	}
	return r
}

// trimBrackets drops a trailing bracketed part: "[1.80ms]".
func trimBrackets(s string) string {
	if strings.HasSuffix(s, "]") {
		if i := strings.LastIndexByte(s, '['); i > 0 {
			return strings.TrimSpace(s[:i])
		}
	}
	return s
}

// readDeno reads deno test's "ok | 2 passed | 0 failed (78ms)" line and
// its "name => ./file:3:6" failures.
func readDeno(ls []string) report {
	var r report
	for _, l := range ls {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "ok | ") || strings.HasPrefix(t, "FAILED | "):
			verdict, rest, _ := strings.Cut(t, " | ")
			c, _ := countWords(trimParens(rest), "|")
			r.found, r.Counted, r.Summary, r.bad = true, true, t, verdict == "FAILED"
			r.Passed, r.Failed, r.Skipped = c["passed"], c["failed"], c["ignored"]+c["filtered out"]
		case t == "error: No test modules found":
			r.found, r.none = true, true
		case t == "error: Type checking failed.":
			r.found, r.bad, r.Errors = true, true, 1
		}
		if name, where, ok := strings.Cut(t, " => "); ok && strings.Count(where, ":") >= 2 {
			r.failing.add(name)
		}
	}
	return r
}

// readPlaywright reads Playwright's "2 failed", "5 passed (3.2s)" lines
// and the "[project] › file:line › test" lines under the failures.
func readPlaywright(ls []string) report {
	var r report
	for _, l := range ls {
		t := strings.TrimSpace(l)
		n, rest, ok := leadingInt(t)
		if !ok || !strings.HasPrefix(l, "  ") {
			if strings.HasPrefix(t, "[") && strings.Contains(t, "] › ") && r.Failed > 0 && r.Passed == 0 {
				r.failing.add(strings.TrimRight(t, "─ "))
			}
			continue
		}
		switch trimParens(rest) {
		case "passed":
			r.Passed += n
			r.found, r.Counted, r.Summary = true, true, t
		case "failed", "interrupted":
			r.Failed += n
		case "flaky":
			r.Passed += n
		case "skipped", "did not run":
			r.Skipped += n
		}
	}
	return r
}
