package mcpserver_test

import (
	"slices"
	"testing"

	handstools "github.com/cairn-dev/cairn/internal/mcpserver/toolsets/hands"

	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/service/hands"
)

// The hands' part of the golden scenario: files with one defect or two of
// each kind, added to the golden project under testdata/ (which
// detect_project does not read, so the other answers stay as they are),
// and a call of each hands tool.

var handsFiles = map[string]string{
	"testdata/hands/docs/flow.mmd":                 "flowchart TD\n  A[Start] --> B{Ready?\n  B -->|yes| C[Ship]\n",
	"testdata/hands/api/openapi.yaml":              "openapi: 3.0.3\ninfo:\n  title: Shop\n  version: '1'\npaths:\n  /orders/{id}:\n    get:\n      operationId: getOrder\n      responses:\n        '200':\n          description: ok\n  /orders:\n    get:\n      operationId: getOrder\n      responses:\n        '200':\n          description: ok\n",
	"testdata/hands/db/migrations/0002_orders.sql": "CREATE INDEX orders_user ON orders (user_id);\nUPDATE orders SET status = 'open';\n",
	"testdata/hands/shop/cart.go":                  "package shop\n\nimport \"regexp\"\n\nfunc Match(lines []string) int {\n\tn := 0\n\tfor _, l := range lines {\n\t\tif regexp.MustCompile(`^sku-[0-9]+$`).MatchString(l) {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}\n",
	"testdata/hands/shop/cart_test.go":             "package shop\n\nimport \"testing\"\n\nfunc TestMatch(t *testing.T) {\n\tMatch([]string{\"sku-1\"})\n}\n",
	"testdata/hands/Dockerfile":                    "FROM golang:latest\nWORKDIR /src\nCOPY . .\nRUN go build -o /shop ./cmd/shop\nCMD [\"/shop\"]\n",
	"testdata/hands/locales/en.json":               "{\n  \"cart\": {\n    \"title\": \"Your cart\",\n    \"items\": \"{count} items\"\n  }\n}\n",
	"testdata/hands/locales/fr.json":               "{\n  \"cart\": {\n    \"items\": \"{n} articles\"\n  }\n}\n",
	"testdata/hands/web/index.html":                "<!doctype html>\n<html>\n<head><title>Shop</title></head>\n<body>\n<img src=\"logo.png\">\n<h1>Shop</h1>\n<h3>Cart</h3>\n</body>\n</html>\n",
	"testdata/hands/deploy/app.env":                "GITHUB_TOKEN=ghp_R7nXq2Lm9Vt4Kp8Zw3Yb6Hc1Jd5Fs0Ag2Nu7\n",
	".cairn/config.toml":                           "[[checks.ignore]]\nrule = \"perf/*\"\npath = \"testdata/hands/shop/**\"\nreason = \"the cart's matcher runs once a request; measured, not worth a change\"\n",
}

func init() {
	scenario = append(scenario,
		step{"validate_mermaid", args{"path": "testdata/hands/docs/flow.mmd"}},
		step{"validate_mermaid", args{"content": "flowchart TD\n  A --> B\n"}},
		step{"validate_openapi", args{"path": "testdata/hands/api"}},
		step{"validate_sql", args{"path": "testdata/hands/db", "dialect": "postgres"}},
		step{"validate_sql", args{"content": "DELETE FROM t", "dialect": "oracle"}},
		step{"validate_tests", args{"content": handsFiles["testdata/hands/shop/cart_test.go"], "name": "shop/cart_test.go"}},
		step{"validate_dockerfile", args{"path": "testdata/hands/Dockerfile"}},
		step{"validate_i18n", args{"path": "testdata/hands/locales"}},
		step{"validate_tkb_entry", args{"path": "knowledge"}},
		step{"validate_design_tokens", args{"content": `{"color": {"$type": "color", "brand": {"$value": "{color.primary}"}}}`, "name": "tokens.json"}},
		step{"audit_accessibility", args{"path": "testdata/hands/web/index.html", "render": "off"}},
		step{"audit_performance", args{"path": "testdata/hands/shop/cart.go"}},
		step{"scan_secrets", args{"path": "testdata/hands/deploy"}},
		step{"scan_secrets", args{"path": "../elsewhere"}},
		step{"scan_secrets", args{"content": "aws_key = AKIAIOSFODNN7EXAMPLE\n", "name": "settings.py"}},
		step{"validate_sql", args{"path": "testdata/hands/db", "dialect": "postgres", "limit": 1, "offset": 1}},
	)
}

// TestHandsToolsetIsOptIn: the hands are served when asked for, each check
// by its tool, and never by default.
func TestHandsToolsetIsOptIn(t *testing.T) {
	def, err := mcpserver.ToolNames([]string{"default"}, false)
	if err != nil {
		t.Fatal(err)
	}
	served, err := mcpserver.ToolNames([]string{"hands"}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range hands.Kinds {
		name := handstools.ToolOf(k.Check)
		if slices.Contains(def, name) {
			t.Errorf("%s is served by default", name)
		}
		if !slices.Contains(served, name) {
			t.Errorf("%s (check %s) is not served by --toolsets hands --read-only", name, k.Check)
		}
	}
	served = slices.DeleteFunc(served, func(n string) bool { return n == "toolsets" }) // always served
	if len(served) != len(hands.Kinds)+len(ciTools) {
		t.Errorf("the hands toolset serves %v", served)
	}
}
