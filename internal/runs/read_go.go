package runs

import (
	"fmt"
	"strings"
)

// goRun is what go test's lines add up to.
type goRun struct {
	report
	verbose            bool // === RUN lines: the counts are whole
	ok, noRun, noFiles int  // packages
	failedPkgs         []string
	failedNames        []string
}

// maxGoFailing bounds the failing tests (and subtests) remembered, of
// which the first few are kept.
const maxGoFailing = 64

// readGo reads go test output, text (-v or not) or -json (whose events
// outputLines has turned into the text they carry).
func readGo(ls []string) report {
	var g goRun
	for _, l := range ls {
		g.line(l)
	}
	return g.done()
}

func (g *goRun) line(l string) {
	trimmed := strings.TrimLeft(l, " \t")
	switch {
	case strings.HasPrefix(trimmed, "--- "):
		g.result(trimmed)
	case strings.HasPrefix(l, "=== RUN"):
		g.verbose, g.found = true, true
	case strings.HasPrefix(l, "ok  \t") || strings.HasPrefix(l, "ok \t"):
		g.ok++
		g.found = true
		if strings.Contains(l, "[no tests to run]") {
			g.noRun++
		}
	case strings.HasPrefix(l, "FAIL\t"):
		g.found, g.bad = true, true
		fields := strings.Fields(l)
		pkg := fields[min(1, len(fields)-1)]
		if strings.Contains(l, "[build failed]") || strings.Contains(l, "[setup failed]") {
			g.Errors++
			pkg += " [build failed]"
		}
		g.failedPkgs = append(g.failedPkgs, pkg)
	case strings.HasPrefix(l, "?   \t") && strings.Contains(l, "[no test files]"):
		g.noFiles++
		g.found = true
	case l == "FAIL" || strings.HasPrefix(l, "panic: "):
		g.bad = true
	}
}

// result reads a --- PASS/FAIL/SKIP line; only top-level tests count
// (-json output does not indent subtests: their names tell).
func (g *goRun) result(l string) {
	verdict, rest, ok := strings.Cut(l[len("--- "):], ": ")
	if !ok {
		return
	}
	name, _, _ := strings.Cut(rest, " ")
	top := !strings.Contains(name, "/")
	switch verdict {
	case "PASS":
		if top {
			g.Passed++
		}
	case "FAIL":
		if len(g.failedNames) < maxGoFailing {
			g.failedNames = append(g.failedNames, name)
		}
		if top {
			g.Failed++
		}
	case "SKIP":
		if top {
			g.Skipped++
		}
	default:
		return
	}
	g.found = true
}

func (g *goRun) done() report {
	r := g.report
	r.Counted = g.verbose
	for _, n := range g.failedNames {
		if !hasChild(g.failedNames, n) {
			r.failing.add(n)
		}
	}
	results := r.Passed + r.Failed + r.Skipped
	r.none = results == 0 && len(g.failedPkgs) == 0 && g.ok == g.noRun && g.ok+g.noFiles > 0
	r.Summary = g.summary()
	return r
}

// hasChild reports whether a failing subtest of name is in ns: the
// subtest is the one worth naming.
func hasChild(ns []string, name string) bool {
	for _, n := range ns {
		if strings.HasPrefix(n, name+"/") {
			return true
		}
	}
	return false
}

func (g *goRun) summary() string {
	var parts []string
	if g.verbose {
		parts = append(parts, fmt.Sprintf("%d passed, %d failed, %d skipped", g.Passed, g.Failed, g.Skipped))
	} else if g.Failed > 0 {
		parts = append(parts, fmt.Sprintf("%d failed", g.Failed))
	}
	if g.ok > 0 {
		parts = append(parts, plural(g.ok, "package")+" ok")
	}
	if n := len(g.failedPkgs); n > 0 {
		parts = append(parts, fmt.Sprintf("%s FAIL (%s)", plural(n, "package"), strings.Join(g.failedPkgs[:min(n, 3)], ", ")))
	}
	if g.noFiles > 0 {
		parts = append(parts, plural(g.noFiles, "package")+" without tests")
	}
	return strings.Join(parts, "; ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
