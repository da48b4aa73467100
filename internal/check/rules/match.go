package rules

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/cairn-dev/cairn/internal/check"
)

// Name is the checker's name and the prefix of its rule ids.
const Name = "project"

// Checker checks files against a project's rules.
type Checker struct{ set *Set }

// Checker returns the set as a check.Checker.
func (s *Set) Checker() *Checker { return &Checker{set: s} }

func (c *Checker) Name() string { return Name }

func (c *Checker) Rules() []check.Rule {
	out := make([]check.Rule, len(c.set.Rules))
	for i, r := range c.set.Rules {
		out[i] = r.Describe()
	}
	return out
}

// Wants reads the files a per-file rule applies to (require_file is the
// project's, not a file's).
func (c *Checker) Wants(p string, _ []byte) bool {
	for _, r := range c.set.Rules {
		if r.Match.Kind != KindRequireFile && r.Applies(p) {
			return true
		}
	}
	return false
}

// Check checks each file against each rule that applies to it.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	var res check.Result
	for _, f := range in.Files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		for _, r := range c.set.Rules {
			if r.Match.Kind == KindRequireFile || !r.Applies(f.Path) {
				continue
			}
			res.Findings = append(res.Findings, r.checkFile(f)...)
		}
	}
	return res, nil
}

// Required checks the require_file rules against the project's files
// (fsys: the project root).
func (s *Set) Required(fsys fs.FS) []check.Finding {
	var out []check.Finding
	for _, r := range s.Rules {
		if r.Match.Kind != KindRequireFile {
			continue
		}
		want := strings.TrimPrefix(r.Match.Text, "/")
		found := false
		if doublestar.ValidatePattern(want) && strings.ContainsAny(want, "*?[{") {
			ms, _ := doublestar.Glob(fsys, want, doublestar.WithFilesOnly(), doublestar.WithFailOnIOErrors())
			found = len(ms) > 0
		} else if fi, err := fs.Stat(fsys, want); err == nil && fi.Mode().IsRegular() {
			found = true
		}
		if !found {
			out = append(out, r.finding("", 0, 0, fmt.Sprintf("The project has no %s.", want)))
		}
	}
	return out
}

func (r *Rule) finding(file string, line, col int, msg string) check.Finding {
	if r.Message != "" {
		msg = strings.TrimSuffix(r.Message, ".") + ": " + lowerFirst(msg)
	}
	return check.Finding{Rule: r.FindingID(), Severity: r.Severity, File: file, Line: line, Col: col, Message: msg,
		Fix: r.Fix, Link: "cairn:rule/" + r.FindingID()}
}

func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' || len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z' {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// checkFile runs the rule's matcher over one file.
func (r *Rule) checkFile(f check.File) []check.Finding {
	m := r.Match
	var out []check.Finding
	switch m.Kind {
	case KindPattern:
		for i, line := range lines(f.Content) {
			if loc := m.Pattern.FindStringIndex(line); loc != nil {
				what := "Line matches " + m.Pattern.String()
				if r.Title != r.ID {
					what = strings.ToUpper(r.Title[:1]) + r.Title[1:]
				}
				fd := r.finding(f.Path, i+1, loc[0]+1, fmt.Sprintf("%s: %s", what, clip(strings.TrimSpace(line[loc[0]:loc[1]]), 80)))
				fd.EndLine, fd.EndCol = i+1, max(loc[1], loc[0]+1)
				out = append(out, fd)
			}
		}
	case KindForbidImport, KindRequireImport:
		imps, ok := Imports(f.Path, f.Content)
		if !ok {
			return nil
		}
		if m.Kind == KindForbidImport {
			for _, im := range imps {
				if pat := matchImport(m.Imports, im.Path); pat != "" {
					out = append(out, r.finding(f.Path, im.Line, im.Col, fmt.Sprintf("Imports %s, which this project forbids here (%s).", im.Path, pat)))
				}
			}
			return out
		}
		for _, im := range imps {
			if matchImport(m.Imports, im.Path) != "" {
				return nil
			}
		}
		out = append(out, r.finding(f.Path, 1, 0, fmt.Sprintf("Imports none of %s.", strings.Join(m.Imports, ", "))))
	case KindRequireSect:
		if !hasSection(f.Content, m) {
			out = append(out, r.finding(f.Path, 1, 0, fmt.Sprintf("Has no section %q.", m.Text)))
		}
	case KindMaxLines:
		if n := len(lines(f.Content)); n > m.Max {
			out = append(out, r.finding(f.Path, m.Max+1, 0, fmt.Sprintf("The file has %d lines, over the %d this project allows.", n, m.Max)))
		}
	case KindMaxFuncLines:
		for _, fn := range Functions(f.Path, f.Content) {
			if n := fn.End - fn.Line + 1; n > m.Max {
				fd := r.finding(f.Path, fn.Line, fn.Col, fmt.Sprintf("Function %s has %d lines, over the %d this project allows.", fn.Name, n, m.Max))
				fd.EndLine = fn.End
				out = append(out, fd)
			}
		}
	case KindNaming:
		switch m.Target {
		case "file":
			base := path.Base(f.Path)
			stem := strings.TrimSuffix(base, path.Ext(base))
			// Test and spec suffixes are the tools' names, not the file's.
			for _, s := range []string{"_test", ".test", ".spec", ".d"} {
				stem = strings.TrimSuffix(stem, s)
			}
			if !m.Pattern.MatchString(stem) {
				out = append(out, r.finding(f.Path, 0, 0, fmt.Sprintf("The file name %s is not %s.", base, m.Text)))
			}
		case "function", "type":
			for _, d := range Names(f.Path, f.Content, m.Target) {
				if !m.Pattern.MatchString(d.Name) {
					out = append(out, r.finding(f.Path, d.Line, d.Col, fmt.Sprintf("The %s name %s is not %s.", m.Target, d.Name, m.Text)))
				}
			}
		}
	}
	return out
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func lines(b []byte) []string {
	s := strings.ReplaceAll(string(b), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

var heading = regexp.MustCompile(`^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$`)

func hasSection(b []byte, m Matcher) bool {
	fence := false
	for _, l := range lines(b) {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		h := heading.FindStringSubmatch(l)
		if h == nil {
			continue
		}
		if m.Pattern != nil && m.Pattern.MatchString(h[1]) || m.Pattern == nil && strings.EqualFold(h[1], strings.TrimSpace(m.Text)) {
			return true
		}
	}
	return false
}

// matchImport returns the pattern of pats that p matches, "" for none: a
// path itself, a prefix with /... (the path and everything under it), or
// a glob.
func matchImport(pats []string, p string) string {
	for _, pat := range pats {
		if base, ok := strings.CutSuffix(pat, "/..."); ok {
			if p == base || strings.HasPrefix(p, base+"/") {
				return pat
			}
			continue
		}
		if p == pat {
			return pat
		}
		if strings.ContainsAny(pat, "*?[{") {
			if ok, _ := doublestar.Match(pat, p); ok {
				return pat
			}
		}
	}
	return ""
}

// Import is one import of a source file.
type Import struct {
	Path      string
	Line, Col int
}

// Imports lists a Go, JavaScript, TypeScript or Python file's imports;
// ok is false for another language, or a file that does not parse (the
// language's own validators report it).
func Imports(p string, src []byte) (out []Import, ok bool) {
	switch ext := strings.ToLower(path.Ext(p)); ext {
	case ".go":
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.ImportsOnly)
		if err != nil {
			return nil, false
		}
		for _, im := range f.Imports {
			pos := fset.Position(im.Path.Pos())
			out = append(out, Import{Path: strings.Trim(im.Path.Value, "`\""), Line: pos.Line, Col: pos.Column})
		}
		return out, true
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts":
		return jsImports(src), true
	case ".py", ".pyi":
		return pyImports(src), true
	}
	return nil, false
}

// jsImports reads import, export-from, require() and import() module
// names from the token stream (so comments and strings are not read as
// code). Positions are counted from the tokens' lengths.
func jsImports(src []byte) []Import {
	buf := make([]byte, len(src), len(src)+1)
	copy(buf, src)
	l := js.NewLexer(parse.NewInputBytes(buf))
	line, col := 1, 1
	type tok struct {
		tt        js.TokenType
		text      string
		line, col int
	}
	var toks []tok // significant tokens
	for {
		tt, data := l.Next()
		if tt == js.ErrorToken {
			break
		}
		if tt != js.WhitespaceToken && tt != js.LineTerminatorToken && tt != js.CommentToken && tt != js.CommentLineTerminatorToken {
			toks = append(toks, tok{tt, string(data), line, col})
		}
		for _, c := range data {
			if c == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		if len(toks) > 1<<20 {
			break
		}
	}
	var out []Import
	str := func(t tok) (string, bool) {
		if t.tt != js.StringToken || len(t.text) < 2 {
			return "", false
		}
		return t.text[1 : len(t.text)-1], true
	}
	for i, t := range toks {
		switch t.text {
		case "import", "export":
			// import "m"; import x from "m"; export * from "m"; import("m").
			if i+1 < len(toks) {
				if s, ok := str(toks[i+1]); ok && t.text == "import" {
					out = append(out, Import{s, toks[i+1].line, toks[i+1].col})
					continue
				}
				if toks[i+1].text == "(" && i+2 < len(toks) && t.text == "import" {
					if s, ok := str(toks[i+2]); ok {
						out = append(out, Import{s, toks[i+2].line, toks[i+2].col})
					}
					continue
				}
			}
			for j := i + 1; j < len(toks) && j < i+200; j++ {
				if toks[j].text == ";" || toks[j].text == "import" || toks[j].text == "export" {
					break
				}
				if toks[j].text == "from" && j+1 < len(toks) {
					if s, ok := str(toks[j+1]); ok {
						out = append(out, Import{s, toks[j+1].line, toks[j+1].col})
					}
					break
				}
			}
		case "require":
			if i+2 < len(toks) && toks[i+1].text == "(" {
				if s, ok := str(toks[i+2]); ok {
					out = append(out, Import{s, toks[i+2].line, toks[i+2].col})
				}
			}
		}
	}
	return out
}

var (
	pyImport = regexp.MustCompile(`^(\s*)import\s+(.+)$`)
	pyFrom   = regexp.MustCompile(`^(\s*)from\s+(\.*[\w.]*)\s+import\b`)
)

// pyImports reads Python's import statements line by line, outside
// triple-quoted strings; a relative from-import keeps its dots.
func pyImports(src []byte) []Import {
	var out []Import
	inStr := ""
	for i, l := range lines(src) {
		if inStr != "" {
			if strings.Contains(l, inStr) {
				inStr = ""
			}
			continue
		}
		code, _, _ := strings.Cut(l, "#")
		for _, q := range []string{`"""`, `'''`} {
			if strings.Count(code, q)%2 == 1 {
				inStr = q
			}
		}
		if m := pyFrom.FindStringSubmatch(code); m != nil {
			out = append(out, Import{m[2], i + 1, len(m[1]) + 1})
			continue
		}
		if m := pyImport.FindStringSubmatch(code); m != nil {
			for part := range strings.SplitSeq(strings.TrimRight(m[2], "\\ ;"), ",") {
				name, _, _ := strings.Cut(strings.TrimSpace(part), " ")
				if name != "" && name != "(" {
					out = append(out, Import{name, i + 1, len(m[1]) + 1})
				}
			}
		}
	}
	return out
}

// Decl is a named function or type and where it is.
type Decl struct {
	Name      string
	Line, Col int
	End       int // the last line (functions)
}

// Functions lists the functions of a Go or Python file with their spans.
func Functions(p string, src []byte) []Decl {
	switch strings.ToLower(path.Ext(p)) {
	case ".go":
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		var out []Decl
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			name := fd.Name.Name
			if fd.Recv != nil && len(fd.Recv.List) > 0 {
				name = recvName(fd.Recv.List[0].Type) + "." + name
			}
			start, end := fset.Position(fd.Pos()), fset.Position(fd.End())
			out = append(out, Decl{Name: name, Line: start.Line, Col: start.Column, End: end.Line})
		}
		return out
	case ".py":
		return pyDefs(src, "def")
	}
	return nil
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

var pyDef = regexp.MustCompile(`^(\s*)(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)`)

// pyDefs lists Python's def (or class) blocks, each ending before the next
// line indented as much or less (blank and comment lines aside).
func pyDefs(src []byte, kw string) []Decl {
	ls := lines(src)
	var out []Decl
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
	for i, l := range ls {
		m := pyDef.FindStringSubmatch(l)
		if m == nil || m[2] != kw {
			continue
		}
		ind, end := len(m[1]), i
		for j := i + 1; j < len(ls); j++ {
			t := strings.TrimSpace(ls[j])
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			if indent(ls[j]) <= ind {
				break
			}
			end = j
		}
		out = append(out, Decl{Name: m[3], Line: i + 1, Col: ind + 1, End: end + 1})
	}
	return out
}

// Names lists a Go or Python file's function or type names (Go methods by
// their own name; test functions and main and init left out).
func Names(p string, src []byte, target string) []Decl {
	switch strings.ToLower(path.Ext(p)) {
	case ".go":
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, src, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		var out []Decl
		for _, d := range f.Decls {
			switch x := d.(type) {
			case *ast.FuncDecl:
				n := x.Name.Name
				if target != "function" || n == "main" || n == "init" || n == "_" || strings.HasSuffix(p, "_test.go") && testFunc.MatchString(n) {
					continue
				}
				pos := fset.Position(x.Name.Pos())
				out = append(out, Decl{Name: n, Line: pos.Line, Col: pos.Column})
			case *ast.GenDecl:
				if target != "type" || x.Tok != token.TYPE {
					continue
				}
				for _, s := range x.Specs {
					ts := s.(*ast.TypeSpec)
					pos := fset.Position(ts.Name.Pos())
					out = append(out, Decl{Name: ts.Name.Name, Line: pos.Line, Col: pos.Column})
				}
			}
		}
		return out
	case ".py":
		kw := "def"
		if target == "type" {
			kw = "class"
		}
		var out []Decl
		for _, d := range pyDefs(src, kw) {
			if strings.HasPrefix(d.Name, "__") && strings.HasSuffix(d.Name, "__") {
				continue // dunder methods are Python's names
			}
			out = append(out, d)
		}
		return out
	}
	return nil
}

var testFunc = regexp.MustCompile(`^(Test|Benchmark|Fuzz|Example)`)
