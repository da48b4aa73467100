package brace

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"

	"github.com/cairn-dev/cairn/internal/check"
)

// JavaFile is a tokenized Java file with its brackets matched.
type JavaFile struct {
	JSFile
	Methods map[string][][2]int // method bodies by name
	extends string              // what the first class extends
	loops   [][2]int
	inLoop  []bool
	memo    map[string]int
}

// javaTestAnnotations mark the methods JUnit 4/5, TestNG and jqwik run.
var javaTestAnnotations = map[string]bool{"Test": true, "ParameterizedTest": true, "RepeatedTest": true, "TestTemplate": true,
	"Property": true, "Example": true, "TestFactory": true}

// annotation is one @Name(...) use.
type annotation struct {
	name     string // last part of the name
	at       int    // the @ token
	args     [2]int // tokens inside the parentheses; empty when none
	hasParen bool
}

func CheckJava(file check.File) []check.Finding {
	toks, comments, err := scan.LexJava(file.Content)
	if err != nil {
		return []check.Finding{scan.TokenSyntax(file.Path, err, "Java")}
	}
	match, err := JSMatch(toks)
	if err != nil {
		return []check.Finding{scan.TokenSyntax(file.Path, err, "Java")}
	}
	f := &JavaFile{JSFile: JSFile{path: file.Path, Toks: toks, comments: comments, Match: match}, Methods: map[string][][2]int{}, memo: map[string]int{}}
	f.Scan()
	f.inLoop = scan.Within(len(f.Toks), f.loops)
	var out []check.Finding
	junit3 := strings.HasSuffix(f.extends, "TestCase")
	for i := 0; i < len(f.Toks); i++ {
		if !f.punct(i, "@") && !(junit3 && f.Is(i, scan.TIdent, "void") && f.ident(i+1) && strings.HasPrefix(f.Toks[i+1].Text, "test") && f.punct(i+2, "(")) {
			continue
		}
		var anns []annotation
		k := i
		for f.punct(k, "@") && !f.Is(k+1, scan.TIdent, "interface") {
			a, next := f.annotation(k)
			anns = append(anns, a)
			k = next
		}
		name, body, decl := f.declaration(k)
		if decl == "" {
			i = k
			continue
		}
		test := false
		expected := false
		for _, a := range anns {
			if javaTestAnnotations[a.name] {
				test = true
				expected = expected || f.argNamed(a, "expected") || a.name == "TestFactory"
			}
		}
		if decl == "method" && junit3 && len(anns) == 0 && strings.HasPrefix(f.Toks[name].Text, "test") {
			test = true
		}
		what := "test"
		if decl == "class" {
			what = "class"
		}
		if test || decl == "class" {
			for _, a := range anns {
				if (a.name == "Disabled" || a.name == "Ignore") && !f.hasReason(a) {
					t := f.Toks[a.at]
					out = append(out, check.Finding{Rule: scan.RuleSkipped, File: f.path, Line: t.Line, Col: t.Col,
						Message: "the " + what + " " + f.Toks[name].Text + " is disabled with @" + a.name + " and no reason",
						Fix:     "give the reason: @" + a.name + "(\"why, and the issue that tracks re-enabling it\")"})
				}
			}
		}
		if test && decl == "method" && body[0] >= 0 {
			out = append(out, f.checkTest(name, body, expected)...)
		}
		i = k
	}
	return out
}

// annotation reads the annotation at the @ token k and returns the index
// after it.
func (f *JavaFile) annotation(k int) (annotation, int) {
	a := annotation{at: k, args: [2]int{-1, -1}}
	j := k + 1
	for f.ident(j) {
		a.name = f.Toks[j].Text
		if f.punct(j+1, ".") && f.ident(j+2) {
			j += 2
			continue
		}
		j++
		break
	}
	if f.punct(j, "(") {
		a.hasParen = true
		a.args = [2]int{j + 1, f.Match[j]}
		j = f.Match[j] + 1
	}
	return a, j
}

func (f *JavaFile) argNamed(a annotation, name string) bool {
	for k := a.args[0]; k >= 0 && k < a.args[1]; k++ {
		if f.Is(k, scan.TIdent, name) && f.punct(k+1, "=") {
			return true
		}
	}
	return false
}

// hasReason reports whether @Disabled/@Ignore carries a non-empty string.
func (f *JavaFile) hasReason(a annotation) bool {
	for k := a.args[0]; k >= 0 && k < a.args[1]; k++ {
		if f.Toks[k].Kind == scan.TString && strings.TrimSpace(f.Toks[k].Text) != "" {
			return true
		}
	}
	return f.commentNear(f.Toks[a.at].Line, f.Toks[a.at].Line)
}

// declaration reads the declaration starting at k (modifiers, a type):
// a method (its name token and body; body[0] is -1 for an abstract one)
// or a class; "" for anything else.
func (f *JavaFile) declaration(k int) (int, [2]int, string) {
	for j := k; j < len(f.Toks) && j < k+64; j++ {
		t := f.Toks[j]
		switch {
		case t.Kind == scan.TIdent && (t.Text == "class" || t.Text == "interface" || t.Text == "enum" || t.Text == "record") && f.ident(j+1):
			return j + 1, [2]int{-1, -1}, "class"
		case t.Kind == scan.TIdent && f.punct(j+1, "("):
			end := f.Match[j+1]
			n := end + 1
			for n < len(f.Toks) && !f.punct(n, "{") && !f.punct(n, ";") && !f.punct(n, "}") {
				n++
			}
			if f.punct(n, "{") {
				return j, [2]int{n + 1, f.Match[n]}, "method"
			}
			return j, [2]int{-1, -1}, "method"
		case t.Kind == scan.TPunct && t.Text == "<":
			continue // generics of the return type
		case t.Kind == scan.TPunct && (t.Text == ";" || t.Text == "{" || t.Text == "}" || t.Text == "=" || t.Text == "@"):
			return 0, [2]int{}, ""
		}
	}
	return 0, [2]int{}, ""
}

// Scan collects the file's method bodies by name, its loops, and what its
// first class extends.
func (f *JavaFile) Scan() {
	for j := 0; j < len(f.Toks); j++ {
		switch {
		case f.extends == "" && f.Is(j, scan.TIdent, "extends") && f.ident(j+1):
			n := j + 1
			for f.punct(n+1, ".") && f.ident(n+2) {
				n += 2
			}
			f.extends = f.Toks[n].Text
		case f.ident(j) && f.punct(j+1, "(") && !f.punct(j-1, ".") && !f.Is(j-1, scan.TIdent, "new") && !javaKeyword(f.Toks[j].Text):
			end := f.Match[j+1]
			if f.punct(end+1, "{") || f.Is(end+1, scan.TIdent, "throws") {
				n := end + 1
				for n < len(f.Toks) && !f.punct(n, "{") && !f.punct(n, ";") {
					n++
				}
				if f.punct(n, "{") && (f.ident(j-1) || f.punct(j-1, ">") || f.punct(j-1, "]")) {
					f.Methods[f.Toks[j].Text] = append(f.Methods[f.Toks[j].Text], [2]int{n + 1, f.Match[n]})
				}
			}
		case (f.Is(j, scan.TIdent, "for") || f.Is(j, scan.TIdent, "while")) && f.punct(j+1, "("):
			end := f.Match[j+1]
			if f.punct(end+1, "{") {
				f.loops = append(f.loops, [2]int{end + 2, f.Match[end+1]})
			}
		case f.Is(j, scan.TIdent, "do") && f.punct(j+1, "{"):
			f.loops = append(f.loops, [2]int{j + 2, f.Match[j+1]})
		}
	}
}

func javaKeyword(s string) bool {
	switch s {
	case "if", "for", "while", "switch", "catch", "synchronized", "return", "new", "throw", "try", "else", "do", "assert", "super", "this":
		return true
	}
	return false
}

func (f *JavaFile) checkTest(name int, body [2]int, expected bool) []check.Finding {
	t := f.Toks[name]
	var out []check.Finding
	if body[0] >= body[1] {
		return append(out, check.Finding{Rule: scan.RuleEmpty, File: f.path, Line: t.Line, Col: t.Col,
			Message: "the test " + t.Text + " has an empty body: it passes without running anything",
			Fix:     "write the test, or delete it; a placeholder is @Disabled(\"not written yet: <issue>\")"})
	}
	if !expected && !f.asserts(body, 0) && !scan.SaysNoPanic(t.Text) {
		out = append(out, check.Finding{Rule: scan.RuleNoAssertion, File: f.path, Line: t.Line, Col: t.Col,
			Message: "the test " + t.Text + " asserts nothing: it passes whatever the code does, unless it throws",
			Fix:     "assert on the result (assertEquals, assertThat, verify(...)), or assertDoesNotThrow when not throwing is the point"})
	}
	for k := body[0]; k < body[1]; k++ {
		if !f.Is(k, scan.TIdent, "sleep") || !f.punct(k-1, ".") || !f.punct(k+1, "(") || f.inLoop[k] {
			continue
		}
		recv := f.Toks[k-2].Text
		if recv == "Thread" || recv == "SECONDS" || recv == "MILLISECONDS" || f.Is(k-4, scan.TIdent, "TimeUnit") {
			s := f.Toks[k-2]
			out = append(out, check.Finding{Rule: scan.RuleSleep, File: f.path, Line: s.Line, Col: s.Col,
				Message: recv + ".sleep in " + t.Text + " waits a fixed time: slow when it passes, flaky when the machine is slower",
				Fix:     "wait for the condition (Awaitility's await().until(...), a CountDownLatch, a future's get with a timeout)"})
		}
	}
	return out
}

// javaAssertPrefixes start the names of calls that assert: JUnit's
// assert*/fail, AssertJ's and Hamcrest's assertThat, Mockito's verify,
// Reactor's StepVerifier verify*, Awaitility's until*, EasyMock's expect*.
var javaAssertPrefixes = []string{"assert", "verify", "expect", "fail", "check", "until", "should", "then"}

func (f *JavaFile) asserts(body [2]int, depth int) bool {
	for k := body[0]; k < body[1]; k++ {
		t := f.Toks[k]
		if t.Kind != scan.TIdent {
			continue
		}
		if t.Text == "assert" || t.Text == "throw" {
			return true
		}
		if !f.punct(k+1, "(") {
			continue
		}
		for _, p := range javaAssertPrefixes {
			if strings.HasPrefix(t.Text, p) {
				return true
			}
		}
		if strings.Contains(t.Text, "Assert") || strings.Contains(t.Text, "Expect") || strings.Contains(t.Text, "Verif") {
			return true // andExpect, softAssert, ...
		}
		if f.punct(k-1, ".") && !f.Is(k-2, scan.TIdent, "this") || depth >= 8 {
			continue
		}
		bodies, ok := f.Methods[t.Text]
		if !ok {
			if f.extends != "" && !strings.HasSuffix(f.extends, "TestCase") && !f.punct(k-1, ".") {
				return true // inherited from the project's base test class
			}
			continue
		}
		switch f.memo[t.Text] {
		case 1:
			return true
		case 2, 3:
			continue
		}
		f.memo[t.Text] = 3
		a := false
		for _, b := range bodies {
			if f.asserts(b, depth+1) {
				a = true
				break
			}
		}
		f.memo[t.Text] = map[bool]int{true: 1, false: 2}[a]
		if a {
			return true
		}
	}
	return false
}
