package hands_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/service/page"
)

// The files of a small project with one defect of each kind the e2e tests
// use too: a committed key, a Dockerfile on :latest, an UPDATE without
// WHERE, a flowchart that does not parse.
var broken = map[string]string{
	"go.mod":                          "module example.com/shop\n\ngo 1.26\n",
	"deploy/app.env":                  "GITHUB_TOKEN=ghp_R7nXq2Lm9Vt4Kp8Zw3Yb6Hc1Jd5Fs0Ag2Nu7\n",
	"Dockerfile":                      "FROM node:latest\nCOPY . /app\nCMD [\"node\", \"/app/server.js\"]\n",
	"db/queries/reset.sql":            "UPDATE accounts SET balance = 0;\n",
	"docs/flow.mmd":                   "flowchart TD\n  A[Start] --> B{Ready?\n  B -->|yes| C[Go]\n",
	"docs/ok.mmd":                     "flowchart TD\n  A[Start] --> B[Done]\n",
	"internal/fixtures/fake_keys.env": "STRIPE_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dcXYZ12345\n",
}

func project(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func rules(fs []check.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.File+" "+f.Rule)
	}
	return out
}

func TestCheckFindsEachSeededDefectWhereItIs(t *testing.T) {
	root := project(t, broken)
	res, err := hands.New(root).Check(context.Background(), hands.Request{All: true, Params: map[string]map[string]string{"secrets": {"scope": "all"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []struct {
		file, rule string
		line       int
	}{
		{"deploy/app.env", "secrets/github-token", 1},
		{"Dockerfile", "dockerfile/image-latest", 1},
		{"db/queries/reset.sql", "sql/update-without-where", 1},
		{"docs/flow.mmd", "mermaid/syntax", 0},
	} {
		i := slices.IndexFunc(res.Findings, func(f check.Finding) bool {
			return f.File == want.file && f.Rule == want.rule && (want.line == 0 || f.Line == want.line)
		})
		if i < 0 {
			t.Errorf("no %s in %s at line %d; found:\n%s", want.rule, want.file, want.line, strings.Join(rules(res.Findings), "\n"))
		}
	}
	for _, f := range res.Findings {
		if f.File == "docs/ok.mmd" {
			t.Errorf("a valid diagram has a finding: %s", f)
		}
	}
	for _, c := range []string{"secrets", "dockerfile", "sql", "mermaid"} {
		if !slices.Contains(res.Checks, c) {
			t.Errorf("checks that ran: %v, want %s among them", res.Checks, c)
		}
	}
	if res.Errors() == 0 || res.Total != len(res.Findings) {
		t.Errorf("errors %d, total %d, findings %d", res.Errors(), res.Total, len(res.Findings))
	}
}

func TestProjectSuppressionsAreAppliedAndCounted(t *testing.T) {
	files := with(broken, map[string]string{".cairn/config.toml": `
[[checks.ignore]]
rule = "secrets/*"
path = "internal/fixtures/**"
reason = "fake keys for the payment tests"

[checks.params.secrets]
scope = "all"
`})
	root := project(t, files)
	res, err := hands.New(root).Check(context.Background(), hands.Request{Checks: []string{"secrets"}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if strings.HasPrefix(f.File, "internal/fixtures/") {
			t.Errorf("suppressed by the config, yet reported: %s", f)
		}
	}
	if res.SuppressedTotal != 1 || res.Suppressed["secrets/stripe-key"] != 1 {
		t.Errorf("suppressed %d %v, want 1 secrets/stripe-key", res.SuppressedTotal, res.Suppressed)
	}
	if !slices.ContainsFunc(res.Findings, func(f check.Finding) bool { return f.File == "deploy/app.env" }) {
		t.Errorf("the key outside the fixtures is not reported (scope=all from checks.params): %v", rules(res.Findings))
	}
}

func TestInlineSuppressionIsCounted(t *testing.T) {
	root := project(t, map[string]string{"db/queries/reset.sql": "-- cairn:ignore sql/update-without-where every account is reset at year end\nUPDATE accounts SET balance = 0;\n"})
	res, err := hands.New(root).Check(context.Background(), hands.Request{Checks: []string{"sql"}, Params: map[string]map[string]string{"sql": {"dialect": "sqlite"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 0 || res.Suppressed["sql/update-without-where"] != 1 {
		t.Errorf("findings %v, suppressed %v", rules(res.Findings), res.Suppressed)
	}
}

func TestInlineContent(t *testing.T) {
	svc := hands.New(project(t, nil))
	ctx := context.Background()
	res, err := svc.Check(ctx, hands.Request{Checks: []string{"sql"}, Content: "DELETE FROM sessions;", Params: map[string]map[string]string{"sql": {"dialect": "mysql"}}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Inline != "query.sql" || !slices.ContainsFunc(res.Findings, func(f check.Finding) bool { return f.Rule == "sql/delete-without-where" && f.Line == 1 }) {
		t.Errorf("inline %q, findings %v", res.Inline, rules(res.Findings))
	}
	// A name says the format: a Markdown file's mermaid blocks.
	res, err = svc.Check(ctx, hands.Request{Checks: []string{"mermaid"}, Content: "# Flow\n\n```mermaid\nflowchart TD\n  A --> \n```\n", Name: "README.md"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Inline != "README.md" || res.Errors() == 0 || res.Findings[0].Line < 4 {
		t.Errorf("inline %q, findings %v", res.Inline, res.Findings)
	}
	// Without a check, the name picks the checks that read it.
	res, err = svc.Check(ctx, hands.Request{Content: "FROM alpine\nRUN apk add curl\n", Name: "Dockerfile"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(res.Checks, "dockerfile") {
		t.Errorf("checks %v, want dockerfile", res.Checks)
	}
}

func TestRefusals(t *testing.T) {
	root := project(t, broken)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.env"), []byte("X=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.env"), filepath.Join(root, "escape.env")); err != nil {
		t.Fatal(err)
	}
	svc := hands.New(root)
	for _, tc := range []struct {
		name  string
		req   hands.Request
		field string
		says  string
	}{
		{"a path outside", hands.Request{Paths: []string{"../" + filepath.Base(outside)}}, "path", "outside the project"},
		{"an absolute path outside", hands.Request{Paths: []string{outside}}, "path", "outside the project"},
		{"a symlink out", hands.Request{Paths: []string{"escape.env"}}, "path", "outside the project"},
		{"a missing file", hands.Request{Paths: []string{"nope.sql"}}, "path", "does not exist"},
		{"an unknown check", hands.Request{Checks: []string{"lint"}}, "only", "not a check"},
		{"content and path", hands.Request{Content: "x", Paths: []string{"Dockerfile"}}, "content", "both"},
		{"a name without content", hands.Request{Name: "x.sql"}, "name", "no content"},
		{"content of no known kind", hands.Request{Content: "hello"}, "name", "which check"},
		{"content not UTF-8", hands.Request{Checks: []string{"sql"}, Content: "SELECT '\xff'"}, "content", "UTF-8"},
		{"content over the cap", hands.Request{Checks: []string{"sql"}, Content: strings.Repeat("-- x\n", check.DefaultMaxFileSize/4)}, "content", "cap"},
		{"a bad param", hands.Request{Checks: []string{"sql"}, Content: "SELECT 1", Params: map[string]map[string]string{"sql": {"dialect": "oracle"}}}, "dialect", ""},
		{"a limit too large", hands.Request{Page: page.Page{Limit: 500}}, "limit", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := svc.Check(context.Background(), tc.req)
			e, ok := problem.As(err)
			if !ok || e.Kind != problem.Invalid || e.Field != tc.field || !strings.Contains(e.Error(), tc.says) {
				t.Fatalf("err = %v (%#v), want a refusal of %s saying %q", err, e, tc.field, tc.says)
			}
		})
	}
	// A walk skips the link out, with the reason, and reads nothing through it.
	res, err := svc.Check(context.Background(), hands.Request{Checks: []string{"secrets"}, Params: map[string]map[string]string{"secrets": {"scope": "all"}}})
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(res.Skipped, func(s check.Skipped) bool { return s.Path == "escape.env" }); i < 0 || !strings.Contains(res.Skipped[i].Reason, "link out of the project") {
		t.Errorf("skipped %v, want escape.env as a link out of the project", res.Skipped)
	}
}

func TestSkippedFilesSayWhy(t *testing.T) {
	root := project(t, map[string]string{
		"big.sql":   "SELECT 1;\n" + strings.Repeat("-- padding padding padding\n", check.DefaultMaxFileSize/20),
		"bin.sql":   "SELECT \x00\x01\x02;\n",
		"latin.sql": "SELECT 'caf\xe9';\n",
	})
	res, err := hands.New(root).Check(context.Background(), hands.Request{Checks: []string{"sql"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, s := range res.Skipped {
		got[s.Path] = s.Reason
	}
	for path, want := range map[string]string{"big.sql": "over the", "bin.sql": "binary", "latin.sql": "not UTF-8"} {
		if !strings.Contains(got[path], want) {
			t.Errorf("%s skipped for %q, want %q", path, got[path], want)
		}
	}
}

func TestConfigRefusals(t *testing.T) {
	for _, tc := range []struct{ name, config, says string }{
		{"no reason", "[[checks.ignore]]\nrule = \"sql/*\"\n", "gives no reason"},
		{"no rule", "[[checks.ignore]]\nreason = \"x\"\n", "has no rule"},
		{"bad glob", "[[checks.ignore]]\nrule = \"sql/*\"\npath = \"[a\"\nreason = \"x\"\n", "not a valid glob"},
		{"a misspelt key", "[[checks.ignore]]\nrul = \"sql/*\"\nreason = \"x\"\n", "unknown key"},
		{"bad TOML", "[[checks.ignore]\n", "fix the TOML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := project(t, map[string]string{".cairn/config.toml": tc.config, "a.sql": "SELECT 1;\n"})
			_, err := hands.New(root).Check(context.Background(), hands.Request{})
			if !problem.Is(err, problem.Malformed) || !strings.Contains(err.Error(), tc.says) || !strings.Contains(err.Error(), ".cairn/config.toml") {
				t.Fatalf("err = %v, want Malformed naming .cairn/config.toml and saying %q", err, tc.says)
			}
		})
	}
	// Another feature's table is not the hands' business.
	root := project(t, map[string]string{".cairn/config.toml": "[insight]\nenabled = false\n", "a.sql": "SELECT 1;\n"})
	if _, err := hands.New(root).Check(context.Background(), hands.Request{}); err != nil {
		t.Fatal(err)
	}
}

func TestPages(t *testing.T) {
	var sql strings.Builder
	for range 30 {
		sql.WriteString("DELETE FROM t;\n")
	}
	root := project(t, map[string]string{"q.sql": sql.String()})
	svc := hands.New(root)
	req := hands.Request{Checks: []string{"sql"}, Params: map[string]map[string]string{"sql": {"dialect": "sqlite"}}}
	first, err := svc.Check(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if first.Total != 30 || len(first.Findings) != hands.Page.Default || first.NextOffset != hands.Page.Default {
		t.Fatalf("total %d, page %d, next %d", first.Total, len(first.Findings), first.NextOffset)
	}
	req.Page = page.Page{Offset: first.NextOffset}
	second, err := svc.Check(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Findings) != 10 || second.NextOffset != 0 || second.Findings[0].Line != 21 {
		t.Fatalf("second page: %d findings from line %d, next %d", len(second.Findings), second.Findings[0].Line, second.NextOffset)
	}
	if diff := cmp.Diff(first.ByRule, second.ByRule); diff != "" {
		t.Errorf("the counts are of every finding, on every page:\n%s", diff)
	}
}

func TestNoProject(t *testing.T) {
	_, err := hands.New("").Check(context.Background(), hands.Request{})
	if !problem.Is(err, problem.NoProject) {
		t.Fatalf("err = %v, want NoProject", err)
	}
}

func TestKindsNameEveryChecker(t *testing.T) {
	var names []string
	for _, c := range hands.Checkers() {
		names = append(names, c.Name())
	}
	if diff := cmp.Diff(hands.CheckNames(), names); diff != "" {
		t.Error(diff)
	}
	if _, ok := hands.KindOf("nope"); ok {
		t.Error("KindOf(nope)")
	}
}

func with(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

// TestEvolutionRaisesSeverity: [evolution.severity], which the evolution
// engine writes for a check whose violations are always fixed at once,
// raises that check's (or that rule's) findings to the severity it names,
// and the answer says so; findings already as serious, and other checks'
// findings, are left as they were.
func TestEvolutionRaisesSeverity(t *testing.T) {
	files := map[string]string{"Dockerfile": "FROM node:latest\nCOPY . /app\nCMD [\"node\", \"/app/server.js\"]\n"}
	ctx := context.Background()
	before, err := hands.New(project(t, files)).Check(ctx, hands.Request{Checks: []string{"dockerfile"}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	var below []string
	for _, f := range before.Findings {
		if f.Severity != check.Error {
			below = append(below, f.Rule)
		}
	}
	if len(below) == 0 {
		t.Fatalf("the Dockerfile has no finding below error to raise: %v", before.Findings)
	}
	raised := with(files, map[string]string{".cairn/config.toml": "[evolution.severity]\n\"dockerfile\" = \"error\"\n\"sql\" = \"error\"\n"})
	after, err := hands.New(project(t, raised)).Check(ctx, hands.Request{Checks: []string{"dockerfile"}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(after.Findings) != len(before.Findings) {
		t.Fatalf("raising a severity changed the findings: %d -> %d", len(before.Findings), len(after.Findings))
	}
	for _, f := range after.Findings {
		if f.Severity != check.Error {
			t.Errorf("%s is still %s under [evolution.severity] dockerfile = error", f.Rule, f.Severity)
		}
	}
	if after.BySeverity[check.Error] != len(after.Findings) {
		t.Errorf("counts by severity %v do not follow the raised findings", after.BySeverity)
	}
	if !slices.ContainsFunc(after.Notes, func(n string) bool {
		return strings.Contains(n, "[evolution.severity]") && strings.Contains(n, "dockerfile") && !strings.Contains(n, "sql")
	}) {
		t.Errorf("the answer does not say which severities were raised (only dockerfile's findings were): %v", after.Notes)
	}
	// A rule id raises only that rule.
	one := with(files, map[string]string{".cairn/config.toml": "[evolution.severity]\n\"" + below[0] + "\" = \"error\"\n"})
	res, err := hands.New(project(t, one)).Check(ctx, hands.Request{Checks: []string{"dockerfile"}, All: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Rule == below[0] && f.Severity != check.Error {
			t.Errorf("%s is %s under its own [evolution.severity] entry", f.Rule, f.Severity)
		}
	}
}
