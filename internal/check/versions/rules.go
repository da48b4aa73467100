package versions

import "github.com/cairn-dev/cairn/internal/check"

// The rule ids of verify_version's findings.
const (
	RuleLockDrift      = "versions/lock-drift"
	RuleNotLocked      = "versions/not-locked"
	RuleGoSumMissing   = "versions/go-sum-missing"
	RuleInstalledDrift = "versions/installed-drift"
	RuleBelief         = "versions/belief-mismatch"
	RuleNotFound       = "versions/not-found"
	RuleSyntax         = "versions/syntax"
)

// Rules lists every rule a Report's findings may name, for explain_violation.
func Rules() []check.Rule {
	return []check.Rule{
		{
			ID: RuleLockDrift, Severity: check.Error, Title: "lock file does not satisfy the manifest",
			Why:  "The manifest was edited without reinstalling: a fresh install, CI and the next developer get a different version than the lock file says, or the install fails in frozen mode.",
			Fix:  "Reinstall with the package manager so the lock follows the manifest, and commit both.",
			Bad:  `package.json "react": "^18.2.0" with package-lock.json locking react 17.0.2`,
			Good: `package.json "react": "^18.2.0" with package-lock.json locking react 18.3.1`,
		},
		{
			ID: RuleNotLocked, Severity: check.Error, Title: "declared but not in the lock file",
			Why:  "A dependency added to the manifest by hand is missing from the lock: frozen installs (npm ci, uv sync --locked, cargo build --locked) fail.",
			Fix:  "Run the install or lock command and commit the lock file.",
			Bad:  `pyproject.toml lists "httpx>=0.27" and uv.lock has no httpx package`,
			Good: `uv.lock has [[package]] name = "httpx" version = "0.27.2"`,
		},
		{
			ID: RuleGoSumMissing, Severity: check.Error, Title: "go.mod requirement without a go.sum entry",
			Why:  "The go command refuses to build with a requirement whose checksum is not in go.sum (\"missing go.sum entry\").",
			Fix:  "Run go mod tidy (or go mod download MODULE) and commit go.sum.",
			Bad:  "require golang.org/x/text v0.42.0 with go.sum listing only v0.41.0",
			Good: "go.sum lists golang.org/x/text v0.42.0 h1:... and v0.42.0/go.mod h1:...",
			Link: "https://go.dev/ref/mod#go-sum-files",
		},
		{
			ID: RuleInstalledDrift, Severity: check.Warning, Title: "installed version differs from the lock",
			Why:  "Code runs against what is installed: tests pass or fail on a version that CI will not use.",
			Fix:  "Reinstall from the lock file (npm ci, uv sync, poetry install, go mod download).",
			Bad:  "node_modules/lodash/package.json says 4.17.15, package-lock.json locks 4.17.21",
			Good: "node_modules/lodash/package.json says 4.17.21",
		},
		{
			ID: RuleBelief, Severity: check.Error, Title: "believed version is not the resolved one",
			Why:  "An agent that writes code for the API of another version than the project's uses functions that do not exist or behave differently.",
			Fix:  "Write against the resolved version, or upgrade on purpose with the package manager.",
			Bad:  "believing pydantic 1.10 when uv.lock pins 2.8.2",
			Good: "believing pydantic 2.8 when uv.lock pins 2.8.2",
		},
		{
			ID: RuleNotFound, Severity: check.Warning, Title: "dependency not in the project",
			Why:  "A name that no manifest, lock or install knows is misspelled or not a dependency yet: importing it will fail.",
			Fix:  "Check the spelling, or add the dependency with the package manager.",
			Bad:  "verify_version name=requets",
			Good: "verify_version name=requests",
		},
		{
			ID: RuleSyntax, Severity: check.Error, Title: "manifest or lock file does not parse",
			Why:  "A package manager refuses a manifest or lock it cannot read; versions in it cannot be verified.",
			Fix:  "Fix the file, or regenerate the lock file with the package manager.",
			Bad:  `[project]\ndependencies = ["requests>=2"`,
			Good: `[project]\ndependencies = ["requests>=2"]`,
		},
	}
}

func ruleByID(id string) check.Rule {
	for _, r := range Rules() {
		if r.ID == id {
			return r
		}
	}
	return check.Rule{ID: id}
}
