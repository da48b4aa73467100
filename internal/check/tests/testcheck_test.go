package testcheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

func TestRulesAreDescribed(t *testing.T) {
	checktest.Rules(t, New())
	for _, r := range New().Rules() {
		if r.Bad == "" || r.Good == "" {
			t.Errorf("rule %s: Bad and Good examples are wanted", r.ID)
		}
	}
}

func TestCorpus(t *testing.T) {
	tally := checktest.Corpus(t, New(), "testdata/corpus", map[string]string{"threshold": "50"})
	t.Log(tally)
	if tally.ValidFiles < 15 || tally.Seeded < 40 {
		t.Errorf("the corpus shrank: %v", tally)
	}
}

// TestValidCorpusIsClean holds the hand-written valid files to more than
// checktest does: no warning either, only the coverage and missing-tests
// information a project gets.
func TestValidCorpusIsClean(t *testing.T) {
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: "testdata/corpus/valid"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		t.Errorf("valid file: %s", f)
	}
}

// run runs the checker over a directory of files written for the test.
func run(t *testing.T, files map[string]string, params map[string]string) *check.Report {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root, Params: map[string]map[string]string{"tests": params}})
	if err != nil {
		t.Fatal(err)
	}
	checktest.Declared(t, New(), rep.Findings)
	return rep
}

// inline checks one file given inline, as an agent gives a snippet.
func inline(t *testing.T, name, content string) []check.Finding {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Inline: &check.File{Path: name, Content: []byte(content)}})
	if err != nil {
		t.Fatal(err)
	}
	return rep.Findings
}

// brief is a finding as "LINE RULE", for comparing.
func brief(fs []check.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%d %s", f.Line, f.Rule))
	}
	return out
}

func TestInlineSnippets(t *testing.T) {
	tests := []struct {
		name, file, src string
		want            []string
	}{
		{"go test without assertion", "x_test.go", "package x\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {\n\tX()\n}\n",
			[]string{"5 tests/no-assertion"}},
		{"go subtest asserts", "x_test.go", "package x\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {\n\tt.Run(\"a\", func(t *testing.T) { t.Error(1) })\n}\n", nil},
		{"go renamed testing import", "x_test.go", "package x\n\nimport tt \"testing\"\n\nfunc TestX(t *tt.T) {\n}\n",
			[]string{"5 tests/empty-test"}},
		{"go helper method on a local type", "x_test.go", "package x\n\nimport \"testing\"\n\ntype h struct{}\n\nfunc (h) check(t *testing.T) { t.Log(1) }\n\nfunc TestX(t *testing.T) {\n\th{}.check(t)\n}\n",
			[]string{"9 tests/no-assertion"}},
		{"go Skipf with reason", "x_test.go", "package x\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) {\n\tt.Skipf(\"needs %s\", \"docker\")\n}\n", nil},
		{"go examples and benchmarks are not tests", "x_test.go", "package x\n\nimport \"testing\"\n\nfunc ExampleX() {}\n\nfunc BenchmarkX(b *testing.B) {}\n\nfunc Testable(t *testing.T) {}\n", nil},
		{"jest concise arrow", "a.test.js", "test('adds', () => expect(1 + 1).toBe(2))\n", nil},
		{"jest concise arrow without assertion", "a.test.js", "test('adds', () => add(1, 1))\n", []string{"1 tests/no-assertion"}},
		{"helper defined in the file", "a.test.ts", "const check = (x: number) => { expect(x).toBe(1) }\nit('one', () => { check(1) })\n", nil},
		{"helper imported from test utils", "a.test.ts", "import { renderPage } from '../test-utils'\nit('renders', async () => { await renderPage('/') })\n", nil},
		{"code under test imported relatively", "a.test.ts", "import { run } from './run'\nit('runs', () => { run() })\n", []string{"2 tests/no-assertion"}},
		{"string that looks like a test", "a.test.js", "const s = \"it.only('x', () => {})\"\nconst r = /it.only\\(/\nit('ok', () => { expect(s).toMatch(r) })\n", nil},
		{"skip with reason comment on the same line", "a.test.js", "it.skip('x', () => { expect(1).toBe(2) }) // broken until #12\n", nil},
		{"python assert in a nested with", "test_a.py", "def test_a():\n    with open('f') as f:\n        assert f.read()\n", nil},
		{"python one-line body", "test_a.py", "def test_a(): assert 1\n", nil},
		{"python helper that does not assert", "test_a.py", "def helper():\n    return 1\n\ndef test_a():\n    helper()\n", []string{"4 tests/no-assertion"}},
		{"python pytest.skip with reason", "test_a.py", "import pytest\n\ndef test_a():\n    pytest.skip('no network')\n", nil},
		{"python skip positional reason", "test_a.py", "import pytest\n\n@pytest.mark.skip('flaky, #3')\ndef test_a():\n    assert 0\n", nil},
		{"java junit3", "LegacyTest.java", "import junit.framework.TestCase;\npublic class LegacyTest extends TestCase {\n  public void testNothing() {\n    new Object();\n  }\n  public void testSum() { assertEquals(2, 1 + 1); }\n}\n",
			[]string{"3 tests/no-assertion"}},
		{"java inherited helper", "FooTest.java", "class FooTest extends BaseTest {\n  @Test void x() { runScenario(\"a\"); }\n}\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := brief(inline(t, tt.file, tt.src))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParams(t *testing.T) {
	tests := []struct {
		params map[string]string
		field  string
	}{
		{map[string]string{"threshold": "eighty"}, "threshold"},
		{map[string]string{"threshold": "101"}, "threshold"},
		{map[string]string{"missing": "perhaps"}, "missing"},
		{map[string]string{"treshold": "80"}, "treshold"},
		{map[string]string{"coverage": "nope.out"}, "coverage"},
		{map[string]string{"coverage": "a_test.go"}, "coverage"},
	}
	for _, tt := range tests {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, "a_test.go"), []byte("package a\n"), 0o644)
		_, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root, Params: map[string]map[string]string{"tests": tt.params}})
		fe, ok := errors.AsType[*problem.FieldError](err)
		if !ok || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("params %v: got %v, want a FieldError on %s", tt.params, err, tt.field)
			continue
		}
		if fe.Fix == "" {
			t.Errorf("params %v: the error says no fix", tt.params)
		}
	}
}

func TestMissingTestsConventions(t *testing.T) {
	rep := run(t, map[string]string{
		"go.mod":                     "module example.com/m\n",
		"a/a.go":                     "package a\n\nfunc A() {}\n",
		"a/other_test.go":            "package a\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) { A(); t.Log() }\n",
		"b/b.go":                     "package b\n\nfunc B() {}\n",
		"cmd/tool/main.go":           "package main\n\nfunc main() {}\n",
		"c/gen.go":                   "// Code generated by stringer. DO NOT EDIT.\n\npackage c\n\nfunc C() {}\n",
		"web/src/util.ts":            "export function add(a: number, b: number) { return a + b }\n",
		"web/src/tested.ts":          "export function sub(a: number, b: number) { return a - b }\n",
		"web/src/index.ts":           "export * from './util'\n",
		"web/test/sub.spec.ts":       "import { sub } from '../src/tested'\nit('subtracts', () => expect(sub(2, 1)).toBe(1))\n",
		"app/pkg/mod.py":             "def public():\n    return 1\n",
		"app/pkg/other.py":           "def other():\n    return 2\n",
		"app/tests/test_x.py":        "from app.pkg.other import other\n\ndef test_other():\n    assert other() == 2\n",
		"src/main/java/a/B.java":     "package a;\npublic class B {\n  public int b() { return 1; }\n}\n",
		"src/test/java/a/XTest.java": "package a;\nclass XTest {\n  @Test void x() { assertEquals(1, 1); }\n}\n",
	}, nil)
	var got []string
	for _, f := range rep.Findings {
		if f.Rule == scan.RuleMissing {
			got = append(got, f.File)
		}
	}
	want := []string{"app/pkg/mod.py", "b/b.go", "src/main/java/a/B.java", "web/src/util.ts"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("missing-tests files (-want +got):\n%s", diff)
	}
}

func TestMissingTestsNoteWhenALanguageHasNoTests(t *testing.T) {
	rep := run(t, map[string]string{"a.py": "def f():\n    return 1\n"}, nil)
	if len(rep.Findings) != 0 || !slices.ContainsFunc(rep.Notes, func(n string) bool { return strings.Contains(n, "no Python test files") }) {
		t.Errorf("findings %v, notes %v", rep.Findings, rep.Notes)
	}
}

// goModuleDir is the directory of a module of go.mod in the module cache,
// "" when it is not there.
func goModuleDir(t *testing.T, mod string) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	if err != nil {
		return ""
	}
	dir := strings.TrimSpace(string(out))
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// knownReal are the errors found in real files that are real defects, not
// false errors: each was read and confirmed.
var knownReal = map[string]string{
	// t.Fatalf in a goroutine the test starts; go vet's testinggoroutine says so too
	"unix/syscall_zos_test.go:2121 tests/fatal-in-goroutine": "golang.org/x/sys",
	"unix/syscall_zos_test.go:2128 tests/fatal-in-goroutine": "golang.org/x/sys",
	// a describe.only published in the package: the file's other suites do not run
	"src/tests/createSlice.test.ts:375 tests/focused": "@reduxjs/toolkit",
}

// realTally runs the checker over a real directory and counts its test
// files, findings and false errors.
func realTally(t *testing.T, name, dir string) (tests, findings, falseErrors, real int) {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: dir,
		Params: map[string]map[string]string{"tests": {"missing": "false"}}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	files, _ := (&dirLister{dir}).list()
	for _, f := range files {
		if _, test, ok := classify(f); ok && test {
			tests++
		}
	}
	for _, f := range rep.Findings {
		findings++
		if f.Severity != check.Error {
			continue
		}
		if knownReal[fmt.Sprintf("%s:%d %s", f.File, f.Line, f.Rule)] == name {
			real++
			continue
		}
		falseErrors++
		t.Errorf("%s: false error: %s", name, f)
	}
	return tests, findings, falseErrors, real
}

type dirLister struct{ root string }

func (d *dirLister) list() ([]string, error) {
	var out []string
	err := filepath.WalkDir(d.root, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(d.root, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	return out, err
}

// TestRealGoTestFiles runs the checker over the test files of the Go
// modules Cairn depends on: real tests nobody here wrote, which must give
// no false error.
func TestRealGoTestFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the module cache")
	}
	mods := []string{"github.com/google/go-cmp", "github.com/spf13/cobra", "github.com/jackc/pgx/v5", "github.com/go-git/go-git/v5",
		"github.com/modelcontextprotocol/go-sdk", "golang.org/x/sys", "golang.org/x/net", "golang.org/x/text", "github.com/spf13/pflag",
		"github.com/segmentio/encoding", "go.yaml.in/yaml/v3", "github.com/bmatcuk/doublestar/v4", "github.com/chromedp/chromedp"}
	var total, findings, falseErrs, real, seen int
	for _, m := range mods {
		dir := goModuleDir(t, m)
		if dir == "" {
			t.Logf("%s is not in the module cache", m)
			continue
		}
		seen++
		n, f, fe, r := realTally(t, m, dir)
		total, findings, falseErrs, real = total+n, findings+f, falseErrs+fe, real+r
	}
	if seen == 0 {
		t.Skip("no module of go.mod is in the module cache")
	}
	t.Logf("real Go: %d modules, %d test files, %d findings, %d false errors, %d real defects", seen, total, findings, falseErrs, real)
}

// TestRealNPMTestFiles runs the checker over the test files npm packages
// ship (testdata/corpus.txt): vitest, jest, tape, TSX, and gyp's Python.
func TestRealNPMTestFiles(t *testing.T) {
	pkgs := []string{"zod", "@tanstack/react-query", "@tanstack/query-core", "@reduxjs/toolkit", "qs", "minimist", "resolve", "node-gyp"}
	var total, findings, falseErrs, real int
	for _, p := range pkgs {
		dir := checktest.External(t, p)
		n, f, fe, r := realTally(t, p, dir)
		t.Logf("%s: %d test files, %d findings", p, n, f)
		total, findings, falseErrs, real = total+n, findings+f, falseErrs+fe, real+r
	}
	t.Logf("real npm: %d test files, %d findings, %d false errors, %d real defects", total, findings, falseErrs, real)
	if total < 300 {
		t.Errorf("only %d real test files were read", total)
	}
}

// TestRealRustTestFiles runs the checker over the Rust crates Debian's
// librust-*-dev packages install, when the machine has them (they are not
// part of CI's corpus: apt-get install librust-anyhow-dev and the like).
func TestRealRustTestFiles(t *testing.T) {
	const dir = "/usr/share/cargo/registry"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("no Rust crates installed at " + dir)
	}
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: dir,
		Params: map[string]map[string]string{"tests": {"missing": "false"}}})
	if err != nil {
		t.Fatal(err)
	}
	files, _ := (&dirLister{dir}).list()
	var withTests int
	for _, f := range files {
		if strings.HasSuffix(f, ".rs") {
			if b, err := os.ReadFile(filepath.Join(dir, f)); err == nil && strings.Contains(string(b), "#[test]") {
				withTests++
			}
		}
	}
	by := map[string]int{}
	for _, f := range rep.Findings {
		by[string(f.Severity)+" "+f.Rule]++
		if f.Severity == check.Error || os.Getenv("RUST_FINDINGS") != "" {
			t.Log(f)
		}
		if f.Severity == check.Error {
			t.Errorf("false error: %s", f)
		}
	}
	t.Logf("real Rust: %d files with #[test], findings %v", withTests, by)
}
