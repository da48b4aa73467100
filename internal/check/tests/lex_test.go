package testcheck

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"
	"github.com/cairn-dev/cairn/internal/check/tests/python"

	"github.com/cairn-dev/cairn/internal/check"
)

// kinds writes the kinds of toks as a string, for comparing.
func kinds(toks []scan.Tok) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteByte(t.Kind)
	}
	return b.String()
}

func TestLexJS(t *testing.T) {
	tests := []struct {
		name, src string
		jsx       bool
		want      string // token kinds
	}{
		{"division is not a regex", "a = b / c / d", false, "ipipipi"},
		{"regex after =", "x = /re\\/[/]/g.test(y)", false, "iprpip" + "ip"},
		{"regex after (", "if (/a'/.test(s)) {}", false, "iprpipipppp"},
		{"nested templates", "`a${`b${c}`}d`", false, "ttitt"},
		{"template with braces", "`${ {a: 1}.a }`", false, "tpipnppit"},
		{"private name and optional chaining", "this.#x?.y", false, "ipipi"},
		{"conditional with a decimal", "a ? .5 : 1", false, "ipnpn"},
		{"comments hold quotes", "a // it's\n/* don't */ b", false, "ii"},
		{"hashbang", "#!/usr/bin/env node\nx", false, "i"},
		{"jsx text with an apostrophe", "r(<p className=\"a\">Don't {x} stop</p>)", true, "ipixp"},
		{"jsx self-closing and fragment", "r(<><A b={() => 1} /></>)", true, "ippppnxxp"},
		{"generic arrow in tsx", "const f = <T,>(x: T) => x", true, "iippipppipippi"},
		{"generic function type in tsx", "type F = (<T>() => T)", true, "iipppippppip"},
		{"type arguments are operators in ts", "let a: Array<string> = f<number>(1)", false, "iipipippipippnp"},
		{"a cast in ts", "x = <any>y", false, "ippipi"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			toks, _, err := scan.LexJS([]byte(tt.src), tt.jsx)
			if err != nil {
				t.Fatalf("lexJS: %v", err)
			}
			if got := kinds(toks); got != tt.want {
				var texts []string
				for _, tk := range toks {
					texts = append(texts, string(tk.Kind)+":"+tk.Text)
				}
				t.Errorf("kinds = %q, want %q (%q)", got, tt.want, texts)
			}
		})
	}
}

func TestLexErrors(t *testing.T) {
	tests := []struct {
		name, file, src string
		line, col       int
	}{
		{"unclosed string", "a.test.js", "it('x', () => {\n  s = 'abc\n})", 2, 7},
		{"unclosed comment", "a.test.js", "x\n/* never", 2, 1},
		{"unclosed template", "a.test.js", "`abc ${d}", 1, 1},
		{"unbalanced brace", "a.test.ts", "describe('x', () => {\n", 1, 21},
		{"stray closer", "a.test.ts", "a)\n", 1, 2},
		{"python dedent", "test_a.py", "def f():\n        x = 1\n    y = 2\n", 3, 5},
		{"python unclosed triple quote", "test_a.py", "x = '''abc\n", 1, 5},
		{"python unclosed bracket", "test_a.py", "x = [1,\n", 2, 1},
		{"java unclosed text block", "ATest.java", "class A { String s = \"\"\"\nabc\n; }", 1, 22},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := inline(t, tt.file, tt.src)
			if len(fs) != 1 || fs[0].Rule != scan.RuleSyntax || fs[0].Line != tt.line || fs[0].Col != tt.col || fs[0].Severity != check.Warning {
				t.Errorf("got %v, want one tests/syntax warning at %d:%d", fs, tt.line, tt.col)
			}
		})
	}
}

func TestLexPython(t *testing.T) {
	src := "@pytest.mark.parametrize(\n    'a', [1,\n 2])\n" +
		"def test_x(a):\n" +
		"    s = rb'\\x00' + f\"{a!r:>{width}}\" + f'{d[\"k\"]}' + f\"{x[\"k\"]}\"\n" +
		"    t = '''it's\n\"quoted\"''' \\\n        + 'x'\n" +
		"    if a:\n        assert s\n"
	toks, _, err := scan.LexPython([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	f, _ := python.ParsePython("test_x.py", []byte(src))
	if len(f.Defs) != 1 || f.Defs[0].Name != "test_x" || len(f.Defs[0].Decorators) != 1 {
		t.Fatalf("defs %+v", f.Defs)
	}
	var strs int
	for _, tk := range toks {
		if tk.Kind == scan.PString {
			strs++
		}
	}
	if strs != 7 { // 'a', rb'', two f-strings... the inner strings of fields are not tokens
		t.Errorf("%d strings, want 7", strs)
	}
	if !f.Asserts(f.Defs[0], 0) {
		t.Error("the assert in the if block was not seen")
	}
}

func TestLexJava(t *testing.T) {
	src := "class A {\n  char q = '\\'';\n  String s = \"\"\"\n    a \"quoted\" \\\"\"\" text\n    \"\"\";\n  @Test(timeout = 5) void x() { assertEquals('\"', q); }\n}\n"
	toks, _, err := scan.LexJava([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var strs int
	for _, tk := range toks {
		if tk.Kind == scan.TString {
			strs++
		}
	}
	if strs != 3 {
		t.Errorf("%d strings, want 3", strs)
	}
	if fs := inline(t, "ATest.java", src); len(fs) != 0 {
		t.Errorf("findings %v", fs)
	}
}
