// Package testcheck is the tests validator of Cairn's hands (checker
// "tests", MCP tool validate_tests): it reads an agent's tests the way a
// reviewer who knows each runner would, and the coverage report the runner
// wrote.
//
// # What is checked
//
// For Go, JavaScript/TypeScript, Python, Java and Rust test files:
//
//   - tests/no-assertion: a test that checks nothing. Go: no t.Error*,
//     t.Fatal*, t.Fail*, t.Skip*, no *testing.T handed to a function that may
//     fail it (testify, quicktest, a helper of the package, followed through
//     the package's test files), no panic or Gomega Expect. Examples,
//     benchmarks, fuzz targets and TestMain are not tests here, nor tests
//     whose name says not panicking is the point (TestParseDoesNotPanic).
//     JS/TS: no expect/assert/should, no assertion method of a tape, ava or
//     node:test context, no throw, no Testing Library getBy*/findBy* query
//     (they throw), no Cypress command, no helper of the file or of a test
//     helper module (./helpers, ../test-utils) that asserts; type-level
//     tests (@ts-expect-error, satisfies) are not reported. Python: no
//     assert or raise, no assert*/fail/expect*/check* call (unittest, mock's
//     assert_called*, numpy.testing), no pytest.raises/warns, no helper of
//     the file or of the test class's project base that asserts. Java: no
//     assert*/verify*/expect*/fail/assertThat/andExpect call, no
//     @Test(expected=...), no helper of the class (or of a project base
//     class) that asserts. Rust (#[test], #[tokio::test], #[rstest],
//     #[test_case]...): no assert*!/panic!/todo! or other macro of the
//     crate's own (t!, check!, snapshot!: they nearly always assert), no
//     unwrap/expect/?, no #[should_panic], no helper fn of the file that
//     asserts.
//   - tests/empty-test: a test whose body is empty (or pass/... in Python).
//   - tests/focused (error): it.only, describe.only, test.only, fit,
//     fdescribe, test(name, { only: true }), @pytest.mark.only.
//   - tests/skipped-without-reason: t.Skip() / t.SkipNow() with no reason;
//     it.skip, xit, describe.skip, xdescribe, test(name, { skip: true }) with
//     no comment on the line above or the same line; @pytest.mark.skip or
//     skipif without reason=, @unittest.skip without a reason,
//     pytest.skip()/self.skipTest() without one; @Disabled/@Ignore without a
//     value; #[ignore] without = "reason".
//   - tests/sleep-as-wait: time.Sleep in a Go test (and its subtests);
//     await sleep/delay/wait(n), await new Promise(r => setTimeout(r, n)),
//     await setTimeout(n) of timers/promises, page.waitForTimeout(n),
//     cy.wait(n); time.sleep and await asyncio.sleep(n>0) in Python tests;
//     Thread.sleep and TimeUnit sleep in Java tests; thread::sleep and
//     tokio::time::sleep in Rust tests. A sleep inside a loop is
//     polling and not reported, nor one inside another function (a fake
//     server simulating latency).
//   - tests/setenv-in-parallel-test (error, Go): t.Setenv or t.Chdir in a
//     test that is, or whose parent is, parallel, and t.Parallel after them:
//     the testing package panics. Only unconditional calls are read.
//   - tests/fatal-in-goroutine (error, Go): t.Fatal*, FailNow, Skip* from a
//     goroutine the test started (what go vet's testinggoroutine reports).
//   - tests/missing-tests (info): a source file that declares exported
//     functions or classes and has no test by its language's convention:
//     foo.go has no foo_test.go and no _test.go of its directory uses a name
//     it declares; src/foo.ts has no foo.test.*, foo.spec.*, __tests__/foo.*
//     and no test file imports it; pkg/foo.py has no test_foo.py or
//     foo_test.py and no test imports its module; Foo.java has no
//     FooTest/FooTests/TestFoo/FooIT and no test names Foo. Not reported for
//     generated files, main.go of package main, //go:build ignore files,
//     type-only files (Go types and constants, TS interfaces and types, Java
//     interfaces, enums, records and abstract classes, Python classes
//     without methods), index/barrel and configuration files, files under
//     examples/, docs/, scripts/ and the like, and for a language the
//     project has no tests in at all (one note says so instead).
//   - tests/syntax: a Go test file go/parser rejects (error: the package's
//     tests do not build); a file of the other languages the tokenizer
//     could not read (warning: its checks were skipped); a coverage report
//     that does not parse (warning).
//   - tests/coverage-below-threshold (error) and tests/uncovered-lines
//     (info): from the coverage report, see below.
//
// # Parsers, and why
//
// Go is read with go/parser and go/ast, without go/types: what counts as an
// assertion is decided on the syntax (the name of the testing import, the
// parameters of type *testing.T/B/F/TB, calls on them, where they are handed
// to). No pure-Go parser is sound for the other languages' test files as
// they are written today. Measured on 382 real JS/TS test files of the npm
// packages of testdata/corpus.txt: github.com/tdewolff/parse/v2/js failed
// on 242 (every TypeScript and TSX file: it parses JavaScript only), and
// github.com/dop251/goja/parser on 279; esbuild's parser is internal, and
// tree-sitter needs cgo. Rust has no pure-Go parser. Python's only pure-Go parser (go-python/gpython)
// reads Python 3.4, before f-strings, async def and the walrus; Java has
// none maintained. So each of those is read by a tokenizer of its own that
// follows the language's lexical grammar where the checks need it to be
// exact: JS/TS strings, template literals with nested ${}, regular
// expression literals (told from division by the token before), comments
// and JSX text and attributes (in .js/.jsx/.tsx; <T,> and <T>() are told
// apart as type parameters); Python's INDENT/DEDENT, implicit line joining,
// string prefixes, triple quotes and PEP 701 f-strings whose fields hold
// strings with the same quote; Java's text blocks and character literals;
// Rust's raw strings r#"..."#, byte and C strings, nested block comments and
// lifetimes told from character literals.
// Brackets are matched. On the tokens the test structure is recognised:
// describe/it/test calls with their modifiers (.only, .skip, .each(table),
// Playwright's test.describe), their options object and callback body;
// Python decorators, def and class blocks with their bases; Java
// annotations and method bodies; Rust #[...] attributes and fn items. Nothing in these checks needs more than
// that, so the tokenizers are sound for them; what they cannot see is
// types (a helper's signature across files) and control flow.
//
// # Coverage
//
// The coverage report is read from the coverage param, or from a file of
// the checked paths that is one, or from the first of the usual locations
// that exists: coverage.out, cover.out, coverage.txt, c.out, profile.cov,
// coverage.cov, coverage/lcov.info, lcov.info,
// coverage/cobertura-coverage.xml, coverage.xml, cobertura.xml,
// coverage/coverage.xml, target/site/cobertura/coverage.xml. Its format is
// told by its content:
//
//   - Go cover profile (go test -coverprofile): the mode line, then
//     "file:l0.c0,l1.c1 statements count" blocks; a block repeated by
//     concatenated profiles counts once, run if any run ran it. Coverage is
//     statements covered over statements, as go tool cover -func counts it.
//     File names are import paths: the module line of each go.mod of the
//     project maps them to project paths.
//   - LCOV (lcov.info of c8, nyc, jest, vitest, lcov): SF, DA, LF, LH and
//     end_of_record records; coverage is lines with a hit over DA lines.
//   - Cobertura XML (coverage.py xml, istanbul's cobertura reporter, gcovr,
//     JaCoCo converters), read with encoding/xml as a stream: each class's
//     filename (relative to a <source> root) and its <lines>; classes of one
//     file are merged.
//
// Absolute and relative paths of LCOV and Cobertura are mapped to the
// project file whose path is their longest tail. The total goes in the
// notes; below the threshold param it is a tests/coverage-below-threshold
// finding. Each changed file (the changed param, else the source files
// checked) with instrumented lines that never ran gets a
// tests/uncovered-lines finding listing them compressed ("lines 12-18,
// 40"); a line is uncovered when every block of the report over it has a
// zero count. A report that counts lines past a file's end is noted as
// older than the file.
//
// # Params
//
//   - coverage: the path of a coverage report, relative to the project root
//     (Go cover profile, LCOV or Cobertura XML); default: the usual
//     locations above.
//   - threshold: the minimum coverage in percent, 0 to 100 (default 0:
//     report the total only).
//   - changed: comma-separated paths whose uncovered lines are reported;
//     default: the source files given to the check.
//   - missing: false leaves out tests/missing-tests (default true).
//
// # Files a walk gives it
//
// Wants takes .go, .js/.jsx/.ts/.tsx/.mjs/.cjs/.mts/.cts (not .d.ts, .min.js),
// .py, .java and .rs files outside vendored, installed, built and fixture
// directories (node_modules, vendor, testdata, fixtures, __fixtures__,
// __mocks__, __snapshots__, dist, build, out, coverage, target, .venv,
// third_party...): test files for the test checks, source files for
// tests/missing-tests, which needs both sides. Test files are told by their
// runner's convention: *_test.go; *.test.*, *.spec.*, *.cy.*, files under
// __tests__/, test/, tests/, spec/, e2e/, cypress/; test_*.py, *_test.py,
// tests.py, test*.py under a tests/ directory; *Test.java, *Tests.java,
// Test*.java, *IT.java, *TestCase.java and anything under src/test/; every
// .rs file (a Rust file without "test" in it is not tokenized). Inline
// content is read as a test file of the language its name's extension says.
//
// # Not checked
//
// Other languages' tests; missing tests for Rust, whose convention is a
// #[cfg(test)] module in the same file; control flow (an assertion in a branch
// that never runs counts); assertions whose helper lives in another file of
// a JavaScript, Python or Java project (an imported test helper is taken to
// assert); whether a Go test's helper in another package asserts (it is
// taken to); branch coverage; coverage reports over the size cap of the
// project reader (1 MiB by default), which are skipped with the reason.
package testcheck
