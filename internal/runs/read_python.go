package runs

import "strings"

// readPytest reads pytest's closing line (long or -q form) and its
// short test summary.
func readPytest(ls []string) report {
	var r report
	i := last(ls, func(l string) bool { _, ok := pytestCounts(l); return ok })
	if i < 0 {
		return r
	}
	c, _ := pytestCounts(ls[i])
	r.found, r.Counted, r.Summary = true, true, strings.Trim(ls[i], "= ")
	r.Passed = c["passed"] + c["xpassed"]
	r.Failed = c["failed"]
	r.Skipped = c["skipped"] + c["xfailed"]
	r.Errors = c["error"] + c["errors"]
	r.none = c["no tests ran"] > 0 || r.Passed+r.Failed+r.Errors == 0
	for _, l := range ls {
		pytestFailing(&r, l)
	}
	return r
}

// pytestWords are the words of pytest's closing line.
var pytestWords = map[string]bool{"passed": true, "failed": true, "skipped": true, "error": true, "errors": true,
	"xfailed": true, "xpassed": true, "deselected": true, "warning": true, "warnings": true, "rerun": true, "no tests ran": true}

// pytestCounts reads "=== 2 failed, 4 passed, 1 skipped in 0.11s ===" and
// "no tests ran in 0.01s".
func pytestCounts(l string) (map[string]int, bool) {
	l = strings.Trim(l, "= ")
	i := strings.LastIndex(l, " in ")
	if i < 0 || !isDuration(l[i+4:]) {
		return nil, false
	}
	counts := l[:i]
	if counts == "no tests ran" {
		return map[string]int{"no tests ran": 1}, true
	}
	c, ok := countWords(counts, ",")
	for w := range c {
		if !pytestWords[w] {
			return nil, false
		}
	}
	return c, ok && len(c) == len(strings.Split(counts, ","))
}

// isDuration reads "0.11s", "1.20s (0:00:01)".
func isDuration(s string) bool {
	s = trimParens(s)
	_, rest, ok := leadingInt(s)
	if !ok {
		return false
	}
	if strings.HasPrefix(rest, ".") {
		_, rest, ok = leadingInt(rest[1:])
	}
	return ok && rest == "s"
}

// pytestFailing reads "FAILED tests/x.py::test_a - Error: …", "ERROR
// tests/x.py" and -v's "tests/x.py::test_a FAILED [ 50%]".
func pytestFailing(r *report, l string) {
	for _, p := range []string{"FAILED ", "ERROR "} {
		if rest, ok := strings.CutPrefix(l, p); ok {
			name, _, _ := strings.Cut(rest, " - ")
			r.failing.add(name)
			return
		}
	}
	if f := strings.Fields(l); len(f) >= 2 && strings.Contains(f[0], "::") && (f[1] == "FAILED" || f[1] == "ERROR") {
		r.failing.add(f[0])
	}
}

// readUnittest reads "Ran 5 tests in 0.001s" and the verdict after it:
// OK, OK (skipped=1), FAILED (failures=1, errors=2), NO TESTS RAN.
func readUnittest(ls []string) report {
	var r report
	i := last(ls, func(l string) bool { return strings.HasPrefix(l, "Ran ") && strings.Contains(l, " test") })
	if i < 0 {
		return r
	}
	ran, _, ok := leadingInt(ls[i][len("Ran "):])
	if !ok {
		return r
	}
	verdict := ""
	for j := i + 1; j < len(ls) && j < i+4 && verdict == ""; j++ {
		verdict = strings.TrimSpace(ls[j])
	}
	if !strings.HasPrefix(verdict, "OK") && !strings.HasPrefix(verdict, "FAILED") && verdict != "NO TESTS RAN" {
		return r
	}
	_, inner, _ := strings.Cut(verdict, "(")
	c := keyCounts(strings.TrimSuffix(inner, ")"), ",")
	r.found, r.Counted, r.Summary = true, true, ls[i]+": "+verdict
	r.Failed = c["failures"] + c["unexpected successes"]
	r.Errors = c["errors"]
	r.Skipped = c["skipped"] + c["expected failures"]
	r.Passed = max(0, ran-r.Failed-r.Errors-r.Skipped)
	r.bad = strings.HasPrefix(verdict, "FAILED")
	r.none = ran == 0
	for _, l := range ls[:i] {
		unittestFailing(&r, l)
	}
	return r
}

// unittestFailing reads "FAIL: test_a (pkg.mod.Class.test_a)" (3.11+)
// and "ERROR: test_a (pkg.mod.Class)".
func unittestFailing(r *report, l string) {
	rest, ok := strings.CutPrefix(l, "FAIL: ")
	if !ok {
		if rest, ok = strings.CutPrefix(l, "ERROR: "); !ok {
			return
		}
	}
	name, where, ok := strings.Cut(rest, " (")
	where = strings.TrimSuffix(where, ")")
	switch {
	case !ok || strings.HasPrefix(where, "unittest.loader."):
		r.failing.add(name)
	case strings.HasSuffix(where, "."+name):
		r.failing.add(where)
	default:
		r.failing.add(where + "." + name)
	}
}
