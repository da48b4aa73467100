package mermaid

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The shared pieces of the diagram lexers and parsers: JavaScript's
// character classes (Mermaid's lexers are JavaScript regular expressions),
// a cursor over the text, tokens, and the parser's lookahead and failure.

// isWordByte is JavaScript's \w.
func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }

func isAlpha(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// isJSSpaceByte is JavaScript's \s for ASCII bytes.
func isJSSpaceByte(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}

// isJSSpace is JavaScript's \s.
func isJSSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// isJSLineBreakExceptLF reports a character JavaScript's "." does not
// match, other than "\n": CR, U+2028, U+2029.
func isJSLineBreakExceptLF(t string, i int) bool {
	if t[i] == '\r' {
		return true
	}
	return strings.HasPrefix(t[i:], "\u2028") || strings.HasPrefix(t[i:], "\u2029")
}

// decodeRune decodes the rune at i; an invalid byte is a rune of width 1.
func decodeRune(t string, i int) (rune, int) {
	if t[i] < utf8.RuneSelf {
		return rune(t[i]), 1
	}
	return utf8.DecodeRuneInString(t[i:])
}

// skipJSSpace returns the first index at or after i that is not \s.
func skipJSSpace(t string, i int) int {
	for i < len(t) {
		if t[i] < utf8.RuneSelf {
			if !isJSSpaceByte(t[i]) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(t[i:])
		if !isJSSpace(r) {
			return i
		}
		i += n
	}
	return i
}

// skipLineSpace returns the first index at or after i that is not \s or
// is "\n": ((?!\n)\s)*.
func skipLineSpace(t string, i int) int {
	for i < len(t) && t[i] != '\n' {
		r, n := decodeRune(t, i)
		if !isJSSpace(r) {
			return i
		}
		i += n
	}
	return i
}

// lineEnd returns the index of the next "\n" at or after i, or len(t).
func lineEnd(t string, i int) int {
	if j := strings.IndexByte(t[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(t)
}

// wordEnds reports whether a keyword ending just before i ends a word there:
// JavaScript's \b after a word character.
func wordEnds(t string, i int) bool { return i >= len(t) || !isWordByte(t[i]) }

// hasWord reports whether t has kw at i followed by a word boundary (kw
// ends with a word character), matching case when fold is false.
func hasWord(t string, i int, kw string, fold bool) bool {
	if !hasPrefixAt(t, i, kw, fold) {
		return false
	}
	return wordEnds(t, i+len(kw))
}

// hasPrefixAt reports whether t has p at i, ignoring ASCII case if fold.
func hasPrefixAt(t string, i int, p string, fold bool) bool {
	if len(t)-i < len(p) {
		return false
	}
	if !fold {
		return t[i:i+len(p)] == p
	}
	return strings.EqualFold(t[i:i+len(p)], p)
}

// token is one token of a diagram's text.
type token struct {
	kind     string // the grammar's name for it: "NEWLINE", "NODE_STRING"
	val      string // its text, or the value the lexer gives it
	from, to int    // where it is in the parsed text
}

// tokError is the kind of the token a lexer returns for text it cannot
// read; tokEOF ends the text.
const (
	tokError = "<error>"
	tokEOF   = "<eof>"
)

// bailout unwinds a parser after its first syntax error, as Mermaid's
// parsers stop at theirs.
type bailout struct{}

// tokenSource is a diagram lexer.
type tokenSource interface{ next() token }

// parser is the lookahead and failure shared by the diagram parsers.
type parser struct {
	d    *diagram
	code src
	lex  tokenSource
	buf  []token
	// hint, when set, turns a syntax error into a more helpful message for
	// the diagram type.
	hint  func(found token, expected string) string
	last  token // the last token taken
	depth int   // how deeply blocks nest, bounded by maxNesting
}

// enter notes one more level of nested blocks, refusing more than
// maxNesting (Mermaid's parsers have no such bound, but no real diagram
// nests that deep, and a bound keeps the recursion small).
func (p *parser) enter(at token) {
	p.depth++
	if p.depth > maxNesting {
		p.failMsg(at, fmt.Sprintf("blocks are nested more than %d deep here, too deep to check", maxNesting))
	}
}

// leave closes a level entered with enter.
func (p *parser) leave() { p.depth-- }

func newParser(d *diagram, code src, lex tokenSource) parser {
	return parser{d: d, code: code, lex: lex}
}

// peek returns the token k places ahead (0: the next one).
func (p *parser) peek(k int) token {
	for len(p.buf) <= k {
		p.buf = append(p.buf, p.lex.next())
	}
	return p.buf[k]
}

// at reports whether the next token is of one of the kinds.
func (p *parser) at(kinds ...string) bool {
	k := p.peek(0).kind
	for _, want := range kinds {
		if k == want {
			return true
		}
	}
	return false
}

// take returns the next token and moves past it.
func (p *parser) take() token {
	t := p.peek(0)
	p.buf = p.buf[1:]
	p.last = t
	return t
}

// accept takes the next token if it is of kind.
func (p *parser) accept(kind string) (token, bool) {
	if p.at(kind) {
		return p.take(), true
	}
	return token{}, false
}

// expect takes the next token, which must be of kind; what describes it in
// the error otherwise.
func (p *parser) expect(kind, what string) token {
	if !p.at(kind) {
		p.fail(what)
	}
	return p.take()
}

// fail reports a syntax error at the next token: expected says what would
// have been right there.
func (p *parser) fail(expected string) {
	p.failAt(p.peek(0), expected)
}

// failAt reports a syntax error at t and stops the parse.
func (p *parser) failAt(t token, expected string) {
	msg := ""
	if p.hint != nil {
		msg = p.hint(t, expected)
	}
	if msg == "" {
		msg = fmt.Sprintf("expected %s, found %s", expected, describe(t))
	}
	p.failMsg(t, msg)
}

// failMsg reports a syntax error at t with msg and stops the parse.
func (p *parser) failMsg(t token, msg string) {
	from, last := tokenSpan(p.code.text, t)
	p.d.report(ruleSyntax, p.code, from, last, msg,
		"fix the syntax here; Mermaid refuses the whole diagram otherwise")
	panic(bailout{})
}

// tokenSpan is where to point at t: without the white space some tokens
// carry, and for the end of the text, just after its last character.
func tokenSpan(text string, t token) (from, last int) {
	from, to := t.from, t.to
	if t.kind == tokEOF || t.kind == "EOF" || from >= len(text) {
		for from > 0 && isJSSpaceByte(text[from-1]) {
			from--
		}
		return from, from
	}
	for from < to && isJSSpaceByte(text[from]) {
		from++
	}
	for to > from && isJSSpaceByte(text[to-1]) {
		to--
	}
	if to == from {
		return t.from, t.from
	}
	return from, to - 1
}

// describe names a token for a message.
func describe(t token) string {
	switch t.kind {
	case tokEOF:
		return "the end of the diagram"
	case "NEWLINE", "NL":
		if strings.TrimSpace(t.val) == "" {
			return "the end of the line"
		}
	}
	v := t.val
	if v == "" {
		return t.kind
	}
	v = shorten(v)
	if t.kind == tokError {
		return fmt.Sprintf("%q, which Mermaid cannot read here", v)
	}
	return fmt.Sprintf("%q", v)
}

// runParse runs parse, turning a bailout into a stop.
func runParse(parse func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(bailout); !is {
				panic(r)
			}
			ok = false
		}
	}()
	parse()
	return true
}

// trimJSLeft removes leading \s.
func trimJSLeft(t string) string { return t[skipJSSpace(t, 0):] }
