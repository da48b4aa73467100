package runs

import (
	"strings"
	"testing"
)

// wantFailure is the kind and line a failure should keep.
type wantFailure struct{ kind, line string }

// failureFixtures are the expectations for testdata/failures: each
// language's usual runtime, compile and shell failures.
var failureFixtures = map[string]wantFailure{
	"cargo-no-command":         {"", "error: no such command: `nosuchcmd`"},
	"curl-refused":             {"", "curl: (7) Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server"},
	"git-not-repo":             {"", "fatal: not a git repository (or any of the parent directories): .git"},
	"go-build-dir":             {"", "go: build output \"compile\" already exists and is a directory"},
	"go-compile":               {"", "compile/main.go:5:2: \"os\" imported and not used"},
	"go-deadlock":              {"fatal error", "fatal error: all goroutines are asleep - deadlock!"},
	"go-log-fatal":             {"", "2026/11/29 07:36:15 load config: open /etc/ledger/config.yaml: no such file or directory"},
	"go-nil-map":               {"panic", "panic: assignment to entry in nil map"},
	"go-no-package":            {"", "stat /tmp/fx/gorun/nosuchdir: directory not found"},
	"go-vet":                   {"", "vet: compile/main.go:9:14: cannot use \"three\" (untyped string constant) as int value in variable declaration"},
	"grep-no-match":            {"", ""},
	"java-caused-by":           {"java.nio.file.NoSuchFileException", "Caused by: java.nio.file.NoSuchFileException: /etc/app/config.properties"},
	"java-class-not-found":     {"java.lang.ClassNotFoundException", "Caused by: java.lang.ClassNotFoundException: NoSuchMain"},
	"java-compile":             {"", "Broken.java:3: error: incompatible types: String cannot be converted to int"},
	"java-illegal-state":       {"java.lang.IllegalStateException", "Exception in thread \"main\" java.lang.IllegalStateException: ledger is closed"},
	"java-npe":                 {"java.lang.NullPointerException", "Exception in thread \"main\" java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"<local1>\" is null"},
	"kubectl-refused":          {"", "The connection to the server localhost:8080 was refused - did you specify the right host or port?"},
	"make-inner-gcc":           {"", "main.c:2:33: error: ‘count’ undeclared (first use in this function)"},
	"make-inner-python":        {"", "migrate: 0007_accounts.sql: column \"currency\" already exists"},
	"make-no-rule":             {"", "make: *** No rule to make target 'deploy-prod'. Stop."},
	"node-error":               {"Error", "Error: negative amount: -5"},
	"node-module-not-found":    {"ERR_MODULE_NOT_FOUND", "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/tmp/fx/node/lib/helper.js' imported from /tmp/fx/node/esm.mjs"},
	"node-require-missing":     {"Error", "Error: Cannot find module 'express'"},
	"node-syntax":              {"SyntaxError", "SyntaxError: Unexpected number"},
	"node-typeerror":           {"TypeError", "TypeError: Cannot read properties of undefined (reading 'host')"},
	"node-unhandled-rejection": {"RangeError", "RangeError: user id out of range: 99"},
	"npm-missing-script":       {"", "npm error Missing script: \"lint\""},
	"npm-run-enoent":           {"ENOENT", "Error: ENOENT: no such file or directory, open 'src/index.html'"},
	"py-calledprocess":         {"subprocess.CalledProcessError", "subprocess.CalledProcessError: Command '['ls', '/nonexistent-dir']' returned non-zero exit status 2."},
	"py-chained":               {"ConfigError", "ConfigError: config is not JSON: Expecting property name enclosed in double quotes"},
	"py-filenotfound":          {"FileNotFoundError", "FileNotFoundError: [Errno 2] No such file or directory: 'missing.csv'"},
	"py-keyerror":              {"KeyError", "KeyError: 'pear'"},
	"py-modulenotfound":        {"ModuleNotFoundError", "ModuleNotFoundError: No module named 'pandas'"},
	"py-syntax":                {"SyntaxError", "SyntaxError: expected ':'"},
	"py-sysexit":               {"", "error: missing --input flag"},
	"py-valueerror":            {"ValueError", "ValueError: could not convert string to float: 'name'"},
	"py-zerodiv":               {"ZeroDivisionError", "ZeroDivisionError: division by zero"},
	"python-no-file":           {"No such file or directory", "/root/.pyenv/versions/3.11.7/bin/python3: can't open file '/tmp/fx/sh/nosuch.py': [Errno 2] No such file or directory"},
	"rust-compile":             {"E0425", "error[E0425]: cannot find value `totl` in this scope"},
	"rust-index-panic":         {"panic", "thread 'main' (28671) panicked at src/main.rs:12:21: index out of bounds: the len is 3 but the index is 5"},
	"rust-unwrap-none":         {"panic", "thread 'main' (28843) panicked at src/main.rs:8:36: called `Option::unwrap()` on a `None` value"},
	"sh-cd-missing":            {"No such file or directory", "bash: line 1: cd: services/api: No such file or directory"},
	"sh-command-not-found":     {"command not found", "bash: line 1: rgx: command not found"},
	"sh-no-such-file":          {"No such file or directory", "cat: config/settings.yaml: No such file or directory"},
	"sh-permission":            {"Permission denied", "bash: line 1: ./deploy.sh: Permission denied"},
	"sh-sh-not-found":          {"command not found", "sh: 1: deploytool: not found"},
	"terraform-no-config":      {"Error", "Error: No configuration files"},
}

// testFailureFixtures are the expectations for the failed runs in
// testdata/tests.
var testFailureFixtures = map[string]wantFailure{
	"bun-error":              {"", "error: Cannot find module '../nosuch.ts' from '/tmp/fx/bd/bad/bad.test.ts'"},
	"bun-fail":               {"TypeError", "TypeError: null is not an object (evaluating 'JSON.parse(s).value.amount')"},
	"bun-notests":            {"", "The following filters did not match any test files:"},
	"cargo-build-error":      {"E0308", "error[E0308]: mismatched types"},
	"cargo-fail":             {"panic", "thread 'tests::parses' (27933) panicked at src/lib.rs:11:22: called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }"},
	"ctest-fail-output":      {"", "2 - add_large (Failed)"},
	"ctest-fail":             {"", "2 - add_large (Failed)"},
	"deno-error":             {"TS2307", "TS2307 [ERROR]: Cannot find module 'file:///tmp/fx/bd/nosuch.ts'."},
	"deno-fail":              {"TypeError", "TypeError: Cannot read properties of null (reading 'amount')"},
	"deno-notests":           {"", "error: No test modules found"},
	"deno-typecheck":         {"TS2305", "TS2305 [ERROR]: Module '\"node:assert/strict\"' has no exported member 'assertEquals'."},
	"go-build-error":         {"", "broken/broken.go:6:3: undefined: totl"},
	"go-fail-json":           {"", "--- FAIL: TestAddLarge: calc_test.go:13: Add(200, 1) = 202, want 201"},
	"go-fail-multi":          {"panic", "panic: runtime error: index out of range [5] with length 3"},
	"go-fail-v":              {"", "--- FAIL: TestAddLarge: calc_test.go:13: Add(200, 1) = 202, want 201"},
	"go-fail":                {"", "--- FAIL: TestAddLarge: calc_test.go:13: Add(200, 1) = 202, want 201"},
	"go-panic":               {"panic", "panic: runtime error: index out of range [5] with length 3"},
	"jest-error":             {"SyntaxError", "SyntaxError: /tmp/js/jest/broken/broken.test.js: Unexpected token (5:0)"},
	"jest-fail":              {"", "● calc › adds large numbers: expect(received).toBe(expected) // Object.is equality"},
	"jest-notests":           {"", "No tests found, exiting with code 1"},
	"make-test-ctest":        {"", "2 - add_large (Failed)"},
	"make-test-go-fail":      {"", "--- FAIL: TestAddLarge: calc_test.go:13: Add(200, 1) = 202, want 201"},
	"minitest-fail":          {"ArgumentError", "ArgumentError: invalid value for Integer(): \"x12\""},
	"mix-error":              {"SyntaxError", "** (SyntaxError) lib/broken.ex:1:35: unexpected reserved word: end. The \"(\" at line 1 is missing terminator \")\""},
	"mix-fail":               {"ArgumentError", "** (ArgumentError) errors were found at the given arguments: * 1st argument: not a textual representation of an integer"},
	"mix-notests":            {"", "The --only option was given to \"mix test\" but no test was executed"},
	"mocha-error":            {"", "Exception during run: Error: Cannot find module './missing-helper'"},
	"mocha-fail":             {"TypeError", "TypeError: Cannot read properties of null (reading 'amount')"},
	"mocha-notests":          {"Error", "Error: No test files found"},
	"mvn-compile-error":      {"", "/tmp/fx/java/src/main/java/calc/Calc.java:[5,77] cannot find symbol"},
	"mvn-fail-q":             {"", "CalcTest.addsLarge:9 expected:<201> but was:<202>"},
	"mvn-fail":               {"", "CalcTest.addsLarge:9 expected:<201> but was:<202>"},
	"node-test-fail":         {"", "not ok 1 - adds large numbers: Expected values to be strictly equal:"},
	"npm-run-vitest-fail":    {"AssertionError", "FAIL vt/fail/calc.test.mjs > calc > adds large numbers: AssertionError: expected 202 to be 201 // Object.is equality"},
	"npm-test-jest-fail":     {"", "● calc › adds large numbers: expect(received).toBe(expected) // Object.is equality"},
	"phpunit-error":          {"ParseError", "PHP Fatal error: Uncaught ParseError: syntax error, unexpected token \"}\" in /tmp/fx/php/bad/BadTest.php:4"},
	"phpunit-fail":           {"DivisionByZeroError", "DivisionByZeroError: Division by zero"},
	"pytest-deselected":      {"", "8 deselected in 0.04s"},
	"pytest-error":           {"ModuleNotFoundError", "ModuleNotFoundError: No module named 'numpy_not_installed'"},
	"pytest-fail-q":          {"ZeroDivisionError", "FAILED tests/test_stats.py::test_mean_empty - ZeroDivisionError: division by zero"},
	"pytest-fail-v":          {"ZeroDivisionError", "FAILED tests/test_stats.py::test_mean_empty - ZeroDivisionError: division by zero"},
	"pytest-fail-x":          {"ZeroDivisionError", "FAILED tests/test_stats.py::test_mean_empty - ZeroDivisionError: division by zero"},
	"pytest-fail":            {"ZeroDivisionError", "FAILED tests/test_stats.py::test_mean_empty - ZeroDivisionError: division by zero"},
	"pytest-notests":         {"", "no tests ran in 0.01s"},
	"rspec-error":            {"LoadError", "LoadError: cannot load such file -- /tmp/fx/rb/lib/nosuch"},
	"rspec-fail":             {"ArgumentError", "ArgumentError: invalid value for Integer(): \"x12\""},
	"unittest-error":         {"ModuleNotFoundError", "ModuleNotFoundError: No module named 'yaml_missing_module'"},
	"unittest-fail":          {"AssertionError", "AssertionError: 31 != 30"},
	"unittest-py312-notests": {"", "NO TESTS RAN"},
	"unittest-py313-fail":    {"AssertionError", "AssertionError: 31 != 30"},
	"vitest-error":           {"Error", "Error: Cannot find module '../nosuchmodule.mjs' imported from /tmp/js/vt/broken/broken.test.mjs"},
	"vitest-fail-nocolor":    {"AssertionError", "FAIL vt/fail/calc.test.mjs > calc > adds large numbers: AssertionError: expected 202 to be 201 // Object.is equality"},
	"vitest-fail":            {"AssertionError", "FAIL vt/fail/calc.test.mjs > calc > adds large numbers: AssertionError: expected 202 to be 201 // Object.is equality"},
	"vitest-notests":         {"", "No test files found, exiting with code 1"},
}

func TestFailureFixtures(t *testing.T) {
	for _, c := range []struct {
		dir   string
		wants map[string]wantFailure
	}{{"failures", failureFixtures}, {"tests", testFailureFixtures}} {
		right := 0
		for _, f := range loadFixtures(t, c.dir) {
			want, ok := c.wants[f.name]
			if !ok {
				if f.exit != 0 {
					t.Errorf("%s: no expectation", f.name)
				}
				continue
			}
			got := Failure(f.command, f.hookOutput())
			if got.Kind == want.kind && got.Line == shown(want.line) {
				right++
			} else {
				t.Errorf("%s: Failure = %q, %q; want %q, %q", f.name, got.Kind, got.Line, want.kind, want.line)
			}
			checkFailed(t, f.name, got)
		}
		t.Logf("%s: %d of %d failures keep the expected line and kind", c.dir, right, len(c.wants))
	}
}

// checkFailed checks what holds for every failure.
func checkFailed(t *testing.T, name string, f Failed) {
	t.Helper()
	if isExitCode(f.Line, "Exit code ") || len(f.Line) > maxShown {
		t.Errorf("%s: line %q", name, f.Line)
	}
	if len(f.Tail) > maxTail || len(f.Fingerprint) != 16 {
		t.Errorf("%s: tail %d lines, fingerprint %q", name, len(f.Tail), f.Fingerprint)
	}
	for _, l := range f.Tail {
		if len(l) > maxShown || isExitCode(l, "Exit code ") || strings.TrimSpace(l) == "" {
			t.Errorf("%s: tail line %q", name, l)
		}
	}
}

func TestFailureHookForms(t *testing.T) {
	const out = "migrate: 0007_accounts.sql: column \"currency\" already exists\nmake: *** [Makefile:14: migrate-check] Error 1"
	claude := Failure("make migrate-check", "Exit code 2\n"+out)
	gemini := Failure("make migrate-check", "Output: "+out+"\nExit Code: 2\nProcess Group PGID: 48390")
	want := `migrate: 0007_accounts.sql: column "currency" already exists`
	for _, f := range []Failed{claude, gemini} {
		if f.Line != want {
			t.Errorf("line %q, want %q", f.Line, want)
		}
	}
	if claude.Fingerprint != gemini.Fingerprint {
		t.Errorf("the same failure through two clients: %s, %s", claude.Fingerprint, gemini.Fingerprint)
	}
	if got := claude.Tail; len(got) != 2 || got[1] != "make: *** [Makefile:14: migrate-check] Error 1" {
		t.Errorf("tail %q", got)
	}
	if f := Failure("grep -r x .", "Exit code 1\n"); f.Line != "" || len(f.Tail) != 0 {
		t.Errorf("no output: %+v", f)
	}
}

func TestFingerprint(t *testing.T) {
	traceback := func(dir, line, value string) string {
		return "Traceback (most recent call last):\n  File \"" + dir + "/csvstats.py\", line " + line + ", in <module>\n    main()\n" +
			"ValueError: could not convert string to float: '" + value + "'\n"
	}
	same := [][2]string{
		{traceback("/tmp/tmpa1b2c3", "12", "ana"), traceback("/tmp/tmpzz9", "14", "ana")},
		{"panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a2b3c]\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/go-build123/main.go:7 +0x1d",
			"panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a9f00]\n\ngoroutine 1 [running]:\nmain.main()\n\t/tmp/go-build999/main.go:9 +0x2e"},
		{"thread 'main' (28671) panicked at src/main.rs:12:21:\nindex out of bounds: the len is 3 but the index is 5\n", "thread 'main' (30001) panicked at src/main.rs:14:21:\nindex out of bounds: the len is 3 but the index is 5\n"},
		{"Error: connect ECONNREFUSED 127.0.0.1:5432 at 2026-11-20T10:07:44.305Z\n", "Error: connect ECONNREFUSED 127.0.0.1:5433 at 2026-11-21T11:00:01.000Z\n"},
		{"error: request 550e8400-e29b-41d4-a716-446655440000 failed after 1.23s\n", "error: request 6ba7b810-9dad-11d1-80b4-00c04fd430c8 failed after 0.98s\n"},
	}
	for _, p := range same {
		a, b := Failure("cmd", p[0]), Failure("cmd", p[1])
		if a.Fingerprint != b.Fingerprint {
			t.Errorf("same failure, different fingerprints:\n%q\n%q", a.Line, b.Line)
		}
	}
	different := [][2]string{
		{traceback("/tmp/x", "12", "ana"), "Traceback (most recent call last):\n  File \"x.py\", line 3, in <module>\nFileNotFoundError: [Errno 2] No such file or directory: 'people.csv'\n"},
		{"error[E0308]: mismatched types\n", "error[E0599]: no method named `foo` found\n"},
		{"--- FAIL: TestParse1 (0.00s)\n    x_test.go:9: bad\n", "--- FAIL: TestParse2 (0.00s)\n    x_test.go:9: bad\n"},
		{"bash: line 1: rgx: command not found\n", "bash: line 1: fd: command not found\n"},
	}
	for _, p := range different {
		if a, b := Failure("cmd", p[0]), Failure("cmd", p[1]); a.Fingerprint == b.Fingerprint {
			t.Errorf("different failures, same fingerprint:\n%q\n%q", a.Line, b.Line)
		}
	}
	if a, b := Failure("grep x a", ""), Failure("grep y b", ""); a.Fingerprint == b.Fingerprint {
		t.Errorf("two commands without output share a fingerprint")
	}
}
