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

type classLexer struct {
	t       string
	pos     int
	stack   []classState
	eofSent bool
	dir     syntax.DirectionLines
}

func newClassLexer(t string) *classLexer { return &classLexer{t: t, stack: []classState{csInitial}} }

func (l *classLexer) state() classState { return l.stack[len(l.stack)-1] }
func (l *classLexer) push(s classState) { l.stack = append(l.stack, s) }
func (l *classLexer) pop() {
	if len(l.stack) > 1 {
		l.stack = l.stack[:len(l.stack)-1]
	}
}

func (l *classLexer) tok(kind string, end int) syntax.Token {
	t := syntax.Token{Kind: kind, Val: l.t[l.pos:end], From: l.pos, To: end}
	l.pos = end
	return t
}

func (l *classLexer) Next() syntax.Token {
	for {
		st := l.state()
		if l.pos >= len(l.t) {
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
	if l.eofSent {
		return syntax.Token{Kind: syntax.TokEOF, From: l.pos, To: l.pos}
	}
	l.eofSent = true
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
	return syntax.Token{Kind: kind, From: l.pos, To: l.pos}
}

func (l *classLexer) lexOne(st classState) (syntax.Token, bool) {
	t, i := l.t, l.pos
	switch st {
	case csAccTitle, csAccDescr:
		kind := "acc_title_value"
		if st == csAccDescr {
			kind = "acc_descr_value"
		}
		l.pop()
		return l.tok(kind, syntax.LineEnd(t, i)), true
	case csAccDescrMulti:
		if t[i] == '}' {
			l.pos++
			l.pop()
			return syntax.Token{}, false
		}
		return l.tok("acc_descr_multiline_value", syntax.IndexByteFrom(t, i, '}')), true
	case csString:
		if t[i] == '"' {
			l.pos++
			l.pop()
			return syntax.Token{}, false
		}
		return l.tok("STR", syntax.IndexByteFrom(t, i, '"')), true
	case csCallbackName:
		return l.callbackName()
	case csCallbackArgs:
		if t[i] == ')' {
			l.pos++
			l.pop()
			return syntax.Token{}, false
		}
		return l.tok("CALLBACK_ARGS", syntax.IndexByteFrom(t, i, ')')), true
	case csClass, csClassBody, csNamespace, csNamespaceBody:
		return l.structState(st)
	case csGeneric, csBqString:
		return l.quoted(st)
	}
	return l.initial()
}

func (l *classLexer) callbackName() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if t[i] == '(' {
		j := syntax.SkipJSSpace(t, i+1)
		l.pop()
		if j < len(t) && t[j] == ')' {
			l.pos = j + 1
			return syntax.Token{}, false
		}
		l.pos = i + 1
		l.push(csCallbackArgs)
		return syntax.Token{}, false
	}
	return l.tok("CALLBACK_NAME", syntax.IndexByteFrom(t, i, '(')), true
}

// quoted are the generic (~...~) and backquote states: a quote, the shared
// keyword rules, then the closing character or the text.
func (l *classLexer) quoted(st classState) (syntax.Token, bool) {
	t, i := l.t, l.pos
	if t[i] == '"' {
		l.pos++
		l.push(csString)
		return syntax.Token{}, false
	}
	if tok, ok := l.sharedKeywords(); ok {
		return tok, true
	}
	if st == csGeneric {
		if t[i] == '~' {
			l.pos++
			l.pop()
			return syntax.Token{}, false
		}
		return l.tok("GENERICTYPE", syntax.IndexByteFrom(t, i, '~')), true
	}
	if t[i] == '~' {
		l.pos++
		l.push(csGeneric)
		return syntax.Token{}, false
	}
	if t[i] == '`' {
		l.pos++
		l.pop()
		return syntax.Token{}, false
	}
	return l.tok("BQUOTE_STR", syntax.IndexByteFrom(t, i, '`')), true
}

// structState runs the class, class body, namespace and namespace body
// states' own rules, then the shared ones.
func (l *classLexer) structState(st classState) (syntax.Token, bool) {
	t, i := l.t, l.pos
	if t[i] == '"' {
		l.pos++
		l.push(csString)
		return syntax.Token{}, false
	}
	switch st {
	case csClass:
		if end := syntax.NewlineRunEnd(t, i); end > 0 {
			l.pop()
			return l.tok("NEWLINE", end), true
		}
		if j := syntax.SkipJSSpace(t, i); j > i {
			l.pos = j
			return syntax.Token{}, false
		}
		switch t[i] {
		case '}':
			l.pop()
			l.pop()
			return l.tok("STRUCT_STOP", i+1), true
		case '{':
			l.push(csClassBody)
			return l.tok("STRUCT_START", i+1), true
		}
	case csClassBody:
		return l.classBody()
	case csNamespace:
		if syntax.HasWord(t, i, "namespace", false) {
			l.push(csNamespace)
			return l.tok("NAMESPACE", i+9), true
		}
		if end := syntax.NewlineRunEnd(t, i); end > 0 {
			l.pop()
			return l.tok("NEWLINE", end), true
		}
		if j := syntax.SkipJSSpace(t, i); j > i {
			l.pos = j
			return syntax.Token{}, false
		}
		switch t[i] {
		case '{':
			l.push(csNamespaceBody)
			return l.tok("STRUCT_START", i+1), true
		case '}':
			l.pop() // and the } is read again in the outer state
			return syntax.Token{}, false
		}
	case csNamespaceBody:
		if tok, ok := l.namespaceBody(); ok || l.pos != i {
			return tok, ok
		}
	}
	return l.shared(false)
}

func (l *classLexer) classBody() (syntax.Token, bool) {
	t, i := l.t, l.pos
	switch {
	case t[i] == '}':
		l.pop()
		return l.tok("STRUCT_STOP", i+1), true
	case strings.HasPrefix(t[i:], "[*]"):
		return l.tok("EDGE_STATE", i+3), true
	case t[i] == '{':
		return l.tok("OPEN_IN_STRUCT", i+1), true
	case t[i] == '\n':
		l.pos++
		return syntax.Token{}, false
	}
	j := i
	for j < len(t) && t[j] != '{' && t[j] != '}' && t[j] != '\n' {
		j++
	}
	return l.tok("MEMBER", j), true
}

func (l *classLexer) namespaceBody() (syntax.Token, bool) {
	t, i := l.t, l.pos
	switch {
	case syntax.HasWord(t, i, "namespace", false):
		l.push(csNamespace)
		return l.tok("NAMESPACE", i+9), true
	case t[i] == '}':
		l.pop()
		return l.tok("STRUCT_STOP", i+1), true
	}
	if end := syntax.NewlineRunEnd(t, i); end > 0 {
		return l.tok("NEWLINE", end), true
	}
	if j := syntax.SkipJSSpace(t, i); j > i {
		l.pos = j
		return syntax.Token{}, false
	}
	if strings.HasPrefix(t[i:], "[*]") {
		return l.tok("EDGE_STATE", i+3), true
	}
	if syntax.HasWord(t, i, "class", false) {
		l.push(csClass)
		return l.tok("CLASS", i+5), true
	}
	return syntax.Token{}, false
}

func (l *classLexer) initial() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if kind, end := l.dir.Match(t, i); kind != "" && kind != "direction_td" {
		return l.tok(kind, end), true
	}
	if strings.HasPrefix(t[i:], "%%") {
		l.pos = syntax.NewlineRunFrom(t, syntax.LineEnd(t, i))
		return syntax.Token{}, false
	}
	if kind, end, st := syntax.AccKeyword(t, i, false); kind != "" {
		switch st {
		case syntax.FsAccTitle:
			l.push(csAccTitle)
		case syntax.FsAccDescr:
			l.push(csAccDescr)
		default:
			l.push(csAccDescrMulti)
			l.pos = end
			return syntax.Token{}, false
		}
		return l.tok(kind, end), true
	}
	if end := syntax.NewlineRunEnd(t, i); end > 0 {
		return l.tok("NEWLINE", end), true
	}
	if j := syntax.SkipJSSpace(t, i); j > i {
		l.pos = j
		return syntax.Token{}, false
	}
	return l.initialKeywords()
}

func (l *classLexer) initialKeywords() (syntax.Token, bool) {
	t, i := l.t, l.pos
	switch {
	case syntax.HasWord(t, i, "classDiagram-v2", false):
		return l.tok("CLASS_DIAGRAM", i+15), true
	case syntax.HasWord(t, i, "classDiagram", false):
		return l.tok("CLASS_DIAGRAM", i+12), true
	case strings.HasPrefix(t[i:], "[*]"):
		return l.tok("EDGE_STATE", i+3), true
	}
	if syntax.HasPrefixAt(t, i, "call", false) {
		if j := syntax.SkipJSSpace(t, i+4); j > i+4 {
			l.pos = j
			l.push(csCallbackName)
			return syntax.Token{}, false
		}
	}
	if t[i] == '"' {
		l.pos++
		l.push(csString)
		return syntax.Token{}, false
	}
	for _, k := range []struct{ w, kind string }{{"style", "STYLE"}, {"classDef", "CLASSDEF"}} {
		if syntax.HasWord(t, i, k.w, false) {
			return l.tok(k.kind, i+len(k.w)), true
		}
	}
	if syntax.HasWord(t, i, "namespace", false) {
		l.push(csNamespace)
		return l.tok("NAMESPACE", i+9), true
	}
	if syntax.HasWord(t, i, "class", false) {
		l.push(csClass)
		return l.tok("CLASS", i+5), true
	}
	return l.shared(true)
}

var classSharedKeywords = []struct{ w, kind string }{
	{"cssClass", "CSSCLASS"}, {"callback", "CALLBACK"}, {"link", "LINK"}, {"click", "CLICK"},
	{"note for", "NOTE_FOR"}, {"note", "NOTE"},
}

// sharedKeywords are the shared rules up to href.
func (l *classLexer) sharedKeywords() (syntax.Token, bool) {
	t, i := l.t, l.pos
	for _, k := range classSharedKeywords {
		if syntax.HasWord(t, i, k.w, false) {
			return l.tok(k.kind, i+len(k.w)), true
		}
	}
	switch {
	case strings.HasPrefix(t[i:], "<<"):
		return l.tok("ANNOTATION_START", i+2), true
	case strings.HasPrefix(t[i:], ">>"):
		return l.tok("ANNOTATION_END", i+2), true
	case syntax.HasWord(t, i, "href", false):
		return l.tok("HREF", i+4), true
	}
	return syntax.Token{}, false
}

// shared are the rules every state has, from cssClass to the end; the
// INITIAL state has : , # and \s among them too.
func (l *classLexer) shared(initial bool) (syntax.Token, bool) {
	t, i := l.t, l.pos
	if tok, ok := l.sharedKeywords(); ok {
		return tok, true
	}
	switch t[i] {
	case '~':
		l.pos++
		l.push(csGeneric)
		return syntax.Token{}, false
	case '`':
		l.pos++
		l.push(csBqString)
		return syntax.Token{}, false
	}
	for _, w := range []string{"_self", "_blank", "_parent", "_top"} {
		if syntax.HasWord(t, i, w, false) {
			return l.tok("LINK_TARGET", i+len(w)), true
		}
	}
	if kind, end := classRelation(t, i); kind != "" {
		return l.tok(kind, end), true
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
	t, i := l.t, l.pos
	if t[i] == ':' {
		j := i + 1
		for j < len(t) && t[j] != ':' && t[j] != '\n' && t[j] != ';' {
			j++
		}
		if j > i+1 {
			return l.tok("LABEL", j), true
		}
		if strings.HasPrefix(t[i:], ":::") {
			return l.tok("STYLE_SEPARATOR", i+3), true
		}
	}
	switch t[i] {
	case '-':
		return l.tok("MINUS", i+1), true
	case '.':
		return l.tok("DOT", i+1), true
	case '+':
		return l.tok("PLUS", i+1), true
	}
	if initial {
		switch t[i] {
		case ':':
			return l.tok("COLON", i+1), true
		case ',':
			return l.tok("COMMA", i+1), true
		case '#':
			return l.tok("BRKT", i+1), true
		}
	}
	return l.sharedText(initial)
}

func (l *classLexer) sharedText(initial bool) (syntax.Token, bool) {
	t, i := l.t, l.pos
	switch t[i] {
	case '%':
		return l.tok("PCT", i+1), true
	case '=':
		return l.tok("EQUALS", i+1), true
	}
	if syntax.IsWordByte(t[i]) {
		j := i
		for j < len(t) && syntax.IsWordByte(t[j]) {
			j++
		}
		return l.tok("ALPHA", j), true
	}
	switch t[i] {
	case '[':
		return l.tok("SQS", i+1), true
	case ']':
		return l.tok("SQE", i+1), true
	}
	if strings.IndexByte("!\"#$%&'*+,-.`?\\/", t[i]) >= 0 {
		return l.tok("PUNCTUATION", i+1), true
	}
	r, n := syntax.DecodeRune(t, i)
	if syntax.IsUnicodeText(r) {
		return l.tok("UNICODE_TEXT", i+n), true
	}
	if syntax.IsJSSpace(r) {
		return l.tok("SPACE", i+n), true
	}
	t2 := l.tok(syntax.TokError, i+n)
	l.pos = len(l.t)
	l.eofSent = true
	return t2, true
}
