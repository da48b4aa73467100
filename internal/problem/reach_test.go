package problem_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
)

// TestEveryKindAndActionIsUsed: the set is closed and has nothing dead in
// it. Every kind is constructed somewhere (the Kind of an Error literal,
// New's kind; a FieldError literal is Invalid), and every action is named
// somewhere, besides the surfaces' tables, which must name them all.
func TestEveryKindAndActionIsUsed(t *testing.T) {
	kinds, actions := map[string]bool{}, map[string]bool{}
	for k := range problem.Kind(problem.NumKinds) {
		kinds[constName(t, k.String(), kindConsts)] = false
	}
	for a := problem.NoAction + 1; a < problem.NumActions; a++ {
		actions[constName(t, a.String(), actionConsts)] = false
	}
	fset := token.NewFileSet()
	for _, root := range []string{"..", "../../cmd"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			uses(f, f.Name.Name == "problem", kinds, actions)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for name, used := range kinds {
		if !used {
			t.Errorf("nothing constructs an Error of kind %s", name)
		}
	}
	for name, used := range actions {
		if !used {
			t.Errorf("nothing names action %s", name)
		}
	}
}

// uses marks the kinds f constructs and the actions it names outside a
// table (a composite literal's keys). inProblem: f is package problem,
// which names its own identifiers bare.
func uses(f *ast.File, inProblem bool, kinds, actions map[string]bool) {
	name := func(e ast.Expr) string {
		switch x := e.(type) {
		case *ast.SelectorExpr:
			if id, ok := x.X.(*ast.Ident); ok && id.Name == "problem" && !inProblem {
				return x.Sel.Name
			}
		case *ast.Ident:
			if inProblem {
				return x.Name
			}
		}
		return ""
	}
	keys := map[ast.Expr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.ValueSpec:
			for _, id := range x.Names {
				keys[id] = true // a declaration is no use
			}
		case *ast.KeyValueExpr:
			keys[x.Key] = true
			if k, ok := x.Key.(*ast.Ident); ok && k.Name == "Kind" {
				if n := name(x.Value); n != "" {
					mark(kinds, n)
				}
			}
		case *ast.CompositeLit:
			if name(x.Type) == "FieldError" {
				kinds["Invalid"] = true
			}
		case *ast.CallExpr:
			if name(x.Fun) == "New" && len(x.Args) > 0 {
				mark(kinds, name(x.Args[0]))
			}
		case ast.Expr:
			if !keys[x] {
				mark(actions, name(x))
			}
		}
		return true
	})
}

func mark(m map[string]bool, name string) {
	if _, ok := m[name]; ok {
		m[name] = true
	}
}

var kindConsts, actionConsts = consts()

// consts maps each kind's and each action's neutral wording to the name
// of its constant, read from problem.go.
func consts() (kinds, actions map[string]string) {
	kinds, actions = map[string]string{}, map[string]string{}
	f, err := parser.ParseFile(token.NewFileSet(), "problem.go", nil, 0)
	if err != nil {
		panic(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			into := map[string]map[string]string{"kindNames": kinds, "actionWords": actions}[v.Names[0].Name]
			if into == nil || len(v.Values) != 1 {
				continue
			}
			for _, e := range v.Values[0].(*ast.CompositeLit).Elts {
				kv := e.(*ast.KeyValueExpr)
				lit := kv.Value.(*ast.BasicLit).Value
				into[lit[1:len(lit)-1]] = kv.Key.(*ast.Ident).Name
			}
		}
	}
	return kinds, actions
}

func constName(t *testing.T, words string, of map[string]string) string {
	t.Helper()
	n, ok := of[words]
	if !ok {
		t.Fatalf("no constant is worded %q in problem.go", words)
	}
	return n
}
