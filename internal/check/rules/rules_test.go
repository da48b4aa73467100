package rules_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/rules"
	"github.com/cairn-dev/cairn/internal/problem"
)

const ruleFile = `rules:
  - id: no-println
    severity: error
    globs: ["**/*.go"]
    exclude: ["**/*_test.go"]
    rationale: Output goes through the logger.
    fix: Use slog.
    bad: fmt.Println("x")
    good: slog.Info("x")
    match:
      pattern: 'fmt\.Println\('
  - id: store-not-service
    globs: ["internal/store/**"]
    match:
      forbid_import: ["example.com/app/internal/service/...", "net/http"]
  - id: no-lodash
    globs: ["web/**"]
    match: { forbid_import: ["lodash", "lodash/*"] }
  - id: no-requests
    globs: ["**/*.py"]
    match: { forbid_import: ["requests", "urllib3.*"] }
  - id: adr-decision
    globs: ["docs/adr/*.md"]
    match: { require_section: Decision }
  - id: small-files
    globs: ["**/*.go"]
    match: { max_lines: 20 }
  - id: short-funcs
    match: { max_function_lines: 5 }
  - id: snake-py
    globs: ["**/*.py"]
    match: { naming: { target: file, style: snake_case } }
  - id: pascal-types
    globs: ["**/*.go"]
    match: { naming: { target: type, style: PascalCase } }
  - id: license
    match: { require_file: LICENSE* }
`

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestEachMatcherFindsItsDefectAndPassesTheCleanFile(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		".cairn/rules/code.yaml": ruleFile,
		".cursor/rules/ctx.mdc":  "---\ndescription: Use ctx\nglobs: internal/**/*.go\nid: ctx-first\nmatch:\n  pattern: 'context\\.TODO\\(\\)'\n---\nPass the caller's context: context.TODO hides a missing one.\n",
		".claude/rules/prose.md": "---\ndescription: just words\n---\nBe nice.\n",
		"cmd/main.go":            "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n",
		"cmd/main_test.go":       "package main\n\nimport \"fmt\"\n\nfunc TestX() { fmt.Println(1) }\n",
		"internal/store/db.go":   "package store\n\nimport (\n\t\"context\"\n\t\"example.com/app/internal/service/plan\"\n)\n\nvar _ = plan.X\nvar _ = context.TODO()\n\ntype row_t struct{}\n",
		"internal/store/ok.go":   "package store\n\nimport \"example.com/app/internal/servicex\"\n\nvar _ = servicex.Y\n",
		"web/app.ts":             "// import x from 'lodash'\nimport { map } from 'lodash/fp';\nimport type { T } from './t';\nconst s = \"require('lodash')\";\nconst q = require(\"lodash\");\nexport * from './other';\n",
		"tools/FetchIt.py":       "\"\"\"Docs.\nimport requests\n\"\"\"\nimport os, requests as r\nfrom urllib3.util import retry\n\ndef long():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n    return a\n",
		"docs/adr/001.md":        "# Use SQLite\n\n## Context\n\n```\n## Decision\n```\n",
		"docs/adr/002.md":        "# Use Go\n\n## Decision\n\nGo.\n",
		"big.go":                 "package big\n" + strings.Repeat("\n", 25),
	}
	write(t, root, files)
	set, err := rules.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Rules) != 11 || set.Find("project/ctx-first") == nil || set.Find("prose") != nil {
		t.Fatalf("rules: %d, files %v", len(set.Rules), set.Files)
	}
	if r := set.Find("ctx-first"); r.Rationale != "Use ctx" || r.Line != 2 {
		t.Errorf("markdown rule: %+v", r)
	}
	c := set.Checker()
	var in check.Input
	for rel, text := range files {
		if c.Wants(rel, nil) {
			in.Files = append(in.Files, check.File{Path: rel, Content: []byte(text)})
		}
	}
	res, err := c.Check(context.Background(), &in)
	if err != nil {
		t.Fatal(err)
	}
	all := append(res.Findings, set.Required(fstest.MapFS{"README.md": {Data: []byte("x")}, "docs/LICENSE.md": {Data: []byte("x")}})...)
	var got []string
	for _, f := range all {
		got = append(got, f.String()[:strings.Index(f.String(), " project/")+len(" project/")]+strings.TrimPrefix(f.Rule, "project/"))
	}
	slices.Sort(got)
	want := []string{
		"<inline> warning project/license",
		"big.go:21 warning project/small-files",
		"cmd/main.go:6:2 error project/no-println",
		"docs/adr/001.md:1 warning project/adr-decision",
		"internal/store/db.go:11:6 warning project/pascal-types",
		"internal/store/db.go:5:2 warning project/store-not-service",
		"internal/store/db.go:9:9 warning project/ctx-first",
		"tools/FetchIt.py warning project/snake-py",
		"tools/FetchIt.py:4:1 warning project/no-requests",
		"tools/FetchIt.py:5:1 warning project/no-requests",
		"tools/FetchIt.py:7:1 warning project/short-funcs",
		"web/app.ts:2:21 warning project/no-lodash",
		"web/app.ts:5:19 warning project/no-lodash",
	}
	slices.Sort(want)
	for i := range got {
		// The severity word sits between the location and the rule.
		got[i] = strings.Replace(got[i], " warning warning", " warning", 1)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestMalformedRuleFilesAreRefusedWithFileAndLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"rules:\n  - id: a\n    match: { pattern: '(' }\n", ".cairn/rules/r.yaml:3: pattern \"(\" is not a regular expression"},
		{"rules:\n  - id: a\n    severity: fatal\n    match: { max_lines: 3 }\n", ".cairn/rules/r.yaml:3: severity \"fatal\""},
		{"rules:\n  - id: a\n    colour: red\n    match: { max_lines: 3 }\n", ".cairn/rules/r.yaml:3: unknown key \"colour\""},
		{"rules:\n  - severity: error\n    match: { max_lines: 3 }\n", ".cairn/rules/r.yaml:2: the rule has no id"},
		{"rules:\n  - id: a\n", ".cairn/rules/r.yaml:2: rule \"a\" has no match"},
		{"rules:\n  - id: a\n    match: { max_lines: -1 }\n", ".cairn/rules/r.yaml:3: max_lines must be a positive whole number"},
		{"rules:\n  - id: a\n    match: { max_lines: 3, pattern: x }\n", ".cairn/rules/r.yaml:3: match must have exactly one"},
		{"rules:\n  - id: a\n    match: { naming: { target: var, style: snake_case } }\n", "naming target \"var\""},
		{"rules:\n  - id: a\n    match: { max_lines: 3 }\n  - id: a\n    match: { max_lines: 4 }\n", ".cairn/rules/r.yaml:4: rule id \"a\" is already used at .cairn/rules/r.yaml:2"},
		{"rules:\n  - id: a\n\tmatch: x\n", ".cairn/rules/r.yaml:2: not YAML: found a tab character"},
	} {
		root := t.TempDir()
		write(t, root, map[string]string{".cairn/rules/r.yaml": c.text})
		_, err := rules.Load(root)
		pe, ok := errors.AsType[*problem.Error](err)
		if !ok || pe.Kind != problem.Malformed || !strings.Contains(pe.Problem, c.want) {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	// Markdown front matter with a broken match is refused too.
	root := t.TempDir()
	write(t, root, map[string]string{"rules/x.md": "---\nid: x\nmatch:\n  max_lines: many\n---\nWords.\n"})
	if _, err := rules.Load(root); err == nil || !strings.Contains(err.Error(), "rules/x.md:4: max_lines must be a positive whole number") {
		t.Errorf("markdown: %v", err)
	}
}
