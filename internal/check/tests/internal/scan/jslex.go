package scan

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Token kinds shared by the C-like tokenizers (JavaScript/TypeScript, Java).
const (
	TIdent    = 'i' // identifiers and keywords
	TString   = 's' // string and character literals; text is the content
	TNumber   = 'n'
	TPunct    = 'p'
	tRegex    = 'r' // a regular expression literal
	TTemplate = 't' // a template literal's text (its ${} parts are tokens of their own)
	tJSX      = 'x' // a JSX element's tags and text ({} parts are tokens of their own)
)

// Tok is one token of a C-like language.
type Tok struct {
	Kind      byte
	Text      string // identifier, punctuator, or literal content
	Line, Col int    // 1-based; col counts bytes
}

// Comment is one comment, for the reasons people write beside a skip.
type Comment struct {
	Line, EndLine int
	Text          string
}

// LexError is where a tokenizer gave up, and why.
type LexError struct {
	line, col int
	msg       string
}

func (e *LexError) Error() string { return fmt.Sprintf("%d:%d: %s", e.line, e.col, e.msg) }

// NewLexError is the error of text that does not tokenize at line:col.
func NewLexError(line, col int, msg string) *LexError { return &LexError{line, col, msg} }

// MaxNesting bounds the recursion of template literals and JSX inside each
// other: hostile input cannot exhaust the stack.
const MaxNesting = 500

// jsLexer tokenizes JavaScript and TypeScript, JSX included: what it must
// get right for the test checks is where strings, template literals,
// regular expression literals, comments and JSX text begin and end, so
// that a quote in JSX text or a slash in a regex never derails the rest.
type jsLexer struct {
	src       []byte
	i         int
	line, col int // of src[i]
	jsx       bool
	java      bool // Java: text blocks, no regex or template literals
	toks      []Tok
	comments  []Comment
	err       *LexError
	depth     int
}

// LexJS tokenizes src; jsx enables JSX (.jsx, .tsx, .js files).
func LexJS(src []byte, jsx bool) ([]Tok, []Comment, *LexError) {
	l := &jsLexer{src: src, line: 1, col: 1, jsx: jsx, toks: make([]Tok, 0, len(src)/6+16)}
	if len(src) > 1 && src[0] == '#' && src[1] == '!' {
		for l.i < len(src) && src[l.i] != '\n' {
			l.adv()
		}
	}
	l.run(false)
	return l.toks, l.comments, l.err
}

func (l *jsLexer) fail(line, col int, format string, a ...any) {
	if l.err == nil {
		l.err = &LexError{line, col, fmt.Sprintf(format, a...)}
	}
}

// adv moves past one byte, keeping line and column.
func (l *jsLexer) adv() {
	if l.src[l.i] == '\n' {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	l.i++
}

func (l *jsLexer) peek(k int) byte {
	if l.i+k < len(l.src) {
		return l.src[l.i+k]
	}
	return 0
}

func (l *jsLexer) emit(kind byte, text string, line, col int) {
	l.toks = append(l.toks, Tok{kind, text, line, col})
}

// regexOK reports whether a / or < here starts an expression operand (a
// regex literal, a JSX element) rather than being an operator, from the
// token before it.
func (l *jsLexer) regexOK() bool {
	if l.java {
		return false
	}
	if len(l.toks) == 0 {
		return true
	}
	t := l.toks[len(l.toks)-1]
	switch t.Kind {
	case TPunct:
		return t.Text != ")" && t.Text != "]" && t.Text != "}" && t.Text != "++" && t.Text != "--"
	case TIdent:
		switch t.Text {
		case "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw",
			"case", "do", "else", "yield", "await", "extends":
			return true
		}
	}
	return false
}

func isIdentStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '$' || r == '_' || r == '\\'
	}
	return unicode.IsLetter(r)
}

func isIdentPart(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '$' || r == '_' || r == '\\'
	}
	return isIdentStart(r) || unicode.IsDigit(r) || r == '\u200c' || r == '\u200d' || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r)
}

// run scans tokens to the end, or (inner) to the } that closes a ${} or a
// JSX {} expression, which it consumes.
func (l *jsLexer) run(inner bool) {
	braces := 0
	for l.err == nil && l.i < len(l.src) {
		c := l.src[l.i]
		line, col := l.line, l.col
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			l.adv()
		case c == '/' && l.peek(1) == '/':
			start := l.i
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.adv()
			}
			l.comments = append(l.comments, Comment{line, line, string(l.src[start:l.i])})
		case c == '/' && l.peek(1) == '*':
			start := l.i
			l.adv()
			l.adv()
			for l.i < len(l.src) && (l.src[l.i] != '*' || l.peek(1) != '/') {
				l.adv()
			}
			if l.i >= len(l.src) {
				l.fail(line, col, "a /* comment is not closed")
				return
			}
			l.adv()
			l.adv()
			l.comments = append(l.comments, Comment{line, l.line, string(l.src[start:l.i])})
		case c == '"' && l.java && l.peek(1) == '"' && l.peek(2) == '"':
			l.textBlock()
		case c == '\'' || c == '"':
			l.str(c)
		case c == '`' && !l.java:
			l.template()
		case c >= '0' && c <= '9' || c == '.' && l.peek(1) >= '0' && l.peek(1) <= '9':
			start := l.i
			for l.i < len(l.src) {
				d := l.src[l.i]
				if (d == '+' || d == '-') && (l.src[l.i-1] == 'e' || l.src[l.i-1] == 'E') && !(start+1 < l.i && (l.src[start+1] == 'x' || l.src[start+1] == 'X')) {
					l.adv()
					continue
				}
				if !(d >= '0' && d <= '9' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d == '_' || d == '.') {
					break
				}
				l.adv()
			}
			l.emit(TNumber, string(l.src[start:l.i]), line, col)
		case c == '/' && l.regexOK():
			if !l.regex() {
				l.adv()
				l.punct("/", line, col)
			}
		case c == '<' && l.jsx && l.regexOK() && l.jsxStarts():
			l.jsxElement()
		case c == '{':
			braces++
			l.adv()
			l.punct("{", line, col)
		case c == '}':
			if inner && braces == 0 {
				l.adv()
				return
			}
			braces--
			l.adv()
			l.punct("}", line, col)
		case c == '#' && !l.java && l.i+1 < len(l.src) && l.src[l.i+1] < utf8.RuneSelf && isIdentStart(rune(l.src[l.i+1])):
			l.adv()
			l.ident(line, col, 1)
		case c >= utf8.RuneSelf || isIdentStart(rune(c)):
			r, _ := utf8.DecodeRune(l.src[l.i:])
			if !isIdentStart(r) {
				if unicode.IsSpace(r) || r == '\ufeff' {
					l.skipRune()
					continue
				}
				l.fail(line, col, "unexpected character %q", r)
				return
			}
			l.ident(line, col, 0)
		default:
			l.operator(line, col)
		}
	}
	if inner && l.err == nil {
		l.fail(l.line, l.col, "a ${ or { expression is not closed")
	}
}

func (l *jsLexer) skipRune() {
	_, n := utf8.DecodeRune(l.src[l.i:])
	l.i += n
	l.col += n
}

func (l *jsLexer) ident(line, col, back int) {
	start := l.i - back
	for l.i < len(l.src) {
		c := l.src[l.i]
		if c < utf8.RuneSelf {
			if c == '\\' { // \u escape
				l.adv()
				if l.i < len(l.src) {
					l.adv()
				}
				continue
			}
			if !isIdentPart(rune(c)) {
				break
			}
			l.adv()
			continue
		}
		r, n := utf8.DecodeRune(l.src[l.i:])
		if !isIdentPart(r) {
			break
		}
		l.i += n
		l.col += n
	}
	l.emit(TIdent, string(l.src[start:l.i]), line, col)
}

// operators are the JavaScript punctuators, longest first.
var operators = []string{
	">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=",
	"&=", "|=", "^=", "<<", ">>", "**",
}

func (l *jsLexer) operator(line, col int) {
	rest := l.src[l.i:]
	if len(rest) == 1 || strings.IndexByte(">.=!*<&|?+-%^/", rest[0]) < 0 {
		l.adv()
		l.punct(string(rest[:1]), line, col)
		return
	}
	for _, op := range operators {
		if op[0] != rest[0] {
			continue
		}
		if len(rest) >= len(op) && string(rest[:len(op)]) == op {
			// ">>" and ">=" inside TypeScript generics are never what the
			// test checks look at, so reading them whole is harmless.
			if op == "?." && len(rest) > 2 && rest[2] >= '0' && rest[2] <= '9' {
				break // a ? .5 conditional
			}
			for range op {
				l.adv()
			}
			l.punct(op, line, col)
			return
		}
	}
	l.adv()
	l.punct(string(rest[:1]), line, col)
}

func (l *jsLexer) punct(s string, line, col int) { l.emit(TPunct, s, line, col) }

func (l *jsLexer) str(q byte) {
	line, col := l.line, l.col
	l.adv()
	start := l.i
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch c {
		case q:
			l.emit(TString, string(l.src[start:l.i]), line, col)
			l.adv()
			return
		case '\\':
			l.adv()
			if l.i < len(l.src) {
				l.adv()
			}
		case '\n':
			l.fail(line, col, "a string is not closed on its line")
			return
		default:
			l.adv()
		}
	}
	l.fail(line, col, "a string is not closed")
}

// template scans a template literal; each ${} inside is tokenized in turn.
func (l *jsLexer) template() {
	line0, col0 := l.line, l.col
	line, col := line0, col0
	l.adv()
	start := l.i
	for l.i < len(l.src) {
		switch l.src[l.i] {
		case '`':
			l.emit(TTemplate, string(l.src[start:l.i]), line, col)
			l.adv()
			return
		case '\\':
			l.adv()
			if l.i < len(l.src) {
				l.adv()
			}
		case '$':
			if l.peek(1) != '{' {
				l.adv()
				continue
			}
			l.emit(TTemplate, string(l.src[start:l.i]), line, col)
			l.adv()
			l.adv()
			if l.nest() {
				l.run(true)
				l.depth--
			}
			if l.err != nil {
				return
			}
			start = l.i
			line, col = l.line, l.col
		default:
			l.adv()
		}
	}
	l.fail(line0, col0, "a template literal is not closed")
}

func (l *jsLexer) nest() bool {
	l.depth++
	if l.depth > MaxNesting {
		l.fail(l.line, l.col, "nesting deeper than %d levels", MaxNesting)
		return false
	}
	return true
}

// regex scans a regular expression literal; false (nothing consumed) when
// the line ends first, in which case the slash was a division after all.
func (l *jsLexer) regex() bool {
	line, col := l.line, l.col
	j, class := l.i+1, false
	for ; j < len(l.src); j++ {
		c := l.src[j]
		switch {
		case c == '\n' || c == '\r':
			return false
		case c == '\\':
			j++
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			j++
			for j < len(l.src) && (l.src[j] >= 'a' && l.src[j] <= 'z' || l.src[j] >= 'A' && l.src[j] <= 'Z') {
				j++
			}
			text := string(l.src[l.i:j])
			for l.i < j {
				l.adv()
			}
			l.emit(tRegex, text, line, col)
			return true
		}
	}
	return false
}

// jsxStarts reports whether the < here opens a JSX element rather than a
// TypeScript generic parameter list of an arrow function (<T,>, <T extends U>).
func (l *jsLexer) jsxStarts() bool {
	j := l.i + 1
	if j < len(l.src) && l.src[j] == '>' {
		return true // a fragment
	}
	if j >= len(l.src) || !(l.src[j] >= utf8.RuneSelf || isIdentStart(rune(l.src[j]))) {
		return false
	}
	k := j
	for k < len(l.src) && l.src[k] < utf8.RuneSelf && isIdentPart(rune(l.src[k])) {
		k++
	}
	name := string(l.src[j:k])
	for k < len(l.src) && (l.src[k] == ' ' || l.src[k] == '\t') {
		k++
	}
	if k < len(l.src) && (l.src[k] == ',' || l.src[k] == '=') {
		return false // <T,>() => or <T = U>: type parameters
	}
	if k+1 < len(l.src) && l.src[k] == '>' && l.src[k+1] == '(' {
		return false // <T>() => in a type: a generic function type
	}
	return !(k+7 <= len(l.src) && string(l.src[k:k+7]) == "extends" && name != "")
}

// jsxElement scans one JSX element (or fragment) with its children; the
// {} expressions inside are tokenized as code.
func (l *jsLexer) jsxElement() {
	if !l.nest() {
		return
	}
	defer func() { l.depth-- }()
	line, col := l.line, l.col
	l.adv() // <
	l.jsxName()
	// attributes
	for l.err == nil {
		l.jsxSpace()
		if l.i >= len(l.src) {
			l.fail(line, col, "a JSX element is not closed")
			return
		}
		c := l.src[l.i]
		switch {
		case c == '/' && l.peek(1) == '>':
			l.adv()
			l.adv()
			l.emit(tJSX, "", line, col)
			return
		case c == '>':
			l.adv()
			l.jsxChildren(line, col)
			return
		case c == '{':
			l.adv()
			l.run(true)
		case c == '=':
			l.adv()
			l.jsxSpace()
			switch l.peek(0) {
			case '"', '\'':
				q := l.src[l.i]
				l.adv()
				for l.i < len(l.src) && l.src[l.i] != q {
					l.adv()
				}
				if l.i >= len(l.src) {
					l.fail(line, col, "a JSX attribute value is not closed")
					return
				}
				l.adv()
			case '{':
				l.adv()
				l.run(true)
			case '<':
				l.jsxElement()
			}
		case c >= utf8.RuneSelf || isIdentPart(rune(c)) || c == '-' || c == ':':
			at := l.i
			l.jsxName()
			if l.i == at {
				l.fail(l.line, l.col, "unexpected character in a JSX tag")
				return
			}
		default:
			l.fail(l.line, l.col, "unexpected %q in a JSX tag", c)
			return
		}
	}
}

func (l *jsLexer) jsxSpace() {
	for l.i < len(l.src) {
		c := l.src[l.i]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			l.adv()
			continue
		}
		if c == '/' && l.peek(1) == '*' { // comments are allowed between attributes
			l.adv()
			l.adv()
			for l.i < len(l.src) && (l.src[l.i] != '*' || l.peek(1) != '/') {
				l.adv()
			}
			if l.i < len(l.src) {
				l.adv()
				l.adv()
			}
			continue
		}
		if c == '/' && l.peek(1) == '/' {
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.adv()
			}
			continue
		}
		return
	}
}

func (l *jsLexer) jsxName() {
	for l.i < len(l.src) {
		c := l.src[l.i]
		if c == '.' || c == '-' || c == ':' || c < utf8.RuneSelf && isIdentPart(rune(c)) {
			l.adv()
			continue
		}
		if c >= utf8.RuneSelf {
			r, _ := utf8.DecodeRune(l.src[l.i:])
			if isIdentPart(r) {
				l.skipRune()
				continue
			}
		}
		return
	}
}

func (l *jsLexer) jsxChildren(line, col int) {
	for l.err == nil && l.i < len(l.src) {
		switch l.src[l.i] {
		case '{':
			l.adv()
			l.run(true)
		case '<':
			if l.peek(1) == '/' {
				for l.i < len(l.src) && l.src[l.i] != '>' {
					l.adv()
				}
				if l.i < len(l.src) {
					l.adv()
					l.emit(tJSX, "", line, col)
					return
				}
			} else {
				l.jsxElement()
			}
		default:
			l.adv()
		}
	}
	l.fail(line, col, "a JSX element is not closed")
}

// LexJava tokenizes Java: the same C-like tokens, with text blocks and
// character literals, and no regex or template literals.
func LexJava(src []byte) ([]Tok, []Comment, *LexError) {
	l := &jsLexer{src: src, line: 1, col: 1, java: true, toks: make([]Tok, 0, len(src)/6+16)}
	l.run(false)
	return l.toks, l.comments, l.err
}

// textBlock scans a Java text block, """ to """.
func (l *jsLexer) textBlock() {
	line, col := l.line, l.col
	l.adv()
	l.adv()
	l.adv()
	start := l.i
	for l.i < len(l.src) {
		switch {
		case l.src[l.i] == '\\':
			l.adv()
			if l.i < len(l.src) {
				l.adv()
			}
		case l.src[l.i] == '"' && l.peek(1) == '"' && l.peek(2) == '"':
			l.emit(TString, string(l.src[start:l.i]), line, col)
			l.adv()
			l.adv()
			l.adv()
			return
		default:
			l.adv()
		}
	}
	l.fail(line, col, "a text block is not closed")
}
