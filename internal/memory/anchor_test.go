package memory

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitName(t *testing.T) {
	for _, tc := range []struct {
		name, file  string
		first, last int
		symbol      string
	}{
		{"internal/x.go", "internal/x.go", 0, 0, ""},
		{"internal/x.go:12", "internal/x.go", 12, 12, ""},
		{"internal/x.go:12-30", "internal/x.go", 12, 30, ""},
		{"internal/x.go:12:5", "internal/x.go", 12, 12, ""},
		{"internal/x.go#L12", "internal/x.go", 12, 12, ""},
		{"internal/x.go#L12-L30", "internal/x.go", 12, 30, ""},
		{"internal/x.go#Parse", "internal/x.go", 0, 0, "Parse"},
		{"internal/x.go:Memory.Stale", "internal/x.go", 0, 0, "Memory.Stale"},
		{"internal/x.go:30-12", "internal/x.go:30-12", 0, 0, ""}, // backwards: not a range
		{"C:/src/x.go", "C:/src/x.go", 0, 0, ""},
	} {
		file, first, last, symbol := SplitName(tc.name)
		if file != tc.file || first != tc.first || last != tc.last || symbol != tc.symbol {
			t.Errorf("SplitName(%q) = %q %d %d %q, want %q %d %d %q", tc.name, file, first, last, symbol, tc.file, tc.first, tc.last, tc.symbol)
		}
	}
}

func TestMarkRoundTrip(t *testing.T) {
	m := Mark{File: "0123456789abcdef", Parts: []Part{{"lines 12-30", "aaaaaaaaaaaaaaaa"}, {"method Memory.Stale", "bbbbbbbbbbbbbbbb"}}}
	if got := ParseMark(m.String()); got.File != m.File || !slices.Equal(got.Parts, m.Parts) {
		t.Errorf("ParseMark(%q) = %+v", m.String(), got)
	}
	// A mark written before parts were remembered is the whole file's.
	if got := ParseMark("0123456789abcdef"); got.File != "0123456789abcdef" || got.Parts != nil {
		t.Errorf("legacy mark: %+v", got)
	}
}

func TestMentions(t *testing.T) {
	got := Mentions("Parse drops the zone: `ParseTime` calls time.Parse, then normalize(); see func Stale and the load_csv helper in Memory.Stale. And so on, e.g. here.")
	for _, want := range []string{"ParseTime", "Stale", "normalize", "load_csv", "Memory.Stale", "time.Parse"} {
		if !slices.Contains(got, want) {
			t.Errorf("Mentions lacks %q: %q", want, got)
		}
	}
	for _, not := range []string{"Parse", "drops", "here"} {
		if slices.Contains(got, not) {
			t.Errorf("Mentions has %q, a word in prose: %q", not, got)
		}
	}
}

const goSrc = `package x

// Parse reads s.
func Parse(s string) int {
	return len(s)
}

type Memory struct{ n int }

func (m *Memory) Stale() bool {
	return m.n > 0
}

func Other() {}
`

// check marks the parts of src the mentions name, then checks them
// against changed.
func check(t *testing.T, file, name, src, changed string, mentions ...string) map[string]PartState {
	t.Helper()
	parts := Parts(name, file, []byte(src), mentions)
	if len(parts) == 0 {
		t.Fatalf("%s: no parts for %q in\n%s", file, mentions, src)
	}
	out := map[string]PartState{}
	for _, p := range parts {
		st, _ := p.Check(file, []byte(changed))
		out[p.Label] = st
	}
	return out
}

func TestGoSymbols(t *testing.T) {
	// Comments, formatting and other declarations are not changes.
	reformatted := strings.Replace(goSrc, "// Parse reads s.", "// Parse reads s, and says how long it is.", 1)
	reformatted = strings.Replace(reformatted, "return len(s)", "return len( s ) // counted", 1)
	reformatted = strings.Replace(reformatted, "func Other() {}", "func Other() { println() }", 1)
	got := check(t, "x.go", "x.go", goSrc, reformatted, "Parse", "Memory.Stale")
	if got["func Parse"] != PartSame || got["method Memory.Stale"] != PartSame {
		t.Errorf("reformatted: %v", got)
	}
	changed := strings.Replace(goSrc, "return m.n > 0", "return m.n >= 0", 1)
	got = check(t, "x.go", "x.go", goSrc, changed, "Parse", "Stale")
	if got["func Parse"] != PartSame || got["method Memory.Stale"] != PartChanged {
		t.Errorf("a method's body changed: %v", got)
	}
	gone := strings.Replace(goSrc, "func Parse(", "func ParseString(", 1)
	if got := check(t, "x.go", "x.go#Parse", goSrc, gone); got["func Parse"] != PartGone {
		t.Errorf("renamed: %v", got)
	}
	if parts := Parts("x.go", "x.go", []byte(goSrc), []string{"Missing", "Memory"}); len(parts) != 1 || parts[0].Label != "type Memory" {
		t.Errorf("only defined symbols are parts: %+v", parts)
	}
}

func TestLineParts(t *testing.T) {
	src := "a\nb\nc\nd\ne\n"
	if got := check(t, "x.txt", "x.txt:2-3", src, "a\nb\nc\nd\nE\n"); got["lines 2-3"] != PartSame {
		t.Errorf("another line changed: %v", got)
	}
	p := Parts("x.txt:2-3", "x.txt", []byte(src), nil)[0]
	if st, where := p.Check("x.txt", []byte("new\na\nb\nc\nd\ne\n")); st != PartMoved || where != "lines 3-4" {
		t.Errorf("moved: %v %q", st, where)
	}
	if st, _ := p.Check("x.txt", []byte("a\nb\nC\nd\n")); st != PartChanged {
		t.Errorf("changed: %v", st)
	}
	if st, _ := p.Check("x.txt", []byte("a\n")); st != PartGone {
		t.Errorf("past the end: %v", st)
	}
}

func TestOtherLanguages(t *testing.T) {
	py := "import os\n\n\ndef load_csv(path):\n    with open(path) as f:\n        return f.read()\n\n\ndef other():\n    return 1\n"
	if got := check(t, "load.py", "load.py", py, strings.Replace(py, "return 1", "return 2", 1), "load_csv"); got["def load_csv"] != PartSame {
		t.Errorf("python, another function changed: %v", got)
	}
	if got := check(t, "load.py", "load.py", py, strings.Replace(py, "f.read()", "f.read().strip()", 1), "load_csv"); got["def load_csv"] != PartChanged {
		t.Errorf("python, its body changed: %v", got)
	}
	ts := "export function renderList(items: string[]) {\n  return items.map((i) => `<li>${i}</li>`).join('')\n}\n\nexport const other = () => {\n  return '}'\n}\n"
	if got := check(t, "list.ts", "list.ts", ts, strings.Replace(ts, "return '}'", "return '{'", 1), "renderList"); got["function renderList"] != PartSame {
		t.Errorf("typescript, another function changed: %v", got)
	}
	if got := check(t, "list.ts", "list.ts", ts, strings.Replace(ts, "join('')", "join('\\n')", 1), "renderList"); got["function renderList"] != PartChanged {
		t.Errorf("typescript, its body changed: %v", got)
	}
	rs := "fn parse_line(l: &str) -> Option<(&str, &str)> {\n    l.split_once('=')\n}\n\nfn main() {}\n"
	if got := check(t, "p.rs", "p.rs", rs, strings.Replace(rs, "fn main() {}", "fn main() { println!(\"}\"); }", 1), "parse_line"); got["fn parse_line"] != PartSame {
		t.Errorf("rust, another function changed: %v", got)
	}
	// A language not known: braces still end a definition…
	pl := "intro\nsub greet {\n  print 'hi';\n}\n"
	if got := check(t, "g.pl", "g.pl", pl, pl+"more\n", "greet"); len(got) != 1 || got["sub greet"] != PartSame {
		t.Errorf("fallback with braces: %v", got)
	}
	// …and without them the lines after the definition stand for it.
	tcl := "proc greet name\n  puts hi\nend\n"
	if got := check(t, "g.x", "g.x", tcl, "# header\n"+tcl, "greet"); len(got) != 1 || got["proc greet"] != PartSame {
		t.Errorf("fallback by lines, moved down: %v", got)
	}
	if got := check(t, "g.x", "g.x", tcl, strings.Replace(tcl, "hi", "hello", 1), "greet"); got["proc greet"] != PartChanged {
		t.Errorf("fallback by lines, changed: %v", got)
	}
}
