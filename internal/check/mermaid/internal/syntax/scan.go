package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The shared pieces of the diagram lexers and parsers: JavaScript's
// character classes (Mermaid's lexers are JavaScript regular expressions),
// a cursor over the text, tokens, and the parser's lookahead and failure.

// IsWordByte is JavaScript's \w.
func IsWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func IsDigit(b byte) bool { return b >= '0' && b <= '9' }

func IsAlpha(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// IsJSSpaceByte is JavaScript's \s for ASCII bytes.
func IsJSSpaceByte(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\v' || b == '\f'
}

// IsJSSpace is JavaScript's \s.
func IsJSSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\v', '\f', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// IsJSLineBreakExceptLF reports a character JavaScript's "." does not
// match, other than "\n": CR, U+2028, U+2029.
func IsJSLineBreakExceptLF(t string, i int) bool {
	if t[i] == '\r' {
		return true
	}
	return strings.HasPrefix(t[i:], "\u2028") || strings.HasPrefix(t[i:], "\u2029")
}

// DecodeRune decodes the rune at i; an invalid byte is a rune of width 1.
func DecodeRune(t string, i int) (rune, int) {
	if t[i] < utf8.RuneSelf {
		return rune(t[i]), 1
	}
	return utf8.DecodeRuneInString(t[i:])
}

// SkipJSSpace returns the first index at or after i that is not \s.
func SkipJSSpace(t string, i int) int {
	for i < len(t) {
		if t[i] < utf8.RuneSelf {
			if !IsJSSpaceByte(t[i]) {
				return i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(t[i:])
		if !IsJSSpace(r) {
			return i
		}
		i += n
	}
	return i
}

// SkipLineSpace returns the first index at or after i that is not \s or
// is "\n": ((?!\n)\s)*.
func SkipLineSpace(t string, i int) int {
	for i < len(t) && t[i] != '\n' {
		r, n := DecodeRune(t, i)
		if !IsJSSpace(r) {
			return i
		}
		i += n
	}
	return i
}

// LineEnd returns the index of the next "\n" at or after i, or len(t).
func LineEnd(t string, i int) int {
	if j := strings.IndexByte(t[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(t)
}

// WordEnds reports whether a keyword ending just before i ends a word there:
// JavaScript's \b after a word character.
func WordEnds(t string, i int) bool { return i >= len(t) || !IsWordByte(t[i]) }

// HasWord reports whether t has kw at i followed by a word boundary (kw
// ends with a word character), matching case when fold is false.
func HasWord(t string, i int, kw string, fold bool) bool {
	if !HasPrefixAt(t, i, kw, fold) {
		return false
	}
	return WordEnds(t, i+len(kw))
}

// HasPrefixAt reports whether t has p at i, ignoring ASCII case if fold.
func HasPrefixAt(t string, i int, p string, fold bool) bool {
	if len(t)-i < len(p) {
		return false
	}
	if !fold {
		return t[i:i+len(p)] == p
	}
	return strings.EqualFold(t[i:i+len(p)], p)
}

// Token is one token of a diagram's text.
type Token struct {
	Kind     string // the grammar's name for it: "NEWLINE", "NODE_STRING"
	Val      string // its text, or the value the lexer gives it
	From, To int    // where it is in the parsed text
}

// tokError is the kind of the token a lexer returns for text it cannot
// read; tokEOF ends the text.
const (
	TokError = "<error>"
	TokEOF   = "<eof>"
)

// Bailout unwinds a parser after its first syntax error, as Mermaid's
// parsers stop at theirs.
type Bailout struct{}

// tokenSource is a diagram lexer.
type tokenSource interface{ Next() Token }

// Parser is the lookahead and failure shared by the diagram parsers.
type Parser struct {
	D    *Diagram
	code Src
	lex  tokenSource
	buf  []Token
	// Hint, when set, turns a syntax error into a more helpful message for
	// the diagram type.
	Hint  func(found Token, expected string) string
	Last  Token // the last token taken
	depth int   // how deeply blocks nest, bounded by maxNesting
}

// Enter notes one more level of nested blocks, refusing more than
// maxNesting (Mermaid's parsers have no such bound, but no real diagram
// nests that deep, and a bound keeps the recursion small).
func (p *Parser) Enter(at Token) {
	p.depth++
	if p.depth > maxNesting {
		p.FailMsg(at, fmt.Sprintf("blocks are nested more than %d deep here, too deep to check", maxNesting))
	}
}

// Leave closes a level entered with enter.
func (p *Parser) Leave() { p.depth-- }

func NewParser(d *Diagram, code Src, lex tokenSource) Parser {
	return Parser{D: d, code: code, lex: lex}
}

// Peek returns the token k places ahead (0: the next one).
func (p *Parser) Peek(k int) Token {
	for len(p.buf) <= k {
		p.buf = append(p.buf, p.lex.Next())
	}
	return p.buf[k]
}

// At reports whether the next token is of one of the kinds.
func (p *Parser) At(kinds ...string) bool {
	k := p.Peek(0).Kind
	for _, want := range kinds {
		if k == want {
			return true
		}
	}
	return false
}

// Take returns the next token and moves past it.
func (p *Parser) Take() Token {
	t := p.Peek(0)
	p.buf = p.buf[1:]
	p.Last = t
	return t
}

// Accept takes the next token if it is of kind.
func (p *Parser) Accept(kind string) (Token, bool) {
	if p.At(kind) {
		return p.Take(), true
	}
	return Token{}, false
}

// Expect takes the next token, which must be of kind; what describes it in
// the error otherwise.
func (p *Parser) Expect(kind, what string) Token {
	if !p.At(kind) {
		p.Fail(what)
	}
	return p.Take()
}

// Fail reports a syntax error at the next token: expected says what would
// have been right there.
func (p *Parser) Fail(expected string) {
	p.FailAt(p.Peek(0), expected)
}

// FailAt reports a syntax error at t and stops the parse.
func (p *Parser) FailAt(t Token, expected string) {
	msg := ""
	if p.Hint != nil {
		msg = p.Hint(t, expected)
	}
	if msg == "" {
		msg = fmt.Sprintf("expected %s, found %s", expected, Describe(t))
	}
	p.FailMsg(t, msg)
}

// FailMsg reports a syntax error at t with msg and stops the parse.
func (p *Parser) FailMsg(t Token, msg string) {
	from, last := TokenSpan(p.code.Text, t)
	p.D.Report(RuleSyntax, p.code, from, last, msg,
		"fix the syntax here; Mermaid refuses the whole diagram otherwise")
	panic(Bailout{})
}

// TokenSpan is where to point at t: without the white space some tokens
// carry, and for the end of the text, just after its last character.
func TokenSpan(text string, t Token) (from, last int) {
	from, to := t.From, t.To
	if t.Kind == TokEOF || t.Kind == "EOF" || from >= len(text) {
		for from > 0 && IsJSSpaceByte(text[from-1]) {
			from--
		}
		return from, from
	}
	for from < to && IsJSSpaceByte(text[from]) {
		from++
	}
	for to > from && IsJSSpaceByte(text[to-1]) {
		to--
	}
	if to == from {
		return t.From, t.From
	}
	return from, to - 1
}

// Describe names a token for a message.
func Describe(t Token) string {
	switch t.Kind {
	case TokEOF:
		return "the end of the diagram"
	case "NEWLINE", "NL":
		if strings.TrimSpace(t.Val) == "" {
			return "the end of the line"
		}
	}
	v := t.Val
	if v == "" {
		return t.Kind
	}
	v = shorten(v)
	if t.Kind == TokError {
		return fmt.Sprintf("%q, which Mermaid cannot read here", v)
	}
	return fmt.Sprintf("%q", v)
}

// RunParse runs parse, turning a bailout into a stop.
func RunParse(parse func()) (ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, is := r.(Bailout); !is {
				panic(r)
			}
			ok = false
		}
	}()
	parse()
	return true
}

// TrimJSLeft removes leading \s.
func TrimJSLeft(t string) string { return t[SkipJSSpace(t, 0):] }
