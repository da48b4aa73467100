package runs

// Runner is a test runner, as [Test] recognises it in a command and
// [ParseTest] reads its output.
type Runner string

// The runners.
const (
	GoTest     Runner = "go test"
	Pytest     Runner = "pytest"
	Unittest   Runner = "unittest" // also Django's manage.py test and nose2
	Jest       Runner = "jest"
	Vitest     Runner = "vitest"
	Mocha      Runner = "mocha"
	NodeTest   Runner = "node --test"
	Playwright Runner = "playwright"
	Cargo      Runner = "cargo test"
	Nextest    Runner = "nextest"
	Maven      Runner = "maven"
	Gradle     Runner = "gradle"
	Dotnet     Runner = "dotnet test"
	RSpec      Runner = "rspec"
	Minitest   Runner = "minitest"
	PHPUnit    Runner = "phpunit"
	Pest       Runner = "pest" // also php artisan test
	ExUnit     Runner = "mix test"
	Deno       Runner = "deno test"
	Bun        Runner = "bun test"
	CTest      Runner = "ctest"
	// Make is a make (ninja, cmake --target) test or check target: its
	// output is read for the runner it ran.
	Make Runner = "make"
	// Script is a project's test script (npm test, tox, ./test.sh …): its
	// output is read for the runner it ran.
	Script Runner = "script"
	// Other is a test run of a tool whose output is read only for a plain
	// "N passed, N failed" line (swift test, zig build test, cabal test …).
	Other Runner = "other"
)
