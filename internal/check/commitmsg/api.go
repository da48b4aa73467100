package commitmsg

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// decl is one exported declaration: its key ("func Open", "method
// *Client.Do", "field Config.Timeout") and its shape (the types that
// callers depend on; parameter names do not count).
type decl struct {
	key, shape string
}

// goAPI lists the exported declarations of a Go file. ok is false when
// the file does not parse.
func goAPI(src []byte) (pkg string, decls []decl, ok bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if err != nil {
		return "", nil, false
	}
	pkg = f.Name.Name
	add := func(k, s string) { decls = append(decls, decl{k, s}) }
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				recv := recvName(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				add("method "+recv+"."+d.Name.Name, funcShape(d.Type))
				continue
			}
			add("func "+d.Name.Name, funcShape(d.Type))
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if !s.Name.IsExported() {
						continue
					}
					tp := ""
					if s.TypeParams != nil {
						tp = fieldsShape(s.TypeParams)
					}
					switch t := s.Type.(type) {
					case *ast.StructType:
						add("type "+s.Name.Name, "struct"+tp)
						for _, fl := range t.Fields.List {
							names := fl.Names
							if len(names) == 0 { // embedded
								names = []*ast.Ident{{Name: recvName(fl.Type)}}
							}
							for _, n := range names {
								if ast.IsExported(n.Name) {
									add("field "+s.Name.Name+"."+n.Name, exprString(fl.Type))
								}
							}
						}
					case *ast.InterfaceType:
						add("type "+s.Name.Name, "interface"+tp)
						for _, m := range t.Methods.List {
							if len(m.Names) == 0 {
								add("imethod "+s.Name.Name+".embed "+exprString(m.Type), "")
								continue
							}
							for _, n := range m.Names {
								sh := exprString(m.Type)
								if ft, ok := m.Type.(*ast.FuncType); ok {
									sh = funcShape(ft)
								}
								add("imethod "+s.Name.Name+"."+n.Name, sh)
							}
						}
					default:
						eq := ""
						if s.Assign.IsValid() {
							eq = "= "
						}
						add("type "+s.Name.Name, tp+eq+exprString(s.Type))
					}
				case *ast.ValueSpec:
					kind := "var"
					if d.Tok == token.CONST {
						kind = "const"
					}
					for _, n := range s.Names {
						if !n.IsExported() {
							continue
						}
						sh := ""
						if s.Type != nil {
							sh = exprString(s.Type)
						}
						add(kind+" "+n.Name, sh)
					}
				}
			}
		}
	}
	return pkg, decls, true
}

// recvName is the type name of a receiver or embedded field: *T, T[K] → T.
func recvName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.SelectorExpr:
			return t.Sel.Name
		case *ast.Ident:
			return t.Name
		default:
			return exprString(e)
		}
	}
}

// funcShape is a signature's types: "(string, ...int) (error)".
func funcShape(ft *ast.FuncType) string {
	s := ""
	if ft.TypeParams != nil {
		s = "[" + fieldsShape(ft.TypeParams) + "]"
	}
	s += "(" + fieldsShape(ft.Params) + ")"
	if ft.Results != nil && len(ft.Results.List) > 0 {
		res := fieldsShape(ft.Results)
		if len(ft.Results.List) == 1 && len(ft.Results.List[0].Names) <= 1 {
			s += " " + res
		} else {
			s += " (" + res + ")"
		}
	}
	return s
}

func fieldsShape(fl *ast.FieldList) string {
	if fl == nil {
		return ""
	}
	var parts []string
	for _, f := range fl.List {
		n := max(len(f.Names), 1)
		for range n {
			parts = append(parts, exprString(f.Type))
		}
	}
	return strings.Join(parts, ", ")
}

// JS/TS exports, the obvious cases: export declarations, export lists,
// export default, CommonJS exports.NAME and module.exports = { ... }.
var (
	jsExportDecl = check.LazyRegexp(`(?m)^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|const|let|var|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)`)
	jsExportDef  = check.LazyRegexp(`(?m)^export\s+default\b`)
	jsExportList = check.LazyRegexp(`(?m)^export\s*(?:type\s*)?\{([^}]*)\}`)
	cjsExport    = check.LazyRegexp(`(?m)^(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=`)
	cjsObject    = check.LazyRegexp(`(?m)^module\.exports\s*=\s*\{([^}]*)\}`)
)

// jsAPI lists a JS/TS module's exported names.
func jsAPI(src []byte) []decl {
	var out []decl
	s := string(src)
	for _, m := range jsExportDecl().FindAllStringSubmatch(s, -1) {
		out = append(out, decl{key: "export " + m[1]})
	}
	if jsExportDef().MatchString(s) {
		out = append(out, decl{key: "export default"})
	}
	for _, re := range []*regexp.Regexp{jsExportList(), cjsObject()} {
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			for _, item := range strings.Split(m[1], ",") {
				item = strings.TrimSpace(item)
				if _, as, ok := strings.Cut(item, " as "); ok {
					item = strings.TrimSpace(as)
				}
				if k, _, ok := strings.Cut(item, ":"); ok {
					item = strings.TrimSpace(k)
				}
				item = strings.TrimPrefix(item, "type ")
				if item != "" && !strings.ContainsAny(item, " (){}") {
					out = append(out, decl{key: "export " + item})
				}
			}
		}
	}
	for _, m := range cjsExport().FindAllStringSubmatch(s, -1) {
		out = append(out, decl{key: "export " + m[1]})
	}
	return out
}

// Python's public top-level names: def, async def and class at column 0
// whose name does not start with an underscore.
var pyTopLevel = check.LazyRegexp(`(?m)^(?:async\s+def|def|class)\s+([A-Za-z]\w*)\s*([(:\[])`)

func pyAPI(src []byte) []decl {
	var out []decl
	for _, m := range pyTopLevel().FindAllSubmatchIndex(src, -1) {
		name := string(src[m[2]:m[3]])
		shape := ""
		if src[m[4]] == '(' {
			// The parameter list up to the matching parenthesis (one line
			// or several), whitespace-normalized.
			depth, i := 0, m[4]
			for ; i < len(src) && i < m[4]+4096; i++ {
				if src[i] == '(' {
					depth++
				} else if src[i] == ')' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if i < len(src) && i < m[4]+4096 {
				shape = strings.Join(strings.Fields(string(src[m[4]:i+1])), " ")
			}
		}
		kind := "def "
		if strings.HasPrefix(string(src[m[0]:m[1]]), "class") {
			kind, shape = "class ", ""
		}
		out = append(out, decl{key: kind + name, shape: shape})
	}
	return out
}

// Rust's public items, the obvious cases: pub fn (in impl blocks too),
// struct, enum, trait, type, const, static, mod, at any indentation;
// pub(crate) and narrower are not public.
var rustPub = check.LazyRegexp(`(?m)^\s*pub\s+(?:(?:async|const|unsafe|extern\s+"C")\s+)*(fn|struct|enum|trait|type|const|static|mod|union)\s+([A-Za-z_]\w*)`)

func rustAPI(src []byte) []decl {
	var out []decl
	for _, m := range rustPub().FindAllSubmatch(src, -1) {
		kind := "func"
		switch string(m[1]) {
		case "struct", "enum", "trait", "type", "union":
			kind = "type"
		case "const", "static":
			kind = "const"
		case "mod":
			kind = "export"
		}
		out = append(out, decl{key: kind + " " + string(m[2])})
	}
	return out
}
