// Package hands declares the hands toolset: validators of the agent's
// work, CI reports, compliance, quality gates, migration plans.
package hands

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/service/page"
)

// The hands toolset: each tool runs one validator of internal/check over a
// path of the project or over inline content, through the hands service.

// checkArgs are the arguments every hands tool takes.
type checkArgs struct {
	Path    string `json:"path,omitempty" jsonschema:"file or dir; default all"`
	Content string `json:"content,omitempty" jsonschema:"text, instead of path"`
	Name    string `json:"name,omitempty" jsonschema:"content's file name"`
	Offset  int    `json:"offset,omitempty"`
	Limit   int    `json:"limit,omitempty"`
}

func (a checkArgs) common() checkArgs { return a }

// Each tool's own params, named as its check's package documents them.
type (
	mermaidArgs struct{ checkArgs }
	openapiArgs struct {
		checkArgs
		ExampleFormats string `json:"example_formats,omitempty"`
	}
	sqlArgs struct {
		checkArgs
		Dialect string `json:"dialect,omitempty"`
		Kind    string `json:"kind,omitempty"`
	}
	testsArgs struct {
		checkArgs
		Coverage  string   `json:"coverage,omitempty" jsonschema:"report path"`
		Threshold *float64 `json:"threshold,omitempty" jsonschema:"min %"`
	}
	dockerfileArgs struct {
		checkArgs
		Context string `json:"context,omitempty" jsonschema:"build context"`
		Check   string `json:"check,omitempty" jsonschema:"as # check="`
	}
	i18nArgs struct {
		checkArgs
		Base   string `json:"base,omitempty" jsonschema:"locale"`
		Syntax string `json:"syntax,omitempty"`
	}
	tkbArgs struct {
		checkArgs
		Categories string `json:"categories,omitempty"`
		Maturities string `json:"maturities,omitempty"`
	}
	designTokensArgs struct {
		checkArgs
		Format string `json:"format,omitempty"`
	}
	a11yArgs struct {
		checkArgs
		Render string `json:"render,omitempty"`
		URL    string `json:"url,omitempty" jsonschema:"loopback page"`
	}
	perfArgs struct {
		checkArgs
		JSBudget    *float64 `json:"js_budget,omitempty"`
		CSSBudget   *float64 `json:"css_budget,omitempty"`
		ImageBudget *float64 `json:"image_budget,omitempty"`
	}
	secretsArgs struct {
		checkArgs
		Scope string `json:"scope,omitempty"`
		Allow string `json:"allow,omitempty" jsonschema:"path globs"`
	}
)

// checkTools names the tool that runs each check of hands.Kinds.
var checkTools = map[string]string{
	"mermaid":      "validate_mermaid",
	"openapi":      "validate_openapi",
	"sql":          "validate_sql",
	"tests":        "validate_tests",
	"dockerfile":   "validate_dockerfile",
	"i18n":         "validate_i18n",
	"tkb":          "validate_tkb_entry",
	"designtokens": "validate_design_tokens",
	"a11y":         "audit_accessibility",
	"perf":         "audit_performance",
	"secrets":      "scan_secrets",
}

// ToolOf names the tool that runs a check ("" for a check no tool runs).
func ToolOf(check string) string { return checkTools[check] }

// handsArgs is what every hands tool's arguments give the handler.
type handsArgs interface{ common() checkArgs }

// Tools are the hands toolset's tools, in the order people read them.
func Tools() []tool.Tool {
	return slices.Concat(validatorTools(), ciTools(), ruleTools(), gateTools(), migrationTools())
}

func validatorTools() []tool.Tool {
	const ts = "hands"
	shape := func(extra ...func(*jsonschema.Schema)) []func(*jsonschema.Schema) {
		return append(tool.PageShape(hands.Page), extra...)
	}
	return []tool.Tool{
		tool.Declare(ts, mcp.Tool{Name: "validate_mermaid", Annotations: tool.ReadOnly,
			Description: "Checks Mermaid diagrams (.mmd files, Markdown blocks) against Mermaid's grammars."},
			handsTool[mermaidArgs]("mermaid"), shape()...),
		tool.Declare(ts, mcp.Tool{Name: "validate_openapi", Annotations: tool.ReadOnly,
			Description: "Checks OpenAPI 2.0-3.2 specs, YAML or JSON, $refs across files."},
			handsTool[openapiArgs]("openapi"), shape(tool.Enum("example_formats", "assert", "ignore"))...),
		tool.Declare(ts, mcp.Tool{Name: "validate_sql", Annotations: tool.ReadOnly,
			Description: "Checks SQL in its dialect's own parser, then unsafe statements and locking migrations."},
			handsTool[sqlArgs]("sql"), shape(tool.Enum("dialect", "postgres", "mysql", "sqlite"), tool.Enum("kind", "migration", "query"))...),
		tool.Declare(ts, mcp.Tool{Name: "validate_tests", Annotations: tool.ReadOnly,
			Description: "Finds tests that assert nothing, focused or skipped tests, sleeps, missing tests; coverage."},
			handsTool[testsArgs]("tests"), shape()...),
		tool.Declare(ts, mcp.Tool{Name: "validate_dockerfile", Annotations: tool.ReadOnly,
			Description: "Checks Dockerfiles with BuildKit's parser and checks, then best practices."},
			handsTool[dockerfileArgs]("dockerfile"), shape()...),
		tool.Declare(ts, mcp.Tool{Name: "validate_i18n", Annotations: tool.ReadOnly,
			Description: "Compares locale files (JSON, YAML, ARB, .po) with the base: keys, placeholders, plurals."},
			handsTool[i18nArgs]("i18n"), shape()...),
		tool.Declare(ts, mcp.Tool{Name: "validate_tkb_entry", Annotations: tool.ReadOnly,
			Description: "Checks knowledge/ entries: front matter, vocabularies (comma lists), links."},
			handsTool[tkbArgs]("tkb"), shape()...),
		tool.Declare(ts, mcp.Tool{Name: "validate_design_tokens", Annotations: tool.ReadOnly,
			Description: "Checks design tokens (DTCG, Style Dictionary): aliases, cycles, values by type."},
			handsTool[designTokensArgs]("designtokens"), shape(tool.Enum("format", "auto", "dtcg", "style-dictionary"))...),
		tool.Declare(ts, mcp.Tool{Name: "audit_accessibility", Annotations: tool.ReadOnly,
			Description: "WCAG checks on HTML and templates; axe-core when Chromium is installed."},
			handsTool[a11yArgs]("a11y"), shape(tool.Enum("render", "auto", "off", "required"))...),
		tool.Declare(ts, mcp.Tool{Name: "audit_performance", Annotations: tool.ReadOnly,
			Description: "Asset sizes against budgets (KB), unminified bundles, costly Go and JS patterns."},
			handsTool[perfArgs]("perf"), shape()...),
		tool.Declare(ts, mcp.Tool{Name: "scan_secrets", Annotations: tool.ReadOnly,
			Description: "Finds committed credentials (provider keys, private keys, high-entropy assignments), redacted."},
			handsTool[secretsArgs]("secrets"), shape(tool.Enum("scope", "tracked", "all"))...),
	}
}

// warmUp compiles PostgreSQL's parser (seconds of CPU, once a process) in
// the background at the first hands call of any kind, so that a later
// validate_sql does not wait for it; a server that never checks anything
// never pays for it.
var warmUp sync.Once

// handsTool is the handler of the tool that runs check name: the common
// arguments say what to check, the others are the check's params.
func handsTool[In handsArgs](name string) tool.HandlerFunc[In] {
	return func(ctx context.Context, c tool.Call, in In) (string, any, error) {
		warmUp.Do(func() { go hands.WarmUp() })
		a := in.common()
		req := hands.Request{Checks: []string{name}, Content: a.Content, Name: a.Name,
			Params: map[string]map[string]string{name: checkParams(in)}, Page: page.Page{Offset: a.Offset, Limit: a.Limit}}
		if a.Path != "" {
			req.Paths = []string{a.Path}
		}
		res, err := c.Hands.Check(ctx, req)
		if err != nil {
			return "", nil, err
		}
		return render.CheckText(res, render.CheckTool), render.CheckViewOf(res), nil
	}
}

// checkParams are the params an argument struct carries besides the
// common ones, as the checks read them: strings, numbers as written.
func checkParams(in any) map[string]string {
	b, err := json.Marshal(in)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	for _, k := range []string{"path", "content", "name", "offset", "limit"} {
		delete(m, k)
	}
	out := map[string]string{}
	for k, v := range m {
		if s := strings.TrimSpace(project.ParamString(v)); s != "" {
			out[k] = s
		}
	}
	return out
}
