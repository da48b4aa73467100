package mcpserver_test

import (
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/internal/mcpserver"
)

// The golden scenario's calls of the hands' second part: a package whose
// lock drifted from its manifest, a change given as a diff (the project of
// the golden test is not a git clone), a commit message to check.

// ciGoldenDiff changes line 2 of the migration (the UPDATE without WHERE)
// and nothing else of it: the CREATE INDEX of line 1 is off the change.
const ciGoldenDiff = "diff --git a/testdata/hands/db/migrations/0002_orders.sql b/testdata/hands/db/migrations/0002_orders.sql\n" +
	"--- a/testdata/hands/db/migrations/0002_orders.sql\n+++ b/testdata/hands/db/migrations/0002_orders.sql\n" +
	"@@ -1,2 +1,2 @@\n CREATE INDEX orders_user ON orders (user_id);\n-UPDATE orders SET status = 'open' WHERE id = 1;\n+UPDATE orders SET status = 'open';\n"

// apiGoldenDiff removed an exported function of a Go package: the work
// tree has the file after it (cart/cart.go).
const apiGoldenDiff = "diff --git a/cart/cart.go b/cart/cart.go\n--- a/cart/cart.go\n+++ b/cart/cart.go\n" +
	"@@ -1,7 +1,4 @@\n package cart\n \n-// Total sums the cart.\n-func Total(prices []int) int { return 0 }\n-\n // Empty says whether the cart is empty.\n func Empty(items []string) bool { return len(items) == 0 }\n"

func init() {
	handsFiles["cart/cart.go"] = "package cart\n\n// Empty says whether the cart is empty.\nfunc Empty(items []string) bool { return len(items) == 0 }\n"
	handsFiles["testdata/hands/app/package.json"] = `{"name":"app","dependencies":{"left-pad":"^1.3.0"}}` + "\n"
	handsFiles["testdata/hands/app/package-lock.json"] = `{"name":"app","lockfileVersion":3,"packages":{"":{"dependencies":{"left-pad":"^1.3.0"}},"node_modules/left-pad":{"version":"1.1.0"}}}` + "\n"
	handsFiles[".cairn/rules/shop.yaml"] = `rules:
  - id: no-status-literal
    title: order status written as a literal
    globs: ["**/*.sql"]
    rationale: Order statuses come from the order_status enum; a literal drifts when the enum changes.
    bad: UPDATE orders SET status = 'open';
    good: UPDATE orders SET status = 'open'::order_status WHERE id = $1;
    fix: Cast to order_status.
    match: { pattern: "status = '[a-z]+'(;|\\s)" }
  - id: readme
    match: { require_file: README.md }
`
	scenario = append(scenario,
		step{"verify_version", args{"name": "left-pad", "believed": "1.3.0", "path": "testdata/hands/app"}},
		step{"verify_version", args{"name": "left-pad", "path": "../outside"}},
		step{"generate_commit_message", args{"diff": apiGoldenDiff, "refs": []string{"T7"}}},
		step{"generate_commit_message", args{"message": "Fixed the cart."}},
		step{"generate_commit_message", args{"message": "fix(cart): keep the empty check", "diff": apiGoldenDiff}},
		step{"ci_diff_check", args{"diff": ciGoldenDiff}},
		step{"ci_diff_check", args{}},
		step{"ci_report", args{"diff": ciGoldenDiff, "format": "github"}},
		step{"ci_report", args{"diff": ciGoldenDiff, "lines": true, "format": "markdown"}},
		step{"check_compliance", args{"path": "testdata/hands/db"}},
		step{"check_compliance", args{"diff": ciGoldenDiff, "lines": true, "only": "project"}},
		step{"memory_add_mistake", args{"title": "UPDATE without WHERE reset every order status", "content": "The orders migration ran UPDATE orders SET status without a WHERE clause.", "fix": "Add the WHERE clause; validate_sql flags it."}},
		step{"explain_violation", args{"rule": "project/no-status-literal"}},
		step{"explain_violation", args{"rule": "sql/update-without-where"}},
		step{"explain_violation", args{"rule": "sql/update-without"}},
		step{"check_quality_gates", args{}},
		step{"check_quality_gates", args{"threshold": 150}},
		step{"plan_migration", args{"name": "left-pad", "to": "2.0.0", "path": "testdata/hands/app"}},
		step{"plan_migration", args{"name": "left-pad", "to": "2.0.0", "path": "testdata/hands/app", "create": true}},
		step{"plan_migration", args{"name": "right-pad", "to": "2.0.0"}},
	)
}

// ciTools are the tools of the hands' second part.
var ciTools = []string{"verify_version", "generate_commit_message", "ci_report", "ci_diff_check", "check_compliance", "explain_violation", "check_quality_gates"}

// ciWriteTools are the hands tools that may write (not served read-only).
var ciWriteTools = []string{"plan_migration"}

func TestHandsCIToolsAreReadOnlyAndOptIn(t *testing.T) {
	def, err := mcpserver.ToolNames([]string{"default"}, false)
	if err != nil {
		t.Fatal(err)
	}
	served, err := mcpserver.ToolNames([]string{"hands"}, true)
	if err != nil {
		t.Fatal(err)
	}
	all, err := mcpserver.ToolNames([]string{"hands"}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range ciWriteTools {
		if slices.Contains(served, name) || !slices.Contains(all, name) || slices.Contains(def, name) {
			t.Errorf("%s: read-only %v, all %v", name, slices.Contains(served, name), slices.Contains(all, name))
		}
	}
	for _, name := range ciTools {
		if slices.Contains(def, name) {
			t.Errorf("%s is served by default", name)
		}
		if !slices.Contains(served, name) {
			t.Errorf("%s is not served by --toolsets hands --read-only", name)
		}
	}
}
