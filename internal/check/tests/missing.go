package testcheck

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/tests/brace"
	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"
	"github.com/cairn-dev/cairn/internal/check/tests/python"

	"github.com/cairn-dev/cairn/internal/check"
)

// maxRefFiles caps the test files read to see what they reference, per
// language: a project larger than that gets a note and fewer findings.
const maxRefFiles = 4000

type missingResult struct {
	findings []check.Finding
	notes    []string
}

// testIndex is what the project's test files say, built on first need.
type testIndex struct {
	src       check.Source
	all       []string
	tests     map[lang][]string
	stems     map[lang]map[string]bool
	goIdents  map[string]map[string]bool // dir -> identifiers its _test.go files use
	jsImports map[string]bool            // module paths (no extension) JS tests import, resolved
	jsAlias   []string                   // non-relative import paths, for suffix matches
	pyImports map[string]bool            // dotted module names Python tests import
	javaIdent map[string]bool            // identifiers Java tests use
	capped    map[lang]bool
}

func newTestIndex(src check.Source) (*testIndex, error) {
	all, err := src.Files("")
	if err != nil {
		return nil, err
	}
	x := &testIndex{src: src, all: all, tests: map[lang][]string{}, stems: map[lang]map[string]bool{}, capped: map[lang]bool{}}
	for _, p := range all {
		l, test, ok := classify(p)
		if !ok || !test {
			continue
		}
		x.tests[l] = append(x.tests[l], p)
		if x.stems[l] == nil {
			x.stems[l] = map[string]bool{}
		}
		x.stems[l][testStem(l, p)] = true
	}
	return x, nil
}

// testStem is the name of what a test file tests: foo for foo_test.go,
// foo.test.ts, __tests__/foo.ts, test_foo.py, FooTest.java.
func testStem(l lang, p string) string {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	switch l {
	case langGo:
		return strings.TrimSuffix(stem, "_test")
	case langJS:
		for _, s := range []string{".test", ".spec", ".cy", ".e2e", "_test", "-test", "_spec", "-spec"} {
			if i := strings.Index(stem, s); i > 0 {
				return stem[:i]
			}
		}
		return stem
	case langPython:
		return strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(stem, "tests_"), "test_"), "_test")
	case langJava:
		for _, s := range []string{"Tests", "Test", "IT", "TestCase"} {
			if strings.HasSuffix(stem, s) && len(stem) > len(s) {
				return strings.TrimSuffix(stem, s)
			}
		}
		return strings.TrimPrefix(stem, "Test")
	}
	return stem
}

// read reads the test files of l (up to the cap) for what they reference.
func (x *testIndex) read(ctx context.Context, l lang, each func(p string, b []byte)) error {
	for i, p := range x.tests[l] {
		if i == maxRefFiles {
			x.capped[l] = true
			break
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if b, err := x.src.ReadFile(p); err == nil {
			each(p, b)
		}
	}
	return nil
}

var generatedRE = check.LazyRegexp(`(?m)^(//|#|/\*|\s\*)\s*(Code generated .* DO NOT EDIT|@generated|This file is auto-?generated|Auto-?generated|DO NOT EDIT)`)

func generated(b []byte) bool {
	return generatedRE().Match(b[:min(len(b), 2048)])
}

// noTestDirs hold source that is not expected to have tests of its own.
var noTestDirs = map[string]bool{"examples": true, "example": true, "docs": true, "scripts": true, "script": true, "bin": true,
	"migrations": true, "tools": true, "benchmarks": true, "bench": true, "stories": true, ".storybook": true, "public": true,
	"static": true, "assets": true, "mocks": true, "types": true, "@types": true, "typings": true, "generated": true, "gen": true}

func missingTests(ctx context.Context, src check.Source, sources []check.File) (missingResult, error) {
	var res missingResult
	x, err := newTestIndex(src)
	if err != nil {
		return res, err
	}
	noted := map[lang]bool{}
	for _, f := range sources {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		l, _, _ := classify(f.Path)
		dirs := strings.Split(path.Dir(f.Path), "/")
		if l == "" || generated(f.Content) || slicesAny(dirs, noTestDirs) || slicesAny(dirs, testDirs) {
			// not source a test is expected for: examples, scripts, the
			// tests' own support files
			continue
		}
		if len(x.tests[l]) == 0 {
			if !noted[l] {
				noted[l] = true
				res.notes = append(res.notes, "the project has no "+string(l)+" test files; tests/missing-tests is not reported file by file for "+string(l))
			}
			continue
		}
		var fd *check.Finding
		switch l {
		case langGo:
			fd = x.missingGo(f)
		case langJS:
			fd = x.missingJS(ctx, f)
		case langPython:
			fd = x.missingPython(ctx, f)
		case langJava:
			fd = x.missingJava(ctx, f)
		}
		if fd != nil {
			res.findings = append(res.findings, *fd)
		}
	}
	for l := range x.capped {
		res.notes = append(res.notes, "tests/missing-tests read only the first "+scan.Itoa(maxRefFiles)+" "+string(l)+" test files for what they reference")
	}
	return res, nil
}

func slicesAny(dirs []string, set map[string]bool) bool {
	for _, d := range dirs {
		if set[d] {
			return true
		}
	}
	return false
}

func missingFinding(p string, line, col int, what, expect string) *check.Finding {
	return &check.Finding{Rule: scan.RuleMissing, File: p, Line: line, Col: col,
		Message: path.Base(p) + " " + what + " and has no test: " + expect,
		Fix:     "add " + expect + " (or ignore tests/missing-tests for this path if it is tested another way)"}
}

func nameList(names []string) string {
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + " and " + scan.Itoa(len(names)-3) + " more"
	}
	return strings.Join(names, ", ")
}

// missingGo: foo.go with exported functions, no foo_test.go, and no test
// file of its directory that uses a name it declares.
func (x *testIndex) missingGo(f check.File) *check.Finding {
	fset := token.NewFileSet()
	af, err := parser.ParseFile(fset, f.Path, f.Content, parser.SkipObjectResolution|parser.ParseComments)
	if err != nil || (af.Name.Name == "main" && path.Base(f.Path) == "main.go") || goIgnored(af) {
		return nil
	}
	var exported, declared []string
	var first token.Pos
	for _, d := range af.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			declared = append(declared, d.Name.Name)
			if d.Body != nil && d.Name.IsExported() && d.Name.Name != "String" && d.Name.Name != "Error" {
				exported = append(exported, d.Name.Name)
				if first == 0 {
					first = d.Name.Pos()
				}
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if ts, ok := s.(*ast.TypeSpec); ok {
					declared = append(declared, ts.Name.Name)
				}
			}
		}
	}
	if len(exported) == 0 {
		return nil // type-only, or nothing exported
	}
	dir := path.Dir(f.Path)
	stem := strings.TrimSuffix(path.Base(f.Path), ".go")
	if x.src.Exists(path.Join(dir, stem+"_test.go")) {
		return nil
	}
	idents := x.goDirIdents(dir)
	for _, n := range declared {
		if idents[n] {
			return nil
		}
	}
	pos := fset.Position(first)
	return missingFinding(f.Path, pos.Line, pos.Column, "declares "+nameList(exported),
		stem+"_test.go, or a test in "+dir+"/ that uses them")
}

// goIgnored reports a //go:build ignore file.
func goIgnored(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

func (x *testIndex) goDirIdents(dir string) map[string]bool {
	if x.goIdents == nil {
		x.goIdents = map[string]map[string]bool{}
	}
	if m, ok := x.goIdents[dir]; ok {
		return m
	}
	m := map[string]bool{}
	for _, p := range x.tests[langGo] {
		if path.Dir(p) != dir {
			continue
		}
		b, err := x.src.ReadFile(p)
		if err != nil {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), p, b, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		ast.Inspect(af, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				m[id.Name] = true
			}
			return true
		})
	}
	x.goIdents[dir] = m
	return m
}

// jsConfigName matches configuration files, which have no tests.
var jsConfigName = check.LazyRegexp(`(^|[./-])(config|conf|rc|setup|setupTests|stories|story|mock|mocks|fixture|fixtures|d|vite-env|env|polyfills?|types?|constants?|index)$`)

// missingJS: src/foo.ts with exported functions or classes, no test file
// named for it, and no test file importing it.
func (x *testIndex) missingJS(ctx context.Context, f check.File) *check.Finding {
	base := path.Base(f.Path)
	stem := strings.TrimSuffix(base, path.Ext(base))
	if jsConfigName().MatchString(stem) || strings.HasPrefix(base, ".") || strings.HasSuffix(stem, ".config") {
		return nil
	}
	toks, _, err := scan.LexJS(f.Content, path.Ext(base) != ".ts" && path.Ext(base) != ".mts" && path.Ext(base) != ".cts")
	if err != nil {
		return nil
	}
	match, err := brace.JSMatch(toks)
	if err != nil {
		return nil
	}
	jf := &brace.JSFile{Toks: toks, Match: match}
	names, line, col := jf.ExportedCode()
	if len(names) == 0 {
		return nil // type-only, a barrel, or nothing exported
	}
	if x.stems[langJS][stem] {
		return nil
	}
	if x.jsImports == nil {
		x.jsImports = map[string]bool{}
		_ = x.read(ctx, langJS, func(p string, b []byte) {
			ts, _, err := scan.LexJS(b, !strings.HasSuffix(p, ".ts"))
			if err != nil {
				return
			}
			for i, t := range ts {
				if t.Kind != scan.TString || i == 0 {
					continue
				}
				prev := ts[i-1]
				if !(prev.Kind == scan.TIdent && (prev.Text == "from" || prev.Text == "import") ||
					prev.Kind == scan.TPunct && prev.Text == "(" && i >= 2 && ts[i-2].Kind == scan.TIdent &&
						(ts[i-2].Text == "require" || ts[i-2].Text == "import" || ts[i-2].Text == "mock" || ts[i-2].Text == "doMock")) {
					continue
				}
				spec := t.Text
				if strings.HasPrefix(spec, ".") {
					x.jsImports[stripJSExt(path.Join(path.Dir(p), spec))] = true
				} else {
					x.jsAlias = append(x.jsAlias, stripJSExt(spec))
				}
			}
		})
	}
	mod := stripJSExt(f.Path)
	if x.jsImports[mod] {
		return nil
	}
	for _, a := range x.jsAlias {
		if _, rest, ok := strings.Cut(strings.TrimPrefix(a, "@"), "/"); ok && rest != "" && (strings.HasSuffix(mod, "/"+rest) || mod == rest) {
			return nil
		}
	}
	ext := path.Ext(base)
	return missingFinding(f.Path, line, col, "exports "+nameList(names),
		stem+".test"+ext+" (or "+stem+".spec"+ext+", __tests__/"+stem+ext+"), or a test that imports it")
}

func stripJSExt(p string) string {
	if jsExts[path.Ext(p)] {
		return strings.TrimSuffix(p, path.Ext(p))
	}
	return p
}

// missingPython: pkg/foo.py with public functions or classes, no
// test_foo.py or foo_test.py, and no test importing it.
func (x *testIndex) missingPython(ctx context.Context, f check.File) *check.Finding {
	base := path.Base(f.Path)
	stem := strings.TrimSuffix(base, ".py")
	if strings.HasPrefix(base, "_") || base == "setup.py" || base == "conftest.py" || base == "manage.py" || base == "noxfile.py" ||
		base == "settings.py" || base == "wsgi.py" || base == "asgi.py" || base == "conf.py" || base == "version.py" {
		return nil
	}
	pf, err := python.ParsePython(f.Path, f.Content)
	if err != nil {
		return nil
	}
	var names []string
	line, col := 0, 0
	withDefs := map[*python.PyDef]bool{}
	for _, d := range pf.Defs {
		if d.Parent != nil && !d.Class && (!strings.HasPrefix(d.Name, "_") || d.Name == "__init__" || d.Name == "__call__") {
			withDefs[d.Parent] = true
		}
	}
	for _, d := range pf.Defs {
		if d.Parent != nil || strings.HasPrefix(d.Name, "_") {
			continue
		}
		if d.Class && !withDefs[d] {
			continue // a data class, an enum, a protocol
		}
		if line == 0 {
			line, col = d.Line, d.Col
		}
		if !slices.Contains(names, d.Name) { // @overload repeats a def
			names = append(names, d.Name)
		}
	}
	if len(names) == 0 || x.stems[langPython][stem] {
		return nil
	}
	if x.pyImports == nil {
		x.pyImports = map[string]bool{}
		_ = x.read(ctx, langPython, func(p string, b []byte) {
			tf, err := python.ParsePython(p, b)
			if err != nil {
				return
			}
			pkg := strings.ReplaceAll(path.Dir(p), "/", ".")
			for local, mod := range tf.Imports {
				if strings.HasPrefix(mod, ".") { // relative to the test's package
					up := len(mod) - len(strings.TrimLeft(mod, "."))
					base := pkg
					for range up - 1 {
						if i := strings.LastIndex(base, "."); i >= 0 {
							base = base[:i]
						} else {
							base = ""
						}
					}
					mod = strings.Trim(base+"."+strings.TrimLeft(mod, "."), ".")
				}
				x.pyImports[mod] = true
				x.pyImports[strings.Trim(mod+"."+local, ".")] = true
			}
		})
	}
	module := strings.ReplaceAll(strings.TrimSuffix(f.Path, ".py"), "/", ".")
	for imp := range x.pyImports {
		if imp == module || strings.HasSuffix(module, "."+imp) || strings.HasSuffix(imp, "."+module) {
			return nil
		}
	}
	return missingFinding(f.Path, line, col, "defines "+nameList(names), "test_"+stem+".py (or "+stem+"_test.py), or a test that imports it")
}

// missingJava: Foo.java declaring a class with a method, no FooTest,
// FooTests, TestFoo or FooIT, and no test naming Foo.
func (x *testIndex) missingJava(ctx context.Context, f check.File) *check.Finding {
	base := path.Base(f.Path)
	stem := strings.TrimSuffix(base, ".java")
	if base == "package-info.java" || base == "module-info.java" {
		return nil
	}
	toks, _, err := scan.LexJava(f.Content)
	if err != nil {
		return nil
	}
	match, err := brace.JSMatch(toks)
	if err != nil {
		return nil
	}
	jf := &brace.JavaFile{JSFile: brace.JSFile{Toks: toks, Match: match}, Methods: map[string][][2]int{}}
	isClass := false
	line, col := 0, 0
	for i := range toks {
		if jf.Is(i, scan.TIdent, "class") && jf.Is(i+1, scan.TIdent, stem) && !jf.Is(i-1, scan.TIdent, "abstract") {
			isClass = true
			line, col = toks[i+1].Line, toks[i+1].Col
			break
		}
	}
	if !isClass {
		return nil // an interface, an enum, a record, an annotation
	}
	jf.Scan()
	methods := 0
	for name := range jf.Methods {
		if name != stem && name != "main" {
			methods++
		}
	}
	if methods == 0 || x.stems[langJava][stem] {
		return nil
	}
	if x.javaIdent == nil {
		x.javaIdent = map[string]bool{}
		_ = x.read(ctx, langJava, func(p string, b []byte) {
			ts, _, err := scan.LexJava(b)
			if err != nil {
				return
			}
			for _, t := range ts {
				if t.Kind == scan.TIdent {
					x.javaIdent[t.Text] = true
				}
			}
		})
	}
	if x.javaIdent[stem] {
		return nil
	}
	return missingFinding(f.Path, line, col, "declares the class "+stem, stem+"Test.java under src/test/java, or a test that uses "+stem)
}
