package syntax

// Scanner is what a lexer with start conditions keeps as it reads: the
// text, the position, the stack of its states (the last is the current
// one; the first is never popped) and whether it has given its end-of-text
// token. Each diagram family's lexer embeds one over its own state type.
type Scanner[S comparable] struct {
	Src     string
	Pos     int
	Stack   []S
	EOFSent bool
}

// NewScanner starts reading src in state initial.
func NewScanner[S comparable](src string, initial S) Scanner[S] {
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

// AccStates are a lexer's states for the values of the accessibility
// statements (accTitle: v, accDescr: v, accDescr { v }), which the
// diagram families that share Mermaid's common rules lex alike.
type AccStates[S comparable] struct{ Title, Descr, Multi S }

// AccKeyword reads an accessibility keyword at the position, as
// AccKeyword does (spaceFirst likewise), and enters the state of its
// value. ok says one was read; emit says tok is a token to give (the
// multi-line form gives none for its brace).
func (l *Scanner[S]) AccKeyword(a AccStates[S], spaceFirst bool) (tok Token, emit, ok bool) {
	kind, end, st := AccKeyword(l.Src, l.Pos, spaceFirst)
	if kind == "" {
		return Token{}, false, false
	}
	switch st {
	case FsAccTitle:
		l.Push(a.Title)
	case FsAccDescr:
		l.Push(a.Descr)
	default:
		l.Push(a.Multi)
		l.Pos = end
		return Token{}, false, true
	}
	return l.Tok(kind, end), true, true
}

// AccValue lexes an accessibility statement's value when st is one of
// a's states (ok); emit says tok is a token to give.
func (l *Scanner[S]) AccValue(a AccStates[S], st S) (tok Token, emit, ok bool) {
	t, i := l.Src, l.Pos
	switch st {
	case a.Title, a.Descr:
		kind := "acc_title_value"
		if st == a.Descr {
			kind = "acc_descr_value"
		}
		l.Pop()
		return l.Tok(kind, LineEnd(t, i)), true, true
	case a.Multi:
		if t[i] == '}' {
			l.Pos++
			l.Pop()
			return Token{}, false, true
		}
		return l.Tok("acc_descr_multiline_value", IndexByteFrom(t, i, '}')), true, true
	}
	return Token{}, false, false
}
