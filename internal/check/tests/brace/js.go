package brace

import (
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"

	"github.com/cairn-dev/cairn/internal/check"
)

// JSFile is a tokenized JavaScript or TypeScript file with its brackets
// matched.
type JSFile struct {
	path     string
	Toks     []scan.Tok
	comments []scan.Comment
	Match    []int // index of the matching bracket, -1 for other tokens
	funcs    map[string][2]int
	imports  map[string]string // local name -> module it was imported from
	budget   int               // tokens asserts may still read
}

// JSMatch pairs the brackets of toks; a stray or unclosed one is an error
// at its position.
func JSMatch(toks []scan.Tok) ([]int, *scan.LexError) {
	match := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		match[i] = -1
		if t.Kind != scan.TPunct {
			continue
		}
		switch t.Text {
		case "(", "[", "{":
			stack = append(stack, i)
		case ")", "]", "}":
			open := map[string]string{")": "(", "]": "[", "}": "{"}[t.Text]
			if len(stack) == 0 || toks[stack[len(stack)-1]].Text != open {
				return nil, scan.NewLexError(t.Line, t.Col, "unbalanced "+t.Text)
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			match[o], match[i] = i, o
		}
	}
	if len(stack) > 0 {
		t := toks[stack[len(stack)-1]]
		return nil, scan.NewLexError(t.Line, t.Col, t.Text+" is not closed")
	}
	return match, nil
}

func (f *JSFile) Is(i int, kind byte, text string) bool {
	return i >= 0 && i < len(f.Toks) && f.Toks[i].Kind == kind && f.Toks[i].Text == text
}
func (f *JSFile) punct(i int, text string) bool { return f.Is(i, scan.TPunct, text) }
func (f *JSFile) ident(i int) bool              { return i >= 0 && i < len(f.Toks) && f.Toks[i].Kind == scan.TIdent }

// The words that declare tests and suites, and what each one is.
var (
	jsTestWords  = map[string]bool{"it": true, "test": true, "specify": true, "fit": true, "xit": true, "xtest": true, "xspecify": true, "ftest": true}
	jsSuiteWords = map[string]bool{"describe": true, "suite": true, "context": true, "fdescribe": true, "xdescribe": true, "xcontext": true, "fcontext": true}
	// jsModifiers may follow a test or suite word (it.only, test.each,
	// test.describe for Playwright); any other (test.step, test.use,
	// test.extend) means the call declares no test.
	jsModifiers = map[string]bool{"only": true, "skip": true, "todo": true, "each": true, "concurrent": true, "failing": true,
		"skipIf": true, "runIf": true, "fails": true, "sequential": true, "serial": true, "cb": true, "describe": true,
		"parallel": true, "fixme": true, "fail": true, "if": true, "todoIf": true, "for": true}
	// jsHooks are ava's and Playwright's hooks spelled as modifiers.
	jsHooks = map[string]bool{"before": true, "after": true, "beforeEach": true, "afterEach": true, "beforeAll": true, "afterAll": true}
	// jsParamModifiers take arguments before the test's own: test.each(table)(...).
	jsParamModifiers = map[string]bool{"each": true, "skipIf": true, "runIf": true, "if": true, "todoIf": true, "for": true}
	// jsAssertWords anywhere in a test body make it assert: jest/vitest
	// expect, node's and chai's assert, chai's should, Cypress's should.
	jsAssertWords = map[string]bool{"expect": true, "assert": true, "should": true, "expectTypeOf": true, "assertType": true}
	// jsContextSafe are the methods of a tape/ava/node:test context that
	// are not assertions.
	jsContextSafe = map[string]bool{"end": true, "comment": true, "log": true, "teardown": true, "timeout": true, "timeoutAfter": true,
		"context": true, "signal": true, "name": true, "diagnostic": true, "skip": true, "todo": true, "runOnly": true,
		"after": true, "before": true, "beforeEach": true, "afterEach": true, "mock": true, "title": true, "onFinish": true}
	// jsAssertModules are the modules whose imports are assertions.
	jsAssertModules = []string{"assert", "node:assert", "assert/strict", "node:assert/strict", "chai", "expect", "power-assert",
		"should", "uvu/assert", "@std/assert", "@std/expect", "tap", "tape", "sinon", "@jest/globals", "vitest", "bun:test"}
	// jsSleepNames awaited are a fixed wait.
	jsSleepNames = map[string]bool{"sleep": true, "delay": true, "wait": true, "pause": true, "timeout": true, "setTimeout": true, "setTimeoutPromise": true}
)

// jsCall is one call that declares a test or a suite.
type jsCall struct {
	root       int      // token of it/test/describe
	mods       []string // only, skip, each...
	modTok     map[string]int
	open       int // the ( of the call that takes the title and callback
	args       [][2]int
	fn         int    // the argument that is the callback, -1 if none
	body       [2]int // token range of the callback's body
	exprBody   bool
	param      string // the callback's first parameter, when a plain name
	suite      bool
	parametric bool // each/for: the parameters are table rows, not a context
}

// CheckJS checks one JavaScript or TypeScript test file.
func CheckJS(file check.File, jsx bool) []check.Finding {
	toks, comments, err := scan.LexJS(file.Content, jsx)
	if err != nil {
		return []check.Finding{scan.TokenSyntax(file.Path, err, "JavaScript/TypeScript")}
	}
	match, err := JSMatch(toks)
	if err != nil {
		return []check.Finding{scan.TokenSyntax(file.Path, err, "JavaScript/TypeScript")}
	}
	f := &JSFile{path: file.Path, Toks: toks, comments: comments, Match: match, budget: 32*len(toks) + 1024}
	f.collectImports()
	f.collectFuncs()
	var out []check.Finding
	memo := map[string]int{}
	waits := map[int]bool{} // the starts of test and hook bodies
	for i := range f.Toks {
		if c, ok := f.hook(i); ok {
			waits[c.body[0]] = true
			continue
		}
		c, ok := f.testCall(i)
		if !ok {
			continue
		}
		if c.fn >= 0 && !c.suite {
			waits[c.body[0]] = true
		}
		out = append(out, f.checkCall(c, memo)...)
	}
	out = append(out, f.sleeps(waits)...)
	return out
}

// jsHookWords are the hooks of jest, vitest, mocha and node:test.
var jsHookWords = map[string]bool{"beforeEach": true, "afterEach": true, "beforeAll": true, "afterAll": true, "before": true, "after": true}

// hook reads a hook call (beforeEach(() => {...})) at token i.
func (f *JSFile) hook(i int) (jsCall, bool) {
	c := jsCall{fn: -1}
	if !f.ident(i) || !jsHookWords[f.Toks[i].Text] || f.punct(i-1, ".") && !f.Is(i-2, scan.TIdent, "test") || !f.punct(i+1, "(") {
		return c, false
	}
	end := f.Match[i+1]
	start := i + 2
	for k := i + 2; k <= end; k++ {
		if k < end && (f.punct(k, "(") || f.punct(k, "[") || f.punct(k, "{")) {
			k = f.Match[k]
			continue
		}
		if k == end || f.punct(k, ",") {
			if f.callback(&c, [2]int{start, k}) {
				return c, true
			}
			start = k + 1
		}
	}
	return c, false
}

// funcStart is the start of the body of the innermost function around
// token k (-1 at the top level): arrow bodies, function bodies, methods.
func (f *JSFile) funcStarts() []int {
	starts := make([]int, len(f.Toks))
	var stack [][2]int // body start, body end (exclusive)
	var bodies [][2]int
	for i := range f.Toks {
		switch {
		case f.punct(i, "=>"):
			if f.punct(i+1, "{") {
				bodies = append(bodies, [2]int{i + 1, f.Match[i+1]})
				continue
			}
			// a concise body runs to the , ) ] } or ; that ends the expression
			// (read up to a bound: chained arrows would make it quadratic)
			k := i + 1
			for k < len(f.Toks) && k < i+4096 && !f.punct(k, ",") && !f.punct(k, ")") && !f.punct(k, "]") && !f.punct(k, "}") && !f.punct(k, ";") {
				if f.punct(k, "(") || f.punct(k, "[") || f.punct(k, "{") {
					k = f.Match[k]
				}
				k++
			}
			bodies = append(bodies, [2]int{i, k})
		case f.punct(i, ")") && f.punct(i+1, "{") && f.Match[i] > 0:
			// function f(...) {, a method m(...) {, but not if/for/while/switch/catch
			o := f.Match[i]
			if f.ident(o-1) && !jsControl[f.Toks[o-1].Text] || f.Is(o-1, scan.TIdent, "function") {
				bodies = append(bodies, [2]int{i + 1, f.Match[i+1]})
			}
		case f.punct(i, ")") && f.punct(i+1, ":") && f.Match[i] > 0:
			// a TypeScript method or function with a return type
			for k := i + 2; k < len(f.Toks) && k < i+64; k++ {
				if f.punct(k, "{") && (f.ident(k-1) || f.punct(k-1, ">") || f.punct(k-1, "]")) {
					bodies = append(bodies, [2]int{k, f.Match[k]})
					break
				}
				if f.punct(k, ";") || f.punct(k, "=") || f.punct(k, "=>") {
					break
				}
			}
		}
	}
	slices.SortFunc(bodies, func(a, b [2]int) int { return a[0] - b[0] })
	bi := 0
	for i := range f.Toks {
		for len(stack) > 0 && i > stack[len(stack)-1][1] {
			stack = stack[:len(stack)-1]
		}
		for bi < len(bodies) && bodies[bi][0] <= i {
			stack = append(stack, bodies[bi])
			bi++
		}
		starts[i] = -1
		if len(stack) > 0 {
			starts[i] = stack[len(stack)-1][0] + 1
		}
	}
	return starts
}

var jsControl = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "with": true, "return": true, "typeof": true, "await": true}

// testCall reads the test or suite declared at token i, if one is.
func (f *JSFile) testCall(i int) (jsCall, bool) {
	t := f.Toks[i]
	if t.Kind != scan.TIdent || !(jsTestWords[t.Text] || jsSuiteWords[t.Text] || t.Text == "Deno") {
		return jsCall{}, false
	}
	if f.punct(i-1, ".") || f.punct(i-1, "?.") || f.Is(i-1, scan.TIdent, "function") || f.Is(i-1, scan.TIdent, "const") ||
		f.Is(i-1, scan.TIdent, "let") || f.Is(i-1, scan.TIdent, "var") || f.Is(i-1, scan.TIdent, "class") || f.punct(i+1, ":") ||
		f.Is(i-1, scan.TIdent, "import") || f.Is(i-1, scan.TIdent, "export") {
		return jsCall{}, false
	}
	c := jsCall{root: i, fn: -1, modTok: map[string]int{}, suite: jsSuiteWords[t.Text]}
	j := i + 1
	if t.Text == "Deno" {
		if !f.punct(j, ".") || !f.Is(j+1, scan.TIdent, "test") {
			return jsCall{}, false
		}
		j += 2
	}
	for {
		if f.punct(j, ".") && f.ident(j+1) {
			m := f.Toks[j+1].Text
			if jsHooks[m] || !jsModifiers[m] {
				return jsCall{}, false
			}
			c.mods = append(c.mods, m)
			c.modTok[m] = j + 1
			if m == "describe" {
				c.suite = true
			}
			j += 2
			continue
		}
		if len(c.mods) > 0 && jsParamModifiers[c.mods[len(c.mods)-1]] {
			if f.punct(j, "(") && f.punct(f.Match[j]+1, "(") {
				j = f.Match[j] + 1
				c.parametric = c.parametric || c.mods[len(c.mods)-1] == "each" || c.mods[len(c.mods)-1] == "for"
				continue
			}
			if j < len(f.Toks) && f.Toks[j].Kind == scan.TTemplate { // test.each`table`
				// to the ( after the table: its ${} parts are tokens too (a
				// bound keeps a file of nothing but tables linear)
				for end := j + 1024; j < len(f.Toks) && j < end && !f.punct(j, "("); j++ {
				}
				c.parametric = true
				break // at the ( of the title and callback, or not a test
			}
		}
		break
	}
	if !f.punct(j, "(") {
		return jsCall{}, false
	}
	// a type argument list was not read: test<Fixtures>(...) is not a form
	// any runner uses.
	c.open = j
	end := f.Match[j]
	start := j + 1
	for k := j + 1; k < end; k++ {
		if f.Toks[k].Kind == scan.TPunct && (f.Toks[k].Text == "(" || f.Toks[k].Text == "[" || f.Toks[k].Text == "{") {
			k = f.Match[k]
			continue
		}
		if f.punct(k, ",") {
			c.args = append(c.args, [2]int{start, k})
			start = k + 1
		}
	}
	if start < end {
		c.args = append(c.args, [2]int{start, end})
	}
	for a := len(c.args) - 1; a >= 0; a-- {
		if f.callback(&c, c.args[a]) {
			c.fn = a
			break
		}
	}
	return c, true
}

// callback reads arg as a function expression, filling c's body and
// parameter; false when it is not one.
func (f *JSFile) callback(c *jsCall, arg [2]int) bool {
	k := arg[0]
	if f.Is(k, scan.TIdent, "async") {
		k++
	}
	switch {
	case f.Is(k, scan.TIdent, "function"):
		k++
		if f.punct(k, "*") {
			k++
		}
		if f.ident(k) {
			k++
		}
		if !f.punct(k, "(") {
			return false
		}
		c.param = f.firstParam(k)
		k = f.Match[k] + 1
		for k < arg[1] && !f.punct(k, "{") { // a TypeScript return type
			k++
		}
		if !f.punct(k, "{") {
			return false
		}
		c.body = [2]int{k + 1, f.Match[k]}
		return true
	case f.punct(k, "(") || f.ident(k) && f.punct(k+1, "=>"):
		if f.punct(k, "(") {
			c.param = f.firstParam(k)
			k = f.Match[k] + 1
		} else {
			c.param = f.Toks[k].Text
			k++
		}
		for k < arg[1] && !f.punct(k, "=>") { // a TypeScript return type
			if f.punct(k, "{") || f.punct(k, "(") || f.punct(k, "[") {
				k = f.Match[k]
			}
			k++
		}
		if !f.punct(k, "=>") {
			return false
		}
		k++
		if f.punct(k, "{") {
			c.body = [2]int{k + 1, f.Match[k]}
		} else {
			c.body, c.exprBody = [2]int{k, arg[1]}, true
		}
		return true
	}
	return false
}

// firstParam is the first parameter's name when it is a plain name.
func (f *JSFile) firstParam(open int) string {
	if f.ident(open+1) && (f.punct(open+2, ")") || f.punct(open+2, ",") || f.punct(open+2, ":") || f.punct(open+2, "=")) {
		return f.Toks[open+1].Text
	}
	return ""
}

func (f *JSFile) checkCall(c jsCall, memo map[string]int) []check.Finding {
	var out []check.Finding
	root := f.Toks[c.root]
	name := root.Text
	if len(c.mods) > 0 {
		name += "." + strings.Join(c.mods, ".")
	}
	title := f.title(c)
	what := "test"
	if c.suite {
		what = "suite"
	}
	// focused
	focusAt := -1
	switch root.Text {
	case "fit", "fdescribe", "fcontext", "ftest":
		focusAt = c.root
	}
	if k, ok := c.modTok["only"]; ok {
		focusAt = k
	}
	if focusAt < 0 && f.optionTrue(c, "only") >= 0 {
		focusAt = f.optionTrue(c, "only")
	}
	if focusAt >= 0 {
		t := f.Toks[focusAt]
		out = append(out, check.Finding{Rule: scan.RuleFocused, File: f.path, Line: t.Line, Col: t.Col,
			Message: "the " + what + " " + title + " is focused (" + name + "): every other test of the file is skipped, in CI too",
			Fix:     "remove the focus (" + focusFix(name) + ") before committing"})
	}
	// skipped
	skipAt := -1
	if strings.HasPrefix(root.Text, "x") {
		skipAt = c.root
	}
	if k, ok := c.modTok["skip"]; ok {
		skipAt = k
	}
	if k, ok := c.modTok["skip"]; ok && skipAt == k && c.fn < 0 && len(c.args) > 0 {
		skipAt = -1 // Playwright's test.skip(condition, reason) inside a test, or mocha's pending it.skip(title)
	}
	if k := f.optionTrue(c, "skip"); skipAt < 0 && k >= 0 {
		skipAt, name = k, name+"(..., { skip: true })"
	}
	if skipAt >= 0 && !f.commentNear(root.Line, f.Toks[skipAt].Line) {
		t := f.Toks[skipAt]
		out = append(out, check.Finding{Rule: scan.RuleSkipped, File: f.path, Line: t.Line, Col: t.Col,
			Message: "the " + what + " " + title + " is skipped (" + name + ") and nothing says why",
			Fix:     "say why on the line above (a comment with the issue or the condition to re-enable it), or delete the " + what})
	}
	if _, todo := c.modTok["todo"]; c.suite || c.fn < 0 || todo {
		return out
	}
	// empty, no assertion
	if c.body[0] >= c.body[1] {
		out = append(out, check.Finding{Rule: scan.RuleEmpty, File: f.path, Line: root.Line, Col: root.Col,
			Message: "the test " + title + " has an empty body: it passes without running anything",
			Fix:     "write the test, or declare it as test.todo(" + title + ")"})
		return out
	}
	param := c.param
	if c.parametric {
		param = ""
	}
	if !f.asserts(c.body, param, memo, 0) && !f.typeLevel(c) && !scan.SaysNoPanic(title) {
		out = append(out, check.Finding{Rule: scan.RuleNoAssertion, File: f.path, Line: root.Line, Col: root.Col,
			Message: "the test " + title + " asserts nothing: it passes whatever the code does, unless it throws",
			Fix:     "assert on the result (expect(...), assert...), or say in the test name what a throw would mean"})
	}
	return out
}

func focusFix(name string) string {
	switch {
	case strings.Contains(name, ".only"):
		return "drop .only"
	case strings.HasPrefix(name, "f"):
		return name + " → " + name[1:]
	}
	return "drop only: true"
}

// title is the test's title as written, for messages.
func (f *JSFile) title(c jsCall) string {
	if len(c.args) > 0 {
		t := f.Toks[c.args[0][0]]
		if t.Kind == scan.TString || t.Kind == scan.TTemplate {
			return scan.Quote(t.Text)
		}
	}
	return "at line " + scan.Itoa(f.Toks[c.root].Line)
}

// optionTrue finds `name: true` in an options object argument (node:test's
// test(name, { only: true }, fn)): the token of name, or -1.
func (f *JSFile) optionTrue(c jsCall, name string) int {
	for a, arg := range c.args {
		if a == c.fn || !f.punct(arg[0], "{") {
			continue
		}
		end := f.Match[arg[0]]
		for k := arg[0] + 1; k < end; k++ {
			if f.punct(k, "{") || f.punct(k, "(") || f.punct(k, "[") {
				k = f.Match[k]
				continue
			}
			if f.Is(k, scan.TIdent, name) && f.punct(k+1, ":") && f.Is(k+2, scan.TIdent, "true") {
				return k
			}
		}
	}
	return -1
}

// commentNear reports whether a comment sits on the lines from the one
// above the call to the line of its skip marker: the reason people give.
func (f *JSFile) commentNear(from, to int) bool {
	for _, c := range f.comments {
		if c.EndLine >= from-1 && c.Line <= to && strings.Trim(c.Text, "/* \t") != "" {
			return true
		}
	}
	return false
}

// asserts reports whether tokens body[0]..body[1] assert something.
func (f *JSFile) asserts(body [2]int, param string, memo map[string]int, depth int) bool {
	// Tests nested in tests would read the same tokens again and again: past
	// a budget linear in the file, a test is taken to assert.
	f.budget -= body[1] - body[0]
	if f.budget < 0 {
		return true
	}
	for k := body[0]; k < body[1]; k++ {
		t := f.Toks[k]
		if t.Kind != scan.TIdent {
			continue
		}
		switch {
		case jsAssertWords[t.Text]:
			return true
		case t.Text == "throw" || t.Text == "cy" && f.punct(k+1, "."):
			return true
		case t.Text == "skip" && f.punct(k-1, ".") && f.punct(k+1, "("):
			return true // this.skip(), ctx.skip(): reported as a skip, not as asserting nothing
		case (strings.HasPrefix(t.Text, "assert") || strings.HasPrefix(t.Text, "expect") || strings.HasPrefix(t.Text, "verify") ||
			strings.HasPrefix(t.Text, "getBy") || strings.HasPrefix(t.Text, "getAllBy") || strings.HasPrefix(t.Text, "findBy") ||
			strings.HasPrefix(t.Text, "findAllBy")) && (f.punct(k+1, "(") || f.punct(k+1, "<")):
			return true
		case param != "" && t.Text == param && !f.punct(k-1, "."):
			if f.punct(k+1, ".") && f.ident(k+2) && !jsContextSafe[f.Toks[k+2].Text] {
				return true // t.equal, t.assert.ok, t.is
			}
			if (f.punct(k-1, "(") || f.punct(k-1, ",")) && (f.punct(k+1, ")") || f.punct(k+1, ",")) {
				return true // handed to a helper or a callback: done, t
			}
			if f.punct(k+1, "(") && !f.punct(k+2, ")") {
				return true // done(err)
			}
		}
		if f.punct(k-1, ".") || !f.punct(k+1, "(") {
			continue
		}
		if mod, ok := f.imports[t.Text]; ok && (jsAssertModule(mod) || scan.HelperModule(mod)) {
			return true // an assertion, or a helper of the project's tests
		}
		if r, ok := f.funcs[t.Text]; ok && depth < 8 {
			switch memo[t.Text] {
			case 1:
				return true
			case 0:
				memo[t.Text] = 3 // in progress: a recursive helper does not assert by recursing
				a := f.asserts(r, "", memo, depth+1)
				memo[t.Text] = map[bool]int{true: 1, false: 2}[a]
				if a {
					return true
				}
			}
		}
	}
	return false
}

func jsAssertModule(mod string) bool {
	for _, m := range jsAssertModules {
		if mod == m || strings.HasPrefix(mod, m+"/") {
			return true
		}
	}
	return false
}

// collectImports maps each imported local name to its module: ES imports
// and const {a, b} = require("m").
func (f *JSFile) collectImports() {
	f.imports = map[string]string{}
	for i := 0; i < len(f.Toks); i++ {
		if f.Is(i, scan.TIdent, "import") && !f.punct(i+1, "(") && !f.punct(i+1, ".") {
			j := i + 1
			var names []string
			for ; j < len(f.Toks) && !f.Is(j, scan.TIdent, "from") && f.Toks[j].Kind != scan.TString; j++ {
				if f.ident(j) && !f.Is(j, scan.TIdent, "as") && !f.Is(j, scan.TIdent, "type") && !f.Is(j, scan.TIdent, "typeof") && !f.punct(j+1, "as") {
					names = append(names, f.Toks[j].Text)
				}
				if f.punct(j, ";") {
					break
				}
			}
			if f.Is(j, scan.TIdent, "from") {
				j++
			}
			if j < len(f.Toks) && f.Toks[j].Kind == scan.TString {
				for _, n := range names {
					f.imports[n] = f.Toks[j].Text
				}
			}
			i = j
			continue
		}
		if f.Is(i, scan.TIdent, "require") && f.punct(i+1, "(") && i+2 < len(f.Toks) && f.Toks[i+2].Kind == scan.TString && f.punct(i-1, "=") {
			mod := f.Toks[i+2].Text
			k := i - 2
			switch {
			case f.ident(k):
				f.imports[f.Toks[k].Text] = mod
			case f.punct(k, "}") && f.Match[k] >= 0:
				for n := f.Match[k] + 1; n < k; n++ {
					if f.ident(n) && !f.punct(n+1, ":") {
						f.imports[f.Toks[n].Text] = mod
					}
				}
			}
		}
	}
}

// collectFuncs finds the functions the file declares by name (function
// f() {}, const f = () => {}, const f = function () {}), for the helpers a
// test calls.
func (f *JSFile) collectFuncs() {
	f.funcs = map[string][2]int{}
	for i := 0; i+2 < len(f.Toks); i++ {
		var name string
		var c jsCall
		switch {
		case f.Is(i, scan.TIdent, "function") && f.ident(i+1) && !f.punct(i-1, "."):
			name = f.Toks[i+1].Text
			if !f.callback(&c, [2]int{i, len(f.Toks)}) {
				continue
			}
		case (f.Is(i, scan.TIdent, "const") || f.Is(i, scan.TIdent, "let") || f.Is(i, scan.TIdent, "var")) && f.ident(i+1):
			k := i + 2
			if f.punct(k, ":") { // a type annotation
				for k < len(f.Toks) && !f.punct(k, "=") && !f.punct(k, ";") {
					if f.punct(k, "{") || f.punct(k, "(") || f.punct(k, "[") {
						k = f.Match[k]
					}
					k++
				}
			}
			if !f.punct(k, "=") {
				continue
			}
			name = f.Toks[i+1].Text
			end := k + 1
			for end < len(f.Toks) && !f.punct(end, ";") && !f.punct(end, "}") && !f.punct(end, ")") {
				if f.punct(end, "{") || f.punct(end, "(") || f.punct(end, "[") {
					end = f.Match[end]
				}
				end++
			}
			if !f.callback(&c, [2]int{k + 1, end}) {
				continue
			}
		default:
			continue
		}
		if _, dup := f.funcs[name]; !dup {
			f.funcs[name] = c.body
		}
	}
}

// sleeps finds fixed waits: await sleep(100), await new Promise(r =>
// setTimeout(r, 100)), await setTimeout(100) from timers/promises,
// page.waitForTimeout(100), cy.wait(100).
// Only sleeps directly in a test or hook body are reported: one inside
// another function (a mocked fetch that simulates latency) is not a wait,
// nor one inside a loop (polling).
func (f *JSFile) sleeps(waits map[int]bool) []check.Finding {
	var out []check.Finding
	var starts []int
	var loops [][2]int
	for i := range f.Toks {
		if (f.Is(i, scan.TIdent, "for") || f.Is(i, scan.TIdent, "while")) && f.punct(i+1, "(") && f.punct(f.Match[i+1]+1, "{") {
			o := f.Match[i+1] + 1
			loops = append(loops, [2]int{o, f.Match[o]})
		}
		if f.Is(i, scan.TIdent, "do") && f.punct(i+1, "{") {
			loops = append(loops, [2]int{i + 1, f.Match[i+1]})
		}
	}
	inLoop := scan.Within(len(f.Toks), loops)
	for i := range f.Toks {
		t := f.Toks[i]
		if t.Kind != scan.TIdent {
			continue
		}
		var what string
		switch {
		case t.Text == "await":
			k := i + 1
			if f.Is(k, scan.TIdent, "new") && f.Is(k+1, scan.TIdent, "Promise") && f.punct(k+2, "(") {
				end := f.Match[k+2]
				for n := k + 3; n < end; n++ {
					if f.Is(n, scan.TIdent, "setTimeout") && f.punct(n+1, "(") && f.timed(n+1) {
						what = "await new Promise(... setTimeout ...)"
						break
					}
				}
				break
			}
			for f.ident(k) && f.punct(k+1, ".") { // a.b.sleep
				k += 2
			}
			if f.ident(k) && jsSleepNames[f.Toks[k].Text] && f.punct(k+1, "(") && f.sleepArg(k+1) {
				what = "await " + f.Toks[k].Text + "(...)"
			}
		case t.Text == "waitForTimeout" && f.punct(i-1, ".") && f.punct(i+1, "("):
			what = "waitForTimeout(...)"
		case t.Text == "wait" && f.Is(i-2, scan.TIdent, "cy") && f.punct(i-1, ".") && f.punct(i+1, "(") && i+2 < len(f.Toks) && f.Toks[i+2].Kind == scan.TNumber:
			what = "cy.wait(" + f.Toks[i+2].Text + ")"
		}
		if what == "" {
			continue
		}
		if starts == nil {
			starts = f.funcStarts()
		}
		if !waits[starts[i]] || inLoop[i] {
			continue
		}
		{
			out = append(out, check.Finding{Rule: scan.RuleSleep, File: f.path, Line: t.Line, Col: t.Col,
				Message: what + " waits a fixed time: the test is slow when it passes and flaky when the machine is slower",
				Fix:     "wait for the condition itself (await the promise, waitFor/expect.poll, an event), or use fake timers"})
		}
	}
	return out
}

// sleepArg reports whether the call whose ( is at open has a first
// argument that is a duration (a number or a name), not a callback.
func (f *JSFile) sleepArg(open int) bool {
	k := open + 1
	if k >= len(f.Toks) || f.punct(k, ")") {
		return false
	}
	t := f.Toks[k]
	if t.Kind == scan.TNumber {
		return t.Text != "0"
	}
	return t.Kind == scan.TIdent && t.Text != "function" && t.Text != "async" && !f.punct(k+1, "=>") && !f.punct(k+1, "(")
}

// timed reports whether the setTimeout call whose ( is at open waits: a
// second argument other than 0.
func (f *JSFile) timed(open int) bool {
	end := f.Match[open]
	for k := open + 1; k < end; k++ {
		if f.punct(k, "(") || f.punct(k, "{") || f.punct(k, "[") {
			k = f.Match[k]
			continue
		}
		if f.punct(k, ",") {
			return !(f.Toks[k+1].Kind == scan.TNumber && f.Toks[k+1].Text == "0" && k+2 == end)
		}
	}
	return false
}

// typeLevel reports whether a test checks types at compile time: a
// @ts-expect-error comment or a satisfies expression in its body.
func (f *JSFile) typeLevel(c jsCall) bool {
	from, to := f.Toks[max(c.body[0]-1, 0)].Line, f.Toks[min(c.body[1], len(f.Toks)-1)].Line
	for _, cm := range f.comments {
		if cm.Line >= from && cm.Line <= to && strings.Contains(cm.Text, "@ts-expect-error") {
			return true
		}
	}
	for k := c.body[0]; k < c.body[1]; k++ {
		if f.Is(k, scan.TIdent, "satisfies") {
			return true
		}
	}
	return false
}

// ExportedCode lists the functions and classes a module exports (not
// types, not re-exports), with the position of the first.
func (f *JSFile) ExportedCode() ([]string, int, int) {
	var names []string
	line, col := 0, 0
	depth := 0
	hasFunc := false
	for _, t := range f.Toks {
		if t.Kind == scan.TIdent && (t.Text == "function" || t.Text == "class") || t.Kind == scan.TPunct && t.Text == "=>" {
			hasFunc = true
			break
		}
	}
	add := func(i int, name string) {
		if line == 0 {
			line, col = f.Toks[i].Line, f.Toks[i].Col
		}
		if !slices.Contains(names, name) { // overloads repeat a function
			names = append(names, name)
		}
	}
	for i := 0; i < len(f.Toks); i++ {
		t := f.Toks[i]
		if t.Kind == scan.TPunct {
			switch t.Text {
			case "{", "(", "[":
				depth++
			case "}", ")", "]":
				depth--
			}
			continue
		}
		if depth != 0 || t.Kind != scan.TIdent {
			continue
		}
		switch {
		case t.Text == "export" && !f.punct(i-1, "."):
			k := i + 1
			if f.Is(k, scan.TIdent, "default") {
				if f.Is(k+1, scan.TIdent, "function") || f.Is(k+1, scan.TIdent, "class") || f.Is(k+1, scan.TIdent, "async") || f.punct(k+1, "(") {
					add(i, "default")
				}
				continue
			}
			if f.Is(k, scan.TIdent, "declare") || f.Is(k, scan.TIdent, "abstract") {
				if f.Is(k, scan.TIdent, "declare") {
					continue
				}
				k++
			}
			if f.Is(k, scan.TIdent, "async") {
				k++
			}
			switch {
			case (f.Is(k, scan.TIdent, "function") || f.Is(k, scan.TIdent, "class")) && f.ident(k+1):
				add(i, f.Toks[k+1].Text)
			case f.Is(k, scan.TIdent, "function") && f.punct(k+1, "*") && f.ident(k+2):
				add(i, f.Toks[k+2].Text)
			case (f.Is(k, scan.TIdent, "const") || f.Is(k, scan.TIdent, "let")) && f.ident(k+1):
				var c jsCall
				e := k + 2
				for e < len(f.Toks) && !f.punct(e, "=") && !f.punct(e, ";") {
					if f.punct(e, "{") || f.punct(e, "(") || f.punct(e, "[") {
						e = f.Match[e]
					}
					e++
				}
				if f.punct(e, "=") && f.callback(&c, [2]int{e + 1, len(f.Toks)}) {
					add(i, f.Toks[k+1].Text)
				}
			}
		case t.Text == "module" && f.punct(i+1, ".") && f.Is(i+2, scan.TIdent, "exports") || t.Text == "exports" && f.punct(i+1, ".") && !f.punct(i-1, "."):
			if hasFunc {
				add(i, "module.exports")
			}
		}
	}
	return names, line, col
}
