package testcheck

import (
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// jsFile is a tokenized JavaScript or TypeScript file with its brackets
// matched.
type jsFile struct {
	path     string
	toks     []tok
	comments []comment
	match    []int // index of the matching bracket, -1 for other tokens
	funcs    map[string][2]int
	imports  map[string]string // local name -> module it was imported from
	budget   int               // tokens asserts may still read
}

// jsMatch pairs the brackets of toks; a stray or unclosed one is an error
// at its position.
func jsMatch(toks []tok) ([]int, *lexError) {
	match := make([]int, len(toks))
	var stack []int
	for i, t := range toks {
		match[i] = -1
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			stack = append(stack, i)
		case ")", "]", "}":
			open := map[string]string{")": "(", "]": "[", "}": "{"}[t.text]
			if len(stack) == 0 || toks[stack[len(stack)-1]].text != open {
				return nil, &lexError{t.line, t.col, "unbalanced " + t.text}
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			match[o], match[i] = i, o
		}
	}
	if len(stack) > 0 {
		t := toks[stack[len(stack)-1]]
		return nil, &lexError{t.line, t.col, t.text + " is not closed"}
	}
	return match, nil
}

func (f *jsFile) is(i int, kind byte, text string) bool {
	return i >= 0 && i < len(f.toks) && f.toks[i].kind == kind && f.toks[i].text == text
}
func (f *jsFile) punct(i int, text string) bool { return f.is(i, tPunct, text) }
func (f *jsFile) ident(i int) bool              { return i >= 0 && i < len(f.toks) && f.toks[i].kind == tIdent }

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

// checkJS checks one JavaScript or TypeScript test file.
func checkJS(file check.File, jsx bool) []check.Finding {
	toks, comments, err := lexJS(file.Content, jsx)
	if err != nil {
		return []check.Finding{tokenSyntax(file.Path, err, "JavaScript/TypeScript")}
	}
	match, err := jsMatch(toks)
	if err != nil {
		return []check.Finding{tokenSyntax(file.Path, err, "JavaScript/TypeScript")}
	}
	f := &jsFile{path: file.Path, toks: toks, comments: comments, match: match, budget: 32*len(toks) + 1024}
	f.collectImports()
	f.collectFuncs()
	var out []check.Finding
	memo := map[string]int{}
	waits := map[int]bool{} // the starts of test and hook bodies
	for i := range f.toks {
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
func (f *jsFile) hook(i int) (jsCall, bool) {
	c := jsCall{fn: -1}
	if !f.ident(i) || !jsHookWords[f.toks[i].text] || f.punct(i-1, ".") && !f.is(i-2, tIdent, "test") || !f.punct(i+1, "(") {
		return c, false
	}
	end := f.match[i+1]
	start := i + 2
	for k := i + 2; k <= end; k++ {
		if k < end && (f.punct(k, "(") || f.punct(k, "[") || f.punct(k, "{")) {
			k = f.match[k]
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
func (f *jsFile) funcStarts() []int {
	starts := make([]int, len(f.toks))
	var stack [][2]int // body start, body end (exclusive)
	var bodies [][2]int
	for i := range f.toks {
		switch {
		case f.punct(i, "=>"):
			if f.punct(i+1, "{") {
				bodies = append(bodies, [2]int{i + 1, f.match[i+1]})
				continue
			}
			// a concise body runs to the , ) ] } or ; that ends the expression
			// (read up to a bound: chained arrows would make it quadratic)
			k := i + 1
			for k < len(f.toks) && k < i+4096 && !f.punct(k, ",") && !f.punct(k, ")") && !f.punct(k, "]") && !f.punct(k, "}") && !f.punct(k, ";") {
				if f.punct(k, "(") || f.punct(k, "[") || f.punct(k, "{") {
					k = f.match[k]
				}
				k++
			}
			bodies = append(bodies, [2]int{i, k})
		case f.punct(i, ")") && f.punct(i+1, "{") && f.match[i] > 0:
			// function f(...) {, a method m(...) {, but not if/for/while/switch/catch
			o := f.match[i]
			if f.ident(o-1) && !jsControl[f.toks[o-1].text] || f.is(o-1, tIdent, "function") {
				bodies = append(bodies, [2]int{i + 1, f.match[i+1]})
			}
		case f.punct(i, ")") && f.punct(i+1, ":") && f.match[i] > 0:
			// a TypeScript method or function with a return type
			for k := i + 2; k < len(f.toks) && k < i+64; k++ {
				if f.punct(k, "{") && (f.ident(k-1) || f.punct(k-1, ">") || f.punct(k-1, "]")) {
					bodies = append(bodies, [2]int{k, f.match[k]})
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
	for i := range f.toks {
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
func (f *jsFile) testCall(i int) (jsCall, bool) {
	t := f.toks[i]
	if t.kind != tIdent || !(jsTestWords[t.text] || jsSuiteWords[t.text] || t.text == "Deno") {
		return jsCall{}, false
	}
	if f.punct(i-1, ".") || f.punct(i-1, "?.") || f.is(i-1, tIdent, "function") || f.is(i-1, tIdent, "const") ||
		f.is(i-1, tIdent, "let") || f.is(i-1, tIdent, "var") || f.is(i-1, tIdent, "class") || f.punct(i+1, ":") ||
		f.is(i-1, tIdent, "import") || f.is(i-1, tIdent, "export") {
		return jsCall{}, false
	}
	c := jsCall{root: i, fn: -1, modTok: map[string]int{}, suite: jsSuiteWords[t.text]}
	j := i + 1
	if t.text == "Deno" {
		if !f.punct(j, ".") || !f.is(j+1, tIdent, "test") {
			return jsCall{}, false
		}
		j += 2
	}
	for {
		if f.punct(j, ".") && f.ident(j+1) {
			m := f.toks[j+1].text
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
			if f.punct(j, "(") && f.punct(f.match[j]+1, "(") {
				j = f.match[j] + 1
				c.parametric = c.parametric || c.mods[len(c.mods)-1] == "each" || c.mods[len(c.mods)-1] == "for"
				continue
			}
			if j < len(f.toks) && f.toks[j].kind == tTemplate { // test.each`table`
				// to the ( after the table: its ${} parts are tokens too (a
				// bound keeps a file of nothing but tables linear)
				for end := j + 1024; j < len(f.toks) && j < end && !f.punct(j, "("); j++ {
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
	end := f.match[j]
	start := j + 1
	for k := j + 1; k < end; k++ {
		if f.toks[k].kind == tPunct && (f.toks[k].text == "(" || f.toks[k].text == "[" || f.toks[k].text == "{") {
			k = f.match[k]
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
func (f *jsFile) callback(c *jsCall, arg [2]int) bool {
	k := arg[0]
	if f.is(k, tIdent, "async") {
		k++
	}
	switch {
	case f.is(k, tIdent, "function"):
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
		k = f.match[k] + 1
		for k < arg[1] && !f.punct(k, "{") { // a TypeScript return type
			k++
		}
		if !f.punct(k, "{") {
			return false
		}
		c.body = [2]int{k + 1, f.match[k]}
		return true
	case f.punct(k, "(") || f.ident(k) && f.punct(k+1, "=>"):
		if f.punct(k, "(") {
			c.param = f.firstParam(k)
			k = f.match[k] + 1
		} else {
			c.param = f.toks[k].text
			k++
		}
		for k < arg[1] && !f.punct(k, "=>") { // a TypeScript return type
			if f.punct(k, "{") || f.punct(k, "(") || f.punct(k, "[") {
				k = f.match[k]
			}
			k++
		}
		if !f.punct(k, "=>") {
			return false
		}
		k++
		if f.punct(k, "{") {
			c.body = [2]int{k + 1, f.match[k]}
		} else {
			c.body, c.exprBody = [2]int{k, arg[1]}, true
		}
		return true
	}
	return false
}

// firstParam is the first parameter's name when it is a plain name.
func (f *jsFile) firstParam(open int) string {
	if f.ident(open+1) && (f.punct(open+2, ")") || f.punct(open+2, ",") || f.punct(open+2, ":") || f.punct(open+2, "=")) {
		return f.toks[open+1].text
	}
	return ""
}

func (f *jsFile) checkCall(c jsCall, memo map[string]int) []check.Finding {
	var out []check.Finding
	root := f.toks[c.root]
	name := root.text
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
	switch root.text {
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
		t := f.toks[focusAt]
		out = append(out, check.Finding{Rule: ruleFocused, File: f.path, Line: t.line, Col: t.col,
			Message: "the " + what + " " + title + " is focused (" + name + "): every other test of the file is skipped, in CI too",
			Fix:     "remove the focus (" + focusFix(name) + ") before committing"})
	}
	// skipped
	skipAt := -1
	if strings.HasPrefix(root.text, "x") {
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
	if skipAt >= 0 && !f.commentNear(root.line, f.toks[skipAt].line) {
		t := f.toks[skipAt]
		out = append(out, check.Finding{Rule: ruleSkipped, File: f.path, Line: t.line, Col: t.col,
			Message: "the " + what + " " + title + " is skipped (" + name + ") and nothing says why",
			Fix:     "say why on the line above (a comment with the issue or the condition to re-enable it), or delete the " + what})
	}
	if _, todo := c.modTok["todo"]; c.suite || c.fn < 0 || todo {
		return out
	}
	// empty, no assertion
	if c.body[0] >= c.body[1] {
		out = append(out, check.Finding{Rule: ruleEmpty, File: f.path, Line: root.line, Col: root.col,
			Message: "the test " + title + " has an empty body: it passes without running anything",
			Fix:     "write the test, or declare it as test.todo(" + title + ")"})
		return out
	}
	param := c.param
	if c.parametric {
		param = ""
	}
	if !f.asserts(c.body, param, memo, 0) && !f.typeLevel(c) && !saysNoPanic(title) {
		out = append(out, check.Finding{Rule: ruleNoAssertion, File: f.path, Line: root.line, Col: root.col,
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
func (f *jsFile) title(c jsCall) string {
	if len(c.args) > 0 {
		t := f.toks[c.args[0][0]]
		if t.kind == tString || t.kind == tTemplate {
			return quote(t.text)
		}
	}
	return "at line " + itoa(f.toks[c.root].line)
}

// optionTrue finds `name: true` in an options object argument (node:test's
// test(name, { only: true }, fn)): the token of name, or -1.
func (f *jsFile) optionTrue(c jsCall, name string) int {
	for a, arg := range c.args {
		if a == c.fn || !f.punct(arg[0], "{") {
			continue
		}
		end := f.match[arg[0]]
		for k := arg[0] + 1; k < end; k++ {
			if f.punct(k, "{") || f.punct(k, "(") || f.punct(k, "[") {
				k = f.match[k]
				continue
			}
			if f.is(k, tIdent, name) && f.punct(k+1, ":") && f.is(k+2, tIdent, "true") {
				return k
			}
		}
	}
	return -1
}

// commentNear reports whether a comment sits on the lines from the one
// above the call to the line of its skip marker: the reason people give.
func (f *jsFile) commentNear(from, to int) bool {
	for _, c := range f.comments {
		if c.endLine >= from-1 && c.line <= to && strings.Trim(c.text, "/* \t") != "" {
			return true
		}
	}
	return false
}

// asserts reports whether tokens body[0]..body[1] assert something.
func (f *jsFile) asserts(body [2]int, param string, memo map[string]int, depth int) bool {
	// Tests nested in tests would read the same tokens again and again: past
	// a budget linear in the file, a test is taken to assert.
	f.budget -= body[1] - body[0]
	if f.budget < 0 {
		return true
	}
	for k := body[0]; k < body[1]; k++ {
		t := f.toks[k]
		if t.kind != tIdent {
			continue
		}
		switch {
		case jsAssertWords[t.text]:
			return true
		case t.text == "throw" || t.text == "cy" && f.punct(k+1, "."):
			return true
		case t.text == "skip" && f.punct(k-1, ".") && f.punct(k+1, "("):
			return true // this.skip(), ctx.skip(): reported as a skip, not as asserting nothing
		case (strings.HasPrefix(t.text, "assert") || strings.HasPrefix(t.text, "expect") || strings.HasPrefix(t.text, "verify") ||
			strings.HasPrefix(t.text, "getBy") || strings.HasPrefix(t.text, "getAllBy") || strings.HasPrefix(t.text, "findBy") ||
			strings.HasPrefix(t.text, "findAllBy")) && (f.punct(k+1, "(") || f.punct(k+1, "<")):
			return true
		case param != "" && t.text == param && !f.punct(k-1, "."):
			if f.punct(k+1, ".") && f.ident(k+2) && !jsContextSafe[f.toks[k+2].text] {
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
		if mod, ok := f.imports[t.text]; ok && (jsAssertModule(mod) || helperModule(mod)) {
			return true // an assertion, or a helper of the project's tests
		}
		if r, ok := f.funcs[t.text]; ok && depth < 8 {
			switch memo[t.text] {
			case 1:
				return true
			case 0:
				memo[t.text] = 3 // in progress: a recursive helper does not assert by recursing
				a := f.asserts(r, "", memo, depth+1)
				memo[t.text] = map[bool]int{true: 1, false: 2}[a]
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
func (f *jsFile) collectImports() {
	f.imports = map[string]string{}
	for i := 0; i < len(f.toks); i++ {
		if f.is(i, tIdent, "import") && !f.punct(i+1, "(") && !f.punct(i+1, ".") {
			j := i + 1
			var names []string
			for ; j < len(f.toks) && !f.is(j, tIdent, "from") && f.toks[j].kind != tString; j++ {
				if f.ident(j) && !f.is(j, tIdent, "as") && !f.is(j, tIdent, "type") && !f.is(j, tIdent, "typeof") && !f.punct(j+1, "as") {
					names = append(names, f.toks[j].text)
				}
				if f.punct(j, ";") {
					break
				}
			}
			if f.is(j, tIdent, "from") {
				j++
			}
			if j < len(f.toks) && f.toks[j].kind == tString {
				for _, n := range names {
					f.imports[n] = f.toks[j].text
				}
			}
			i = j
			continue
		}
		if f.is(i, tIdent, "require") && f.punct(i+1, "(") && i+2 < len(f.toks) && f.toks[i+2].kind == tString && f.punct(i-1, "=") {
			mod := f.toks[i+2].text
			k := i - 2
			switch {
			case f.ident(k):
				f.imports[f.toks[k].text] = mod
			case f.punct(k, "}") && f.match[k] >= 0:
				for n := f.match[k] + 1; n < k; n++ {
					if f.ident(n) && !f.punct(n+1, ":") {
						f.imports[f.toks[n].text] = mod
					}
				}
			}
		}
	}
}

// collectFuncs finds the functions the file declares by name (function
// f() {}, const f = () => {}, const f = function () {}), for the helpers a
// test calls.
func (f *jsFile) collectFuncs() {
	f.funcs = map[string][2]int{}
	for i := 0; i+2 < len(f.toks); i++ {
		var name string
		var c jsCall
		switch {
		case f.is(i, tIdent, "function") && f.ident(i+1) && !f.punct(i-1, "."):
			name = f.toks[i+1].text
			if !f.callback(&c, [2]int{i, len(f.toks)}) {
				continue
			}
		case (f.is(i, tIdent, "const") || f.is(i, tIdent, "let") || f.is(i, tIdent, "var")) && f.ident(i+1):
			k := i + 2
			if f.punct(k, ":") { // a type annotation
				for k < len(f.toks) && !f.punct(k, "=") && !f.punct(k, ";") {
					if f.punct(k, "{") || f.punct(k, "(") || f.punct(k, "[") {
						k = f.match[k]
					}
					k++
				}
			}
			if !f.punct(k, "=") {
				continue
			}
			name = f.toks[i+1].text
			end := k + 1
			for end < len(f.toks) && !f.punct(end, ";") && !f.punct(end, "}") && !f.punct(end, ")") {
				if f.punct(end, "{") || f.punct(end, "(") || f.punct(end, "[") {
					end = f.match[end]
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
func (f *jsFile) sleeps(waits map[int]bool) []check.Finding {
	var out []check.Finding
	var starts []int
	var loops [][2]int
	for i := range f.toks {
		if (f.is(i, tIdent, "for") || f.is(i, tIdent, "while")) && f.punct(i+1, "(") && f.punct(f.match[i+1]+1, "{") {
			o := f.match[i+1] + 1
			loops = append(loops, [2]int{o, f.match[o]})
		}
		if f.is(i, tIdent, "do") && f.punct(i+1, "{") {
			loops = append(loops, [2]int{i + 1, f.match[i+1]})
		}
	}
	inLoop := within(len(f.toks), loops)
	for i := range f.toks {
		t := f.toks[i]
		if t.kind != tIdent {
			continue
		}
		var what string
		switch {
		case t.text == "await":
			k := i + 1
			if f.is(k, tIdent, "new") && f.is(k+1, tIdent, "Promise") && f.punct(k+2, "(") {
				end := f.match[k+2]
				for n := k + 3; n < end; n++ {
					if f.is(n, tIdent, "setTimeout") && f.punct(n+1, "(") && f.timed(n+1) {
						what = "await new Promise(... setTimeout ...)"
						break
					}
				}
				break
			}
			for f.ident(k) && f.punct(k+1, ".") { // a.b.sleep
				k += 2
			}
			if f.ident(k) && jsSleepNames[f.toks[k].text] && f.punct(k+1, "(") && f.sleepArg(k+1) {
				what = "await " + f.toks[k].text + "(...)"
			}
		case t.text == "waitForTimeout" && f.punct(i-1, ".") && f.punct(i+1, "("):
			what = "waitForTimeout(...)"
		case t.text == "wait" && f.is(i-2, tIdent, "cy") && f.punct(i-1, ".") && f.punct(i+1, "(") && i+2 < len(f.toks) && f.toks[i+2].kind == tNumber:
			what = "cy.wait(" + f.toks[i+2].text + ")"
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
			out = append(out, check.Finding{Rule: ruleSleep, File: f.path, Line: t.line, Col: t.col,
				Message: what + " waits a fixed time: the test is slow when it passes and flaky when the machine is slower",
				Fix:     "wait for the condition itself (await the promise, waitFor/expect.poll, an event), or use fake timers"})
		}
	}
	return out
}

// sleepArg reports whether the call whose ( is at open has a first
// argument that is a duration (a number or a name), not a callback.
func (f *jsFile) sleepArg(open int) bool {
	k := open + 1
	if k >= len(f.toks) || f.punct(k, ")") {
		return false
	}
	t := f.toks[k]
	if t.kind == tNumber {
		return t.text != "0"
	}
	return t.kind == tIdent && t.text != "function" && t.text != "async" && !f.punct(k+1, "=>") && !f.punct(k+1, "(")
}

// timed reports whether the setTimeout call whose ( is at open waits: a
// second argument other than 0.
func (f *jsFile) timed(open int) bool {
	end := f.match[open]
	for k := open + 1; k < end; k++ {
		if f.punct(k, "(") || f.punct(k, "{") || f.punct(k, "[") {
			k = f.match[k]
			continue
		}
		if f.punct(k, ",") {
			return !(f.toks[k+1].kind == tNumber && f.toks[k+1].text == "0" && k+2 == end)
		}
	}
	return false
}

// typeLevel reports whether a test checks types at compile time: a
// @ts-expect-error comment or a satisfies expression in its body.
func (f *jsFile) typeLevel(c jsCall) bool {
	from, to := f.toks[max(c.body[0]-1, 0)].line, f.toks[min(c.body[1], len(f.toks)-1)].line
	for _, cm := range f.comments {
		if cm.line >= from && cm.line <= to && strings.Contains(cm.text, "@ts-expect-error") {
			return true
		}
	}
	for k := c.body[0]; k < c.body[1]; k++ {
		if f.is(k, tIdent, "satisfies") {
			return true
		}
	}
	return false
}

// helperModule reports whether a module a test imports from holds test
// helpers (./helpers, ../test-utils, tests.support) rather than the code
// under test: a call of one of its functions may assert.
func helperModule(mod string) bool {
	m := strings.ToLower(mod)
	for _, w := range []string{"test", "helper", "util", "fixture", "spec", "mock", "support", "setup", "assert", "expect", "check", "harness"} {
		if strings.Contains(m, w) {
			return true
		}
	}
	return false
}

// within marks the tokens inside any of the ranges (exclusive ends), in
// time linear in n and the ranges.
func within(n int, ranges [][2]int) []bool {
	diff := make([]int, n+2)
	for _, r := range ranges {
		if r[0] < 0 || r[1] <= r[0] || r[0] > n {
			continue
		}
		diff[r[0]]++
		diff[min(r[1], n+1)]--
	}
	out := make([]bool, n)
	c := 0
	for i := range n {
		c += diff[i]
		out[i] = c > 0
	}
	return out
}
