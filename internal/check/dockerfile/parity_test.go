package dockerfile

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
)

// moduleDir is the directory of a module of go.mod in the module cache;
// the test is skipped without it (and fails under CI, which has it).
func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		msg := fmt.Sprintf("module %s is not in the module cache: %v", mod, err)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dir
}

// lintCase is one Dockerfile of BuildKit's own `docker build --check`
// tests, with the warnings BuildKit expects.
type lintCase struct {
	name         string // test function and index
	dockerfile   string
	dockerignore string
	check        string // BUILDKIT_DOCKERFILE_CHECK given as a build arg
	buildErr     bool   // BuildKit expects the build to fail
	want         []ruleLine
}

// ruleLine is a warning: BuildKit's rule name, its message (detail) and
// its line. line 0 and detail "" match any.
type ruleLine struct {
	rule   string
	detail string
	line   int
}

func (r ruleLine) String() string { return fmt.Sprintf("%s@%d %q", r.rule, r.line, r.detail) }

// matches reports whether a warning found (got) is the one expected (r).
func (r ruleLine) matches(got ruleLine) bool {
	return r.rule == got.rule && (r.line == 0 || r.line == got.line) &&
		(r.detail == "" || strings.TrimSuffix(r.detail, ".") == strings.TrimSuffix(got.detail, "."))
}

// readLintCases reads the cases of BuildKit's dockerfile_check_test.go:
// each call of checkLinterWarnings whose Dockerfile, .dockerignore and
// expected warnings are constants (string literals, fmt.Sprintf of them,
// the Unix side of UnixOrWindows). Cases that pass other build args or a
// context of their own are left out, and counted.
func readLintCases(t *testing.T, file string) (cases []lintCase, skipped int) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || !strings.HasPrefix(fn.Name.Name, "test") || fn.Body == nil {
			continue
		}
		e := &evaluator{vals: map[string]string{}, helpers: map[string]helper{}}
		n := 0
		ast.Inspect(fn.Body, func(node ast.Node) bool {
			switch x := node.(type) {
			case *ast.AssignStmt:
				e.assign(x)
			case *ast.CallExpr:
				if id, ok := x.Fun.(*ast.Ident); ok && id.Name == "checkLinterWarnings" && len(x.Args) == 3 {
					n++
					c, ok := e.lintCase(x.Args[2])
					if !ok {
						skipped++
						return true
					}
					c.name = fmt.Sprintf("%s#%d", fn.Name.Name, n)
					cases = append(cases, c)
				}
			}
			return true
		})
	}
	return cases, skipped
}

// helper is a func literal of the test that builds a warning: its rule
// and which argument is the line.
type helper struct {
	rule    string
	lineArg int
}

type evaluator struct {
	vals    map[string]string
	helpers map[string]helper
}

func (e *evaluator) assign(x *ast.AssignStmt) {
	if len(x.Lhs) != 1 || len(x.Rhs) != 1 {
		return
	}
	id, ok := x.Lhs[0].(*ast.Ident)
	if !ok {
		return
	}
	if fl, ok := x.Rhs[0].(*ast.FuncLit); ok {
		if h, ok := e.helper(fl); ok {
			e.helpers[id.Name] = h
		}
		return
	}
	if v, ok := e.str(x.Rhs[0]); ok {
		e.vals[id.Name] = v
	} else {
		delete(e.vals, id.Name)
	}
}

// helper reads a func literal returning expectedLintWarning{RuleName: "X",
// Line: param}.
func (e *evaluator) helper(fl *ast.FuncLit) (helper, bool) {
	var params []string
	for _, f := range fl.Type.Params.List {
		for _, n := range f.Names {
			params = append(params, n.Name)
		}
	}
	var h helper
	found := false
	ast.Inspect(fl.Body, func(n ast.Node) bool {
		cl, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		for _, el := range cl.Elts {
			kv, ok := el.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			switch kv.Key.(*ast.Ident).Name {
			case "RuleName":
				if v, ok := e.str(kv.Value); ok {
					h.rule, found = v, true
				}
			case "Line":
				if id, ok := kv.Value.(*ast.Ident); ok {
					h.lineArg = slices.Index(params, id.Name)
				}
			}
		}
		return true
	})
	return h, found && h.lineArg >= 0
}

// str evaluates a constant string expression.
func (e *evaluator) str(x ast.Expr) (string, bool) {
	switch v := x.(type) {
	case *ast.BasicLit:
		if v.Kind == token.STRING {
			s, err := strconv.Unquote(v.Value)
			return s, err == nil
		}
	case *ast.Ident:
		s, ok := e.vals[v.Name]
		return s, ok
	case *ast.ParenExpr:
		return e.str(v.X)
	case *ast.CallExpr:
		switch fun := v.Fun.(type) {
		case *ast.ArrayType: // []byte(...)
			if len(v.Args) == 1 {
				return e.str(v.Args[0])
			}
		case *ast.SelectorExpr:
			pkg, _ := fun.X.(*ast.Ident)
			if pkg == nil {
				return "", false
			}
			args := v.Args
			switch pkg.Name + "." + fun.Sel.Name {
			case "integration.UnixOrWindows":
				if len(args) == 2 {
					return e.str(args[0])
				}
			case "fmt.Appendf":
				if len(args) >= 2 {
					return e.sprintf(args[1:])
				}
			case "fmt.Sprintf":
				return e.sprintf(args)
			}
		}
	}
	return "", false
}

func (e *evaluator) sprintf(args []ast.Expr) (string, bool) {
	if len(args) == 0 {
		return "", false
	}
	format, ok := e.str(args[0])
	if !ok {
		return "", false
	}
	var vals []any
	for _, a := range args[1:] {
		v, ok := e.str(a)
		if !ok {
			return "", false
		}
		vals = append(vals, v)
	}
	return fmt.Sprintf(format, vals...), true
}

func (e *evaluator) lintCase(x ast.Expr) (lintCase, bool) {
	var c lintCase
	u, ok := x.(*ast.UnaryExpr)
	if !ok {
		return c, false
	}
	cl, ok := u.X.(*ast.CompositeLit)
	if !ok {
		return c, false
	}
	haveDockerfile, unmarshal := false, false
	for _, el := range cl.Elts {
		kv := el.(*ast.KeyValueExpr)
		switch kv.Key.(*ast.Ident).Name {
		case "Dockerfile":
			c.dockerfile, haveDockerfile = e.str(kv.Value)
		case "DockerIgnore":
			if c.dockerignore, ok = e.str(kv.Value); !ok {
				return c, false
			}
		case "Warnings", "UnmarshalWarnings":
			// docker build --check is BuildKit's lint subrequest, whose
			// warnings are UnmarshalWarnings when given (all stages);
			// their lines are not checked by BuildKit's test, so not here.
			if unmarshal {
				continue
			}
			ws, ok := e.warnings(kv.Value)
			if !ok {
				return c, false
			}
			if kv.Key.(*ast.Ident).Name == "UnmarshalWarnings" {
				unmarshal = true
				for i := range ws {
					ws[i].line = 0
				}
			}
			c.want = ws
		case "BuildErr", "StreamBuildErrRegexp":
			// A failure that is only the lint's own (check=error=true) is
			// no build error.
			msg, _ := e.str(kv.Value)
			if call, ok := kv.Value.(*ast.CallExpr); ok && len(call.Args) == 1 {
				msg, _ = e.str(call.Args[0])
			}
			c.buildErr = !strings.Contains(msg, "lint violation")
		case "FrontendAttrs":
			m, ok := kv.Value.(*ast.CompositeLit)
			if !ok || len(m.Elts) != 1 {
				return c, false
			}
			attr := m.Elts[0].(*ast.KeyValueExpr)
			k, _ := e.str(attr.Key)
			v, ok := e.str(attr.Value)
			if k != "build-arg:BUILDKIT_DOCKERFILE_CHECK" || !ok {
				return c, false
			}
			c.check = v
		case "TmpDir", "Client":
			return c, false
		}
	}
	return c, haveDockerfile
}

func (e *evaluator) warnings(x ast.Expr) ([]ruleLine, bool) {
	cl, ok := x.(*ast.CompositeLit)
	if !ok {
		return nil, false
	}
	var out []ruleLine
	for _, el := range cl.Elts {
		switch w := el.(type) {
		case *ast.CompositeLit:
			var r ruleLine
			for _, f := range w.Elts {
				kv := f.(*ast.KeyValueExpr)
				switch kv.Key.(*ast.Ident).Name {
				case "RuleName":
					r.rule, _ = e.str(kv.Value)
				case "Detail":
					r.detail, _ = e.str(kv.Value)
				case "Line":
					lit, ok := kv.Value.(*ast.BasicLit)
					if !ok {
						return nil, false
					}
					r.line, _ = strconv.Atoi(lit.Value)
				}
			}
			out = append(out, r)
		case *ast.CallExpr:
			id, ok := w.Fun.(*ast.Ident)
			h, known := e.helpers[id.Name]
			if !ok || !known || h.lineArg >= len(w.Args) {
				return nil, false
			}
			lit, ok := w.Args[h.lineArg].(*ast.BasicLit)
			if !ok {
				return nil, false
			}
			line, _ := strconv.Atoi(lit.Value)
			out = append(out, ruleLine{rule: h.rule, line: line})
		default:
			return nil, false
		}
	}
	return out, true
}

// unjudged are BuildKit rules this checker cannot report, with why.
var unjudged = map[string]string{
	"InvalidBaseImagePlatform": "needs the base image's config from a registry",
}

// TestBuildKitCheckParity runs the checker over the Dockerfiles of
// BuildKit's own `docker build --check` tests (read from the module cache
// at test time, not copied) and compares the BuildKit rules it reports,
// by rule and line, with the warnings BuildKit's tests expect.
func TestBuildKitCheckParity(t *testing.T) {
	dir := moduleDir(t, "github.com/moby/buildkit")
	cases, skipped := readLintCases(t, filepath.Join(dir, "frontend", "dockerfile", "dockerfile_check_test.go"))
	if len(cases) < 50 {
		t.Fatalf("read only %d cases from BuildKit's check tests", len(cases))
	}
	var expected, found, extra, errCases, errCaught int
	for _, c := range cases {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, "Dockerfile"), []byte(c.dockerfile), 0o644); err != nil {
			t.Fatal(err)
		}
		if c.dockerignore != "" {
			if err := os.WriteFile(filepath.Join(root, ".dockerignore"), []byte(c.dockerignore), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		params := map[string]string{}
		if c.check != "" {
			params["check"] = c.check
		}
		rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root,
			Params: map[string]map[string]string{"dockerfile": params}})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []ruleLine
		hasErr := false
		for _, f := range rep.Findings {
			if f.Severity == check.Error {
				hasErr = true
			}
			if name := buildkitName(f.Rule); name != "" {
				got = append(got, ruleLine{name, f.Message, f.Line})
			}
		}
		var want []ruleLine
		for _, w := range c.want {
			if _, ok := unjudged[w.rule]; !ok {
				want = append(want, w)
			}
		}
		expected += len(want)
		var missing []ruleLine
		rest := slices.Clone(got)
		for _, w := range want {
			if i := slices.IndexFunc(rest, w.matches); i >= 0 {
				found++
				rest = slices.Delete(rest, i, i+1)
				continue
			}
			missing = append(missing, w)
		}
		extra += len(rest)
		if len(missing) > 0 || len(rest) > 0 {
			t.Errorf("%s: missing %v, extra %v\n%s", c.name, missing, rest, c.dockerfile)
		}
		if c.buildErr {
			errCases++
			if hasErr {
				errCaught++
			} else {
				t.Logf("%s: BuildKit fails this build; no error finding here:\n%s", c.name, c.dockerfile)
			}
		}
	}
	t.Logf("BuildKit check parity: %d cases (%d left out), %d/%d expected warnings found, %d extra; build errors expected in %d cases, an error finding in %d",
		len(cases), skipped, found, expected, extra, errCases, errCaught)
}

// buildkitName is the BuildKit rule name of a rule id, "" for this
// checker's own rules.
func buildkitName(id string) string {
	for _, r := range buildkitRules() {
		if buildkitID(r.rule.RuleName()) == id {
			return r.rule.RuleName()
		}
	}
	return ""
}
