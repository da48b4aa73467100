package runs

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// wantTest is what a test run fixture's output says: the runner that
// printed it, the outcome, whether the counts are the runner's own, the
// counts and the first failing test.
type wantTest struct {
	runner                          Runner
	outcome                         Outcome
	counted                         bool
	passed, failed, skipped, errors int
	failing                         string
}

// testFixtures are the expectations for testdata/tests, checked against
// each runner's real output by hand.
var testFixtures = map[string]wantTest{
	"bun-error":              {Bun, TestsFailed, true, 0, 1, 0, 1, ""},
	"bun-fail":               {Bun, TestsFailed, true, 1, 2, 1, 0, "calc > adds large numbers"},
	"bun-notests":            {Bun, NoTests, false, 0, 0, 0, 0, ""},
	"bun-pass":               {Bun, TestsPassed, true, 2, 0, 0, 0, ""},
	"cargo-build-error":      {Cargo, TestsFailed, false, 0, 0, 0, 1, ""},
	"cargo-fail":             {Cargo, TestsFailed, true, 1, 2, 1, 0, "tests::parses"},
	"cargo-notests":          {Cargo, NoTests, true, 0, 0, 0, 0, ""},
	"cargo-pass-q":           {Cargo, TestsPassed, true, 6, 0, 1, 0, ""},
	"cargo-pass":             {Cargo, TestsPassed, true, 6, 0, 1, 0, ""},
	"ctest-fail-output":      {CTest, TestsFailed, true, 2, 2, 0, 0, "add_large"},
	"ctest-fail":             {CTest, TestsFailed, true, 2, 2, 0, 0, "add_large"},
	"ctest-notests":          {CTest, NoTests, false, 0, 0, 0, 0, ""},
	"ctest-pass":             {CTest, TestsPassed, true, 2, 0, 0, 0, ""},
	"deno-error":             {Deno, TestsFailed, false, 0, 0, 0, 1, ""},
	"deno-fail":              {Deno, TestsFailed, true, 1, 2, 1, 0, "adds large numbers"},
	"deno-notests":           {Deno, NoTests, false, 0, 0, 0, 0, ""},
	"deno-pass":              {Deno, TestsPassed, true, 2, 0, 0, 0, ""},
	"deno-typecheck":         {Deno, TestsFailed, false, 0, 0, 0, 1, ""},
	"go-build-error":         {GoTest, TestsFailed, false, 0, 0, 0, 1, ""},
	"go-fail-json":           {GoTest, TestsFailed, true, 3, 2, 1, 0, "TestAddLarge"},
	"go-fail-multi":          {GoTest, TestsFailed, false, 0, 3, 0, 1, "TestAddLarge"},
	"go-fail-v":              {GoTest, TestsFailed, true, 1, 2, 1, 0, "TestAddLarge"},
	"go-fail":                {GoTest, TestsFailed, false, 0, 2, 0, 0, "TestAddLarge"},
	"go-norun":               {GoTest, NoTests, false, 0, 0, 0, 0, ""},
	"go-notests":             {GoTest, NoTests, false, 0, 0, 0, 0, ""},
	"go-panic":               {GoTest, TestsFailed, false, 0, 1, 0, 0, "TestAt"},
	"go-pass-multi":          {GoTest, TestsPassed, false, 0, 0, 0, 0, ""},
	"go-pass-run":            {GoTest, TestsPassed, false, 0, 0, 0, 0, ""},
	"go-pass-v":              {GoTest, TestsPassed, true, 2, 0, 0, 0, ""},
	"go-pass":                {GoTest, TestsPassed, false, 0, 0, 0, 0, ""},
	"jest-error":             {Jest, TestsFailed, true, 0, 0, 0, 1, ""},
	"jest-fail":              {Jest, TestsFailed, true, 3, 2, 1, 0, "calc › adds large numbers"},
	"jest-notests":           {Jest, NoTests, false, 0, 0, 0, 0, ""},
	"jest-pass":              {Jest, TestsPassed, true, 2, 0, 1, 0, ""},
	"make-check-nothing":     {Make, TestsPassed, false, 0, 0, 0, 0, ""},
	"make-test-ctest":        {CTest, TestsFailed, true, 2, 2, 0, 0, "add_large"},
	"make-test-go-fail":      {GoTest, TestsFailed, false, 0, 2, 0, 0, "TestAddLarge"},
	"make-test-go-pass":      {GoTest, TestsPassed, false, 0, 0, 0, 0, ""},
	"minitest-fail":          {Minitest, TestsFailed, true, 1, 1, 1, 1, "CalcTest#test_add_large"},
	"minitest-pass":          {Minitest, TestsPassed, true, 2, 0, 0, 0, ""},
	"mix-error":              {ExUnit, TestsFailed, false, 0, 0, 0, 1, ""},
	"mix-fail":               {ExUnit, TestsFailed, true, 2, 2, 1, 0, "test adds large (CalcTest)"},
	"mix-notests":            {ExUnit, NoTests, true, 0, 0, 0, 0, ""},
	"mix-pass":               {ExUnit, TestsPassed, true, 2, 0, 0, 0, ""},
	"mocha-error":            {Mocha, TestsFailed, false, 0, 0, 0, 1, ""},
	"mocha-fail":             {Mocha, TestsFailed, true, 1, 2, 0, 0, "calc adds large numbers"},
	"mocha-notests":          {Mocha, NoTests, false, 0, 0, 0, 0, ""},
	"mocha-pass":             {Mocha, TestsPassed, true, 2, 0, 1, 0, ""},
	"mvn-compile-error":      {Maven, TestsFailed, false, 0, 0, 0, 1, ""},
	"mvn-fail-q":             {Maven, TestsFailed, true, 3, 2, 1, 0, "calc.CalcTest.parses"},
	"mvn-fail":               {Maven, TestsFailed, true, 3, 2, 1, 0, "calc.CalcTest.parses"},
	"mvn-notests":            {Maven, TestsPassed, false, 0, 0, 0, 0, ""},
	"mvn-pass":               {Maven, TestsPassed, true, 5, 0, 1, 0, ""},
	"node-test-fail":         {NodeTest, TestsFailed, true, 1, 2, 0, 0, "adds large numbers"},
	"node-test-notests":      {NodeTest, NoTests, true, 0, 0, 0, 0, ""},
	"node-test-pass":         {NodeTest, TestsPassed, true, 2, 0, 1, 0, ""},
	"npm-run-vitest-fail":    {Vitest, TestsFailed, true, 3, 2, 1, 0, "vt/fail/calc.test.mjs > calc > adds large numbers"},
	"npm-test-jest-fail":     {Jest, TestsFailed, true, 3, 2, 1, 0, "calc › adds large numbers"},
	"npm-test-jest-pass":     {Jest, TestsPassed, true, 2, 0, 1, 0, ""},
	"phpunit-error":          {PHPUnit, TestsFailed, false, 0, 0, 0, 0, ""},
	"phpunit-fail":           {PHPUnit, TestsFailed, true, 1, 1, 1, 1, "CalcTest::testDiv"},
	"phpunit-notests":        {PHPUnit, NoTests, false, 0, 0, 0, 0, ""},
	"phpunit-pass":           {PHPUnit, TestsPassed, true, 2, 0, 0, 0, ""},
	"pytest-deselected":      {Pytest, NoTests, true, 0, 0, 0, 0, ""},
	"pytest-error":           {Pytest, TestsFailed, true, 0, 0, 0, 1, "broken/test_broken.py"},
	"pytest-fail-q":          {Pytest, TestsFailed, true, 4, 2, 2, 0, "tests/test_stats.py::test_mean_empty"},
	"pytest-fail-v":          {Pytest, TestsFailed, true, 2, 2, 2, 0, "tests/test_stats.py::test_mean_empty"},
	"pytest-fail-x":          {Pytest, TestsFailed, true, 1, 1, 0, 0, "tests/test_stats.py::test_mean_empty"},
	"pytest-fail":            {Pytest, TestsFailed, true, 4, 2, 2, 0, "tests/test_stats.py::test_mean_empty"},
	"pytest-notests":         {Pytest, NoTests, true, 0, 0, 0, 0, ""},
	"pytest-pass-q":          {Pytest, TestsPassed, true, 2, 0, 0, 0, ""},
	"pytest-pass":            {Pytest, TestsPassed, true, 2, 0, 0, 0, ""},
	"rspec-error":            {RSpec, TestsFailed, true, 0, 0, 0, 1, ""},
	"rspec-fail":             {RSpec, TestsFailed, true, 1, 2, 2, 0, "Calc adds large numbers"},
	"rspec-notests":          {RSpec, NoTests, true, 0, 0, 0, 0, ""},
	"rspec-pass":             {RSpec, TestsPassed, true, 2, 0, 0, 0, ""},
	"unittest-error":         {Unittest, TestsFailed, true, 0, 0, 0, 1, "test_bad"},
	"unittest-fail":          {Unittest, TestsFailed, true, 2, 1, 1, 1, "test_stats.StatsTest.test_mean_empty"},
	"unittest-notests":       {Unittest, NoTests, true, 0, 0, 0, 0, ""},
	"unittest-pass-v":        {Unittest, TestsPassed, true, 2, 0, 1, 0, ""},
	"unittest-pass":          {Unittest, TestsPassed, true, 2, 0, 1, 0, ""},
	"unittest-py312-notests": {Unittest, NoTests, true, 0, 0, 0, 0, ""},
	"unittest-py313-fail":    {Unittest, TestsFailed, true, 2, 1, 1, 1, "test_stats.StatsTest.test_mean_empty"},
	"vitest-error":           {Vitest, TestsFailed, false, 0, 0, 0, 1, "vt/broken/broken.test.mjs"},
	"vitest-fail-nocolor":    {Vitest, TestsFailed, true, 3, 2, 1, 0, "vt/fail/calc.test.mjs > calc > adds large numbers"},
	"vitest-fail":            {Vitest, TestsFailed, true, 3, 2, 1, 0, "vt/fail/calc.test.mjs > calc > adds large numbers"},
	"vitest-notests":         {Vitest, NoTests, false, 0, 0, 0, 0, ""},
	"vitest-pass":            {Vitest, TestsPassed, true, 2, 0, 1, 0, ""},
}

// formatFixtures are the expectations for testdata/formats: outputs
// written here from the runners' documented formats, for the runners that
// cannot run on this machine.
var formatFixtures = map[string]wantTest{
	"dotnet-fail":        {Dotnet, TestsFailed, true, 4, 1, 1, 0, "Calc.Tests.CalcTest.AddsLarge"},
	"dotnet-pass":        {Dotnet, TestsPassed, true, 8, 0, 1, 0, ""},
	"dotnet-pass-vstest": {Dotnet, TestsPassed, true, 5, 0, 0, 0, ""},
	"dotnet-build-error": {Dotnet, TestsFailed, false, 0, 0, 0, 1, ""},
	"gradle-fail":        {Gradle, TestsFailed, true, 3, 2, 1, 0, "CalcTest > addsLarge()"},
	"gradle-pass":        {Gradle, TestsPassed, false, 0, 0, 0, 0, ""},
	"nextest-fail":       {Nextest, TestsFailed, true, 4, 1, 1, 0, "calc tests::adds_large"},
	"pest-fail":          {Pest, TestsFailed, true, 1, 1, 0, 0, `Tests\Feature\ExampleTest > the application returns a successful response`},
	"playwright-fail":    {Playwright, TestsFailed, true, 4, 1, 1, 0, "[chromium] › tests/home.spec.ts:3:5 › home has title"},
	"plain-fail":         {Other, TestsFailed, true, 3, 1, 0, 0, ""},
}

// score counts a runner's fixtures: recognised, outcome right, counts right.
type score struct{ n, recognised, outcome, counts int }

// TestFixtures reads every saved test run as a Claude Code hook would
// get it and reports, per runner, how many were recognised as test runs,
// got the right outcome and the right counts.
func TestFixtures(t *testing.T) {
	t.Run("real", func(t *testing.T) { checkFixtures(t, "tests", testFixtures) })
	t.Run("formats", func(t *testing.T) { checkFixtures(t, "formats", formatFixtures) })
}

func checkFixtures(t *testing.T, dir string, wants map[string]wantTest) {
	scores := map[Runner]*score{}
	fixtures := loadFixtures(t, dir)
	for _, f := range fixtures {
		want, ok := wants[f.name]
		if !ok {
			t.Errorf("%s: no expectation", f.name)
			continue
		}
		runner, isTest := Test(f.command)
		got := ParseTest(runner, f.hookOutput(), f.exit == 0)
		s := scores[want.runner]
		if s == nil {
			s = &score{}
			scores[want.runner] = s
		}
		s.n++
		t.Run(f.name, func(t *testing.T) {
			if isTest {
				s.recognised++
			} else {
				t.Errorf("Test(%q) = false", f.command)
			}
			if got.Runner == want.runner && got.Outcome == want.outcome {
				s.outcome++
			} else {
				t.Errorf("runner, outcome = %q, %q; want %q, %q", got.Runner, got.Outcome, want.runner, want.outcome)
			}
			counts := [5]int{b2i(got.Counted), got.Passed, got.Failed, got.Skipped, got.Errors}
			if counts == [5]int{b2i(want.counted), want.passed, want.failed, want.skipped, want.errors} {
				s.counts++
			} else {
				t.Errorf("counted, passed, failed, skipped, errors = %v; want %v, %d, %d, %d, %d", counts, want.counted, want.passed, want.failed, want.skipped, want.errors)
			}
			if first := firstOf(got.Failing); first != want.failing {
				t.Errorf("first failing = %q; want %q", first, want.failing)
			}
			if got.Outcome != TestsPassed && got.Counted && got.Summary == "" {
				t.Errorf("no summary")
			}
		})
	}
	if len(wants) != len(fixtures) {
		t.Errorf("%d expectations for %d fixtures", len(wants), len(fixtures))
	}
	logScores(t, scores)
}

func logScores(t *testing.T, scores map[Runner]*score) {
	var runners []string
	var all score
	for r := range scores {
		runners = append(runners, string(r))
	}
	slices.Sort(runners)
	var b strings.Builder
	b.WriteString("runner        fixtures recognised outcome counts\n")
	for _, r := range runners {
		s := scores[Runner(r)]
		fmt.Fprintf(&b, "%-13s %8d %10d %7d %6d\n", r, s.n, s.recognised, s.outcome, s.counts)
		all.n, all.recognised, all.outcome, all.counts = all.n+s.n, all.recognised+s.recognised, all.outcome+s.outcome, all.counts+s.counts
	}
	fmt.Fprintf(&b, "%-13s %8d %10d %7d %6d", "all", all.n, all.recognised, all.outcome, all.counts)
	t.Log("\n" + b.String())
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func firstOf(ss []string) string {
	if len(ss) == 0 {
		return ""
	}
	return ss[0]
}
