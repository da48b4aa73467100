package testcheck

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// pyDef is a def or class statement, with its block.
type pyDef struct {
	class      bool
	name       string
	nameTok    int
	line, col  int
	decorators [][2]int // each decorator's tokens, after the @
	params     [2]int
	bases      string // a class's bases as written
	body       [2]int
	parent     *pyDef
	methods    map[string]*pyDef
}

// pyFile is a tokenized Python file read into its defs and classes.
type pyFile struct {
	path     string
	toks     []tok
	comments []comment
	defs     []*pyDef          // every def and class, outermost first
	top      map[string]*pyDef // module-level functions by name
	imports  map[string]string // local name -> module
	loops    [][2]int          // token ranges of for and while blocks
	memo     map[*pyDef]int
}

func (f *pyFile) is(i int, kind byte, text string) bool {
	return i >= 0 && i < len(f.toks) && f.toks[i].kind == kind && f.toks[i].text == text
}
func (f *pyFile) op(i int, text string) bool { return f.is(i, pOp, text) }
func (f *pyFile) name(i int) bool            { return i >= 0 && i < len(f.toks) && f.toks[i].kind == pName }

// parsePython tokenizes and reads the structure of a Python file.
func parsePython(path string, src []byte) (*pyFile, *lexError) {
	toks, comments, err := lexPython(src)
	if err != nil {
		return nil, err
	}
	f := &pyFile{path: path, toks: toks, comments: comments, top: map[string]*pyDef{}, imports: map[string]string{}, memo: map[*pyDef]int{}}
	f.block(0, nil, 0)
	f.collectImports()
	return f, nil
}

// lineEnd is the index of the NEWLINE ending the logical line at i.
func (f *pyFile) lineEnd(i int) int {
	for i < len(f.toks) && f.toks[i].kind != pNewline {
		i++
	}
	return i
}

// block reads statements from i to the DEDENT closing the block (or the
// end), and returns the index after it.
func (f *pyFile) block(i int, parent *pyDef, depth int) int {
	var decos [][2]int
	for i < len(f.toks) {
		t := f.toks[i]
		switch t.kind {
		case pDedent:
			return i + 1
		case pNewline:
			i++
			continue
		case pIndent:
			if depth >= maxNesting {
				i++
				continue
			}
			i = f.block(i+1, parent, depth+1)
			continue
		}
		if f.op(i, "@") {
			end := f.lineEnd(i)
			decos = append(decos, [2]int{i + 1, end})
			i = end + 1
			continue
		}
		j := i
		if f.is(j, pName, "async") {
			j++
		}
		end := f.lineEnd(j)
		if (f.is(j, pName, "def") || f.is(j, pName, "class")) && f.name(j+1) && depth < maxNesting {
			d := &pyDef{class: f.toks[j].text == "class", name: f.toks[j+1].text, nameTok: j + 1,
				line: f.toks[j+1].line, col: f.toks[j+1].col, decorators: decos, parent: parent, methods: map[string]*pyDef{}}
			decos = nil
			colon := f.headerColon(j+2, end)
			if f.op(j+2, "(") {
				d.params = [2]int{j + 3, f.closer(j+2, end)}
				if d.class {
					var b strings.Builder
					for k := d.params[0]; k < d.params[1]; k++ {
						b.WriteString(f.toks[k].text)
					}
					d.bases = b.String()
				}
			}
			f.defs = append(f.defs, d)
			if parent == nil && !d.class {
				f.top[d.name] = d
			}
			if parent != nil && parent.class && !d.class {
				parent.methods[d.name] = d
			}
			if colon+1 == end && end+1 < len(f.toks) && f.toks[end+1].kind == pIndent {
				after := f.block(end+2, d, depth+1)
				d.body = [2]int{end + 2, after - 1}
				i = after
			} else {
				d.body = [2]int{colon + 1, end}
				i = end + 1
			}
			continue
		}
		decos = nil
		if f.op(end-1, ":") && end+1 < len(f.toks) && f.toks[end+1].kind == pIndent && depth < maxNesting {
			after := f.block(end+2, parent, depth+1)
			if f.is(j, pName, "for") || f.is(j, pName, "while") {
				f.loops = append(f.loops, [2]int{end + 2, after})
			}
			i = after
			continue
		}
		i = end + 1
	}
	return i
}

// headerColon is the : that ends a def or class header (the last one of
// the logical line outside brackets, before a one-line body).
func (f *pyFile) headerColon(i, end int) int {
	depth := 0
	for k := i; k < end; k++ {
		switch {
		case f.op(k, "(") || f.op(k, "[") || f.op(k, "{"):
			depth++
		case f.op(k, ")") || f.op(k, "]") || f.op(k, "}"):
			depth--
		case depth == 0 && f.op(k, ":"):
			return k
		}
	}
	return end - 1
}

// closer is the index of the bracket closing the one at open.
func (f *pyFile) closer(open, end int) int {
	depth := 0
	for k := open; k < end; k++ {
		switch {
		case f.op(k, "(") || f.op(k, "[") || f.op(k, "{"):
			depth++
		case f.op(k, ")") || f.op(k, "]") || f.op(k, "}"):
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return end
}

func (f *pyFile) collectImports() {
	for i := 0; i < len(f.toks); i++ {
		if !(i == 0 || f.toks[i-1].kind == pNewline || f.toks[i-1].kind == pIndent || f.toks[i-1].kind == pDedent) {
			continue
		}
		end := f.lineEnd(i)
		switch {
		case f.is(i, pName, "from"):
			var mod strings.Builder
			k := i + 1
			for ; k < end && !f.is(k, pName, "import"); k++ {
				mod.WriteString(f.toks[k].text)
			}
			for k++; k < end; k++ {
				if f.name(k) && !f.is(k, pName, "as") && !f.is(k+1, pName, "as") {
					f.imports[f.toks[k].text] = mod.String()
				}
			}
		case f.is(i, pName, "import"):
			for k := i + 1; k < end; k++ {
				if f.name(k) && !f.op(k-1, ".") && !f.is(k, pName, "as") {
					var mod strings.Builder
					n := k
					for ; n < end && (f.name(n) || f.op(n, ".")) && !f.is(n, pName, "as"); n++ {
						mod.WriteString(f.toks[n].text)
					}
					local := f.toks[k].text
					if f.is(n, pName, "as") && f.name(n+1) {
						local = f.toks[n+1].text
					}
					f.imports[local] = mod.String()
					k = n
				}
			}
		}
		i = end
	}
}

// decoratorName is a decorator's dotted name and whether it is called.
func (f *pyFile) decoratorName(d [2]int) (string, int) {
	var b strings.Builder
	k := d[0]
	for ; k < d[1] && (f.name(k) || f.op(k, ".")); k++ {
		b.WriteString(f.toks[k].text)
	}
	if f.op(k, "(") {
		return b.String(), k
	}
	return b.String(), -1
}

// isTestClass reports whether classes named and based like d are
// collected as tests by pytest or unittest.
func pyTestClass(d *pyDef) bool {
	return d.class && (strings.HasPrefix(d.name, "Test") || strings.Contains(d.bases, "TestCase") || strings.Contains(d.bases, "Test"))
}

// checkPython checks one Python test file.
func checkPython(file check.File) []check.Finding {
	f, err := parsePython(file.Path, file.Content)
	if err != nil {
		return []check.Finding{tokenSyntax(file.Path, err, "Python")}
	}
	var out []check.Finding
	for _, d := range f.defs {
		switch {
		case d.class && pyTestClass(d):
			out = append(out, f.decoratorFindings(d, "class")...)
		case !d.class && strings.HasPrefix(d.name, "test") && (d.parent == nil || d.parent.class && pyTestClass(d.parent)):
			out = append(out, f.decoratorFindings(d, "test")...)
			out = append(out, f.checkTest(d)...)
		}
	}
	out = append(out, f.sleeps()...)
	return out
}

func (f *pyFile) decoratorFindings(d *pyDef, what string) []check.Finding {
	var out []check.Finding
	for _, dec := range d.decorators {
		name, open := f.decoratorName(dec)
		at := f.toks[dec[0]]
		args := 0
		reason := false
		firstString := false
		if open >= 0 {
			end := f.closer(open, dec[1])
			if end > open+1 {
				args = 1
			}
			depth := 0
			for k := open + 1; k < end; k++ {
				switch {
				case f.op(k, "(") || f.op(k, "[") || f.op(k, "{"):
					depth++
				case f.op(k, ")") || f.op(k, "]") || f.op(k, "}"):
					depth--
				case depth == 0 && f.op(k, ","):
					args++
				case depth == 0 && f.is(k, pName, "reason") && f.op(k+1, "="):
					reason = !(f.toks[k+2].kind == pString && f.toks[k+2].text == "")
				}
			}
			firstString = f.toks[open+1].kind == pString && f.toks[open+1].text != ""
		}
		unittestSkip := name == "unittest.skip" || name == "skip" && f.imports["skip"] == "unittest"
		unittestSkipIf := name == "unittest.skipIf" || name == "unittest.skipUnless" ||
			(name == "skipIf" || name == "skipUnless") && f.imports[name] == "unittest"
		var why string
		switch {
		case strings.HasSuffix(name, "mark.skip") && !reason && !firstString:
			why = "@" + name + " gives no reason="
		case strings.HasSuffix(name, "mark.skipif") && !reason:
			why = "@" + name + " gives no reason="
		case unittestSkip && !firstString:
			why = "@" + name + " gives no reason"
		case unittestSkipIf && args < 2:
			why = "@" + name + " gives no reason"
		case strings.HasSuffix(name, "mark.only") || strings.HasSuffix(name, "mark.focus"):
			out = append(out, check.Finding{Rule: ruleFocused, File: f.path, Line: at.line, Col: at.col,
				Message: "the " + what + " " + d.name + " is focused with @" + name + ": the rest of the suite does not run",
				Fix:     "remove @" + name + " before committing"})
		}
		if why != "" {
			out = append(out, check.Finding{Rule: ruleSkipped, File: f.path, Line: at.line, Col: at.col,
				Message: "the " + what + " " + d.name + " is skipped and " + why,
				Fix:     "give the reason: @pytest.mark.skip(reason=\"...\") or @unittest.skip(\"...\"), naming the issue or the condition to re-enable it"})
		}
	}
	return out
}

func (f *pyFile) checkTest(d *pyDef) []check.Finding {
	var out []check.Finding
	empty := true
	for k := d.body[0]; k < d.body[1]; k++ {
		t := f.toks[k]
		switch {
		case t.kind == pNewline || t.kind == pIndent || t.kind == pDedent:
		case t.kind == pName && t.text == "pass", t.kind == pOp && t.text == "...":
		case t.kind == pString && k == d.body[0] || t.kind == pString && f.toks[k-1].kind == pIndent:
		default:
			empty = false
		}
	}
	for k := d.body[0]; k < d.body[1]; k++ {
		if (f.is(k, pName, "skip") && f.op(k-1, ".") && f.is(k-2, pName, "pytest") || f.is(k, pName, "skipTest") && f.op(k-1, ".")) &&
			f.op(k+1, "(") && f.op(k+2, ")") {
			t := f.toks[k]
			out = append(out, check.Finding{Rule: ruleSkipped, File: f.path, Line: t.line, Col: t.col,
				Message: "the test " + d.name + " skips itself and gives no reason",
				Fix:     "pass the reason: pytest.skip(\"...\") / self.skipTest(\"...\")"})
		}
	}
	switch {
	case empty:
		out = append(out, check.Finding{Rule: ruleEmpty, File: f.path, Line: d.line, Col: d.col,
			Message: "the test " + d.name + " has an empty body: it passes without running anything",
			Fix:     "write the test, or mark it @pytest.mark.skip(reason=\"not written yet\")"})
	case !f.asserts(d, 0) && !saysNoPanic(d.name):
		out = append(out, check.Finding{Rule: ruleNoAssertion, File: f.path, Line: d.line, Col: d.col,
			Message: "the test " + d.name + " asserts nothing: it passes whatever the code does, unless it raises",
			Fix:     "assert on the result (assert ..., self.assertEqual, pytest.raises), or say in the name what an exception would mean"})
	}
	return out
}

// pyAssertPrefixes start the names of calls that assert: unittest's
// assert*/fail, mock's assert_called*, numpy's assert_*, assertpy's
// assert_that, Playwright's expect, subprocess's check_call.
var pyAssertPrefixes = []string{"assert", "fail", "expect", "verify", "check"}

// pyAssertNames are calls that assert whatever their prefix.
// Skipping counts too: a test that skips itself is reported as skipped,
// not as asserting nothing.
var pyAssertNames = map[string]bool{"raises": true, "warns": true, "deprecated_call": true, "approx": true,
	"skip": true, "skipTest": true, "xfail": true}

// unittestMethods are TestCase's own methods that do not assert.
var unittestMethods = map[string]bool{"setUp": true, "tearDown": true, "addCleanup": true, "subTest": true, "skipTest": true,
	"enterContext": true, "id": true, "shortDescription": true, "doCleanups": true, "run": true, "debug": true, "addTypeEqualityFunc": true}

func (f *pyFile) asserts(d *pyDef, depth int) bool {
	switch f.memo[d] {
	case 1:
		return true
	case 2, 3:
		return false
	}
	f.memo[d] = 3
	a := f.bodyAsserts(d, depth)
	f.memo[d] = map[bool]int{true: 1, false: 2}[a]
	return a
}

func (f *pyFile) bodyAsserts(d *pyDef, depth int) bool {
	cls := d.parent
	for k := d.body[0]; k < d.body[1]; k++ {
		t := f.toks[k]
		if t.kind != pName {
			continue
		}
		if t.text == "assert" || t.text == "raise" {
			return true
		}
		if !f.op(k+1, "(") {
			continue
		}
		for _, p := range pyAssertPrefixes {
			if strings.HasPrefix(t.text, p) {
				return true
			}
		}
		if pyAssertNames[t.text] {
			return true
		}
		if depth >= 8 {
			continue
		}
		if f.op(k-1, ".") && (f.is(k-2, pName, "self") || f.is(k-2, pName, "cls")) && cls != nil && cls.class {
			if m, ok := cls.methods[t.text]; ok {
				if f.asserts(m, depth+1) {
					return true
				}
				continue
			}
			// inherited: from TestCase itself, or from a base of the
			// project's that may well assert
			if !unittestMethods[t.text] && !onlyTestCaseBases(cls.bases) {
				return true
			}
			continue
		}
		if f.op(k-1, ".") {
			continue
		}
		if fn, ok := f.top[t.text]; ok {
			if f.asserts(fn, depth+1) {
				return true
			}
			continue
		}
		if mod, ok := f.imports[t.text]; ok && helperModule(mod) {
			return true // a helper of the project's tests
		}
	}
	return false
}

func onlyTestCaseBases(bases string) bool {
	for b := range strings.SplitSeq(bases, ",") {
		switch b {
		case "", "unittest.TestCase", "TestCase", "object", "unittest.IsolatedAsyncioTestCase", "IsolatedAsyncioTestCase":
		default:
			return false
		}
	}
	return true
}

// sleeps finds time.sleep and awaited asyncio.sleep(n>0) in the test
// functions and test classes of the file, outside polling loops.
func (f *pyFile) sleeps() []check.Finding {
	var out []check.Finding
	seen := map[int]bool{}
	inLoop := within(len(f.toks), f.loops)
	for _, d := range f.defs {
		if d.class || !(strings.HasPrefix(d.name, "test") || d.parent != nil && pyTestClass(d.parent)) {
			continue
		}
		for k := d.body[0]; k < d.body[1]; k++ {
			if seen[k] || !f.is(k, pName, "sleep") || !f.op(k+1, "(") || inLoop[k] {
				continue
			}
			var what string
			switch {
			case f.op(k-1, ".") && f.is(k-2, pName, "time") && !f.op(k-3, "."):
				what = "time.sleep"
			case !f.op(k-1, ".") && f.imports["sleep"] == "time":
				what = "sleep"
			case f.op(k-1, ".") && f.name(k-2) && f.is(k-3, pName, "await") && !(f.toks[k+2].kind == pNumber && strings.Trim(f.toks[k+2].text, "0.") == ""):
				what = "await " + f.toks[k-2].text + ".sleep"
			default:
				continue
			}
			seen[k] = true
			t := f.toks[k]
			out = append(out, check.Finding{Rule: ruleSleep, File: f.path, Line: t.line, Col: t.col,
				Message: what + "(...) in " + d.name + " waits a fixed time: slow when it passes, flaky when the machine is slower",
				Fix:     "wait for the condition (poll it with a timeout, an Event, a mock clock such as freezegun or time-machine)"})
		}
	}
	return out
}
