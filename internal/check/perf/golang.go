package perf

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// checkGo reads a Go file's patterns; goVersion is go.mod's go directive.
func checkGo(f check.File, goVersion string) []check.Finding {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, f.Path, f.Content, parser.SkipObjectResolution)
	if err != nil {
		line, col := 0, 0
		if pe, ok := scannerPos(err); ok {
			line, col = pe.Line, pe.Column
		}
		return []check.Finding{{Rule: ruleSyntax, File: f.Path, Line: line, Col: col,
			Message: "Go patterns were not checked: the file does not parse (" + firstLine(err.Error()) + ")", Fix: "Fix the syntax error; go vet says the same."}}
	}
	g := &goChecker{fset: fset, path: f.Path, regexpName: importName(file, "regexp"), timeName: importName(file, "time"),
		oldTimers: goBefore(goVersion, 1, 23)}
	for _, d := range file.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		g.function(fd.Type, fd.Body, isHandler(fd.Type, file))
	}
	return g.out
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// importName is the name a file uses for an import path ("" if not
// imported).
func importName(f *ast.File, p string) string {
	for _, imp := range f.Imports {
		if v, _ := strconv.Unquote(imp.Path.Value); v == p {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return p[strings.LastIndex(p, "/")+1:]
		}
	}
	return ""
}

// goBefore reports whether a go directive names a version before
// major.minor; false when unknown.
func goBefore(v string, major, minor int) bool {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return false
	}
	ma, err1 := strconv.Atoi(parts[0])
	mi, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil {
		return false
	}
	return ma < major || ma == major && mi < minor
}

// handlerParams are parameter types that make a function an HTTP handler.
var handlerParams = []string{"http.ResponseWriter", "*gin.Context", "echo.Context", "*fiber.Ctx", "*fasthttp.RequestCtx"}

// isHandler reports whether a function's parameters make it an HTTP
// handler: (http.ResponseWriter, *http.Request), a gin, echo or fiber
// context.
func isHandler(ft *ast.FuncType, _ *ast.File) bool {
	if ft.Params == nil {
		return false
	}
	for _, p := range ft.Params.List {
		t := exprString(p.Type)
		for _, h := range handlerParams {
			if t == h {
				return true
			}
		}
	}
	return false
}

func exprString(e ast.Expr) string {
	switch v := e.(type) {
	case *ast.Ident:
		return v.Name
	case *ast.SelectorExpr:
		return exprString(v.X) + "." + v.Sel.Name
	case *ast.StarExpr:
		return "*" + exprString(v.X)
	}
	return ""
}

type goChecker struct {
	fset       *token.FileSet
	path       string
	regexpName string
	timeName   string
	oldTimers  bool
	out        []check.Finding
}

func (g *goChecker) add(pos token.Pos, end token.Pos, rule, msg string) {
	p, e := g.fset.Position(pos), g.fset.Position(end)
	g.out = append(g.out, check.Finding{Rule: rule, File: g.path, Line: p.Line, Col: p.Column, EndLine: e.Line, EndCol: max(e.Column-1, 1),
		Message: msg, Fix: rules[ruleIndex(rule)].Fix})
}

// function walks one function body. Loops nest; a function literal starts
// a new function (a defer in it runs when it returns; a literal passed to
// http.HandleFunc is a handler).
func (g *goChecker) function(ft *ast.FuncType, body *ast.BlockStmt, handler bool) {
	strs := stringVars(ft, body)
	exempt := deferThenLeave(body)
	// inner are the names declared in the innermost loop (its range
	// variables and its body's := and var): a string built up in one
	// iteration and dropped is not the quadratic pattern.
	type loop struct {
		vars []ast.Expr
		body ast.Node
		decl map[string]bool // computed when first needed
	}
	var inner *loop
	var walk func(n ast.Node, loops int)
	loopBody := func(vars []ast.Expr, body ast.Node, loops int) {
		saved := inner
		inner = &loop{vars: vars, body: body}
		walk(body, loops)
		inner = saved
	}
	declaredInLoop := func(name string) bool {
		if inner == nil {
			return false
		}
		if inner.decl == nil {
			inner.decl = declared(inner.vars, inner.body)
		}
		return inner.decl[name] || inner.decl[""] // "" : too large to read, so unknown
	}
	walk = func(n ast.Node, loops int) {
		ast.Inspect(n, func(c ast.Node) bool {
			if c == n {
				return true
			}
			switch v := c.(type) {
			case *ast.FuncLit:
				g.function(v.Type, v.Body, handler || isHandler(v.Type, nil))
				return false
			case *ast.ForStmt:
				if v.Init != nil {
					walk(v.Init, loops)
				}
				if v.Cond != nil {
					walk(v.Cond, loops)
				}
				loopBody(nil, v.Body, loops+1)
				if v.Post != nil {
					walk(v.Post, loops+1)
				}
				return false
			case *ast.RangeStmt:
				walk(v.X, loops)
				loopBody([]ast.Expr{v.Key, v.Value}, v.Body, loops+1)
				return false
			case *ast.DeferStmt:
				if loops > 0 && !exempt[v] {
					g.add(v.Pos(), v.End(), ruleDeferLoop, fmt.Sprintf("defer %s runs when the function returns, not at the end of each iteration of this loop", shortExpr(g, v.Call.Fun)))
				}
			case *ast.CallExpr:
				g.call(v, loops, handler)
			case *ast.AssignStmt:
				if loops > 0 && v.Tok == token.ADD_ASSIGN && len(v.Lhs) == 1 {
					if id, ok := v.Lhs[0].(*ast.Ident); ok && (strs[id.Name] || isStringy(v.Rhs[0])) && !declaredInLoop(id.Name) {
						g.add(v.Pos(), v.End(), ruleConcatLoop, fmt.Sprintf("%s += … copies the whole string on every iteration of this loop", id.Name))
					}
				}
			case *ast.SelectStmt:
				if loops > 0 && g.timeName != "" {
					for _, cc := range v.Body.List {
						comm, ok := cc.(*ast.CommClause)
						if !ok || comm.Comm == nil {
							continue
						}
						ast.Inspect(comm.Comm, func(x ast.Node) bool {
							if call, ok := x.(*ast.CallExpr); ok && g.isPkgCall(call, g.timeName, "After") {
								msg := "time.After makes a new timer each time this select runs in the loop"
								if g.oldTimers {
									msg += "; before Go 1.23 (go.mod says older) none is freed until it fires"
								}
								g.add(call.Pos(), call.End(), ruleTimeAfterLoop, msg)
							}
							return true
						})
					}
				}
			}
			return true
		})
	}
	walk(body, 0)
}

// maxDeclNodes bounds the nodes declared reads in one loop body.
const maxDeclNodes = 20000

// declared lists the names a loop declares: its range variables and
// what its body declares with := or var (function literals aside).
func declared(vars []ast.Expr, body ast.Node) map[string]bool {
	out := map[string]bool{}
	for _, e := range vars {
		if id, ok := e.(*ast.Ident); ok {
			out[id.Name] = true
		}
	}
	seen := 0
	ast.Inspect(body, func(n ast.Node) bool {
		if seen++; seen > maxDeclNodes {
			out[""] = true
			return false
		}
		switch v := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.AssignStmt:
			if v.Tok == token.DEFINE {
				for _, l := range v.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						out[id.Name] = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range v.Names {
				out[id.Name] = true
			}
		}
		return true
	})
	return out
}

// deferThenLeave finds the defers whose block ends by leaving the loop
// (return, break, goto): "open, defer close, return what was read" runs
// the deferred call once, not once per iteration.
func deferThenLeave(body *ast.BlockStmt) map[*ast.DeferStmt]bool {
	out := map[*ast.DeferStmt]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		var list []ast.Stmt
		switch b := n.(type) {
		case *ast.FuncLit:
			return false // its own function, read when it is walked
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.CommClause:
			list = b.Body
		default:
			return true
		}
		if len(list) == 0 {
			return true
		}
		leaves := false
		switch last := list[len(list)-1].(type) {
		case *ast.ReturnStmt:
			leaves = true
		case *ast.BranchStmt:
			leaves = last.Tok == token.BREAK || last.Tok == token.GOTO
		}
		if leaves {
			for _, st := range list {
				if d, ok := st.(*ast.DeferStmt); ok {
					out[d] = true
				}
			}
		}
		return true
	})
	return out
}

func shortExpr(g *goChecker, e ast.Expr) string {
	if s := exprString(e); s != "" {
		return s + "(…)"
	}
	return "the call"
}

func (g *goChecker) isPkgCall(c *ast.CallExpr, pkg string, names ...string) bool {
	sel, ok := c.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	if !ok || id.Name != pkg {
		return false
	}
	for _, n := range names {
		if sel.Sel.Name == n {
			return true
		}
	}
	return false
}

// call reports a regexp compiled with a constant pattern in a loop or a
// handler.
func (g *goChecker) call(c *ast.CallExpr, loops int, handler bool) {
	if g.regexpName == "" || !g.isPkgCall(c, g.regexpName, "MustCompile", "Compile", "MustCompilePOSIX", "CompilePOSIX") || len(c.Args) != 1 {
		return
	}
	lit, ok := c.Args[0].(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return // a pattern built at run time may need compiling each time
	}
	fn := g.regexpName + "." + c.Fun.(*ast.SelectorExpr).Sel.Name
	switch {
	case loops > 0:
		g.add(c.Pos(), c.End(), ruleRegexpLoop, fmt.Sprintf("%s(%s) compiles the same pattern on every iteration of this loop", fn, clip(lit.Value)))
	case handler:
		g.add(c.Pos(), c.End(), ruleRegexpHandler, fmt.Sprintf("%s(%s) compiles the same pattern on every request this handler serves", fn, clip(lit.Value)))
	}
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:37] + "…"
	}
	return s
}

// stringVars are the names a function declares as strings: string
// parameters, var x string, x := "…" or a string-returning call.
func stringVars(ft *ast.FuncType, body *ast.BlockStmt) map[string]bool {
	out := map[string]bool{}
	if ft.Params != nil {
		for _, p := range ft.Params.List {
			if exprString(p.Type) == "string" {
				for _, n := range p.Names {
					out[n.Name] = true
				}
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch v := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ValueSpec:
			if v.Type != nil && exprString(v.Type) == "string" {
				for _, id := range v.Names {
					out[id.Name] = true
				}
			}
			for i, val := range v.Values {
				if i < len(v.Names) && isStringy(val) {
					out[v.Names[i].Name] = true
				}
			}
		case *ast.AssignStmt:
			if v.Tok == token.DEFINE && len(v.Lhs) == len(v.Rhs) {
				for i, l := range v.Lhs {
					if id, ok := l.(*ast.Ident); ok && isStringy(v.Rhs[i]) {
						out[id.Name] = true
					}
				}
			}
		}
		return true
	})
	return out
}

// isStringy reports whether an expression is certainly a string: a string
// literal, a concatenation with one, string(…), or a call of fmt.Sprint*,
// strings.* returning a string, or strconv.Itoa/Quote/Format*.
func isStringy(e ast.Expr) bool {
	switch v := e.(type) {
	case *ast.BasicLit:
		return v.Kind == token.STRING
	case *ast.BinaryExpr:
		return v.Op == token.ADD && (isStringy(v.X) || isStringy(v.Y))
	case *ast.ParenExpr:
		return isStringy(v.X)
	case *ast.CallExpr:
		switch f := exprString(v.Fun); f {
		case "string", "fmt.Sprint", "fmt.Sprintf", "fmt.Sprintln", "strconv.Itoa", "strconv.Quote", "strconv.FormatInt",
			"strconv.FormatFloat", "strconv.FormatBool", "strings.Repeat", "strings.Join", "strings.ToUpper", "strings.ToLower",
			"strings.TrimSpace", "strings.Trim", "strings.ReplaceAll", "strings.Replace", "strings.Title":
			return true
		}
	}
	return false
}
