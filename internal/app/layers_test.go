package app_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/cairn-dev/cairn/"

// TestSurfacesDoNotImportStores: the surfaces speak to services only; only
// internal/app wires stores.
func TestSurfacesDoNotImportStores(t *testing.T) {
	for _, dir := range []string{"mcpserver", "cli", "httpserver", "bridge", "board"} {
		pkg, err := build.ImportDir(filepath.Join("..", dir), 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range pkg.Imports {
			if strings.HasPrefix(imp, module+"internal/store") {
				t.Errorf("internal/%s imports %s; surfaces call services, and only internal/app wires stores", dir, imp)
			}
		}
	}
}

// TestServiceSignaturesOwnTheirTypes: no exported service function or
// method takes or returns a store type, except the constructors that app
// uses to wire a store in.
func TestServiceSignaturesOwnTheirTypes(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, filepath.Join("..", "service"), func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		for _, f := range p.Files {
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
