package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/lazyre"
)

// What an entry remembers of the files it names, so that a reader can tell
// whether it still holds. A file's mark (the value of Entry.FileHashes) is
// the hash of the whole file and, of each part of it the entry points at,
// that part's hash:
//
//	9f86d081884c7d65                                  the whole file only
//	9f86d081884c7d65|lines 12-30=3a7bd3e2360a3d29     lines the name gives (store.go:12-30)
//	9f86d081884c7d65|func Parse=eebf1d8b3ab2a5c1      a symbol the entry names
//
// A part is lines the name gives ("store.go:12-30", "store.go#L12-L30") or
// a symbol defined in the file that the entry names: after the file name
// ("store.go#Parse", "store.go:Parse"), or in its text as code (`Parse`,
// Parse(), Memory.Stale, func Parse). A Go file's symbols are read with
// go/parser and hashed as tokens, so formatting and comments do not count;
// in other languages a symbol's definition is found by its keyword (def,
// class, fn, function…), its extent by braces or indentation (or the ten
// lines after it), and hashed with white space collapsed.
//
// An entry is stale only when a part it points at changed or is gone, or
// the file is gone. When it names a whole file, or was written before
// parts were remembered (its marks are a bare hash), all that can be known
// is that the file changed since.

// Part is one part of a file an entry points at, and its hash.
type Part struct {
	Label string // "lines 12-30", "line 7", "func Parse", "method Memory.Stale", "def load_csv"
	Hash  string
}

// Mark is what an entry remembers of one file it names.
type Mark struct {
	File  string // the whole file's content hash
	Parts []Part
}

// maxParts bounds the parts remembered of one file.
const maxParts = 8

// ParseMark reads a mark as String writes it; a bare hash (every mark
// written before parts were) is the whole file's.
func ParseMark(v string) Mark {
	fields := strings.Split(v, "|")
	m := Mark{File: fields[0]}
	for _, f := range fields[1:] {
		if label, hash, ok := strings.Cut(f, "="); ok && label != "" && hash != "" {
			m.Parts = append(m.Parts, Part{Label: label, Hash: hash})
		}
	}
	return m
}

// String is the mark as Entry.FileHashes holds it.
func (m Mark) String() string {
	var b strings.Builder
	b.WriteString(m.File)
	for _, p := range m.Parts {
		b.WriteString("|" + p.Label + "=" + p.Hash)
	}
	return b.String()
}

// ContentHash is the hash marks hold: 16 hex digits of SHA-256.
func ContentHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// lineSpec is a name's line suffix: ":12", ":12-30", ":12:5" (a column),
// "#L12", "#L12-L30".
var lineSpec = lazyre.New(`(?::(\d+)(?:-(\d+)|:\d+)?|#L(\d+)(?:-L?(\d+))?)$`)

// symbolSpec is a name's symbol suffix: "#Parse", ":Parse", "#Memory.Stale".
var symbolSpec = lazyre.New(`[#:]([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)$`)

// SplitName splits a name an entry gives a file into the file and what it
// points at in it: lines (first, last; zero when none) or a symbol.
func SplitName(name string) (file string, first, last int, symbol string) {
	if m := lineSpec.FindStringSubmatchIndex(name); m != nil {
		a, b := m[2], m[3]
		c, d := m[4], m[5]
		if a < 0 {
			a, b, c, d = m[6], m[7], m[8], m[9]
		}
		first, _ = strconv.Atoi(name[a:b])
		last = first
		if c >= 0 {
			last, _ = strconv.Atoi(name[c:d])
		}
		if first < 1 || last < first {
			return name, 0, 0, ""
		}
		return name[:m[0]], first, last, ""
	}
	if m := symbolSpec.FindStringSubmatchIndex(name); m != nil && m[0] > 0 && !strings.HasSuffix(name[:m[0]], ":") {
		return name[:m[0]], 0, 0, name[m[2]:m[3]]
	}
	return name, 0, 0, ""
}

// mentioned finds the identifiers a text names as code: in backticks,
// called (Parse(), parse_line()), qualified (Memory.Stale, a::b), after a
// keyword (func Parse, def load_csv) or shaped like code (camelCase,
// snake_case, PascalCase with an inner capital).
var (
	mentionTick    = lazyre.New("`([^`\n]{1,120})`")
	mentionCall    = lazyre.New(`\b([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)?)\(`)
	mentionQual    = lazyre.New(`\b([A-Za-z_][A-Za-z0-9_]*)(?:\.|::)([A-Za-z_][A-Za-z0-9_]*)\b`)
	mentionKeyword = lazyre.New(`\b(?:func|def|class|fn|function|type|struct|interface|trait|enum|method|const|var)\s+(?:\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)`)
	mentionShape   = lazyre.New(`\b([a-z]+[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+|[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)\b`)
	identRE        = lazyre.New(`[A-Za-z_][A-Za-z0-9_]*`)
)

// Mentions returns the identifiers text names as code, each as written
// ("Parse", "Memory.Stale"), once.
func Mentions(text string) []string {
	var out []string
	add := func(s string) {
		if len(s) >= 3 && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for _, m := range mentionTick.FindAllStringSubmatch(text, -1) {
		inner := strings.TrimSpace(m[1])
		if k := mentionKeyword.FindStringSubmatch(inner); k != nil {
			add(k[1])
			continue
		}
		inner = strings.TrimSuffix(inner, "()")
		if q := mentionQual.FindStringSubmatch(inner); q != nil && q[0] == inner {
			add(q[1] + "." + q[2])
			continue
		}
		if id := identRE.FindString(inner); id == inner {
			add(id)
		}
	}
	for _, re := range []*lazyre.Regexp{mentionKeyword, mentionCall, mentionShape} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			add(m[1])
		}
	}
	for _, m := range mentionQual.FindAllStringSubmatch(text, -1) {
		add(m[1] + "." + m[2])
	}
	return out
}

// Parts returns the parts of a file an entry points at: the lines its name
// gives, the symbol after its name, and the symbols its text names as code
// (mentions, see Mentions) that the file defines. file is the file's path
// (its extension says the language), content what it holds now.
func Parts(name, file string, content []byte, mentions []string) []Part {
	_, first, last, symbol := SplitName(name)
	var out []Part
	if first > 0 {
		if p, ok := lineRange(content, first, last); ok {
			out = append(out, p)
		}
	}
	syms := mentions
	if symbol != "" {
		syms = append([]string{symbol}, mentions...)
	}
	if len(syms) == 0 {
		return out
	}
	defs := definitions(file, content)
	for _, s := range syms {
		if len(out) >= maxParts {
			break
		}
		d, ok := defs.find(s)
		if !ok || slices.ContainsFunc(out, func(p Part) bool { return p.Label == d.label }) {
			continue
		}
		out = append(out, Part{Label: d.label, Hash: d.hash})
	}
	return out
}

// PartState is what became of a part.
type PartState int

const (
	PartSame    PartState = iota
	PartMoved             // the lines are the same, elsewhere in the file
	PartChanged           // it is there, and different
	PartGone              // the symbol is no longer defined, or the lines are past the end
)

// Check tells what became of part p in the file's content now; for moved
// lines, where they are ("lines 15-33").
func (p Part) Check(file string, content []byte) (PartState, string) {
	if first, last, ok := parseLinesLabel(p.Label); ok {
		lines := splitLines(content)
		if last <= len(lines) && ContentHash([]byte(joinNorm(lines[first-1:last]))) == p.Hash {
			return PartSame, ""
		}
		n := last - first + 1
		for i := 0; i+n <= len(lines); i++ {
			if ContentHash([]byte(joinNorm(lines[i:i+n]))) == p.Hash {
				return PartMoved, linesLabel(i+1, i+n)
			}
		}
		if first > len(lines) {
			return PartGone, ""
		}
		return PartChanged, ""
	}
	d, ok := definitions(file, content).find(symbolOf(p.Label))
	if !ok {
		return PartGone, ""
	}
	if d.hash == p.Hash {
		return PartSame, ""
	}
	return PartChanged, ""
}

// FileChange is what became of a file an entry names since the entry was
// recorded (the memory service fills Entry.Changed on reads).
type FileChange struct {
	File string // as the entry names it
	Gone bool   // the file is gone
	// Parts are the parts of it the entry points at that changed or are
	// gone ("func Parse changed", "lines 12-30 gone").
	Parts []string
	// Moved are parts found unchanged elsewhere ("lines 12-30 now 15-33").
	Moved []string
	// WholeFile: the file changed, and the entry points at no part of it
	// that can be checked (it names the whole file, or was recorded
	// before parts were remembered): whether the entry still holds is
	// unknown.
	WholeFile bool
}

// Stale reports whether what the entry points at in the file changed or
// is gone.
func (c FileChange) Stale() bool { return c.Gone || len(c.Parts) > 0 }

// String says what changed: "store.go: func Parse changed", "y.go: gone".
func (c FileChange) String() string {
	switch {
	case c.Gone:
		return c.File + ": gone"
	case len(c.Parts) > 0:
		return c.File + ": " + strings.Join(c.Parts, ", ")
	case len(c.Moved) > 0:
		return c.File + ": " + strings.Join(c.Moved, ", ")
	}
	return c.File
}

// Changes sorts a file's changes into what makes the entry stale, the
// files known only to have changed, and parts that moved.
func Changes(cs []FileChange) (stale, wholeFiles, moved []string) {
	for _, c := range cs {
		switch {
		case c.Stale():
			stale = append(stale, c.String())
		case c.WholeFile:
			wholeFiles = append(wholeFiles, c.File)
		case len(c.Moved) > 0:
			moved = append(moved, c.String())
		}
	}
	return stale, wholeFiles, moved
}

// ChangedSince is the note on files known only to have changed since t.
func ChangedSince(files []string, t time.Time) string {
	if len(files) == 0 {
		return ""
	}
	return fmt.Sprintf("file changed since %s: %s", t.Format(time.DateOnly), strings.Join(files, ", "))
}

// lineRange is the part "lines first-last" of content.
func lineRange(content []byte, first, last int) (Part, bool) {
	lines := splitLines(content)
	if first > len(lines) {
		return Part{}, false
	}
	last = min(last, len(lines))
	return Part{Label: linesLabel(first, last), Hash: ContentHash([]byte(joinNorm(lines[first-1 : last])))}, true
}

func linesLabel(first, last int) string {
	if first == last {
		return "line " + strconv.Itoa(first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}

func parseLinesLabel(label string) (first, last int, ok bool) {
	if s, found := strings.CutPrefix(label, "line "); found {
		n, err := strconv.Atoi(s)
		return n, n, err == nil && n > 0
	}
	s, found := strings.CutPrefix(label, "lines ")
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(s, "-")
	first, err1 := strconv.Atoi(a)
	last, err2 := strconv.Atoi(b)
	return first, last, found && err1 == nil && err2 == nil && first > 0 && last >= first
}

// symbolOf is the symbol a part's label names: its last word.
func symbolOf(label string) string {
	return label[strings.LastIndexByte(label, ' ')+1:]
}

func splitLines(content []byte) []string {
	s := strings.ReplaceAll(string(content), "\r\n", "\n")
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// joinNorm joins lines with their white space collapsed: reindenting or
// realigning is not a change.
func joinNorm(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.Join(strings.Fields(l), " "))
		b.WriteByte('\n')
	}
	return b.String()
}

// def is a symbol's definition in a file.
type def struct {
	name  string // "Parse", "Memory.Stale" for a Go method
	label string // "func Parse", "method Memory.Stale", "def load_csv"
	hash  string
}

type defs struct {
	file    string
	content []byte
	lines   []string
	gos     []def // a Go file's, read once
	goRead  bool
}

func definitions(file string, content []byte) *defs {
	return &defs{file: file, content: content}
}

// find returns the definition of a symbol as an entry names it ("Parse",
// "Memory.Stale", "parse_line").
func (d *defs) find(sym string) (def, bool) {
	if path.Ext(d.file) == ".go" {
		return d.findGo(sym)
	}
	return d.findOther(sym)
}

// findGo finds a top-level declaration of a Go file by name: a function, a
// type, a variable or constant, or a method (Type.Method, or Method when
// one type alone has it).
func (d *defs) findGo(sym string) (def, bool) {
	if !d.goRead {
		d.goRead = true
		d.gos = goDecls(d.content)
	}
	var found []def
	for _, x := range d.gos {
		switch {
		case x.name == sym:
			return x, true
		case strings.HasSuffix(x.name, "."+sym):
			found = append(found, x)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return def{}, false
}

// goDecls reads a Go file's top-level declarations, each hashed as its
// tokens (comments and formatting left out).
func goDecls(src []byte) []def {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", src, parser.SkipObjectResolution)
	if f == nil {
		return nil
	}
	_ = err // a file that does not compile still has the declarations before the error
	tf := fset.File(f.Pos())
	hash := func(from, to token.Pos) string {
		a, b := tf.Offset(from), tf.Offset(to)
		if a < 0 || b > len(src) || a >= b {
			return ""
		}
		return ContentHash([]byte(goTokens(src[a:b])))
	}
	var out []def
	for _, decl := range f.Decls {
		switch x := decl.(type) {
		case *ast.FuncDecl:
			name, label := x.Name.Name, "func "+x.Name.Name
			if x.Recv != nil && len(x.Recv.List) > 0 {
				if r := recvName(x.Recv.List[0].Type); r != "" {
					name, label = r+"."+x.Name.Name, "method "+r+"."+x.Name.Name
				}
			}
			out = append(out, def{name: name, label: label, hash: hash(x.Pos(), x.End())})
		case *ast.GenDecl:
			kind := x.Tok.String()
			for _, s := range x.Specs {
				from, to := s.Pos(), s.End()
				if len(x.Specs) == 1 {
					from, to = x.Pos(), x.End()
				}
				switch sp := s.(type) {
				case *ast.TypeSpec:
					out = append(out, def{name: sp.Name.Name, label: "type " + sp.Name.Name, hash: hash(from, to)})
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						if n.Name != "_" {
							out = append(out, def{name: n.Name, label: kind + " " + n.Name, hash: hash(from, to)})
						}
					}
				}
			}
		}
	}
	return out
}

func recvName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// goTokens is Go source as its tokens, one a line, comments left out.
func goTokens(src []byte) string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	var b strings.Builder
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		b.WriteString(tok.String())
		if lit != "" {
			b.WriteString(" " + lit)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// The definition lines of other languages, by extension: %s is the
// symbol's name, quoted.
var (
	defPython = []string{`^\s*(?:async\s+)?def\s+%s\b`, `^\s*class\s+%s\b`, `^%s\s*(?::[^=]*)?=`}
	defJS     = []string{`\bfunction\s*\*?\s*%s\b`, `\bclass\s+%s\b`, `\binterface\s+%s\b`, `\btype\s+%s\b\s*[=<]`, `\benum\s+%s\b`,
		`\b(?:const|let|var)\s+%s\b\s*[=:]`, `^\s*(?:(?:export|default|async|static|public|private|protected|readonly|get|set|override)\s+)*%s\s*(?:<[^>]*>)?\s*\([^;]*$`}
	defRust = []string{`\b(?:fn|struct|enum|trait|type|const|static|mod|union)\s+%s\b`, `\bmacro_rules!\s*%s\b`}
	defRuby = []string{`^\s*def\s+(?:self\.)?%s\b`, `^\s*(?:class|module)\s+%s\b`}
	defSh   = []string{`^\s*(?:function\s+)?%s\s*\(\)`, `^\s*function\s+%s\b`}
	defC    = []string{`\b(?:class|interface|enum|record|struct|object|trait|fun|func|def|union|namespace)\s+%s\b`,
		`^\s*(?:[\w<>\[\],.*&:?@]+\s+)+%s\s*\([^;]*$`}
	defAny = []string{`\b(?:def|class|func|function|fn|struct|enum|trait|interface|type|module|sub|proc|method)\s+%s\b`}
)

// indentExtent: languages whose definitions end where the indentation does.
var indentExtent = map[string]bool{".py": true, ".pyi": true, ".rb": true, ".yaml": true, ".yml": true, ".coffee": true, ".nim": true}

// braceExtent: languages whose definitions are in braces.
var braceExtent = map[string]bool{".js": true, ".jsx": true, ".mjs": true, ".cjs": true, ".ts": true, ".tsx": true, ".mts": true, ".cts": true,
	".vue": true, ".svelte": true, ".rs": true, ".java": true, ".kt": true, ".kts": true, ".scala": true, ".groovy": true, ".cs": true,
	".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true, ".cxx": true, ".m": true, ".mm": true, ".swift": true, ".php": true,
	".dart": true, ".sh": true, ".bash": true, ".zsh": true, ".proto": true, ".sol": true, ".zig": true}

func definitionPatterns(ext string) []string {
	switch ext {
	case ".py", ".pyi":
		return defPython
	case ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".vue", ".svelte":
		return defJS
	case ".rs":
		return defRust
	case ".rb":
		return defRuby
	case ".sh", ".bash", ".zsh":
		return defSh
	case ".java", ".kt", ".kts", ".scala", ".groovy", ".cs", ".c", ".h", ".cc", ".cpp", ".hpp", ".cxx", ".m", ".mm", ".swift", ".php", ".dart":
		return defC
	}
	return defAny
}

// maxExtent bounds a definition's lines outside Go; aroundLines is how
// many lines after a definition's first stand for it when its end cannot
// be found (no braces, no indented block).
const (
	maxExtent   = 400
	aroundLines = 10
)

// findOther finds a symbol's definition by a search at the level of lines
// and tokens: the first line its language's definition patterns match,
// extended to the definition's end by braces or indentation.
func (d *defs) findOther(sym string) (def, bool) {
	name := sym[strings.LastIndexByte(sym, '.')+1:]
	if d.lines == nil {
		d.lines = splitLines(d.content)
	}
	ext := strings.ToLower(path.Ext(d.file))
	var res []*regexp.Regexp
	for _, p := range definitionPatterns(ext) {
		res = append(res, regexp.MustCompile(fmt.Sprintf(p, regexp.QuoteMeta(name))))
	}
	for i, l := range d.lines {
		if !slices.ContainsFunc(res, func(r *regexp.Regexp) bool { return r.MatchString(l) }) || isCommentLine(l) {
			continue
		}
		end := i + aroundLines
		trimmed := strings.TrimSpace(l)
		switch {
		case braceExtent[ext] || strings.HasSuffix(trimmed, "{"):
			if e, ok := braceEnd(d.lines, i); ok {
				end = e
			}
		case indentExtent[ext] || strings.HasSuffix(trimmed, ":"):
			end = indentEnd(d.lines, i)
		}
		end = min(end, len(d.lines)-1, i+maxExtent)
		return def{name: name, label: otherLabel(ext, l, name), hash: ContentHash([]byte(joinNorm(d.lines[i : end+1])))}, true
	}
	return def{}, false
}

func isCommentLine(l string) bool {
	t := strings.TrimSpace(l)
	return strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "#define") || strings.HasPrefix(t, "*") ||
		strings.HasPrefix(t, "/*") || strings.HasPrefix(t, "--")
}

// otherLabel names a definition by its keyword: "def load_csv", "class
// Loader", "fn parse_line"; "symbol name" when none is on its line.
func otherLabel(ext, line, name string) string {
	for _, kw := range []string{"def", "class", "fn", "function", "struct", "enum", "trait", "interface", "type", "module", "record", "object", "fun", "func", "sub", "proc"} {
		if regexp.MustCompile(`\b` + kw + `\s+\*?\s*` + regexp.QuoteMeta(name) + `\b`).MatchString(line) {
			return kw + " " + name
		}
	}
	return "symbol " + name
}

// braceEnd finds the line where the braces opened at or after line start
// close, skipping strings and comments; a ";" before any brace ends a
// declaration on its line.
func braceEnd(lines []string, start int) (int, bool) {
	depth, opened := 0, false
	inBlock := false
	for i := start; i < len(lines) && i <= start+maxExtent; i++ {
		l := lines[i]
		var quote byte
		for j := 0; j < len(l); j++ {
			c := l[j]
			switch {
			case inBlock:
				if c == '*' && j+1 < len(l) && l[j+1] == '/' {
					inBlock = false
					j++
				}
			case quote != 0:
				if c == '\\' {
					j++
				} else if c == quote {
					quote = 0
				}
			case c == '/' && j+1 < len(l) && l[j+1] == '/':
				j = len(l)
			case c == '/' && j+1 < len(l) && l[j+1] == '*':
				inBlock = true
				j++
			case c == '"' || c == '\'' || c == '`':
				quote = c
			case c == '{':
				depth++
				opened = true
			case c == '}':
				depth--
				if opened && depth <= 0 {
					return i, true
				}
			case c == ';' && !opened:
				return i, true
			}
		}
	}
	return 0, false
}

// indentEnd is the last line of a definition that ends where its
// indentation does: the lines after it indented deeper (or blank), and a
// closing "end" at its own indentation.
func indentEnd(lines []string, start int) int {
	indent := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
	base := indent(lines[start])
	end := start
	for i := start + 1; i < len(lines) && i <= start+maxExtent; i++ {
		t := strings.TrimSpace(lines[i])
		switch {
		case t == "":
			continue
		case indent(lines[i]) > base:
			end = i
			continue
		case t == "end" && indent(lines[i]) == base:
			end = i
		}
		break
	}
	return end
}
