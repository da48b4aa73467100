// Package runs reads what a shell command run says: whether a command runs
// tests and with which runner ([Test]), how a test run ended and how many
// tests passed or failed ([ParseTest]), and the line of a failed command
// worth keeping ([Failure]). It is pure: no I/O, no store.
//
// # Commands
//
// [Test] parses the command line as shell (mvdan.cc/sh), so quotes, lists
// (&&, ;, |), subshells, environment assignments and wrappers (cd x &&,
// env, timeout, nice, time, sudo, xvfb-run, npx, pnpm exec, bunx, uv run,
// poetry run, pipenv run, pdm run, hatch run, bundle exec, docker exec and
// docker compose exec/run, bash -c '…') are seen through. It recognises go
// test and gotestsum; pytest and python -m pytest|unittest|nose2, Django's
// manage.py test, a test file run by python or ruby; npm, pnpm, yarn and bun
// test scripts (test, test:*, test-*); jest, vitest, mocha, node --test,
// playwright test, react-scripts test; cargo test, cargo nextest run;
// mvn test|verify|integration-test (not with -DskipTests), gradle test,
// check and *Test tasks; dotnet test; rspec, rake spec|test, rails test;
// phpunit, pest, php artisan test, composer test; mix test; deno test; bun
// test; ctest; make, ninja, just and task test|check targets; tox, nox;
// scripts named test.sh, run_tests.sh and the like; and a few more (swift,
// zig, cabal, stack, dune, lein, sbt, flutter, dart, bazel, meson, prove,
// bats test runs). A word in an argument (echo go test, grep pytest, git
// commit -m "fix test"), an install (npm install jest) or a listing
// (pytest --collect-only, go test -list, cargo test --no-run) is not a test
// run. A command too broken to parse is split on its operators instead.
//
// # Test output
//
// [ParseTest] reads the last 64 KiB of the output, ANSI colours and
// carriage-return redraws removed. The outcome is the exit status unless
// the output's own summary says the run failed, or that no test ran. Counts
// come from the runner's summary: go test (-v and -json lines, ok/FAIL
// package lines, build failures and panics), pytest (long and -q forms),
// unittest (and Django), jest (and Pest's like form), vitest, mocha, node
// --test (TAP and spec), cargo test (targets summed) and nextest, Maven
// Surefire (results summed over modules), Gradle, dotnet test (VSTest and
// Microsoft.Testing.Platform), RSpec, Minitest, PHPUnit, ExUnit, deno, bun,
// CTest and Playwright, else a plain "N passed, N failed" line. The output
// of make, npm test and other wrappers is read for any of these. Plain go
// test output counts only what it prints (failing tests, packages), so its
// counts are marked as not known.
//
// # Failures
//
// [Failure] picks the line a developer would quote from a failed command's
// output, scanning at most its last 64 KiB: a Python traceback's final
// exception, Java's deepest "Caused by:", a Go panic, failing test with its
// assertion or compile error, a Rust error[E…] or panic with its message,
// a Node or TypeScript error, a pytest FAILED line, a test runner's first
// failing test, a shell's "command not found" or "No such file or
// directory", git's "fatal:"; make's "*** Error" lines, npm's bookkeeping
// lines, Claude Code's "Exit code N" and Gemini CLI's "Exit Code:" and
// "Process Group PGID:" lines are never chosen. Without any of these the
// last line that is not such noise is kept. The failure's fingerprint
// ignores temporary paths, numbers (line numbers, durations, PIDs, ports,
// timestamps), hex addresses and UUIDs, so it can merge two failures that
// differ only in a number.
package runs
