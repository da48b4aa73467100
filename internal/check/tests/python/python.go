package python

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"

	"github.com/cairn-dev/cairn/internal/check"
)

// PyDef is a def or class statement, with its block.
type PyDef struct {
	Class      bool
	Name       string
	nameTok    int
	Line, Col  int
	Decorators [][2]int // each decorator's tokens, after the @
	params     [2]int
	bases      string // a class's bases as written
	body       [2]int
	Parent     *PyDef
	methods    map[string]*PyDef
}

// pyFile is a tokenized Python file read into its defs and classes.
type pyFile struct {
	path     string
	toks     []scan.Tok
	comments []scan.Comment
	Defs     []*PyDef          // every def and class, outermost first
	top      map[string]*PyDef // module-level functions by name
	Imports  map[string]string // local name -> module
	loops    [][2]int          // token ranges of for and while blocks
	memo     map[*PyDef]int
}

func (f *pyFile) is(i int, kind byte, text string) bool {
	return i >= 0 && i < len(f.toks) && f.toks[i].Kind == kind && f.toks[i].Text == text
}
func (f *pyFile) op(i int, text string) bool { return f.is(i, scan.POp, text) }
func (f *pyFile) name(i int) bool            { return i >= 0 && i < len(f.toks) && f.toks[i].Kind == scan.PName }

// ParsePython tokenizes and reads the structure of a Python file.
func ParsePython(path string, src []byte) (*pyFile, *scan.LexError) {
	toks, comments, err := scan.LexPython(src)
	if err != nil {
		return nil, err
	}
	f := &pyFile{path: path, toks: toks, comments: comments, top: map[string]*PyDef{}, Imports: map[string]string{}, memo: map[*PyDef]int{}}
	f.block(0, nil, 0)
	f.collectImports()
	return f, nil
}

// lineEnd is the index of the NEWLINE ending the logical line at i.
func (f *pyFile) lineEnd(i int) int {
	for i < len(f.toks) && f.toks[i].Kind != scan.PNewline {
		i++
	}
	return i
}

// block reads statements from i to the DEDENT closing the block (or the
// end), and returns the index after it.
func (f *pyFile) block(i int, parent *PyDef, depth int) int {
	var decos [][2]int
	for i < len(f.toks) {
		t := f.toks[i]
		switch t.Kind {
		case scan.PDedent:
			return i + 1
		case scan.PNewline:
			i++
			continue
		case scan.PIndent:
			if depth >= scan.MaxNesting {
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
		if f.is(j, scan.PName, "async") {
			j++
		}
		end := f.lineEnd(j)
		if (f.is(j, scan.PName, "def") || f.is(j, scan.PName, "class")) && f.name(j+1) && depth < scan.MaxNesting {
			d := &PyDef{Class: f.toks[j].Text == "class", Name: f.toks[j+1].Text, nameTok: j + 1,
				Line: f.toks[j+1].Line, Col: f.toks[j+1].Col, Decorators: decos, Parent: parent, methods: map[string]*PyDef{}}
			decos = nil
			colon := f.headerColon(j+2, end)
			if f.op(j+2, "(") {
				d.params = [2]int{j + 3, f.closer(j+2, end)}
				if d.Class {
					var b strings.Builder
					for k := d.params[0]; k < d.params[1]; k++ {
						b.WriteString(f.toks[k].Text)
					}
					d.bases = b.String()
				}
			}
			f.Defs = append(f.Defs, d)
			if parent == nil && !d.Class {
				f.top[d.Name] = d
			}
			if parent != nil && parent.Class && !d.Class {
				parent.methods[d.Name] = d
			}
			if colon+1 == end && end+1 < len(f.toks) && f.toks[end+1].Kind == scan.PIndent {
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
		if f.op(end-1, ":") && end+1 < len(f.toks) && f.toks[end+1].Kind == scan.PIndent && depth < scan.MaxNesting {
			after := f.block(end+2, parent, depth+1)
			if f.is(j, scan.PName, "for") || f.is(j, scan.PName, "while") {
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
		if !(i == 0 || f.toks[i-1].Kind == scan.PNewline || f.toks[i-1].Kind == scan.PIndent || f.toks[i-1].Kind == scan.PDedent) {
			continue
		}
		end := f.lineEnd(i)
		switch {
		case f.is(i, scan.PName, "from"):
			var mod strings.Builder
			k := i + 1
			for ; k < end && !f.is(k, scan.PName, "import"); k++ {
				mod.WriteString(f.toks[k].Text)
			}
			for k++; k < end; k++ {
				if f.name(k) && !f.is(k, scan.PName, "as") && !f.is(k+1, scan.PName, "as") {
					f.Imports[f.toks[k].Text] = mod.String()
				}
			}
		case f.is(i, scan.PName, "import"):
			for k := i + 1; k < end; k++ {
				if f.name(k) && !f.op(k-1, ".") && !f.is(k, scan.PName, "as") {
					var mod strings.Builder
					n := k
					for ; n < end && (f.name(n) || f.op(n, ".")) && !f.is(n, scan.PName, "as"); n++ {
						mod.WriteString(f.toks[n].Text)
					}
					local := f.toks[k].Text
					if f.is(n, scan.PName, "as") && f.name(n+1) {
						local = f.toks[n+1].Text
					}
					f.Imports[local] = mod.String()
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
		b.WriteString(f.toks[k].Text)
	}
	if f.op(k, "(") {
		return b.String(), k
	}
	return b.String(), -1
}

// isTestClass reports whether classes named and based like d are
// collected as tests by pytest or unittest.
func pyTestClass(d *PyDef) bool {
	return d.Class && (strings.HasPrefix(d.Name, "Test") || strings.Contains(d.bases, "TestCase") || strings.Contains(d.bases, "Test"))
}

// CheckPython checks one Python test file.
func CheckPython(file check.File) []check.Finding {
	f, err := ParsePython(file.Path, file.Content)
	if err != nil {
		return []check.Finding{scan.TokenSyntax(file.Path, err, "Python")}
	}
	var out []check.Finding
	for _, d := range f.Defs {
		switch {
		case d.Class && pyTestClass(d):
			out = append(out, f.decoratorFindings(d, "class")...)
		case !d.Class && strings.HasPrefix(d.Name, "test") && (d.Parent == nil || d.Parent.Class && pyTestClass(d.Parent)):
			out = append(out, f.decoratorFindings(d, "test")...)
			out = append(out, f.checkTest(d)...)
		}
	}
	out = append(out, f.sleeps()...)
	return out
}

func (f *pyFile) decoratorFindings(d *PyDef, what string) []check.Finding {
	var out []check.Finding
	for _, dec := range d.Decorators {
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
				case depth == 0 && f.is(k, scan.PName, "reason") && f.op(k+1, "="):
					reason = !(f.toks[k+2].Kind == scan.PString && f.toks[k+2].Text == "")
				}
			}
			firstString = f.toks[open+1].Kind == scan.PString && f.toks[open+1].Text != ""
		}
		unittestSkip := name == "unittest.skip" || name == "skip" && f.Imports["skip"] == "unittest"
		unittestSkipIf := name == "unittest.skipIf" || name == "unittest.skipUnless" ||
			(name == "skipIf" || name == "skipUnless") && f.Imports[name] == "unittest"
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
			out = append(out, check.Finding{Rule: scan.RuleFocused, File: f.path, Line: at.Line, Col: at.Col,
				Message: "the " + what + " " + d.Name + " is focused with @" + name + ": the rest of the suite does not run",
				Fix:     "remove @" + name + " before committing"})
		}
		if why != "" {
			out = append(out, check.Finding{Rule: scan.RuleSkipped, File: f.path, Line: at.Line, Col: at.Col,
				Message: "the " + what + " " + d.Name + " is skipped and " + why,
				Fix:     "give the reason: @pytest.mark.skip(reason=\"...\") or @unittest.skip(\"...\"), naming the issue or the condition to re-enable it"})
		}
	}
	return out
}

func (f *pyFile) checkTest(d *PyDef) []check.Finding {
	var out []check.Finding
	empty := true
	for k := d.body[0]; k < d.body[1]; k++ {
		t := f.toks[k]
		switch {
		case t.Kind == scan.PNewline || t.Kind == scan.PIndent || t.Kind == scan.PDedent:
		case t.Kind == scan.PName && t.Text == "pass", t.Kind == scan.POp && t.Text == "...":
		case t.Kind == scan.PString && k == d.body[0] || t.Kind == scan.PString && f.toks[k-1].Kind == scan.PIndent:
		default:
			empty = false
		}
	}
	for k := d.body[0]; k < d.body[1]; k++ {
		if (f.is(k, scan.PName, "skip") && f.op(k-1, ".") && f.is(k-2, scan.PName, "pytest") || f.is(k, scan.PName, "skipTest") && f.op(k-1, ".")) &&
			f.op(k+1, "(") && f.op(k+2, ")") {
			t := f.toks[k]
			out = append(out, check.Finding{Rule: scan.RuleSkipped, File: f.path, Line: t.Line, Col: t.Col,
				Message: "the test " + d.Name + " skips itself and gives no reason",
				Fix:     "pass the reason: pytest.skip(\"...\") / self.skipTest(\"...\")"})
		}
	}
	switch {
	case empty:
		out = append(out, check.Finding{Rule: scan.RuleEmpty, File: f.path, Line: d.Line, Col: d.Col,
			Message: "the test " + d.Name + " has an empty body: it passes without running anything",
			Fix:     "write the test, or mark it @pytest.mark.skip(reason=\"not written yet\")"})
	case !f.Asserts(d, 0) && !scan.SaysNoPanic(d.Name):
		out = append(out, check.Finding{Rule: scan.RuleNoAssertion, File: f.path, Line: d.Line, Col: d.Col,
			Message: "the test " + d.Name + " asserts nothing: it passes whatever the code does, unless it raises",
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

func (f *pyFile) Asserts(d *PyDef, depth int) bool {
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

func (f *pyFile) bodyAsserts(d *PyDef, depth int) bool {
	cls := d.Parent
	for k := d.body[0]; k < d.body[1]; k++ {
		t := f.toks[k]
		if t.Kind != scan.PName {
			continue
		}
		if t.Text == "assert" || t.Text == "raise" {
			return true
		}
		if !f.op(k+1, "(") {
			continue
		}
		for _, p := range pyAssertPrefixes {
			if strings.HasPrefix(t.Text, p) {
				return true
			}
		}
		if pyAssertNames[t.Text] {
			return true
		}
		if depth >= 8 {
			continue
		}
		if f.op(k-1, ".") && (f.is(k-2, scan.PName, "self") || f.is(k-2, scan.PName, "cls")) && cls != nil && cls.Class {
			if m, ok := cls.methods[t.Text]; ok {
				if f.Asserts(m, depth+1) {
					return true
				}
				continue
			}
			// inherited: from TestCase itself, or from a base of the
			// project's that may well assert
			if !unittestMethods[t.Text] && !onlyTestCaseBases(cls.bases) {
				return true
			}
			continue
		}
		if f.op(k-1, ".") {
			continue
		}
		if fn, ok := f.top[t.Text]; ok {
			if f.Asserts(fn, depth+1) {
				return true
			}
			continue
		}
		if mod, ok := f.Imports[t.Text]; ok && scan.HelperModule(mod) {
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
	inLoop := scan.Within(len(f.toks), f.loops)
	for _, d := range f.Defs {
		if d.Class || !(strings.HasPrefix(d.Name, "test") || d.Parent != nil && pyTestClass(d.Parent)) {
			continue
		}
		for k := d.body[0]; k < d.body[1]; k++ {
			if seen[k] || !f.is(k, scan.PName, "sleep") || !f.op(k+1, "(") || inLoop[k] {
				continue
			}
			var what string
			switch {
			case f.op(k-1, ".") && f.is(k-2, scan.PName, "time") && !f.op(k-3, "."):
				what = "time.sleep"
			case !f.op(k-1, ".") && f.Imports["sleep"] == "time":
				what = "sleep"
			case f.op(k-1, ".") && f.name(k-2) && f.is(k-3, scan.PName, "await") && !(f.toks[k+2].Kind == scan.PNumber && strings.Trim(f.toks[k+2].Text, "0.") == ""):
				what = "await " + f.toks[k-2].Text + ".sleep"
			default:
				continue
			}
			seen[k] = true
			t := f.toks[k]
			out = append(out, check.Finding{Rule: scan.RuleSleep, File: f.path, Line: t.Line, Col: t.Col,
				Message: what + "(...) in " + d.Name + " waits a fixed time: slow when it passes, flaky when the machine is slower",
				Fix:     "wait for the condition (poll it with a timeout, an Event, a mock clock such as freezegun or time-machine)"})
		}
	}
	return out
}
