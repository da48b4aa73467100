package app_test

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
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
	// The package's files as the build sees them (build tags too), not
	// every file in the directory as parser.ParseDir did.
	pkg, err := build.ImportDir(filepath.Join("..", "service"), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range pkg.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(pkg.Dir, name), nil, 0)
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
