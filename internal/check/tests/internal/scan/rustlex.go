package scan

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// LexRust tokenizes Rust: raw identifiers, lifetimes told from character
// literals, strings (which may span lines), raw strings r#"..."#, byte and
// C strings, nested block comments. Attributes are the tokens # [ ... ].
func LexRust(src []byte) ([]Tok, []Comment, *LexError) {
	l := &jsLexer{src: src, line: 1, col: 1, toks: make([]Tok, 0, len(src)/6+16)}
	if len(src) > 2 && src[0] == '#' && src[1] == '!' && src[2] != '[' { // a shebang, not #![attr]
		for l.i < len(src) && src[l.i] != '\n' {
			l.adv()
		}
	}
	for l.err == nil && l.i < len(l.src) {
		c := l.src[l.i]
		line, col := l.line, l.col
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
			l.adv()
		case c == '/' && l.peek(1) == '/':
			start := l.i
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.adv()
			}
			l.comments = append(l.comments, Comment{line, line, string(l.src[start:l.i])})
		case c == '/' && l.peek(1) == '*':
			start, depth := l.i, 0
			for l.i < len(l.src) {
				if l.src[l.i] == '/' && l.peek(1) == '*' {
					depth++
					l.adv()
				} else if l.src[l.i] == '*' && l.peek(1) == '/' {
					depth--
					l.adv()
					if depth == 0 {
						l.adv()
						break
					}
				}
				l.adv()
			}
			if depth != 0 {
				l.fail(line, col, "a /* comment is not closed")
				return l.toks, l.comments, l.err
			}
			l.comments = append(l.comments, Comment{line, l.line, string(l.src[start:l.i])})
		case c == '"':
			l.rustString(line, col, 0)
		case (c == 'r' || c == 'b' || c == 'c') && l.rustPrefixed(line, col):
		case c == '\'':
			l.rustQuote(line, col)
		case c >= '0' && c <= '9':
			start := l.i
			for l.i < len(l.src) {
				d := l.src[l.i]
				if d == '.' && l.peek(1) >= '0' && l.peek(1) <= '9' && !strings.Contains(string(l.src[start:l.i]), ".") ||
					d >= '0' && d <= '9' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d == '_' {
					l.adv()
					continue
				}
				break
			}
			l.emit(TNumber, string(l.src[start:l.i]), line, col)
		case c >= utf8.RuneSelf || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			r, _ := utf8.DecodeRune(l.src[l.i:])
			if r == '\ufeff' || unicode.IsSpace(r) {
				l.skipRune()
				continue
			}
			if !isIdentStart(r) || r == '$' || r == '\\' {
				l.fail(line, col, "unexpected character %q", r)
				return l.toks, l.comments, l.err
			}
			l.ident(line, col, 0)
		default:
			l.rustPunct(line, col)
		}
	}
	return l.toks, l.comments, l.err
}

var rustOps = []string{"::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "..=", "...", ".."}

func (l *jsLexer) rustPunct(line, col int) {
	rest := l.src[l.i:]
	for _, op := range rustOps {
		if len(rest) >= len(op) && string(rest[:len(op)]) == op {
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

// rustPrefixed scans r"...", r#"..."#, r#ident, b"...", br"...", b'x',
// c"..." and cr"..."; false when the letter starts a plain identifier.
func (l *jsLexer) rustPrefixed(line, col int) bool {
	j := l.i
	if l.src[j] == 'b' || l.src[j] == 'c' {
		j++
		if j < len(l.src) && l.src[j] == '"' {
			for l.i < j {
				l.adv()
			}
			l.rustString(line, col, 0)
			return true
		}
		if l.src[l.i] == 'b' && j < len(l.src) && l.src[j] == '\'' {
			l.adv()
			l.rustQuote(line, col)
			return true
		}
	}
	if j >= len(l.src) || l.src[j] != 'r' {
		return false
	}
	j++
	hashes := 0
	for j < len(l.src) && l.src[j] == '#' {
		hashes++
		j++
	}
	if j >= len(l.src) || l.src[j] != '"' {
		if hashes == 1 && l.src[l.i] == 'r' && j < len(l.src) && l.src[j] < utf8.RuneSelf && isIdentStart(rune(l.src[j])) {
			l.adv() // r#ident, a raw identifier
			l.adv()
			l.ident(line, col, 0)
			return true
		}
		return false
	}
	for l.i <= j {
		l.adv()
	}
	start := l.i
	closing := "\"" + strings.Repeat("#", hashes)
	for l.i < len(l.src) {
		if string(l.src[l.i:min(len(l.src), l.i+len(closing))]) == closing {
			l.emit(TString, string(l.src[start:l.i]), line, col)
			for range closing {
				l.adv()
			}
			return true
		}
		l.adv()
	}
	l.fail(line, col, "a raw string is not closed")
	return true
}

// rustString scans "..." (which may span lines) from its opening quote.
func (l *jsLexer) rustString(line, col, _ int) {
	l.adv()
	start := l.i
	for l.i < len(l.src) {
		switch l.src[l.i] {
		case '"':
			l.emit(TString, string(l.src[start:l.i]), line, col)
			l.adv()
			return
		case '\\':
			l.adv()
			if l.i < len(l.src) {
				l.adv()
			}
		default:
			l.adv()
		}
	}
	l.fail(line, col, "a string is not closed")
}

// rustQuote scans a character literal ('a', '\n', '\u{1F600}') or a
// lifetime ('a, 'static), which has no closing quote.
func (l *jsLexer) rustQuote(line, col int) {
	rest := l.src[l.i+1:]
	if len(rest) >= 2 && rest[0] == '\\' {
		end := strings.IndexByte(string(rest[2:min(len(rest), 14)]), '\'') + 2 // past the escaped character
		if end < 2 {
			l.fail(line, col, "a character literal is not closed")
			return
		}
		for range end + 2 {
			l.adv()
		}
		l.emit(TString, "", line, col)
		return
	}
	if _, n := utf8.DecodeRune(rest); n > 0 && len(rest) > n && rest[n] == '\'' {
		for range n + 2 {
			l.adv()
		}
		l.emit(TString, "", line, col)
		return
	}
	l.adv() // a lifetime: the quote, then its name
	if l.i < len(l.src) && (l.src[l.i] >= utf8.RuneSelf || isIdentStart(rune(l.src[l.i]))) {
		l.ident(line, col, 1)
		return
	}
	l.fail(line, col, "a stray quote")
}
