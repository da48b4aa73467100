package testcheck

import (
	"bytes"
	"context"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/tests/brace"
	"github.com/cairn-dev/cairn/internal/check/tests/golang"
	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"
	"github.com/cairn-dev/cairn/internal/check/tests/python"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Checker is the tests validator.
type Checker struct{}

// New returns the tests validator.
func New() *Checker { return &Checker{} }

// Name is "tests".
func (*Checker) Name() string { return "tests" }

// Rules lists the rules of the tests validator.
func (*Checker) Rules() []check.Rule {
	return []check.Rule{
		{ID: scan.RuleSyntax, Severity: check.Error, Title: "Test file does not parse",
			Why:  "A Go test file with a syntax error fails the package's build, so none of its tests run. For the other languages the file could not be tokenized (an unclosed string, comment or bracket) and was not checked; that finding is a warning.",
			Fix:  "Fix the syntax at the position given.",
			Bad:  "func TestParse(t *testing.T) {\n\tgot := Parse(\"x\"\n}",
			Good: "func TestParse(t *testing.T) {\n\tgot := Parse(\"x\")\n\t_ = got\n}"},
		{ID: scan.RuleNoAssertion, Severity: check.Warning, Title: "Test asserts nothing",
			Why:  "A test that never checks a result passes whatever the code does (unless it panics or throws): it gives coverage without confidence. Assertions are t.Error*/t.Fatal*/t.Fail*/t.Skip* or *testing.T handed to a helper (testify, a function of the package that calls those) in Go; expect/assert/should, a tape or node:test context's methods, a helper imported from the project in JavaScript; assert, raise, self.assert*, pytest.raises, mock's assert_* in Python; assert*/verify/fail/assertThat in Java; assert*!, panic!, a crate's own test macros, unwrap/expect/? and #[should_panic] in Rust. Examples, benchmarks and fuzz targets are not tests here.",
			Fix:  "Check the result (t.Errorf, expect(...), assert ..., assertEquals). When not failing is the point, say it: assert.NotPanics, expect(() => f()).not.toThrow(), assertDoesNotThrow.",
			Bad:  "func TestParse(t *testing.T) {\n\tParse(\"a=1\")\n}",
			Good: "func TestParse(t *testing.T) {\n\tgot, err := Parse(\"a=1\")\n\tif err != nil || got[\"a\"] != \"1\" {\n\t\tt.Fatalf(\"Parse = %v, %v\", got, err)\n\t}\n}"},
		{ID: scan.RuleEmpty, Severity: check.Warning, Title: "Test body is empty",
			Why:  "An empty test passes and counts as a test: it hides that the behaviour is untested.",
			Fix:  "Write the test, or mark it as a to-do the runner reports (test.todo, t.Skip(\"why\"), @pytest.mark.skip(reason=...), @Disabled(\"why\")).",
			Bad:  "it('rejects an expired token', () => {})",
			Good: "it.todo('rejects an expired token')"},
		{ID: scan.RuleFocused, Severity: check.Error, Title: "Focused test left in",
			Why:  "A focused test (it.only, describe.only, fit, fdescribe, test(..., { only: true }), @pytest.mark.only) makes the runner skip every other test of the file or run, and CI passes on a fraction of the suite.",
			Fix:  "Remove the focus before committing; jest and vitest have --testNamePattern, mocha --grep, go test -run for running one test.",
			Bad:  "describe.only('parser', () => { ... })",
			Good: "describe('parser', () => { ... })",
			Link: "https://github.com/jest-community/eslint-plugin-jest/blob/main/docs/rules/no-focused-tests.md"},
		{ID: scan.RuleSkipped, Severity: check.Warning, Title: "Test skipped without a reason",
			Why:  "A skipped test with no reason is forgotten: nobody knows whether it may be re-enabled, and the runner's report says only SKIP. The reason is an argument (t.Skip(\"...\"), @pytest.mark.skip(reason=...), @unittest.skip(\"...\"), @Disabled(\"...\"), #[ignore = \"...\"]) or, where the runner takes none (it.skip, xit, describe.skip), a comment on the line above or the same line.",
			Fix:  "Say why it is skipped and what re-enables it (an issue, a condition), or delete the test.",
			Bad:  "@pytest.mark.skip\ndef test_upload(): ...",
			Good: "@pytest.mark.skip(reason=\"flaky on CI until #123 lands\")\ndef test_upload(): ...",
			Link: "https://github.com/jest-community/eslint-plugin-jest/blob/main/docs/rules/no-disabled-tests.md"},
		{ID: scan.RuleSleep, Severity: check.Warning, Title: "Sleep used as a wait",
			Why:  "A fixed sleep is either too long (a slow suite) or too short on a loaded CI machine (a flaky test): time.Sleep (Go), await sleep(n) or a setTimeout promise (JS), time.sleep (Python), Thread.sleep (Java), thread::sleep (Rust) in a test's own body. Sleeps inside a loop are taken as polling and not reported.",
			Fix:  "Wait for the condition itself: a channel or WaitGroup, an awaited promise, waitFor/expect.poll, Awaitility, an Event; or use a fake clock.",
			Bad:  "await new Promise((r) => setTimeout(r, 500))\nexpect(cache.size).toBe(0)",
			Good: "await vi.waitFor(() => expect(cache.size).toBe(0))"},
		{ID: scan.RuleMissing, Severity: check.Info, Title: "Source file without tests",
			Why:  "A source file that declares exported functions or classes has no test by its language's convention: foo.go has no foo_test.go and no test of its package names what it declares; src/foo.ts has no foo.test.ts, foo.spec.ts or __tests__/foo.* and no test file imports it; pkg/foo.py has no test_foo.py or foo_test.py and no test imports it; Foo.java has no FooTest/FooTests/TestFoo/FooIT and no test names Foo. Generated files, main.go of a main package, index/barrel files, type-only files and configuration are not expected to have tests.",
			Fix:  "Add a test file by the convention, or ignore the rule for this path when the file is covered another way.",
			Bad:  "internal/parse/parse.go (func Parse) and no test in internal/parse/",
			Good: "internal/parse/parse.go and internal/parse/parse_test.go"},
		{ID: scan.RuleSetenvParallel, Severity: check.Error, Title: "t.Setenv in a parallel test",
			Why:  "The testing package panics when t.Setenv or t.Chdir is called in a test that called t.Parallel (or whose parent did), and when t.Parallel is called after them: the environment and working directory are the process's, shared by the tests that run in parallel.",
			Fix:  "Drop t.Parallel from that test (and its parents), or pass the value some other way than the environment.",
			Bad:  "func TestConfig(t *testing.T) {\n\tt.Parallel()\n\tt.Setenv(\"HOME\", t.TempDir())\n}",
			Good: "func TestConfig(t *testing.T) {\n\tt.Setenv(\"HOME\", t.TempDir())\n}",
			Link: "https://pkg.go.dev/testing#T.Setenv"},
		{ID: scan.RuleGoroutineFatal, Severity: check.Error, Title: "t.Fatal from a goroutine",
			Why:  "t.Fatal, t.FailNow and t.Skip stop the goroutine that calls them; from a goroutine the test started they do not stop the test, which goes on (or hangs) with a failure it does not see in time. go vet's testinggoroutine analyzer reports the same.",
			Fix:  "Call t.Error/t.Errorf in the goroutine (or send the error back on a channel) and t.Fatal on the test's own goroutine.",
			Bad:  "go func() {\n\tif err := srv.Serve(); err != nil {\n\t\tt.Fatal(err)\n\t}\n}()",
			Good: "go func() {\n\tif err := srv.Serve(); err != nil {\n\t\tt.Error(err)\n\t}\n}()",
			Link: "https://pkg.go.dev/golang.org/x/tools/go/analysis/passes/testinggoroutine"},
		{ID: scan.RuleBelow, Severity: check.Error, Title: "Coverage below the threshold",
			Why:  "The project asked for a minimum coverage (the threshold param) and the coverage report says the tests cover less. Coverage is counted as the runner counts it: statements for a Go cover profile, lines for LCOV (LH/LF) and Cobertura.",
			Fix:  "Test the uncovered lines of the changed files (tests/uncovered-lines lists them), or lower the threshold deliberately.",
			Bad:  "threshold=80, coverage.out says 72.5% of statements",
			Good: "threshold=80, coverage.out says 81.0% of statements"},
		{ID: scan.RuleUncovered, Severity: check.Info, Title: "Changed file has uncovered lines",
			Why:  "The lines of a changed file (the changed param, or the files checked) that the coverage report marks as instrumented and never run: new code no test executes.",
			Fix:  "Add tests that run those lines, or remove the code if nothing needs it.",
			Bad:  "internal/parse/parse.go: lines 12-18, 40 not covered",
			Good: "internal/parse/parse.go: every instrumented line covered"},
	}
}

// Language of a file, for the conventions of its tests.
type lang string

const (
	langGo     lang = "Go"
	langJS     lang = "JavaScript/TypeScript"
	langPython lang = "Python"
	langJava   lang = "Java"
	langRust   lang = "Rust"
)

// skipDirs hold files that are neither the project's tests nor its
// source: vendored and installed code, build output, fixtures.
var skipDirs = map[string]bool{"node_modules": true, "vendor": true, "testdata": true, "fixtures": true, "__fixtures__": true,
	"__testfixtures__": true, "test-fixtures": true, "__snapshots__": true, "__mocks__": true, "dist": true, "build": true, "out": true,
	"coverage": true, ".next": true, ".nuxt": true, ".svelte-kit": true, "target": true, "site-packages": true, ".venv": true,
	"venv": true, "__pycache__": true, ".tox": true, ".nox": true, "bower_components": true, "third_party": true, ".git": true,
	".cairn": true, ".yarn": true}

// testDirs are directories whose JavaScript and Python files are tests.
var testDirs = map[string]bool{"__tests__": true, "test": true, "tests": true, "spec": true, "specs": true, "e2e": true, "cypress": true}

var jsExts = map[string]bool{".js": true, ".jsx": true, ".ts": true, ".tsx": true, ".mjs": true, ".cjs": true, ".mts": true, ".cts": true}

// classify says a file's language and whether it is a test by its
// language's convention; ok is false for files this check does not read.
func classify(p string) (l lang, test, ok bool) {
	dirs := strings.Split(path.Dir(p), "/")
	for _, d := range dirs {
		if skipDirs[d] {
			return "", false, false
		}
	}
	base := path.Base(p)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	inTestDir := slices.ContainsFunc(dirs, func(d string) bool { return testDirs[d] })
	switch {
	case ext == ".go":
		return langGo, strings.HasSuffix(base, "_test.go"), true
	case ext == ".py":
		return langPython, strings.HasPrefix(base, "test_") || strings.HasSuffix(stem, "_test") || base == "tests.py" ||
			inTestDir && strings.HasPrefix(base, "test"), true
	case ext == ".java":
		return langJava, strings.HasSuffix(stem, "Test") || strings.HasSuffix(stem, "Tests") || strings.HasSuffix(stem, "IT") ||
			strings.HasSuffix(stem, "TestCase") || strings.HasPrefix(stem, "Test") && len(stem) > 4 ||
			strings.Contains(p, "src/test/"), true
	case ext == ".rs":
		return langRust, true, true // tests live beside the code (#[cfg(test)]) or under tests/
	case jsExts[ext]:
		if strings.HasSuffix(stem, ".d") || strings.HasSuffix(stem, ".min") || strings.HasSuffix(stem, ".bundle") {
			return "", false, false
		}
		return langJS, jsTestName(stem) || inTestDir, true
	}
	return "", false, false
}

// jsTestName reports whether a file stem (its name less the extension)
// names a test: foo.test, foo.spec, foo.cy, foo_test, test, spec.
func jsTestName(stem string) bool {
	for _, s := range []string{".test", ".spec", ".cy", ".e2e", "_test", "-test", "_spec", "-spec"} {
		if strings.HasSuffix(stem, s) || strings.Contains(stem, s+".") {
			return true
		}
	}
	return stem == "test" || stem == "tests" || stem == "spec"
}

// Wants takes the test files of Go, JavaScript/TypeScript, Python, Java
// and Rust by their runners' conventions, and those languages' source
// files (for tests/missing-tests; every .rs file, since Rust tests live
// beside the code); not vendored, installed, built or fixture files.
func (*Checker) Wants(p string, head []byte) bool {
	_, _, ok := classify(p)
	return ok
}

// params are the checker's options, read and checked.
type params struct {
	coverage  string
	threshold float64
	changed   []string
	missing   bool
}

func readParams(m map[string]string) (params, error) {
	p := params{missing: true}
	for k, v := range m {
		v = strings.TrimSpace(v)
		switch k {
		case "coverage":
			p.coverage = strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(v, "\\", "/")), "/")
			if v == "" {
				p.coverage = ""
			}
		case "threshold":
			if v == "" {
				continue
			}
			f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
			if err != nil || f < 0 || f > 100 {
				return p, &problem.FieldError{Field: "threshold", Problem: problem.Quote(v) + " is not a percentage from 0 to 100",
					Fix: "give the minimum coverage as a number, 80 or 72.5 (0 reports coverage without a minimum)"}
			}
			p.threshold = f
		case "changed":
			for c := range strings.SplitSeq(v, ",") {
				if c = strings.TrimSpace(c); c != "" {
					p.changed = append(p.changed, strings.TrimPrefix(path.Clean("/"+c), "/"))
				}
			}
		case "missing":
			if v == "" {
				continue
			}
			b, err := strconv.ParseBool(v)
			if err != nil {
				return p, &problem.FieldError{Field: "missing", Problem: problem.Quote(v) + " is not true or false",
					Fix: "give missing=false to leave out tests/missing-tests, true (the default) to report it"}
			}
			p.missing = b
		default:
			return p, &problem.FieldError{Field: k, Problem: "is not a param of the tests check",
				Fix: "use coverage (a cover profile, lcov.info or Cobertura XML), threshold (a percentage), changed (comma-separated paths) or missing (true/false)"}
		}
	}
	return p, nil
}

// Check checks the test files given, the source files for missing tests,
// and the coverage report when there is one.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	var res check.Result
	p, err := readParams(in.Params)
	if err != nil {
		return res, err
	}
	goPkgs := map[string]*golang.GoPkg{}
	var goDirs []string
	var sources []check.File
	var covFiles []check.File
	for _, f := range in.Files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		l, test, ok := classify(f.Path)
		if !ok && coverageFormat(f.Path, f.Content) != "" {
			covFiles = append(covFiles, f)
			continue
		}
		if !ok {
			// named outright: read it by its extension
			if l = langOf(f.Path); l == "" {
				res.Skipped = append(res.Skipped, check.Skipped{Path: f.Path, Reason: "not a Go, JavaScript/TypeScript, Python, Java or Rust file, nor a coverage report"})
				continue
			}
		}
		if in.Source == nil {
			test = true // inline content is read as the test it is given as
		}
		if !test {
			sources = append(sources, f)
			continue
		}
		switch l {
		case langGo:
			dir := path.Dir(f.Path)
			pkg := goPkgs[dir]
			if pkg == nil {
				pkg = golang.NewGoPkg()
				goPkgs[dir] = pkg
				goDirs = append(goDirs, dir)
			}
			res.Findings = append(res.Findings, pkg.Add(f.Path, f.Content, true)...)
		case langJS:
			ext := path.Ext(f.Path)
			res.Findings = append(res.Findings, brace.CheckJS(f, ext == ".jsx" || ext == ".tsx" || ext == ".js" || ext == ".mjs" || ext == ".cjs")...)
		case langPython:
			res.Findings = append(res.Findings, python.CheckPython(f)...)
		case langJava:
			res.Findings = append(res.Findings, brace.CheckJava(f)...)
		case langRust:
			if bytes.Contains(f.Content, []byte("test")) {
				res.Findings = append(res.Findings, brace.CheckRust(f)...)
			}
		}
	}
	for _, dir := range goDirs {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		pkg := goPkgs[dir]
		if in.Source != nil { // the package's other test files hold helpers too
			if files, err := in.Source.Files(dir); err == nil {
				for _, other := range files {
					if path.Dir(other) != dir || !strings.HasSuffix(other, "_test.go") || pkg.Checked[other] {
						continue
					}
					if _, known := pkg.Checked[other]; known {
						continue
					}
					if b, err := in.Source.ReadFile(other); err == nil {
						pkg.Add(other, b, false)
					}
				}
			}
		}
		res.Findings = append(res.Findings, pkg.Check()...)
	}
	if p.missing && len(sources) > 0 {
		if in.Source == nil {
			res.Notes = append(res.Notes, "tests/missing-tests needs the project's files; inline content was not checked for it")
		} else {
			m, err := missingTests(ctx, in.Source, sources)
			if err != nil {
				return res, err
			}
			res.Findings = append(res.Findings, m.findings...)
			res.Notes = append(res.Notes, m.notes...)
		}
	}
	cov, err := coverage(ctx, in, p, covFiles)
	if err != nil {
		return res, err
	}
	res.Findings = append(res.Findings, cov.Findings...)
	res.Notes = append(res.Notes, cov.Notes...)
	res.Skipped = append(res.Skipped, cov.Skipped...)
	return res, nil
}

// langOf is a file's language by its extension alone.
func langOf(p string) lang {
	switch ext := path.Ext(p); {
	case ext == ".go":
		return langGo
	case ext == ".py":
		return langPython
	case ext == ".java":
		return langJava
	case ext == ".rs":
		return langRust
	case jsExts[ext]:
		return langJS
	}
	return ""
}
