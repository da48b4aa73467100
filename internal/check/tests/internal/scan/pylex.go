package scan

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Python token kinds.
const (
	PName    = 'N'
	POp      = 'O'
	PString  = 'S'
	PNumber  = 'D'
	PNewline = 'L' // the end of a logical line
	PIndent  = '>'
	PDedent  = '<'
)

// pyLexer tokenizes Python as its tokenize module does: logical lines,
// INDENT and DEDENT from the indentation stack, implicit joining inside
// brackets and after a backslash, string prefixes, triple quotes, and
// f-strings whose {} fields may hold strings with the same quote (3.12).
type pyLexer struct {
	jsLexer // byte scanning, positions, error
	indents []int
	parens  int
}

func LexPython(src []byte) ([]Tok, []Comment, *LexError) {
	l := &pyLexer{jsLexer: jsLexer{src: src, line: 1, col: 1, toks: make([]Tok, 0, len(src)/6+16)}, indents: []int{0}}
	l.lines()
	return l.toks, l.comments, l.err
}

// lines scans logical line after logical line.
func (l *pyLexer) lines() {
	atStart := true
	for l.err == nil && l.i < len(l.src) {
		if atStart && l.parens == 0 {
			// measure the indentation of a line that holds code
			width := 0
			for l.i < len(l.src) && (l.src[l.i] == ' ' || l.src[l.i] == '\t' || l.src[l.i] == '\f') {
				if l.src[l.i] == '\t' {
					width = (width/8 + 1) * 8
				} else if l.src[l.i] == ' ' {
					width++
				}
				l.adv()
			}
			if l.i >= len(l.src) {
				break
			}
			c := l.src[l.i]
			if c == '\n' || c == '\r' || c == '#' || c == '\\' && l.peek(1) == '\n' {
				if c == '#' {
					l.pyComment()
				} else if c == '\\' {
					l.adv()
				}
				if l.i < len(l.src) {
					l.adv()
				}
				continue
			}
			l.indentTo(width)
			atStart = false
			if l.err != nil {
				return
			}
		}
		c := l.src[l.i]
		line, col := l.line, l.col
		switch {
		case c == '\n':
			l.adv()
			if l.parens == 0 {
				l.emit(PNewline, "", line, col)
				atStart = true
			}
		case c == ' ' || c == '\t' || c == '\r' || c == '\f':
			l.adv()
		case c == '#':
			l.pyComment()
		case c == '\\' && (l.peek(1) == '\n' || l.peek(1) == '\r'):
			l.adv()
			if l.src[l.i] == '\r' {
				l.adv()
			}
			if l.i < len(l.src) && l.src[l.i] == '\n' {
				l.adv()
			}
		case c == '"' || c == '\'':
			l.pyString("", line, col)
		case c >= '0' && c <= '9' || c == '.' && l.peek(1) >= '0' && l.peek(1) <= '9':
			start := l.i
			for l.i < len(l.src) {
				d := l.src[l.i]
				if (d == '+' || d == '-') && (l.src[l.i-1] == 'e' || l.src[l.i-1] == 'E') && !strings.ContainsAny(string(l.src[start:l.i]), "xX") {
					l.adv()
					continue
				}
				if !(d >= '0' && d <= '9' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d == '_' || d == '.') {
					break
				}
				l.adv()
			}
			l.emit(PNumber, string(l.src[start:l.i]), line, col)
		case c >= utf8.RuneSelf || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			start := l.i
			for l.i < len(l.src) {
				r, n := utf8.DecodeRune(l.src[l.i:])
				if !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r)) {
					break
				}
				l.i += n
				l.col += n
			}
			if l.i == start {
				r, _ := utf8.DecodeRune(l.src[l.i:])
				if unicode.IsSpace(r) || r == '\ufeff' {
					l.skipRune()
					continue
				}
				l.fail(line, col, "unexpected character %q", r)
				return
			}
			word := string(l.src[start:l.i])
			if l.i < len(l.src) && (l.src[l.i] == '"' || l.src[l.i] == '\'') && len(word) <= 2 && strings.Trim(strings.ToLower(word), "rbuft") == "" {
				l.pyString(strings.ToLower(word), line, col)
				continue
			}
			l.emit(PName, word, line, col)
		default:
			l.pyOp(line, col)
		}
	}
	if l.err != nil {
		return
	}
	if l.parens > 0 {
		l.fail(l.line, l.col, "a bracket is not closed at the end of the file")
		return
	}
	if len(l.toks) > 0 && l.toks[len(l.toks)-1].Kind != PNewline {
		l.emit(PNewline, "", l.line, l.col)
	}
	for len(l.indents) > 1 {
		l.indents = l.indents[:len(l.indents)-1]
		l.emit(PDedent, "", l.line, l.col)
	}
}

func (l *pyLexer) pyComment() {
	line, start := l.line, l.i
	for l.i < len(l.src) && l.src[l.i] != '\n' {
		l.adv()
	}
	l.comments = append(l.comments, Comment{line, line, string(l.src[start:l.i])})
}

func (l *pyLexer) indentTo(width int) {
	top := l.indents[len(l.indents)-1]
	switch {
	case width > top:
		l.indents = append(l.indents, width)
		l.emit(PIndent, "", l.line, 1)
	case width < top:
		for width < l.indents[len(l.indents)-1] {
			l.indents = l.indents[:len(l.indents)-1]
			l.emit(PDedent, "", l.line, 1)
		}
		if width != l.indents[len(l.indents)-1] {
			l.fail(l.line, l.col, "unindent does not match any outer indentation level")
		}
	}
}

var pyOps = []string{"**=", "//=", ">>=", "<<=", "...", "->", ":=", "**", "//", "<<", ">>", "<=", ">=", "==", "!=",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@="}

func (l *pyLexer) pyOp(line, col int) {
	rest := l.src[l.i:]
	for _, op := range pyOps {
		if len(rest) >= len(op) && string(rest[:len(op)]) == op {
			for range op {
				l.adv()
			}
			l.emit(POp, op, line, col)
			return
		}
	}
	c := rest[0]
	switch c {
	case '(', '[', '{':
		l.parens++
	case ')', ']', '}':
		if l.parens == 0 {
			l.fail(line, col, "unmatched %q", c)
			return
		}
		l.parens--
	}
	l.adv()
	l.emit(POp, string(c), line, col)
}

// pyString scans a string literal whose prefix (lower case) is read.
func (l *pyLexer) pyString(prefix string, line, col int) {
	q := l.src[l.i]
	triple := l.peek(1) == q && l.peek(2) == q
	n := 1
	if triple {
		n = 3
	}
	for range n {
		l.adv()
	}
	format := strings.ContainsAny(prefix, "ft")
	start := l.i
	for l.err == nil && l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '\\':
			l.adv()
			if l.i < len(l.src) {
				l.adv()
			}
		case c == q && (!triple || l.peek(1) == q && l.peek(2) == q):
			l.emit(PString, string(l.src[start:l.i]), line, col)
			for range n {
				l.adv()
			}
			return
		case c == '\n' && !triple:
			l.fail(line, col, "a string is not closed on its line")
			return
		case format && c == '{':
			if l.peek(1) == '{' {
				l.adv()
				l.adv()
				continue
			}
			l.adv()
			if l.nest() {
				l.field()
				l.depth--
			}
		default:
			l.adv()
		}
	}
	if l.err == nil {
		l.fail(line, col, "a string is not closed")
	}
}

// field scans an f-string replacement field after its {: an expression
// (strings in it may use the outer quote, as Python 3.12 allows), then
// maybe !conversion and :format spec, to the closing }.
func (l *pyLexer) field() {
	depth := 0
	for l.err == nil && l.i < len(l.src) {
		c := l.src[l.i]
		line, col := l.line, l.col
		switch {
		case c == '}' && depth == 0:
			l.adv()
			return
		case c == ':' && depth == 0:
			l.adv()
			l.spec()
			return
		case c == '(' || c == '[' || c == '{':
			depth++
			l.adv()
		case c == ')' || c == ']' || c == '}':
			depth--
			l.adv()
		case c == '"' || c == '\'':
			l.pyString("", line, col)
			if l.err == nil {
				l.toks = l.toks[:len(l.toks)-1] // the inner string is not a token of the line
			}
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			start := l.i
			for l.i < len(l.src) && (l.src[l.i] >= 'a' && l.src[l.i] <= 'z' || l.src[l.i] >= 'A' && l.src[l.i] <= 'Z') {
				l.adv()
			}
			p := strings.ToLower(string(l.src[start:l.i]))
			if l.i < len(l.src) && (l.src[l.i] == '"' || l.src[l.i] == '\'') && len(p) <= 2 && strings.Trim(p, "rbuft") == "" {
				l.pyString(p, line, col)
				if l.err == nil {
					l.toks = l.toks[:len(l.toks)-1]
				}
			}
		case c == '#':
			l.fail(line, col, "a comment inside an f-string field")
			return
		default:
			l.adv()
		}
	}
	if l.err == nil {
		l.fail(l.line, l.col, "an f-string field is not closed")
	}
}

// spec scans a format spec to the } that closes its field; {} inside
// are nested fields.
func (l *pyLexer) spec() {
	for l.err == nil && l.i < len(l.src) {
		switch l.src[l.i] {
		case '}':
			l.adv()
			return
		case '{':
			l.adv()
			if l.nest() {
				l.field()
				l.depth--
			}
		default:
			l.adv()
		}
	}
	if l.err == nil {
		l.fail(l.line, l.col, "an f-string field is not closed")
	}
}
