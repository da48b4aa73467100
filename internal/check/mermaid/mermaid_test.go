package mermaid

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

func TestRulesAreDescribed(t *testing.T) {
	checktest.Rules(t, New())
	for _, r := range New().Rules() {
		if r.Bad == "" || r.Good == "" || r.Link == "" {
			t.Errorf("rule %s: Bad, Good and Link are expected", r.ID)
		}
	}
}

func TestCorpus(t *testing.T) {
	tally := checktest.Corpus(t, New(), filepath.Join("testdata", "corpus"), nil)
	t.Log(tally)
	if tally.ValidFiles == 0 || tally.Seeded == 0 {
		t.Fatalf("the corpus is empty: %v", tally)
	}
}

// example is one diagram of @mermaid-js/examples.
type example struct{ id, title, code string }

// readExamples reads the examples package's diagrams: the code: `...`
// template literals of its module, each under the id of its diagram type.
func readExamples(t *testing.T, file string) []example {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	src := string(b)
	idRe := regexp.MustCompile(`(?m)^\s*id: "([^"]+)",`)
	titleRe := regexp.MustCompile(`title: "((?:[^"\\]|\\.)*)"`)
	var out []example
	for _, m := range regexp.MustCompile("code: `").FindAllStringIndex(src, -1) {
		id, title := "?", "?"
		if ids := idRe.FindAllStringSubmatch(src[:m[0]], -1); len(ids) > 0 {
			id = ids[len(ids)-1][1]
		}
		if ts := titleRe.FindAllStringSubmatch(src[:m[0]], -1); len(ts) > 0 {
			title = ts[len(ts)-1][1]
		}
		code, ok := templateLiteral(src[m[1]:])
		if !ok {
			t.Fatalf("unterminated template literal after %q", title)
		}
		out = append(out, example{id: id, title: title, code: code})
	}
	return out
}

// templateLiteral reads a JavaScript template literal's text up to its
// closing backquote, unescaping \`, \\ and \$.
func templateLiteral(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '`':
			return b.String(), true
		case '\\':
			if i+1 < len(s) {
				i++
				switch s[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				default:
					b.WriteByte(s[i])
				}
			}
		default:
			b.WriteByte(s[i])
		}
	}
	return "", false
}

// TestMermaidExamples checks every diagram of Mermaid's own examples
// package: none may give an error, and each is either parsed or reported
// in the notes as of a type this check does not parse.
func TestMermaidExamples(t *testing.T) {
	dir := checktest.External(t, "@mermaid-js/examples")
	examples := readExamples(t, filepath.Join(dir, "dist", "mermaid-examples.core.mjs"))
	if len(examples) < 50 {
		t.Fatalf("read only %d examples", len(examples))
	}
	parsed, unchecked := map[string]int{}, map[string]int{}
	for _, ex := range examples {
		fc := checkFile(ex.id+".mmd", ex.code)
		for _, f := range fc.Findings {
			if f.Severity == check.Error {
				t.Errorf("%s %q: %s", ex.id, ex.title, f)
			}
		}
		if len(fc.Unchecked) > 0 {
			unchecked[ex.id]++
		} else {
			parsed[ex.id]++
		}
	}
	t.Logf("%d examples: parsed %s; not parsed (noted) %s", len(examples), tallyString(parsed), tallyString(unchecked))
}

func tallyString(m map[string]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, k+"="+strconv.Itoa(v))
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// finding is the part of a finding the position tests compare.
type finding struct {
	Line, Col int
	Rule      string
}

func findingsOf(path, content string) []finding {
	var out []finding
	for _, f := range checkFile(path, content).Findings {
		out = append(out, finding{f.Line, f.Col, f.Rule})
	}
	return out
}

func TestFindingPositions(t *testing.T) {
	tests := []struct {
		name, path, content string
		want                []finding
	}{
		{"single-dash arrow points at the dash", "a.mmd", "flowchart TD\n    A -> B\n",
			[]finding{{2, 7, syntax.RuleSyntax}}},
		{"after front matter and a comment", "a.mmd", "---\ntitle: T\n---\n%% note\nflowchart TD\n    A --> end\n",
			[]finding{{6, 11, syntax.RuleSyntax}}},
		{"in a Markdown block", "README.md", "# T\n\n```mermaid\nsequenceDiagram\n    A->>B hi\n```\n",
			[]finding{{5, 13, syntax.RuleSyntax}}},
		{"in an indented Markdown block", "README.md", "1. item\n\n   ```mermaid\n   pie\n       \"a\" : -1\n   ```\n",
			[]finding{{5, 14, syntax.RulePieValue}}},
		{"CRLF line ends", "a.mmd", "flowchart TD\r\n    A --> B\r\n    B -> C\r\n",
			[]finding{{3, 7, syntax.RuleSyntax}}},
		{"a directive that is not JSON", "a.mmd", "%%{init: {theme: dark}}%%\nflowchart TD\n    A --> B\n",
			[]finding{{1, 1, syntax.RuleDirective}}},
		{"unknown type names the word", "a.mmd", "\n\nsequenceDiagrm\n    A->>B: hi\n",
			[]finding{{3, 1, syntax.RuleUnknownDiagram}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, findingsOf(tt.path, tt.content)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMessagesSayWhatWasExpected(t *testing.T) {
	tests := []struct{ content, want string }{
		{"flowchart TD\n    A -> B\n", "flowchart arrows are -->"},
		{"flowchart TD\n    subgraph one\n    A --> B\n", `subgraph "one" is never closed`},
		{"sequenceDiagram\n    A->>B: hi\n    end\n", "closes no block"},
		{"erDiagram\n    A ||--x{ B : has\n", "cardinality"},
		{"gantt\n    dateFormat YYYY-MM-DD\n    T :a, 2024-01-01, 2d\n    U :after b, 1d\n", `after "b"`},
		{"foo\n", "Mermaid knows no diagram type \"foo\""},
	}
	for _, tt := range tests {
		fs := checkFile("a.mmd", tt.content).Findings
		if len(fs) == 0 || !strings.Contains(fs[0].Message, tt.want) {
			t.Errorf("%q: want a message with %q, got %v", tt.content, tt.want, fs)
		}
	}
}

func TestUncheckedTypesAreNoted(t *testing.T) {
	res, err := New().Check(context.Background(), &check.Input{Files: []check.File{
		{Path: "a.mmd", Content: []byte("venn-beta\n  set A\n")},
		{Path: "b.md", Content: []byte("no diagrams here\n")},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 {
		t.Errorf("findings: %v", res.Findings)
	}
	if len(res.Notes) != 1 || !strings.Contains(res.Notes[0], "venn-beta") || !strings.Contains(res.Notes[0], "a.mmd:1") {
		t.Errorf("notes: %q", res.Notes)
	}
}

func TestWants(t *testing.T) {
	c := New()
	for path, want := range map[string]bool{"a.mmd": true, "docs/x.mermaid": true, "README.md": true, "page.mdx": true,
		"x.markdown": true, "a.txt": false, "a.yaml": false, "mmd": false} {
		if got := c.Wants(path, nil); got != want {
			t.Errorf("Wants(%q) = %v", path, got)
		}
	}
}

func TestParamsAreRefused(t *testing.T) {
	_, err := New().Check(context.Background(), &check.Input{Params: map[string]string{"dialect": "x"}})
	var fe *problem.FieldError
	if !errors.As(err, &fe) || fe.Field != "params.dialect" {
		t.Fatalf("err = %v", err)
	}
}

// TestHostileInput feeds input meant to be slow or deep: it must finish
// quickly and without a panic.
func TestHostileInput(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	inputs := map[string]string{
		"deep subgraphs":      "flowchart TD\n" + strings.Repeat("subgraph s\n", 20000),
		"deep loops":          "sequenceDiagram\n" + strings.Repeat("loop x\n", 20000),
		"long line":           "flowchart TD\n" + long + "\n",
		"long run of dashes":  "flowchart TD\nA" + strings.Repeat("-", 1<<20) + "\n",
		"long link id":        "flowchart TD\n" + strings.Repeat("x", 1<<19) + "@" + strings.Repeat("y", 1<<19) + "\n",
		"spaces in edge text": "flowchart TD\nA--" + strings.Repeat(" ", 1<<20) + "\n",
		"direction words":     "flowchart TD\n" + strings.Repeat("direction ", 1<<17) + "\n",
		"many percent":        strings.Repeat("%%\n", 1<<18),
		"blank lines":         "flowchart TD\n" + strings.Repeat("\n", 1<<20),
		"binary":              string([]byte{0, 1, 2, 0xff, 0xfe, '\n', 0x80}),
		"unclosed note":       "stateDiagram-v2\nnote left of A\n" + strings.Repeat("\n", 1<<19),
		"er generic":          "erDiagram\nA {\n" + strings.Repeat("x~", 1<<18) + "\n}\n",
		"yaml bomb":           "---\na: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n---\npie\n",
		"gantt long":          "gantt\n" + strings.Repeat("T :a, 2024-01-01, 1d\n", 20000),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			checkFile("x.mmd", in)
			if d := time.Since(start); d > 30*time.Second { // a hang or a blow-up, not a speed budget
				t.Errorf("took %v", d)
			}
		})
	}
}
