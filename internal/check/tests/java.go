package testcheck

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// javaFile is a tokenized Java file with its brackets matched.
type javaFile struct {
	jsFile
	methods map[string][][2]int // method bodies by name
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

func checkJava(file check.File) []check.Finding {
	toks, comments, err := lexJava(file.Content)
	if err != nil {
		return []check.Finding{tokenSyntax(file.Path, err, "Java")}
	}
	match, err := jsMatch(toks)
	if err != nil {
		return []check.Finding{tokenSyntax(file.Path, err, "Java")}
	}
	f := &javaFile{jsFile: jsFile{path: file.Path, toks: toks, comments: comments, match: match}, methods: map[string][][2]int{}, memo: map[string]int{}}
	f.scan()
	f.inLoop = within(len(f.toks), f.loops)
	var out []check.Finding
	junit3 := strings.HasSuffix(f.extends, "TestCase")
	for i := 0; i < len(f.toks); i++ {
		if !f.punct(i, "@") && !(junit3 && f.is(i, tIdent, "void") && f.ident(i+1) && strings.HasPrefix(f.toks[i+1].text, "test") && f.punct(i+2, "(")) {
			continue
		}
		var anns []annotation
		k := i
		for f.punct(k, "@") && !f.is(k+1, tIdent, "interface") {
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
		if decl == "method" && junit3 && len(anns) == 0 && strings.HasPrefix(f.toks[name].text, "test") {
			test = true
		}
		what := "test"
		if decl == "class" {
			what = "class"
		}
		if test || decl == "class" {
			for _, a := range anns {
				if (a.name == "Disabled" || a.name == "Ignore") && !f.hasReason(a) {
					t := f.toks[a.at]
					out = append(out, check.Finding{Rule: ruleSkipped, File: f.path, Line: t.line, Col: t.col,
						Message: "the " + what + " " + f.toks[name].text + " is disabled with @" + a.name + " and no reason",
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
func (f *javaFile) annotation(k int) (annotation, int) {
	a := annotation{at: k, args: [2]int{-1, -1}}
	j := k + 1
	for f.ident(j) {
		a.name = f.toks[j].text
		if f.punct(j+1, ".") && f.ident(j+2) {
			j += 2
			continue
		}
		j++
		break
	}
	if f.punct(j, "(") {
		a.hasParen = true
		a.args = [2]int{j + 1, f.match[j]}
		j = f.match[j] + 1
	}
	return a, j
}

func (f *javaFile) argNamed(a annotation, name string) bool {
	for k := a.args[0]; k >= 0 && k < a.args[1]; k++ {
		if f.is(k, tIdent, name) && f.punct(k+1, "=") {
			return true
		}
	}
	return false
}

// hasReason reports whether @Disabled/@Ignore carries a non-empty string.
func (f *javaFile) hasReason(a annotation) bool {
	for k := a.args[0]; k >= 0 && k < a.args[1]; k++ {
		if f.toks[k].kind == tString && strings.TrimSpace(f.toks[k].text) != "" {
			return true
		}
	}
	return f.commentNear(f.toks[a.at].line, f.toks[a.at].line)
}

// declaration reads the declaration starting at k (modifiers, a type):
// a method (its name token and body; body[0] is -1 for an abstract one)
// or a class; "" for anything else.
func (f *javaFile) declaration(k int) (int, [2]int, string) {
	for j := k; j < len(f.toks) && j < k+64; j++ {
		t := f.toks[j]
		switch {
		case t.kind == tIdent && (t.text == "class" || t.text == "interface" || t.text == "enum" || t.text == "record") && f.ident(j+1):
			return j + 1, [2]int{-1, -1}, "class"
		case t.kind == tIdent && f.punct(j+1, "("):
			end := f.match[j+1]
			n := end + 1
			for n < len(f.toks) && !f.punct(n, "{") && !f.punct(n, ";") && !f.punct(n, "}") {
				n++
			}
			if f.punct(n, "{") {
				return j, [2]int{n + 1, f.match[n]}, "method"
			}
			return j, [2]int{-1, -1}, "method"
		case t.kind == tPunct && t.text == "<":
			continue // generics of the return type
		case t.kind == tPunct && (t.text == ";" || t.text == "{" || t.text == "}" || t.text == "=" || t.text == "@"):
			return 0, [2]int{}, ""
		}
	}
	return 0, [2]int{}, ""
}

// scan collects the file's method bodies by name, its loops, and what its
// first class extends.
func (f *javaFile) scan() {
	for j := 0; j < len(f.toks); j++ {
		switch {
		case f.extends == "" && f.is(j, tIdent, "extends") && f.ident(j+1):
			n := j + 1
			for f.punct(n+1, ".") && f.ident(n+2) {
				n += 2
			}
			f.extends = f.toks[n].text
		case f.ident(j) && f.punct(j+1, "(") && !f.punct(j-1, ".") && !f.is(j-1, tIdent, "new") && !javaKeyword(f.toks[j].text):
			end := f.match[j+1]
			if f.punct(end+1, "{") || f.is(end+1, tIdent, "throws") {
				n := end + 1
				for n < len(f.toks) && !f.punct(n, "{") && !f.punct(n, ";") {
					n++
				}
				if f.punct(n, "{") && (f.ident(j-1) || f.punct(j-1, ">") || f.punct(j-1, "]")) {
					f.methods[f.toks[j].text] = append(f.methods[f.toks[j].text], [2]int{n + 1, f.match[n]})
				}
			}
		case (f.is(j, tIdent, "for") || f.is(j, tIdent, "while")) && f.punct(j+1, "("):
			end := f.match[j+1]
			if f.punct(end+1, "{") {
				f.loops = append(f.loops, [2]int{end + 2, f.match[end+1]})
			}
		case f.is(j, tIdent, "do") && f.punct(j+1, "{"):
			f.loops = append(f.loops, [2]int{j + 2, f.match[j+1]})
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

func (f *javaFile) checkTest(name int, body [2]int, expected bool) []check.Finding {
	t := f.toks[name]
	var out []check.Finding
	if body[0] >= body[1] {
		return append(out, check.Finding{Rule: ruleEmpty, File: f.path, Line: t.line, Col: t.col,
			Message: "the test " + t.text + " has an empty body: it passes without running anything",
			Fix:     "write the test, or delete it; a placeholder is @Disabled(\"not written yet: <issue>\")"})
	}
	if !expected && !f.asserts(body, 0) && !saysNoPanic(t.text) {
		out = append(out, check.Finding{Rule: ruleNoAssertion, File: f.path, Line: t.line, Col: t.col,
			Message: "the test " + t.text + " asserts nothing: it passes whatever the code does, unless it throws",
			Fix:     "assert on the result (assertEquals, assertThat, verify(...)), or assertDoesNotThrow when not throwing is the point"})
	}
	for k := body[0]; k < body[1]; k++ {
		if !f.is(k, tIdent, "sleep") || !f.punct(k-1, ".") || !f.punct(k+1, "(") || f.inLoop[k] {
			continue
		}
		recv := f.toks[k-2].text
		if recv == "Thread" || recv == "SECONDS" || recv == "MILLISECONDS" || f.is(k-4, tIdent, "TimeUnit") {
			s := f.toks[k-2]
			out = append(out, check.Finding{Rule: ruleSleep, File: f.path, Line: s.line, Col: s.col,
				Message: recv + ".sleep in " + t.text + " waits a fixed time: slow when it passes, flaky when the machine is slower",
				Fix:     "wait for the condition (Awaitility's await().until(...), a CountDownLatch, a future's get with a timeout)"})
		}
	}
	return out
}

// javaAssertPrefixes start the names of calls that assert: JUnit's
// assert*/fail, AssertJ's and Hamcrest's assertThat, Mockito's verify,
// Reactor's StepVerifier verify*, Awaitility's until*, EasyMock's expect*.
var javaAssertPrefixes = []string{"assert", "verify", "expect", "fail", "check", "until", "should", "then"}

func (f *javaFile) asserts(body [2]int, depth int) bool {
	for k := body[0]; k < body[1]; k++ {
		t := f.toks[k]
		if t.kind != tIdent {
			continue
		}
		if t.text == "assert" || t.text == "throw" {
			return true
		}
		if !f.punct(k+1, "(") {
			continue
		}
		for _, p := range javaAssertPrefixes {
			if strings.HasPrefix(t.text, p) {
				return true
			}
		}
		if strings.Contains(t.text, "Assert") || strings.Contains(t.text, "Expect") || strings.Contains(t.text, "Verif") {
			return true // andExpect, softAssert, ...
		}
		if f.punct(k-1, ".") && !f.is(k-2, tIdent, "this") || depth >= 8 {
			continue
		}
		bodies, ok := f.methods[t.text]
		if !ok {
			if f.extends != "" && !strings.HasSuffix(f.extends, "TestCase") && !f.punct(k-1, ".") {
				return true // inherited from the project's base test class
			}
			continue
		}
		switch f.memo[t.text] {
		case 1:
			return true
		case 2, 3:
			continue
		}
		f.memo[t.text] = 3
		a := false
		for _, b := range bodies {
			if f.asserts(b, depth+1) {
				a = true
				break
			}
		}
		f.memo[t.text] = map[bool]int{true: 1, false: 2}[a]
		if a {
			return true
		}
	}
	return false
}
