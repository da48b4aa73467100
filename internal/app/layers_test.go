package app_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/cairn-dev/cairn/"

// The layers, by package under internal/. Data flows one way: hosts and
// surfaces → services → store; the domain below everything. Only
// internal/app wires stores.
var (
	// surfaces are what people and agents reach: each decodes, calls a
	// service and renders. None knows another.
	surfaces = []string{"mcpserver", "cli", "bridge", "board"}
	// hosts serve surfaces over a transport: they may wire surfaces, but
	// no surface may reach them.
	hosts = []string{"httpserver", "serve"}
	// domain packages are pure: no store, no service, no surface.
	domain = []string{"task", "loop", "lifecycle", "memory", "redact", "lazyre", "problem", "agent", "words", "tokens", "usage"}
)

// packages lists the product packages under dir (relative to the module
// root): every directory with Go files, test harnesses and testdata left
// out.
func packages(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join("..", "..", dir), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if d.Name() == "testdata" || strings.HasSuffix(filepath.ToSlash(p), "internal/testing") {
			return filepath.SkipDir
		}
		if pkg, err := build.ImportDir(p, 0); err == nil && len(pkg.GoFiles) > 0 {
			rel, _ := filepath.Rel(filepath.Join("..", ".."), p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func imports(t *testing.T, pkg string) []string {
	t.Helper()
	p, err := build.ImportDir(filepath.Join("..", "..", pkg), 0)
	if err != nil {
		t.Fatal(err)
	}
	return p.Imports
}

// under reports whether import path imp is pkg (under internal/) or inside it.
func under(imp, pkg string) bool {
	p := module + "internal/" + pkg
	return imp == p || strings.HasPrefix(imp, p+"/")
}

// TestLayers: the import rules between the layers, on every product
// package.
func TestLayers(t *testing.T) {
	for _, pkg := range packages(t, "internal") {
		name := strings.TrimPrefix(pkg, "internal/")
		top, _, _ := strings.Cut(name, "/")
		for _, imp := range imports(t, pkg) {
			switch {
			case under(imp, "testing"):
				t.Errorf("%s imports %s: product code never imports a test harness", pkg, imp)
			case slices.Contains(surfaces, top) || slices.Contains(hosts, top):
				if under(imp, "store") {
					t.Errorf("%s imports %s; surfaces and hosts call services, and only internal/app wires stores", pkg, imp)
				}
				if slices.Contains(hosts, top) {
					break // a host wires surfaces (and the HTTP host)
				}
				for _, other := range append(slices.Clone(surfaces), hosts...) {
					if other != top && under(imp, other) {
						t.Errorf("%s imports %s: a surface never imports another surface or a host", pkg, imp)
					}
				}
			case slices.Contains(domain, top):
				for _, layer := range append(append([]string{"store", "service", "app"}, surfaces...), hosts...) {
					if under(imp, layer) {
						t.Errorf("%s imports %s: the domain is pure", pkg, imp)
					}
				}
			case top == "service" || top == "store":
				for _, layer := range append(append([]string{"app"}, surfaces...), hosts...) {
					if under(imp, layer) {
						t.Errorf("%s imports %s: nothing below knows what is above", pkg, imp)
					}
				}
			}
		}
	}
}

// TestServiceSignaturesOwnTheirTypes: no exported function or method of a
// service takes or returns a store type, except the constructors that wire
// a store in. The services' shared rules in internal/service/internal,
// which no surface can import, work on transactions.
func TestServiceSignaturesOwnTheirTypes(t *testing.T) {
	for _, pkg := range packages(t, "internal/service") {
		if strings.Contains(pkg, "/internal/") {
			continue
		}
		dir := filepath.Join("..", "..", pkg)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || !fd.Name.IsExported() || strings.HasPrefix(fd.Name.Name, "New") {
					continue
				}
				if fd.Recv != nil && !ast.IsExported(recvName(fd.Recv)) {
					continue
				}
				ast.Inspect(fd.Type, func(n ast.Node) bool {
					if sel, ok := n.(*ast.SelectorExpr); ok {
						if x, ok := sel.X.(*ast.Ident); ok && x.Name == "store" {
							t.Errorf("%s: %s takes or returns store.%s; give the service a type of its own", fset.Position(fd.Pos()), fd.Name.Name, sel.Sel.Name)
						}
					}
					return true
				})
			}
		}
	}
}

func recvName(fl *ast.FieldList) string {
	t := fl.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
