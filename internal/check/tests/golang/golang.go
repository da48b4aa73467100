package golang

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"

	"github.com/cairn-dev/cairn/internal/check"
)

// GoPkg is the test files of one Go package directory, parsed, with the
// functions they declare: the helpers a test may hand its *testing.T to.
type GoPkg struct {
	fset    *token.FileSet
	files   []*goFile
	funcs   map[string][]*ast.FuncDecl // by name; methods under their name too
	memo    map[*ast.FuncDecl]int
	Checked map[string]bool // the files findings are wanted for
}

type goFile struct {
	path    string
	ast     *ast.File
	testing string          // the name the testing package is imported as ("" if not)
	time    string          // the name the time package is imported as
	imports map[string]bool // the names packages are imported as
}

// parseGo parses a Go file; a syntax error is returned as a finding.
func parseGo(fset *token.FileSet, path string, src []byte, mode parser.Mode) (*ast.File, []check.Finding) {
	f, err := parser.ParseFile(fset, path, src, mode|parser.SkipObjectResolution)
	if err == nil {
		return f, nil
	}
	var out []check.Finding
	if list, ok := err.(scanner.ErrorList); ok {
		for i, e := range list {
			if i == 3 {
				break
			}
			out = append(out, check.Finding{Rule: scan.RuleSyntax, File: path, Line: e.Pos.Line, Col: e.Pos.Column,
				Message: "Go syntax error: " + e.Msg + "; the tests of this file were not checked",
				Fix:     "fix the syntax (gofmt -l shows it too)"})
		}
		return nil, out
	}
	return nil, []check.Finding{{Rule: scan.RuleSyntax, File: path, Line: 1, Message: "Go syntax error: " + err.Error(), Fix: "fix the syntax"}}
}

func importName(f *ast.File, path, def string) string {
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if p != path {
			continue
		}
		if im.Name != nil {
			return im.Name.Name
		}
		return def
	}
	return ""
}

func NewGoPkg() *GoPkg {
	return &GoPkg{fset: token.NewFileSet(), funcs: map[string][]*ast.FuncDecl{}, memo: map[*ast.FuncDecl]int{}, Checked: map[string]bool{}}
}

// Add parses a _test.go file into the package; findings only for syntax.
func (p *GoPkg) Add(file string, src []byte, checked bool) []check.Finding {
	f, errs := parseGo(p.fset, file, src, parser.ParseComments)
	if f == nil {
		if checked {
			return errs
		}
		return nil
	}
	gf := &goFile{path: file, ast: f, testing: importName(f, "testing", "testing"), time: importName(f, "time", "time"), imports: map[string]bool{}}
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := path.Base(p)
		if im.Name != nil {
			name = im.Name.Name
		} else if strings.HasPrefix(name, "v") && strings.Trim(name[1:], "0123456789") == "" {
			name = path.Base(path.Dir(p)) // a /v2 major version suffix
		}
		gf.imports[strings.ReplaceAll(name, "-", "_")] = true
	}
	p.files = append(p.files, gf)
	p.Checked[file] = checked
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			p.funcs[fd.Name.Name] = append(p.funcs[fd.Name.Name], fd)
		}
	}
	return nil
}

// testingParam reports whether a parameter type is one of the testing
// package's *T, *B, *F, TB (or T itself with a dot import), so that its
// name holds a test's handle.
func testingParam(gf *goFile, e ast.Expr) bool {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	switch t := e.(type) {
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		return ok && gf.testing != "" && x.Name == gf.testing && (t.Sel.Name == "T" || t.Sel.Name == "B" || t.Sel.Name == "F" || t.Sel.Name == "TB")
	case *ast.Ident:
		return gf.testing == "." && (t.Name == "T" || t.Name == "B" || t.Name == "F" || t.Name == "TB")
	}
	return false
}

// isTestFunc reports whether fd is a test go test runs: TestXxx(t *testing.T).
func isTestFunc(gf *goFile, fd *ast.FuncDecl) bool {
	if fd.Recv != nil || fd.Body == nil || fd.Type.TypeParams != nil || !strings.HasPrefix(fd.Name.Name, "Test") {
		return false
	}
	if rest := fd.Name.Name[4:]; rest != "" {
		r, _ := utf8.DecodeRuneInString(rest)
		if unicode.IsLower(r) {
			return false
		}
	}
	ps := fd.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) > 1 || fd.Type.Results != nil {
		return false
	}
	s, ok := ps[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	switch t := s.X.(type) {
	case *ast.SelectorExpr:
		x, ok := t.X.(*ast.Ident)
		return ok && gf.testing != "" && x.Name == gf.testing && t.Sel.Name == "T"
	case *ast.Ident:
		return gf.testing == "." && t.Name == "T"
	}
	return false
}

// tNames are the names in fd (its parameters and those of the function
// literals inside) that hold a testing handle.
func tNames(gf *goFile, fn *ast.FuncType, body *ast.BlockStmt) map[string]bool {
	names := map[string]bool{}
	addParams := func(ft *ast.FuncType) {
		if ft.Params == nil {
			return
		}
		for _, f := range ft.Params.List {
			if testingParam(gf, f.Type) {
				for _, n := range f.Names {
					if n.Name != "_" {
						names[n.Name] = true
					}
				}
			}
		}
	}
	addParams(fn)
	ast.Inspect(body, func(n ast.Node) bool {
		if fl, ok := n.(*ast.FuncLit); ok {
			addParams(fl.Type)
		}
		return true
	})
	return names
}

// goAssertMethods are the methods of *testing.T that fail or end a test.
var goAssertMethods = map[string]bool{"Error": true, "Errorf": true, "Fatal": true, "Fatalf": true, "Fail": true, "FailNow": true,
	"Skip": true, "Skipf": true, "SkipNow": true}

// goSafeMethods are the methods of *testing.T that neither assert nor let
// the handle escape.
var goSafeMethods = map[string]bool{"Helper": true, "Log": true, "Logf": true, "Parallel": true, "Name": true, "TempDir": true,
	"Setenv": true, "Chdir": true, "Deadline": true, "Context": true, "Failed": true, "Skipped": true, "Attr": true, "Output": true,
	"Cleanup": true, "Run": true, "ArtifactDir": true}

// gomegaCalls assert by name (Gomega, Ginkgo).
var gomegaCalls = map[string]bool{"Expect": true, "Ω": true, "Eventually": true, "Consistently": true, "ExpectWithOffset": true,
	"EventuallyWithOffset": true, "ConsistentlyWithOffset": true, "Fail": true}

// asserts reports whether fd can fail its test: a call of t.Error, Fatal,
// Fail or Skip; t handed to anything else (testify, a helper of the
// package that asserts, a subtest); panic or log.Fatal; a Gomega Expect.
func (p *GoPkg) asserts(gf *goFile, fd *ast.FuncDecl, depth int) bool {
	switch p.memo[fd] {
	case 1:
		return true
	case 2, 3:
		return false
	}
	p.memo[fd] = 3
	a := p.bodyAsserts(gf, fd.Type, fd.Body, depth)
	p.memo[fd] = map[bool]int{true: 1, false: 2}[a]
	return a
}

func (p *GoPkg) bodyAsserts(gf *goFile, ft *ast.FuncType, body *ast.BlockStmt, depth int) bool {
	names := tNames(gf, ft, body)
	found := false
	// calledOn marks the identifiers that are not an escape of the handle:
	// receivers of its methods, arguments followed into helpers, fields.
	calledOn := map[*ast.Ident]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.SelectorExpr:
			calledOn[n.Sel] = true // a field or method named t is not the handle
		case *ast.FuncLit:
			for _, f := range n.Type.Params.List {
				for _, id := range f.Names {
					calledOn[id] = true // a declaration, not a use
				}
			}
		case *ast.Ident:
			if names[n.Name] && !calledOn[n] {
				found = true // the handle escapes: stored, returned, captured into a struct
			}
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fun := call.Fun.(type) {
		case *ast.SelectorExpr:
			x, isIdent := fun.X.(*ast.Ident)
			if isIdent && names[x.Name] {
				calledOn[x] = true
				switch {
				case goAssertMethods[fun.Sel.Name], !goSafeMethods[fun.Sel.Name]:
					// a method of a wider interface than *testing.T: assume it may fail
					found = true
					return false
				case fun.Sel.Name == "Run" && len(call.Args) == 2:
					if _, lit := call.Args[1].(*ast.FuncLit); !lit && p.calleeAsserts(gf, call.Args[1], depth) {
						found = true
						return false
					}
				}
				return true
			}
			if isIdent && (x.Name == "log" && (strings.HasPrefix(fun.Sel.Name, "Fatal") || strings.HasPrefix(fun.Sel.Name, "Panic"))) {
				found = true
				return false
			}
			if gomegaCalls[fun.Sel.Name] {
				found = true
				return false
			}
		case *ast.Ident:
			if fun.Name == "panic" || gomegaCalls[fun.Name] {
				found = true
				return false
			}
		}
		// t handed to a function: a local helper is followed, anything else
		// (testify, quicktest, another package's helper) is taken to assert.
		for _, a := range call.Args {
			if id, ok := unparen(a).(*ast.Ident); ok && names[id.Name] {
				calledOn[id] = true
				if p.calleeAsserts(gf, call.Fun, depth) {
					found = true
					return false
				}
			}
		}
		return true
	})
	return found
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// calleeAsserts reports whether a call of fun can fail the test it is
// handed: a function of the package's tests is read; any other is assumed
// to (it is testify, or a helper this check cannot see).
func (p *GoPkg) calleeAsserts(gf *goFile, fun ast.Expr, depth int) bool {
	var name string
	switch f := unparen(fun).(type) {
	case *ast.Ident:
		name = f.Name
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && gf.imports[x.Name] {
			return true // another package's function: testify, quicktest, a shared helper
		}
		if decls := p.funcs[f.Sel.Name]; len(decls) > 0 && allMethods(decls) {
			name = f.Sel.Name // a method of the package's tests, by its name
		}
	case *ast.FuncLit:
		return depth < 8 && p.bodyAsserts(gf, f.Type, f.Body, depth+1)
	}
	decls := p.funcs[name]
	if name == "" || len(decls) == 0 || depth >= 8 {
		return true
	}
	for _, d := range decls {
		owner := p.fileOf(d)
		if owner == nil || p.asserts(owner, d, depth+1) {
			return true
		}
	}
	return false
}

func allMethods(ds []*ast.FuncDecl) bool {
	for _, d := range ds {
		if d.Recv == nil {
			return false
		}
	}
	return true
}

func (p *GoPkg) fileOf(fd *ast.FuncDecl) *goFile {
	for _, gf := range p.files {
		if gf.ast.Pos() <= fd.Pos() && fd.End() <= gf.ast.FileEnd {
			return gf
		}
	}
	return nil
}

// Check reports the findings of the package's checked files.
func (p *GoPkg) Check() []check.Finding {
	var out []check.Finding
	for _, gf := range p.files {
		if !p.Checked[gf.path] || gf.testing == "" {
			continue
		}
		for _, d := range gf.ast.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			test := isTestFunc(gf, fd)
			if !test && !hasTestingParam(gf, fd.Type) {
				continue
			}
			names := tNames(gf, fd.Type, fd.Body)
			out = append(out, p.goroutineFatal(gf, fd.Body, names)...)
			if test {
				out = append(out, p.checkTest(gf, fd, names)...)
				out = append(out, p.sleeps(gf, fd, names)...)
				out = append(out, p.setenvParallel(gf, fd.Type, fd.Body, false)...)
			}
		}
	}
	return out
}

func hasTestingParam(gf *goFile, ft *ast.FuncType) bool {
	for _, f := range ft.Params.List {
		if testingParam(gf, f.Type) {
			return true
		}
	}
	return false
}

func (p *GoPkg) pos(pos token.Pos) (int, int) {
	ps := p.fset.Position(pos)
	return ps.Line, ps.Column
}

func (p *GoPkg) finding(gf *goFile, rule string, pos token.Pos, msg, fix string) check.Finding {
	line, col := p.pos(pos)
	return check.Finding{Rule: rule, File: gf.path, Line: line, Col: col, Message: msg, Fix: fix}
}

func (p *GoPkg) checkTest(gf *goFile, fd *ast.FuncDecl, names map[string]bool) []check.Finding {
	var out []check.Finding
	name := fd.Name.Name
	if len(fd.Body.List) == 0 {
		return append(out, p.finding(gf, scan.RuleEmpty, fd.Name.Pos(), "the test "+name+" has an empty body: it passes without running anything",
			"write the test, or delete it; a placeholder is t.Skip(\"not written yet: <issue>\")"))
	}
	if !p.asserts(gf, fd, 0) && !scan.SaysNoPanic(name) {
		out = append(out, p.finding(gf, scan.RuleNoAssertion, fd.Name.Pos(), "the test "+name+" asserts nothing: it calls no t.Error, t.Fatal or assertion helper, so it passes unless it panics",
			"check the result and report with t.Errorf/t.Fatalf (or testify's assert/require); if only a panic matters, say so in the name"))
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || !names[x.Name] {
			return true
		}
		bare := sel.Sel.Name == "Skip" && (len(call.Args) == 0 || isEmptyString(call.Args[0])) ||
			sel.Sel.Name == "Skipf" && len(call.Args) > 0 && isEmptyString(call.Args[0]) ||
			sel.Sel.Name == "SkipNow"
		if bare {
			out = append(out, p.finding(gf, scan.RuleSkipped, call.Pos(), "the test "+name+" calls "+x.Name+"."+sel.Sel.Name+"() with no reason: go test -v prints SKIP and nothing about why",
				"use "+x.Name+".Skip(\"why, and when to re-enable\")"))
		}
		return true
	})
	return out
}

func isEmptyString(e ast.Expr) bool {
	b, ok := e.(*ast.BasicLit)
	return ok && b.Kind == token.STRING && (b.Value == `""` || b.Value == "``")
}

// sleeps finds time.Sleep in a test and its subtests, outside polling
// loops and outside other function literals (a fake reader that simulates
// latency, a goroutine).
func (p *GoPkg) sleeps(gf *goFile, fd *ast.FuncDecl, names map[string]bool) []check.Finding {
	if gf.time == "" {
		return nil
	}
	var out []check.Finding
	subtests := map[*ast.FuncLit]bool{}
	var walk func(n ast.Node, loop bool)
	walk = func(n ast.Node, loop bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch s := n.(type) {
			case *ast.ForStmt:
				walk(s.Body, true)
				return false
			case *ast.RangeStmt:
				walk(s.Body, true)
				return false
			case *ast.FuncLit:
				return subtests[s]
			case *ast.CallExpr:
				sel, ok := s.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				x, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				if names[x.Name] && sel.Sel.Name == "Run" && len(s.Args) == 2 {
					if lit, ok := s.Args[1].(*ast.FuncLit); ok {
						subtests[lit] = true
					}
				}
				if sel.Sel.Name == "Sleep" && !loop && x.Name == gf.time {
					out = append(out, p.finding(gf, scan.RuleSleep, s.Pos(), "the test "+fd.Name.Name+" calls time.Sleep to wait: slow when it passes, flaky when the machine is slower",
						"wait for the event itself (a channel, sync.WaitGroup, a poll with a deadline), or use testing/synctest's fake clock"))
				}
			}
			return true
		})
	}
	walk(fd.Body, false)
	return out
}

// goroutineFatal finds t.Fatal, FailNow and Skip called from a goroutine
// the test starts: they must run on the test's own goroutine.
func (p *GoPkg) goroutineFatal(gf *goFile, body *ast.BlockStmt, names map[string]bool) []check.Finding {
	var out []check.Finding
	ast.Inspect(body, func(n ast.Node) bool {
		g, ok := n.(*ast.GoStmt)
		if !ok {
			return true
		}
		lit, ok := g.Call.Fun.(*ast.FuncLit)
		if !ok {
			return true
		}
		inner := map[string]bool{}
		for _, f := range lit.Type.Params.List {
			for _, n := range f.Names {
				inner[n.Name] = true
			}
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if sel.Sel.Name == "Run" {
				return false // a subtest has a goroutine of its own
			}
			x, ok := sel.X.(*ast.Ident)
			if !ok || !names[x.Name] || inner[x.Name] {
				return true
			}
			switch sel.Sel.Name {
			case "Fatal", "Fatalf", "FailNow", "Skip", "Skipf", "SkipNow":
				out = append(out, p.finding(gf, scan.RuleGoroutineFatal, call.Pos(),
					x.Name+"."+sel.Sel.Name+" is called from a goroutine the test started: it stops that goroutine, not the test, which may pass or hang",
					"report with "+x.Name+".Error/Errorf from the goroutine (or send the error back on a channel) and call "+x.Name+".Fatal on the test's goroutine"))
			}
			return true
		})
		return false
	})
	return out
}

// setenvParallel finds t.Parallel and t.Setenv (or t.Chdir) in one test,
// or t.Setenv in a subtest of a parallel test: the testing package panics.
// Only unconditional calls (statements of the body itself) are read.
func (p *GoPkg) setenvParallel(gf *goFile, ft *ast.FuncType, body *ast.BlockStmt, parentParallel bool) []check.Finding {
	var out []check.Finding
	tname := ""
	for _, f := range ft.Params.List {
		if testingParam(gf, f.Type) && len(f.Names) == 1 {
			tname = f.Names[0].Name
		}
	}
	if tname == "" {
		return nil
	}
	parallel, setenv := parentParallel, ""
	for _, st := range body.List {
		es, ok := st.(*ast.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*ast.CallExpr)
		if !ok {
			continue
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			continue
		}
		x, ok := sel.X.(*ast.Ident)
		if !ok || x.Name != tname {
			continue
		}
		switch sel.Sel.Name {
		case "Parallel":
			if setenv != "" {
				out = append(out, p.finding(gf, scan.RuleSetenvParallel, call.Pos(), tname+".Parallel is called after "+tname+"."+setenv+" in the same test: the testing package panics",
					"drop "+tname+".Parallel from this test, or set the state another way than the process environment and working directory"))
			}
			parallel = true
		case "Setenv", "Chdir":
			if parallel {
				out = append(out, p.finding(gf, scan.RuleSetenvParallel, call.Pos(), tname+"."+sel.Sel.Name+" is called in a test that runs in parallel (it or its parent called Parallel): the testing package panics",
					"drop Parallel from this test and its parents, or pass the value in another way than the process environment"))
			}
			setenv = sel.Sel.Name
		case "Run":
			if len(call.Args) == 2 {
				if lit, ok := call.Args[1].(*ast.FuncLit); ok {
					out = append(out, p.setenvParallel(gf, lit.Type, lit.Body, parallel)...)
				}
			}
		}
	}
	return out
}
