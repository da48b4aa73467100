package runs

import (
	"regexp"
	"strings"
	"sync"
)

// rule says whether a program's arguments make a test run.
type rule func(args []string) (Runner, bool)

// sub is a rule for a program whose first non-flag argument is one of
// subs (go test, cargo test …), unless an argument is one of not.
func sub(r Runner, flagsWithValue, subs, not []string) rule {
	return func(args []string) (Runner, bool) {
		rest := after(args, flagsWithValue, subs...)
		if rest == nil {
			return "", false
		}
		if anyOf(rest, not...) {
			return "", false
		}
		return r, true
	}
}

// always is a rule for a runner's own program (pytest, jest …), unless an
// argument is one of not.
func always(r Runner, not ...string) rule {
	return func(args []string) (Runner, bool) {
		if anyOf(args, not...) {
			return "", false
		}
		return r, true
	}
}

// anyOf reports whether an argument is one of ws (or starts with one that
// ends in =).
func anyOf(args []string, ws ...string) bool {
	for _, a := range args {
		for _, w := range ws {
			if a == w || strings.HasSuffix(w, "=") && strings.HasPrefix(a, w) {
				return true
			}
		}
	}
	return false
}

var (
	pytestNot = []string{"--collect-only", "--co", "--fixtures", "--markers", "-h"}
	jestNot   = []string{"--listTests", "--showConfig", "--clearCache", "--init"}
)

// programs are the rules by program name.
var programs map[string]rule

func init() {
	programs = map[string]rule{
		"go":            sub(GoTest, []string{"-C"}, []string{"test"}, []string{"-c", "-list", "-list="}),
		"gotestsum":     always(GoTest),
		"richgo":        sub(GoTest, nil, []string{"test"}, nil),
		"pytest":        always(Pytest, pytestNot...),
		"py.test":       always(Pytest, pytestNot...),
		"tox":           always(Script, "-l", "--listenvs", "-a", "--showconfig"),
		"nox":           always(Script, "-l", "--list", "--list-sessions"),
		"nose2":         always(Unittest),
		"npm":           npmRule,
		"pnpm":          pnpmRule,
		"yarn":          pnpmRule,
		"bun":           bunRule,
		"deno":          denoRule,
		"node":          nodeRule,
		"jest":          always(Jest, jestNot...),
		"vitest":        vitestRule,
		"mocha":         always(Mocha),
		"_mocha":        always(Mocha),
		"playwright":    sub(Playwright, nil, []string{"test"}, []string{"--list"}),
		"ava":           always(Script),
		"tap":           always(Script),
		"jasmine":       always(Script),
		"karma":         sub(Script, nil, []string{"start", "run"}, nil),
		"cypress":       sub(Script, nil, []string{"run"}, nil),
		"react-scripts": sub(Jest, nil, []string{"test"}, nil),
		"ng":            sub(Script, nil, []string{"test", "e2e"}, nil),
		"nx":            nxRule,
		"turbo":         turboRule,
		"lerna":         sub(Script, nil, []string{"run"}, nil).only("test"),
		"cargo":         cargoRule,
		"cargo-nextest": sub(Nextest, nil, []string{"nextest"}, nil),
		"mvn":           mavenRule,
		"mvnw":          mavenRule,
		"gradle":        gradleRule,
		"gradlew":       gradleRule,
		"dotnet":        sub(Dotnet, nil, []string{"test", "vstest"}, []string{"--list-tests", "-t"}),
		"rspec":         always(RSpec, "--dry-run", "--init"),
		"rake":          rakeRule,
		"rails":         railsRule,
		"ruby":          rubyRule,
		"phpunit":       always(PHPUnit, "--list-tests", "--list-suites"),
		"pest":          always(Pest, "--list-tests"),
		"paratest":      always(PHPUnit),
		"php":           phpRule,
		"composer":      composerRule,
		"mix":           sub(ExUnit, nil, []string{"test"}, nil),
		"ctest":         always(CTest, "-N", "--show-only", "--show-only="),
		"make":          makeRule,
		"gmake":         makeRule,
		"ninja":         makeRule,
		"cmake":         cmakeRule,
		"just":          taskRule,
		"task":          taskRule,
		"mage":          taskRule,
		"swift":         sub(Other, nil, []string{"test"}, []string{"list"}),
		"zig":           sub(Other, nil, []string{"build", "test"}, nil).only("test"),
		"cabal":         sub(Other, nil, []string{"test"}, nil),
		"stack":         sub(Other, nil, []string{"test"}, nil),
		"dune":          sub(Other, nil, []string{"test", "runtest"}, nil),
		"lein":          sub(Other, nil, []string{"test"}, nil),
		"sbt":           always(Other).only("test", "testOnly", "+test"),
		"flutter":       sub(Other, nil, []string{"test"}, nil),
		"dart":          sub(Other, nil, []string{"test"}, nil),
		"bazel":         sub(Other, nil, []string{"test", "coverage"}, nil),
		"bazelisk":      sub(Other, nil, []string{"test", "coverage"}, nil),
		"meson":         sub(Other, nil, []string{"test"}, nil),
		"prove":         always(Other),
		"bats":          always(Other),
	}
}

// only narrows a rule to runs whose arguments include one of ws.
func (r rule) only(ws ...string) rule {
	return func(args []string) (Runner, bool) {
		if !anyOf(args, ws...) {
			return "", false
		}
		return r(args)
	}
}

// isTestScript reports a package.json (or composer, deno) script name that
// runs tests: test, tests, test:unit, test-ci, unit-test.
func isTestScript(name string) bool {
	name = strings.ToLower(name)
	for _, sep := range []string{":", "-", "_", "."} {
		if pre, _, ok := strings.Cut(name, sep); ok && (pre == "test" || pre == "tests") {
			return true
		}
	}
	return name == "test" || name == "tests" || name == "t" || strings.HasSuffix(name, ":test") ||
		strings.HasSuffix(name, "-test") || strings.HasSuffix(name, "_test") || strings.HasSuffix(name, "-tests")
}

var npmValueFlags = []string{"--prefix", "-w", "--workspace", "-C", "--loglevel"}

func npmRule(args []string) (Runner, bool) {
	args = skipFlags(args, npmValueFlags...)
	if len(args) == 0 {
		return "", false
	}
	switch args[0] {
	case "test", "t", "tst", "it", "install-test", "cit", "install-ci-test":
		return Script, true
	case "run", "run-script", "rum", "urn":
		rest := skipFlags(args[1:], npmValueFlags...)
		return Script, len(rest) > 0 && isTestScript(rest[0])
	case "exec", "x":
		return classify(npxArgs(args[1:]), maxDepth)
	}
	return "", false
}

var pnpmValueFlags = []string{"--filter", "-F", "-C", "--dir", "--cwd", "--prefix", "--workspace-root", "--reporter", "--loglevel"}

// pnpmRule reads pnpm and yarn: their test scripts, and the bins they run
// directly (pnpm vitest, yarn jest).
func pnpmRule(args []string) (Runner, bool) {
	args = skipFlags(args, pnpmValueFlags...)
	for len(args) > 0 && (args[0] == "-r" || args[0] == "--recursive") {
		args = skipFlags(args[1:], pnpmValueFlags...)
	}
	if len(args) == 0 {
		return "", false
	}
	switch args[0] {
	case "test", "t", "tst":
		return Script, true
	case "run", "run-script":
		rest := skipFlags(args[1:], pnpmValueFlags...)
		return Script, len(rest) > 0 && isTestScript(rest[0])
	case "workspace":
		if len(args) > 2 {
			return pnpmRule(args[2:])
		}
		return "", false
	case "workspaces":
		rest := args[1:]
		if len(rest) > 0 && rest[0] == "foreach" {
			rest = skipFlags(rest[1:], "--include", "--exclude", "--from", "-j", "--jobs")
		}
		return pnpmRule(rest)
	case "exec", "dlx":
		return classify(npxArgs(args[1:]), maxDepth)
	case "install", "add", "i", "remove", "rm", "up", "update", "init", "create", "why", "list", "ls", "info", "view", "link":
		return "", false
	}
	if isTestScript(args[0]) {
		return Script, true
	}
	return classify(args, maxDepth)
}

func bunRule(args []string) (Runner, bool) {
	args = skipFlags(args, "--cwd", "--config", "-c")
	if len(args) == 0 {
		return "", false
	}
	switch args[0] {
	case "test":
		return Bun, true
	case "run":
		rest := skipFlags(args[1:], "--cwd")
		return Script, len(rest) > 0 && isTestScript(rest[0])
	case "x":
		return classify(npxArgs(args[1:]), maxDepth)
	}
	return "", false
}

func denoRule(args []string) (Runner, bool) {
	args = skipFlags(args)
	if len(args) == 0 {
		return "", false
	}
	switch args[0] {
	case "test":
		return Deno, true
	case "task":
		rest := skipFlags(args[1:], "--cwd", "-c", "--config")
		return Script, len(rest) > 0 && isTestScript(rest[0])
	}
	return "", false
}

func nodeRule(args []string) (Runner, bool) {
	for _, a := range args {
		if a == "--test" || strings.HasPrefix(a, "--test=") {
			return NodeTest, true
		}
		if !strings.HasPrefix(a, "-") {
			break
		}
	}
	return "", false
}

func vitestRule(args []string) (Runner, bool) {
	rest := skipFlags(args)
	if len(rest) > 0 {
		switch rest[0] {
		case "bench", "list", "init", "typecheck":
			return "", false
		}
	}
	return Vitest, !anyOf(args, "--version")
}

func nxRule(args []string) (Runner, bool) {
	rest := skipFlags(args)
	if len(rest) == 0 {
		return "", false
	}
	switch {
	case rest[0] == "test" || rest[0] == "e2e":
		return Script, true
	case rest[0] == "run" && len(rest) > 1 && strings.HasSuffix(rest[1], ":test"):
		return Script, true
	case rest[0] == "run-many" || rest[0] == "affected":
		return Script, targetIsTest(rest[1:])
	}
	return "", false
}

// targetIsTest reads -t test / --target=test / --targets test,lint.
func targetIsTest(args []string) bool {
	for i, a := range args {
		v := ""
		switch {
		case (a == "-t" || a == "--target" || a == "--targets") && i+1 < len(args):
			v = args[i+1]
		case strings.HasPrefix(a, "--target=") || strings.HasPrefix(a, "--targets="):
			_, v, _ = strings.Cut(a, "=")
		}
		for _, t := range strings.Split(v, ",") {
			if isTestScript(t) {
				return true
			}
		}
	}
	return false
}

func turboRule(args []string) (Runner, bool) {
	rest := skipFlags(args, "--filter", "-F")
	if len(rest) > 0 && rest[0] == "run" {
		rest = rest[1:]
	}
	return Script, len(rest) > 0 && isTestScript(rest[0])
}

func cargoRule(args []string) (Runner, bool) {
	for len(args) > 0 && strings.HasPrefix(args[0], "+") {
		args = args[1:] // +nightly
	}
	args = skipFlags(args, "--manifest-path", "-Z", "--color", "--config", "-C")
	if len(args) == 0 {
		return "", false
	}
	switch args[0] {
	case "test", "t":
		return Cargo, !anyOf(args, "--no-run")
	case "nextest":
		return Nextest, len(args) > 1 && (args[1] == "run" || args[1] == "r")
	case "llvm-cov", "tarpaulin", "miri":
		return Cargo, args[0] != "miri" || len(args) > 1 && args[1] == "test"
	case "insta":
		return Cargo, len(args) > 1 && args[1] == "test"
	}
	return "", false
}

// mavenRule: a run with a phase that runs tests, unless they are skipped.
func mavenRule(args []string) (Runner, bool) {
	if anyOf(args, "-DskipTests", "-DskipTests=true", "-Dmaven.test.skip=true", "-Dmaven.test.skip") {
		return "", false
	}
	for _, a := range args {
		switch a {
		case "test", "verify", "integration-test", "surefire:test", "failsafe:integration-test":
			return Maven, true
		}
	}
	return "", false
}

// gradleTestTask is compiled on first use: every hook links this package.
var gradleTestTask = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(test|check|allTests|test[A-Z]\w*|\w+Test|\w+Tests)$`)
})

// gradleRule: a task (:app:test, testDebugUnitTest, integrationTest) that
// runs tests, and not one excluded by -x.
func gradleRule(args []string) (Runner, bool) {
	for i, a := range args {
		if strings.HasPrefix(a, "-") || i > 0 && (args[i-1] == "-x" || args[i-1] == "--exclude-task") {
			continue
		}
		task := a[strings.LastIndexByte(a, ':')+1:]
		if gradleTestTask().MatchString(task) {
			return Gradle, true
		}
	}
	return "", false
}

func rakeRule(args []string) (Runner, bool) {
	for _, a := range skipFlags(args, "-f", "-C") {
		switch {
		case a == "spec" || strings.HasPrefix(a, "spec:"):
			return RSpec, true
		case a == "test" || strings.HasPrefix(a, "test:"):
			return Minitest, true
		}
	}
	return "", false
}

func railsRule(args []string) (Runner, bool) {
	if len(args) == 0 {
		return "", false
	}
	switch {
	case args[0] == "test" || strings.HasPrefix(args[0], "test:") || args[0] == "t":
		return Minitest, true
	case args[0] == "spec":
		return RSpec, true
	}
	return "", false
}

var (
	rubyTestFile   = regexp.MustCompile(`(^|/)(test_\w+|\w+_test|\w+_spec)\.rb$`)
	pythonTestFile = regexp.MustCompile(`(^|/)(test_\w+|\w+_test|tests|runtests|run_tests)\.py$`)
	pythonName     = regexp.MustCompile(`^(python|pypy)(\d+(\.\d+)?)?$|^py$`)
)

// rubyRule: ruby -Itest test/x_test.rb runs minitest.
func rubyRule(args []string) (Runner, bool) {
	rest := skipFlags(args, "-I", "-r", "-C", "-e")
	if len(rest) > 0 && rubyTestFile.MatchString(rest[0]) && !anyOf(args, "-e", "-c") {
		if strings.HasSuffix(rest[0], "_spec.rb") {
			return RSpec, true
		}
		return Minitest, true
	}
	return "", false
}

// pythonLike reads python -m pytest|unittest, manage.py test, setup.py
// test and a test file run directly.
func pythonLike(name string, args []string) (Runner, bool) {
	if !pythonName.MatchString(name) {
		return "", false
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-m" && i+1 < len(args):
			return pythonModule(args[i+1], args[i+2:])
		case strings.HasPrefix(a, "-m") && len(a) > 2:
			return pythonModule(a[2:], args[i+1:])
		case a == "-c":
			return "", false
		case a == "-X" || a == "-W" || a == "-Q":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return pythonScript(a, args[i+1:])
		}
	}
	return "", false
}

func pythonModule(mod string, rest []string) (Runner, bool) {
	switch mod {
	case "pytest", "py.test":
		return Pytest, !anyOf(rest, pytestNot...)
	case "unittest", "nose2", "nose", "green", "xmlrunner":
		return Unittest, true
	case "tox", "nox":
		return Script, true
	case "django":
		return Unittest, len(rest) > 0 && rest[0] == "test"
	}
	return "", false
}

func pythonScript(script string, rest []string) (Runner, bool) {
	switch program(script) {
	case "manage.py", "setup.py":
		return Unittest, len(rest) > 0 && rest[0] == "test"
	}
	if pythonTestFile.MatchString(script) {
		return Unittest, true
	}
	return scriptRun(script)
}

func phpRule(args []string) (Runner, bool) {
	rest := skipFlags(args, "-d", "-c")
	if len(rest) == 0 {
		return "", false
	}
	switch program(rest[0]) {
	case "artisan":
		return Pest, len(rest) > 1 && rest[1] == "test"
	case "phpunit", "paratest":
		return PHPUnit, true
	case "pest":
		return Pest, true
	}
	return "", false
}

func composerRule(args []string) (Runner, bool) {
	rest := skipFlags(args, "-d", "--working-dir")
	if len(rest) > 0 && (rest[0] == "run" || rest[0] == "run-script") {
		rest = skipFlags(rest[1:])
	}
	return Script, len(rest) > 0 && isTestScript(rest[0])
}

var makeValueFlags = []string{"-C", "-f", "--file", "--makefile", "--directory", "-j", "--jobs", "-l", "-o", "-W", "-I"}

// makeRule: a target that runs tests (test, check, tests, test-unit,
// unit-test …).
func makeRule(args []string) (Runner, bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if anyOf([]string{a}, makeValueFlags...) {
				i++
			}
			continue
		}
		if !isAssignment(a) && isTestTarget(a) {
			return Make, true
		}
	}
	return "", false
}

func isTestTarget(t string) bool {
	return t == "check" || t == "unittest" || t == "unittests" || strings.HasPrefix(t, "check-") || isTestScript(t)
}

func cmakeRule(args []string) (Runner, bool) {
	for i, a := range args {
		if (a == "--target" || a == "-t") && i+1 < len(args) && isTestTarget(args[i+1]) {
			return Make, true
		}
	}
	return "", false
}

func taskRule(args []string) (Runner, bool) {
	rest := skipFlags(args, "-d", "--dir", "-t", "--taskfile", "-f", "--justfile")
	return Script, len(rest) > 0 && isTestTarget(rest[0])
}
