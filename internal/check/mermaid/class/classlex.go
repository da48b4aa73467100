package class

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// The class diagram lexer, after classDiagram.jison: the class and
// namespace states with their bodies, strings, generics, backquoted names,
// callbacks, and the rules every state shares.

type classState uint8

const (
	csInitial classState = iota
	csString
	csBqString
	csGeneric
	csCallbackName
	csCallbackArgs
	csAccTitle
	csAccDescr
	csAccDescrMulti
	csClass
	csClassBody
	csNamespace
	csNamespaceBody
)

// csAcc are the states of the accessibility statements' values.
var csAcc = syntax.AccStates[classState]{Title: csAccTitle, Descr: csAccDescr, Multi: csAccDescrMulti}

type classLexer struct {
	syntax.Scanner[classState]
	dir syntax.DirectionLines
}

func newClassLexer(t string) *classLexer {
	return &classLexer{Scanner: syntax.NewScanner(t, csInitial)}
}

func (l *classLexer) Next() syntax.Token {
	for {
		st := l.State()
		if l.Pos >= len(l.Src) {
			return l.atEnd(st)
		}
		if tok, ok := l.lexOne(st); ok {
			return tok
		}
	}
}

// atEnd is what the rules give at the end of the text: once, the token of
// the state's rule that matches the empty string, or EOF; then nothing.
func (l *classLexer) atEnd(st classState) syntax.Token {
	kind := "EOF"
	switch st {
	case csAccTitle:
		kind = "acc_title_value"
	case csAccDescr:
		kind = "acc_descr_value"
	case csAccDescrMulti:
		kind = "acc_descr_multiline_value"
	case csString:
		kind = "STR"
	case csGeneric:
		kind = "GENERICTYPE"
	case csCallbackName:
		kind = "CALLBACK_NAME"
	case csCallbackArgs:
		kind = "CALLBACK_ARGS"
	case csClassBody, csNamespaceBody:
		kind = "EOF_IN_STRUCT"
	}
	return l.End(kind)
}

func (l *classLexer) lexOne(st classState) (syntax.Token, bool) {
	if tok, emit, ok := l.AccValue(csAcc, st); ok {
		return tok, emit
	}
	t, i := l.Src, l.Pos
	switch st {
	case csString:
		if t[i] == '"' {
			l.Pos++
			l.Pop()
			return syntax.Token{}, false
		}
		return l.Tok("STR", syntax.IndexByteFrom(t, i, '"')), true
	case csCallbackName:
		return l.callbackName()
	case csCallbackArgs:
		if t[i] == ')' {
			l.Pos++
			l.Pop()
			return syntax.Token{}, false
		}
		return l.Tok("CALLBACK_ARGS", syntax.IndexByteFrom(t, i, ')')), true
	case csClass, csClassBody, csNamespace, csNamespaceBody:
		return l.structState(st)
	case csGeneric, csBqString:
		return l.quoted(st)
	}
	return l.initial()
}

func (l *classLexer) callbackName() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == '(' {
		j := syntax.SkipJSSpace(t, i+1)
		l.Pop()
		if j < len(t) && t[j] == ')' {
			l.Pos = j + 1
			return syntax.Token{}, false
		}
		l.Pos = i + 1
		l.Push(csCallbackArgs)
		return syntax.Token{}, false
	}
	return l.Tok("CALLBACK_NAME", syntax.IndexByteFrom(t, i, '(')), true
}

// quoted are the generic (~...~) and backquote states: a quote, the shared
// keyword rules, then the closing character or the text.
func (l *classLexer) quoted(st classState) (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == '"' {
		l.Pos++
		l.Push(csString)
		return syntax.Token{}, false
	}
	if tok, ok := l.sharedKeywords(); ok {
		return tok, true
	}
	if st == csGeneric {
		if t[i] == '~' {
			l.Pos++
			l.Pop()
			return syntax.Token{}, false
		}
		return l.Tok("GENERICTYPE", syntax.IndexByteFrom(t, i, '~')), true
	}
	if t[i] == '~' {
		l.Pos++
		l.Push(csGeneric)
		return syntax.Token{}, false
	}
	if t[i] == '`' {
		l.Pos++
		l.Pop()
		return syntax.Token{}, false
	}
	return l.Tok("BQUOTE_STR", syntax.IndexByteFrom(t, i, '`')), true
}

// structState runs the class, class body, namespace and namespace body
// states' own rules, then the shared ones.
func (l *classLexer) structState(st classState) (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == '"' {
		l.Pos++
		l.Push(csString)
		return syntax.Token{}, false
	}
	switch st {
	case csClass:
		if end := syntax.NewlineRunEnd(t, i); end > 0 {
			l.Pop()
			return l.Tok("NEWLINE", end), true
		}
		if j := syntax.SkipJSSpace(t, i); j > i {
			l.Pos = j
			return syntax.Token{}, false
		}
		switch t[i] {
		case '}':
			l.Pop()
			l.Pop()
			return l.Tok("STRUCT_STOP", i+1), true
		case '{':
			l.Push(csClassBody)
			return l.Tok("STRUCT_START", i+1), true
		}
	case csClassBody:
		return l.classBody()
	case csNamespace:
		if syntax.HasWord(t, i, "namespace", false) {
			l.Push(csNamespace)
			return l.Tok("NAMESPACE", i+9), true
		}
		if end := syntax.NewlineRunEnd(t, i); end > 0 {
			l.Pop()
			return l.Tok("NEWLINE", end), true
		}
		if j := syntax.SkipJSSpace(t, i); j > i {
			l.Pos = j
			return syntax.Token{}, false
		}
		switch t[i] {
		case '{':
			l.Push(csNamespaceBody)
			return l.Tok("STRUCT_START", i+1), true
		case '}':
			l.Pop() // and the } is read again in the outer state
			return syntax.Token{}, false
		}
	case csNamespaceBody:
		if tok, ok := l.namespaceBody(); ok || l.Pos != i {
			return tok, ok
		}
	}
	return l.shared(false)
}

func (l *classLexer) classBody() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	switch {
	case t[i] == '}':
		l.Pop()
		return l.Tok("STRUCT_STOP", i+1), true
	case strings.HasPrefix(t[i:], "[*]"):
		return l.Tok("EDGE_STATE", i+3), true
	case t[i] == '{':
		return l.Tok("OPEN_IN_STRUCT", i+1), true
	case t[i] == '\n':
		l.Pos++
		return syntax.Token{}, false
	}
	j := i
	for j < len(t) && t[j] != '{' && t[j] != '}' && t[j] != '\n' {
		j++
	}
	return l.Tok("MEMBER", j), true
}

func (l *classLexer) namespaceBody() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	switch {
	case syntax.HasWord(t, i, "namespace", false):
		l.Push(csNamespace)
		return l.Tok("NAMESPACE", i+9), true
	case t[i] == '}':
		l.Pop()
		return l.Tok("STRUCT_STOP", i+1), true
	}
	if end := syntax.NewlineRunEnd(t, i); end > 0 {
		return l.Tok("NEWLINE", end), true
	}
	if j := syntax.SkipJSSpace(t, i); j > i {
		l.Pos = j
		return syntax.Token{}, false
	}
	if strings.HasPrefix(t[i:], "[*]") {
		return l.Tok("EDGE_STATE", i+3), true
	}
	if syntax.HasWord(t, i, "class", false) {
		l.Push(csClass)
		return l.Tok("CLASS", i+5), true
	}
	return syntax.Token{}, false
}

func (l *classLexer) initial() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if kind, end := l.dir.Match(t, i); kind != "" && kind != "direction_td" {
		return l.Tok(kind, end), true
	}
	if strings.HasPrefix(t[i:], "%%") {
		l.Pos = syntax.NewlineRunFrom(t, syntax.LineEnd(t, i))
		return syntax.Token{}, false
	}
	if tok, emit, ok := l.AccKeyword(csAcc, false); ok {
		return tok, emit
	}
	if end := syntax.NewlineRunEnd(t, i); end > 0 {
		return l.Tok("NEWLINE", end), true
	}
	if j := syntax.SkipJSSpace(t, i); j > i {
		l.Pos = j
		return syntax.Token{}, false
	}
	return l.initialKeywords()
}

func (l *classLexer) initialKeywords() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	switch {
	case syntax.HasWord(t, i, "classDiagram-v2", false):
		return l.Tok("CLASS_DIAGRAM", i+15), true
	case syntax.HasWord(t, i, "classDiagram", false):
		return l.Tok("CLASS_DIAGRAM", i+12), true
	case strings.HasPrefix(t[i:], "[*]"):
		return l.Tok("EDGE_STATE", i+3), true
	}
	if syntax.HasPrefixAt(t, i, "call", false) {
		if j := syntax.SkipJSSpace(t, i+4); j > i+4 {
			l.Pos = j
			l.Push(csCallbackName)
			return syntax.Token{}, false
		}
	}
	if t[i] == '"' {
		l.Pos++
		l.Push(csString)
		return syntax.Token{}, false
	}
	for _, k := range []struct{ w, kind string }{{"style", "STYLE"}, {"classDef", "CLASSDEF"}} {
		if syntax.HasWord(t, i, k.w, false) {
			return l.Tok(k.kind, i+len(k.w)), true
		}
	}
	if syntax.HasWord(t, i, "namespace", false) {
		l.Push(csNamespace)
		return l.Tok("NAMESPACE", i+9), true
	}
	if syntax.HasWord(t, i, "class", false) {
		l.Push(csClass)
		return l.Tok("CLASS", i+5), true
	}
	return l.shared(true)
}

var classSharedKeywords = []struct{ w, kind string }{
	{"cssClass", "CSSCLASS"}, {"callback", "CALLBACK"}, {"link", "LINK"}, {"click", "CLICK"},
	{"note for", "NOTE_FOR"}, {"note", "NOTE"},
}

// sharedKeywords are the shared rules up to href.
func (l *classLexer) sharedKeywords() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	for _, k := range classSharedKeywords {
		if syntax.HasWord(t, i, k.w, false) {
			return l.Tok(k.kind, i+len(k.w)), true
		}
	}
	switch {
	case strings.HasPrefix(t[i:], "<<"):
		return l.Tok("ANNOTATION_START", i+2), true
	case strings.HasPrefix(t[i:], ">>"):
		return l.Tok("ANNOTATION_END", i+2), true
	case syntax.HasWord(t, i, "href", false):
		return l.Tok("HREF", i+4), true
	}
	return syntax.Token{}, false
}

// shared are the rules every state has, from cssClass to the end; the
// INITIAL state has : , # and \s among them too.
func (l *classLexer) shared(initial bool) (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if tok, ok := l.sharedKeywords(); ok {
		return tok, true
	}
	switch t[i] {
	case '~':
		l.Pos++
		l.Push(csGeneric)
		return syntax.Token{}, false
	case '`':
		l.Pos++
		l.Push(csBqString)
		return syntax.Token{}, false
	}
	for _, w := range []string{"_self", "_blank", "_parent", "_top"} {
		if syntax.HasWord(t, i, w, false) {
			return l.Tok("LINK_TARGET", i+len(w)), true
		}
	}
	if kind, end := classRelation(t, i); kind != "" {
		return l.Tok(kind, end), true
	}
	return l.sharedPunctuation(initial)
}

// classRelation matches the relation rules: \s*<| \s*|> \s*> \s*< \s*\*
// \s*o\b \s*() -- .. in order.
func classRelation(t string, i int) (string, int) {
	j := syntax.SkipJSSpace(t, i)
	switch {
	case strings.HasPrefix(t[j:], "<|"):
		return "EXTENSION", j + 2
	case strings.HasPrefix(t[j:], "|>"):
		return "EXTENSION", j + 2
	case strings.HasPrefix(t[j:], ">"):
		return "DEPENDENCY", j + 1
	case strings.HasPrefix(t[j:], "<"):
		return "DEPENDENCY", j + 1
	case strings.HasPrefix(t[j:], "*"):
		return "COMPOSITION", j + 1
	case syntax.HasWord(t, j, "o", false):
		return "AGGREGATION", j + 1
	case strings.HasPrefix(t[j:], "()"):
		return "LOLLIPOP", j + 2
	case strings.HasPrefix(t[i:], "--"):
		return "LINE", i + 2
	case strings.HasPrefix(t[i:], ".."):
		return "DOTTED_LINE", i + 2
	}
	return "", 0
}

func (l *classLexer) sharedPunctuation(initial bool) (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == ':' {
		j := i + 1
		for j < len(t) && t[j] != ':' && t[j] != '\n' && t[j] != ';' {
			j++
		}
		if j > i+1 {
			return l.Tok("LABEL", j), true
		}
		if strings.HasPrefix(t[i:], ":::") {
			return l.Tok("STYLE_SEPARATOR", i+3), true
		}
	}
	switch t[i] {
	case '-':
		return l.Tok("MINUS", i+1), true
	case '.':
		return l.Tok("DOT", i+1), true
	case '+':
		return l.Tok("PLUS", i+1), true
	}
	if initial {
		switch t[i] {
		case ':':
			return l.Tok("COLON", i+1), true
		case ',':
			return l.Tok("COMMA", i+1), true
		case '#':
			return l.Tok("BRKT", i+1), true
		}
	}
	return l.sharedText(initial)
}

func (l *classLexer) sharedText(initial bool) (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	switch t[i] {
	case '%':
		return l.Tok("PCT", i+1), true
	case '=':
		return l.Tok("EQUALS", i+1), true
	}
	if syntax.IsWordByte(t[i]) {
		j := i
		for j < len(t) && syntax.IsWordByte(t[j]) {
			j++
		}
		return l.Tok("ALPHA", j), true
	}
	switch t[i] {
	case '[':
		return l.Tok("SQS", i+1), true
	case ']':
		return l.Tok("SQE", i+1), true
	}
	if strings.IndexByte("!\"#$%&'*+,-.`?\\/", t[i]) >= 0 {
		return l.Tok("PUNCTUATION", i+1), true
	}
	r, n := syntax.DecodeRune(t, i)
	if syntax.IsUnicodeText(r) {
		return l.Tok("UNICODE_TEXT", i+n), true
	}
	if syntax.IsJSSpace(r) {
		return l.Tok("SPACE", i+n), true
	}
	t2 := l.Tok(syntax.TokError, i+n)
	l.Pos = len(l.Src)
	l.EOFSent = true
	return t2, true
}
