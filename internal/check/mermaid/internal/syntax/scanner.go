package syntax

// Scanner is what a lexer with start conditions keeps as it reads: the
// text, the position, the stack of its states (the last is the current
// one; the first is never popped) and whether it has given its end-of-text
// token. Each diagram family's lexer embeds one over its own state type.
type Scanner[S any] struct {
	Src     string
	Pos     int
	Stack   []S
	EOFSent bool
}

// NewScanner starts reading src in state initial.
func NewScanner[S any](src string, initial S) Scanner[S] {
	return Scanner[S]{Src: src, Stack: []S{initial}}
}

// State is the current state.
func (l *Scanner[S]) State() S { return l.Stack[len(l.Stack)-1] }

// Push enters state s.
func (l *Scanner[S]) Push(s S) { l.Stack = append(l.Stack, s) }

// Pop leaves the current state for the one before it; the first state
// stays.
func (l *Scanner[S]) Pop() {
	if len(l.Stack) > 1 {
		l.Stack = l.Stack[:len(l.Stack)-1]
	}
}

// Tok is the token of this kind from the position to end, and moves the
// position there.
func (l *Scanner[S]) Tok(kind string, end int) Token {
	t := Token{Kind: kind, Val: l.Src[l.Pos:end], From: l.Pos, To: end}
	l.Pos = end
	return t
}

// End is the token at the end of the text: once one of kind (none when
// kind is empty), then TokEOF.
func (l *Scanner[S]) End(kind string) Token {
	if l.EOFSent || kind == "" {
		return Token{Kind: TokEOF, From: l.Pos, To: l.Pos}
	}
	l.EOFSent = true
	return Token{Kind: kind, From: l.Pos, To: l.Pos}
}

// Fail is the error token of the character at the position. A lexer
// stops at its first error, as Jison's does: only TokEOF follows it.
func (l *Scanner[S]) Fail() Token {
	_, n := DecodeRune(l.Src, l.Pos)
	t := l.Tok(TokError, min(l.Pos+n, len(l.Src)))
	l.Pos, l.Stack, l.EOFSent = len(l.Src), l.Stack[:1], true
	return t
}
