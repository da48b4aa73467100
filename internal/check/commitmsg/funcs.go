package commitmsg

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// changedLines are the lines of the new content a file's hunks touch: each
// added line, and for a pure removal the line it was removed before.
func changedLines(f *FileDiff) []int {
	var out []int
	for _, h := range f.Hunks {
		n := h.NewStart
		for _, l := range h.Lines {
			switch l[0] {
			case ' ':
				n++
			case '+':
				out = append(out, n)
				n++
			case '-':
				out = append(out, n)
			}
		}
	}
	return out
}

// changedFuncs names the functions the changed lines are in: by go/ast for
// Go, by the nearest enclosing def or function line for Python and JS.
func changedFuncs(fi *fileInfo) []string {
	if fi.newContent == nil || fi.Status == Added {
		return nil
	}
	lines := changedLines(fi.FileDiff)
	var out []string
	add := func(n string) {
		for _, o := range out {
			if o == n {
				return
			}
		}
		out = append(out, n)
	}
	switch lang(fi.Path()) {
	case "go":
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", fi.newContent, parser.SkipObjectResolution)
		if err != nil {
			return nil
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			from, to := fset.Position(fd.Pos()).Line, fset.Position(fd.End()).Line
			if fd.Doc != nil {
				from = fset.Position(fd.Doc.Pos()).Line
			}
			for _, l := range lines {
				if l >= from && l <= to {
					name := fd.Name.Name
					if fd.Recv != nil && len(fd.Recv.List) > 0 {
						name = recvName(fd.Recv.List[0].Type) + "." + name
					}
					add(name)
					break
				}
			}
		}
	case "py", "js":
		src := strings.Split(string(fi.newContent), "\n")
		for _, l := range lines {
			for i := min(l-1, len(src)-1); i >= 0 && i >= l-400; i-- {
				if m := defLineRE().FindStringSubmatch(src[i]); m != nil {
					add(m[1] + m[2] + m[3])
					break
				}
			}
		}
	}
	return out
}

var defLineRE = check.LazyRegexp(`^\s*(?:export\s+)?(?:async\s+)?(?:def\s+(\w+)|function\s*\*?\s*(\w+)|(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\()`)
