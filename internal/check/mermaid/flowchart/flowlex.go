package flowchart

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// The flowchart lexer, after flow.jison: its start conditions and, in each,
// its rules in their order (the first rule that matches wins, as in a Jison
// lexer without the flex option).

type flowLexer struct {
	syntax.Scanner[syntax.FlowState]
	graphSeen  bool // the first graph keyword opens the dir state
	ws         spaceRuns
	dir        syntax.DirectionLines
	linkID     linkIDRun
	emptySteps int // zero-width matches in a row, to stop a loop
}

func NewFlowLexer(t string) *flowLexer {
	return &flowLexer{Scanner: syntax.NewScanner(t, syntax.FsInitial)}
}

// tok makes a token of kind from l.Pos to end and moves there.
func (l *flowLexer) Next() syntax.Token {
	for {
		if l.Pos >= len(l.Src) {
			if l.State() == syntax.FsInitial && !l.EOFSent {
				l.EOFSent = true
				return syntax.Token{Kind: "EOF", From: l.Pos, To: l.Pos}
			}
			if st := l.State(); st != syntax.FsAccTitle && st != syntax.FsAccDescr && st != syntax.FsClick && st != syntax.FsAccDescrMulti {
				return syntax.Token{Kind: syntax.TokEOF, From: l.Pos, To: l.Pos}
			}
		}
		start := l.Pos
		tok, ok := l.lexOne()
		if ok {
			return tok
		}
		if l.Pos == start {
			l.emptySteps++
			if l.emptySteps > 4 {
				return syntax.Token{Kind: syntax.TokEOF, From: l.Pos, To: l.Pos}
			}
		} else {
			l.emptySteps = 0
		}
	}
}

// lexOne runs the current state's rules once: a token, or none when the
// rule only changes state.
func (l *flowLexer) lexOne() (syntax.Token, bool) {
	switch l.State() {
	case syntax.FsInitial:
		return l.initial()
	case syntax.FsString:
		return l.inString()
	case syntax.FsMdString:
		return l.inMdString()
	case syntax.FsAccTitle, syntax.FsAccDescr:
		kind := "acc_title_value"
		if l.State() == syntax.FsAccDescr {
			kind = "acc_descr_value"
		}
		l.Pop()
		return l.Tok(kind, syntax.LineEnd(l.Src, l.Pos)), true
	case syntax.FsAccDescrMulti:
		return l.accDescrMulti()
	case syntax.FsDir:
		return l.inDir()
	case syntax.FsText:
		return l.inText()
	case syntax.FsEllipseText:
		return l.inEllipseText()
	case syntax.FsTrapText:
		return l.inTrapText()
	case syntax.FsEdgeText, syntax.FsThickEdgeText, syntax.FsDottedEdgeText:
		return l.inEdgeText()
	case syntax.FsClick:
		return l.inClick()
	case syntax.FsCallbackName:
		return l.inCallbackName()
	case syntax.FsCallbackArgs:
		return l.inCallbackArgs()
	case syntax.FsShapeData:
		return l.inShapeData()
	case syntax.FsShapeDataStr:
		return l.inShapeDataStr()
	}
	return l.Fail(), true
}

// quotes are the rules every state has first: "` opens a Markdown string,
// " a string.
func (l *flowLexer) quotes() bool {
	if strings.HasPrefix(l.Src[l.Pos:], "\"`") {
		l.Pos += 2
		l.Push(syntax.FsMdString)
		return true
	}
	if l.Src[l.Pos] == '"' {
		l.Pos++
		l.Push(syntax.FsString)
		return true
	}
	return false
}

// anyState are the <*> rules after the quotes: invisible links, and the
// brackets that open a label.
func (l *flowLexer) anyState() (syntax.Token, bool) {
	if end := l.ws.invisibleLink(l.Src, l.Pos); end > 0 {
		return l.Tok("LINK", end), true
	}
	if k, end, st := openBracket(l.Src, l.Pos); k != "" {
		l.Push(st)
		return l.Tok(k, end), true
	}
	return syntax.Token{}, false
}

// openBracket matches the <*> rules that open a label, in rule order
// (the single brackets come later; see singleBracket).
func openBracket(t string, i int) (kind string, end int, st syntax.FlowState) {
	switch {
	case strings.HasPrefix(t[i:], "(-"):
		return "(-", i + 2, syntax.FsEllipseText
	case strings.HasPrefix(t[i:], "(["):
		return "STADIUMSTART", i + 2, syntax.FsText
	case strings.HasPrefix(t[i:], "[["):
		return "SUBROUTINESTART", i + 2, syntax.FsText
	}
	return "", 0, 0
}

// laterBracket matches the <*> rules after [[ in rule order: [( ((( [/ [\.
func laterBracket(t string, i int) (kind string, end int, st syntax.FlowState) {
	switch {
	case strings.HasPrefix(t[i:], "[("):
		return "CYLINDERSTART", i + 2, syntax.FsText
	case strings.HasPrefix(t[i:], "((("):
		return "DOUBLECIRCLESTART", i + 3, syntax.FsText
	case strings.HasPrefix(t[i:], "[/"):
		return "TRAPSTART", i + 2, syntax.FsTrapText
	case strings.HasPrefix(t[i:], "[\\"):
		return "INVTRAPSTART", i + 2, syntax.FsTrapText
	}
	return "", 0, 0
}

// singleBracket matches the last <*> rules: | ( [ {, each opening text.
func singleBracket(t string, i int) (kind string, end int) {
	switch t[i] {
	case '|':
		return "PIPE", i + 1
	case '(':
		return "PS", i + 1
	case '[':
		return "SQS", i + 1
	case '{':
		return "DIAMOND_START", i + 1
	}
	return "", 0
}

func (l *flowLexer) initial() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if i >= len(t) {
		l.EOFSent = true
		return syntax.Token{Kind: "EOF", From: i, To: i}, true
	}
	if tok, ok := l.accessibility(); ok {
		return tok, true
	} else if l.Pos != i {
		return syntax.Token{}, false
	}
	if strings.HasPrefix(t[i:], "@{") {
		l.Push(syntax.FsShapeData)
		tok := l.Tok("SHAPE_DATA", i+2)
		tok.Val = ""
		return tok, true
	}
	if syntax.HasPrefixAt(t, i, "call", false) {
		if j := syntax.SkipJSSpace(t, i+4); j > i+4 {
			l.Pos = j
			l.Push(syntax.FsCallbackName)
			return syntax.Token{}, false
		}
	}
	if l.quotes() {
		return syntax.Token{}, false
	}
	if tok, ok := l.keyword(); ok {
		return tok, true
	} else if l.Pos != i {
		return syntax.Token{}, false
	}
	if kind, end := l.dir.Match(t, i); kind != "" {
		return l.Tok(kind, end), true
	}
	if end := l.linkID.match(t, i); end > 0 {
		return l.Tok("LINK_ID", end), true
	}
	return l.punctuation()
}

// accessibility matches accTitle: and accDescr: / accDescr {; the last
// only changes state.
func (l *flowLexer) accessibility() (syntax.Token, bool) {
	kind, end, st := syntax.AccKeyword(l.Src, l.Pos, false)
	if kind == "" {
		return syntax.Token{}, false
	}
	l.Push(st)
	if st == syntax.FsAccDescrMulti {
		l.Pos = end
		return syntax.Token{}, false
	}
	return l.Tok(kind, end), true
}

func (l *flowLexer) accDescrMulti() (syntax.Token, bool) {
	if l.Pos >= len(l.Src) {
		l.Pop()
		return syntax.Token{Kind: "acc_descr_multiline_value", From: l.Pos, To: l.Pos}, true
	}
	if l.Src[l.Pos] == '}' {
		l.Pos++
		l.Pop()
		return syntax.Token{}, false
	}
	end := strings.IndexByte(l.Src[l.Pos:], '}')
	if end < 0 {
		end = len(l.Src)
	} else {
		end += l.Pos
	}
	return l.Tok("acc_descr_multiline_value", end), true
}

var flowKeywords = []struct{ word, kind string }{
	{"style", "STYLE"}, {"default", "DEFAULT"}, {"linkStyle", "LINKSTYLE"}, {"interpolate", "INTERPOLATE"},
	{"classDef", "CLASSDEF"}, {"class", "CLASS"},
}

// keyword matches the keyword rules, style to _top.
func (l *flowLexer) keyword() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	for _, k := range flowKeywords {
		if syntax.HasWord(t, i, k.word, false) {
			return l.Tok(k.kind, i+len(k.word)), true
		}
	}
	if syntax.HasPrefixAt(t, i, "href", false) && i+4 < len(t) {
		if r, n := syntax.DecodeRune(t, i+4); syntax.IsJSSpace(r) {
			return l.Tok("HREF", i+4+n), true
		}
	}
	if syntax.HasPrefixAt(t, i, "click", false) {
		if j := syntax.SkipJSSpace(t, i+5); j > i+5 {
			l.Pos = j
			l.Push(syntax.FsClick)
			return syntax.Token{}, false
		}
	}
	for _, g := range []string{"flowchart-elk", "swimlane-beta", "graph", "flowchart"} {
		if syntax.HasWord(t, i, g, false) {
			if !l.graphSeen {
				l.graphSeen = true
				l.Push(syntax.FsDir)
			}
			return l.Tok("GRAPH", i+len(g)), true
		}
	}
	if syntax.HasWord(t, i, "subgraph", false) {
		return l.Tok("subgraph", i+8), true
	}
	if syntax.HasWord(t, i, "end", false) {
		return l.Tok("end", syntax.SkipJSSpace(t, i+3)), true
	}
	for _, w := range []string{"_self", "_blank", "_parent", "_top"} {
		if syntax.HasWord(t, i, w, false) {
			return l.Tok("LINK_TARGET", i+len(w)), true
		}
	}
	return syntax.Token{}, false
}

// punctuation matches the rules from NUM to the end of the INITIAL state.
func (l *flowLexer) punctuation() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if syntax.IsDigit(t[i]) {
		j := i
		for j < len(t) && syntax.IsDigit(t[j]) {
			j++
		}
		return l.Tok("NUM", j), true
	}
	switch {
	case t[i] == '#':
		return l.Tok("BRKT", i+1), true
	case strings.HasPrefix(t[i:], ":::"):
		return l.Tok("STYLE_SEPARATOR", i+3), true
	case t[i] == ':':
		return l.Tok("COLON", i+1), true
	case t[i] == '&':
		return l.Tok("AMP", i+1), true
	case t[i] == ';':
		return l.Tok("SEMI", i+1), true
	case t[i] == ',':
		return l.Tok("COMMA", i+1), true
	case t[i] == '*':
		return l.Tok("MULT", i+1), true
	}
	if tok, ok := l.links(); ok {
		return tok, true
	}
	return l.shapesAndText()
}

// links matches the link rules of the INITIAL state, in order.
func (l *flowLexer) links() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if end := l.ws.link(t, i, '-'); end > 0 {
		l.Pop()
		return l.Tok("LINK", end), true
	}
	if end := l.ws.startLink(t, i, "--"); end > 0 {
		l.Push(syntax.FsEdgeText)
		return l.Tok("START_LINK", end), true
	}
	if end := l.ws.link(t, i, '='); end > 0 {
		l.Pop()
		return l.Tok("LINK", end), true
	}
	if end := l.ws.startLink(t, i, "=="); end > 0 {
		l.Push(syntax.FsThickEdgeText)
		return l.Tok("START_LINK", end), true
	}
	if end := l.ws.dottedLink(t, i); end > 0 {
		l.Pop()
		return l.Tok("LINK", end), true
	}
	if end := l.ws.startLink(t, i, "-."); end > 0 {
		l.Push(syntax.FsDottedEdgeText)
		return l.Tok("START_LINK", end), true
	}
	if end := l.ws.invisibleLink(t, i); end > 0 {
		return l.Tok("LINK", end), true
	}
	return syntax.Token{}, false
}

// shapesAndText matches the INITIAL rules from (- to the end.
func (l *flowLexer) shapesAndText() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if k, end, st := openBracket(t, i); k != "" {
		l.Push(st)
		return l.Tok(k, end), true
	}
	if strings.HasPrefix(t[i:], "[|") {
		return l.Tok("VERTEX_WITH_PROPS_START", i+2), true
	}
	if t[i] == '>' {
		l.Push(syntax.FsText)
		return l.Tok("TAGEND", i+1), true
	}
	if k, end, st := laterBracket(t, i); k != "" {
		l.Push(st)
		return l.Tok(k, end), true
	}
	switch {
	case t[i] == '<':
		return l.Tok("TAGSTART", i+1), true
	case t[i] == '^':
		return l.Tok("UP", i+1), true
	case strings.HasPrefix(t[i:], "\\|"):
		return l.Tok("SEP", i+2), true
	case syntax.HasWord(t, i, "v", false):
		return l.Tok("DOWN", i+1), true
	}
	if end := nodeStringEnd(t, i); end > i {
		return l.Tok("NODE_STRING", end), true
	}
	if t[i] == '-' {
		return l.Tok("MINUS", i+1), true
	}
	if r, n := syntax.DecodeRune(t, i); syntax.IsUnicodeText(r) {
		return l.Tok("UNICODE_TEXT", i+n), true
	}
	if k, end := singleBracket(t, i); k != "" {
		l.Push(syntax.FsText)
		return l.Tok(k, end), true
	}
	if end := syntax.NewlinesEnd(t, i); end > i {
		return l.Tok("NEWLINE", end), true
	}
	if end := spaceEnd(t, i); end > i {
		return l.Tok("SPACE", end), true
	}
	return l.Fail(), true
}

// nodeStringEnd matches ([A-Za-z0-9!"#$%&'*+.`?\\_/]|-(?=[^>\-.]))+ at i.
func nodeStringEnd(t string, i int) int {
	j := i
	for j < len(t) {
		c := t[j]
		if isNodeStringByte(c) {
			j++
			continue
		}
		if c == '-' && j+1 < len(t) && t[j+1] != '>' && t[j+1] != '-' && t[j+1] != '.' {
			j++
			continue
		}
		break
	}
	return j
}

func isNodeStringByte(c byte) bool {
	if syntax.IsAlpha(c) || syntax.IsDigit(c) {
		return true
	}
	return strings.IndexByte("!\"#$%&'*+.`?\\_/", c) >= 0
}

// spaceEnd matches [^\S\n\r]+ at i: white space other than line breaks.
func spaceEnd(t string, i int) int {
	j := i
	for j < len(t) && t[j] != '\n' && t[j] != '\r' {
		r, n := syntax.DecodeRune(t, j)
		if !syntax.IsJSSpace(r) {
			break
		}
		j += n
	}
	return j
}

func (l *flowLexer) inString() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if strings.HasPrefix(t[i:], "\"`") {
		l.Pos += 2
		l.Push(syntax.FsMdString)
		return syntax.Token{}, false
	}
	if t[i] == '"' {
		l.Pos++
		l.Pop()
		return syntax.Token{}, false
	}
	end := strings.IndexByte(t[i:], '"')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.Tok("STR", end), true
}

func (l *flowLexer) inMdString() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	j := i
	for j < len(t) && t[j] != '`' && t[j] != '"' {
		j++
	}
	if j > i {
		return l.Tok("MD_STR", j), true
	}
	if strings.HasPrefix(t[i:], "`\"") {
		l.Pos += 2
		l.Pop()
		return syntax.Token{}, false
	}
	if l.quotes() {
		return syntax.Token{}, false
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

// rest are the <*> rules after the brackets: [( ((( [/ [\ and then | ( [ {.
func (l *flowLexer) rest() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if k, end, st := laterBracket(t, i); k != "" {
		l.Push(st)
		return l.Tok(k, end), true
	}
	if k, end := singleBracket(t, i); k != "" {
		l.Push(syntax.FsText)
		return l.Tok(k, end), true
	}
	return l.Fail(), true
}

func (l *flowLexer) inDir() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	j := syntax.SkipJSSpace(t, i)
	if nl := strings.LastIndexByte(t[i:j], '\n'); nl >= 0 {
		l.Pop()
		return l.Tok("NODIR", i+nl+1), true
	}
	for _, d := range []string{"LR", "RL", "TB", "BT", "TD", "BR"} {
		if syntax.HasWord(t, j, d, false) {
			l.Pop()
			return l.Tok("DIR", j+2), true
		}
	}
	if j < len(t) && (t[j] == '<' || t[j] == '>' || t[j] == '^') {
		l.Pop()
		return l.Tok("DIR", j+1), true
	}
	if syntax.HasWord(t, j, "v", false) {
		l.Pop()
		return l.Tok("DIR", j+1), true
	}
	if l.quotes() {
		return syntax.Token{}, false
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

// inText is the state inside a node's label brackets.
func (l *flowLexer) inText() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if l.quotes() {
		return syntax.Token{}, false
	}
	if end := l.ws.invisibleLink(t, i); end > 0 {
		return l.Tok("LINK", end), true
	}
	if closer, ok := l.textCloser(); ok {
		return closer, true
	}
	if k, end := singleBracket(t, i); k != "" {
		if k == "PIPE" {
			l.Pop()
		} else {
			l.Push(syntax.FsText)
		}
		return l.Tok(k, end), true
	}
	switch t[i] {
	case ')':
		l.Pop()
		return l.Tok("PE", i+1), true
	case ']':
		l.Pop()
		return l.Tok("SQE", i+1), true
	case '}':
		l.Pop()
		return l.Tok("DIAMOND_STOP", i+1), true
	}
	j := i
	for j < len(t) && strings.IndexByte("[]{}()|\"", t[j]) < 0 {
		j++
	}
	if j > i {
		return l.Tok("TEXT", j), true
	}
	return l.Fail(), true
}

// textCloser matches the text state's rules from (- to [\, where closing
// pairs pop the state and opening ones push it.
func (l *flowLexer) textCloser() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	pairs := []struct {
		s, kind string
		push    bool
		st      syntax.FlowState
	}{
		{"(-", "(-", true, syntax.FsEllipseText}, {"])", "STADIUMEND", false, 0}, {"([", "STADIUMSTART", true, syntax.FsText},
		{"]]", "SUBROUTINEEND", false, 0}, {"[[", "SUBROUTINESTART", true, syntax.FsText},
		{")]", "CYLINDEREND", false, 0}, {"[(", "CYLINDERSTART", true, syntax.FsText},
		{")))", "DOUBLECIRCLEEND", false, 0}, {"(((", "DOUBLECIRCLESTART", true, syntax.FsText},
		{"[/", "TRAPSTART", true, syntax.FsTrapText}, {"[\\", "INVTRAPSTART", true, syntax.FsTrapText},
	}
	for _, p := range pairs {
		if strings.HasPrefix(t[i:], p.s) {
			if p.push {
				l.Push(p.st)
			} else {
				l.Pop()
			}
			return l.Tok(p.kind, i+len(p.s)), true
		}
	}
	return syntax.Token{}, false
}

func (l *flowLexer) inEllipseText() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if l.quotes() {
		return syntax.Token{}, false
	}
	if end := l.ws.invisibleLink(t, i); end > 0 {
		return l.Tok("LINK", end), true
	}
	if i+1 < len(t) && (t[i] == '-' || t[i] == '/' || t[i] == ')') && t[i+1] == ')' {
		l.Pop()
		return l.Tok("-)", i+2), true
	}
	if strings.IndexByte("()[]{}", t[i]) < 0 {
		_, n := syntax.DecodeRune(t, i)
		return l.Tok("TEXT", i+n), true
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

func (l *flowLexer) inTrapText() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if l.quotes() {
		return syntax.Token{}, false
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	if k, end, st := laterBracket(t, i); k != "" && (k == "CYLINDERSTART" || k == "DOUBLECIRCLESTART") {
		l.Push(st)
		return l.Tok(k, end), true
	}
	// [\\(?=\])][\]] — one of \ ( ? = ] and then ].
	if i+1 < len(t) && strings.IndexByte("\\(?=]", t[i]) >= 0 && t[i+1] == ']' {
		l.Pop()
		return l.Tok("TRAPEND", i+2), true
	}
	if strings.HasPrefix(t[i:], "/]") {
		l.Pop()
		return l.Tok("INVTRAPEND", i+2), true
	}
	if t[i] == '/' || t[i] == '\\' {
		return l.Tok("TEXT", i+1), true
	}
	j := i
	for j < len(t) && strings.IndexByte("\\[](){}/", t[j]) < 0 {
		j++
	}
	if j > i {
		return l.Tok("TEXT", j), true
	}
	return l.rest()
}

func (l *flowLexer) inEdgeText() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if l.quotes() {
		return syntax.Token{}, false
	}
	var end int
	var sep byte
	switch l.State() {
	case syntax.FsEdgeText:
		end, sep = l.ws.link(t, i, '-'), '-'
	case syntax.FsThickEdgeText:
		end, sep = l.ws.link(t, i, '='), '='
	default:
		end, sep = l.ws.dottedLink(t, i), '.'
	}
	if end > 0 {
		l.Pop()
		return l.Tok("LINK", end), true
	}
	if t[i] != sep {
		_, n := syntax.DecodeRune(t, i)
		return l.Tok("EDGE_TEXT", i+n), true
	}
	if sep == '-' && (i+1 >= len(t) || t[i+1] != '-') {
		return l.Tok("EDGE_TEXT", i+1), true
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

func (l *flowLexer) inClick() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if i >= len(t) {
		l.Pop()
		return syntax.Token{Kind: "CLICK", From: i, To: i}, true
	}
	if l.quotes() {
		return syntax.Token{}, false
	}
	if r, n := syntax.DecodeRune(t, i); syntax.IsJSSpace(r) {
		l.Pos += n
		l.Pop()
		return syntax.Token{}, false
	}
	j := i
	for j < len(t) {
		r, n := syntax.DecodeRune(t, j)
		if syntax.IsJSSpace(r) {
			break
		}
		j += n
	}
	return l.Tok("CLICK", j), true
}

func (l *flowLexer) inCallbackName() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == '(' {
		j := syntax.SkipJSSpace(t, i+1)
		l.Pop()
		if j < len(t) && t[j] == ')' {
			l.Pos = j + 1
			return syntax.Token{}, false
		}
		l.Pos = i + 1
		l.Push(syntax.FsCallbackArgs)
		return syntax.Token{}, false
	}
	end := strings.IndexByte(t[i:], '(')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.Tok("CALLBACKNAME", end), true
}

func (l *flowLexer) inCallbackArgs() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == ')' {
		l.Pos++
		l.Pop()
		return syntax.Token{}, false
	}
	end := strings.IndexByte(t[i:], ')')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.Tok("CALLBACKARGS", end), true
}

func (l *flowLexer) inShapeData() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == '"' {
		l.Push(syntax.FsShapeDataStr)
		return l.Tok("SHAPE_DATA", i+1), true
	}
	j := i
	for j < len(t) && t[j] != '}' && t[j] != '^' && t[j] != '"' {
		j++
	}
	if j > i {
		return l.Tok("SHAPE_DATA", j), true
	}
	if t[i] == '}' {
		l.Pos++
		l.Pop()
		return syntax.Token{}, false
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

func (l *flowLexer) inShapeDataStr() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == '"' {
		l.Pop()
		return l.Tok("SHAPE_DATA", i+1), true
	}
	end := strings.IndexByte(t[i:], '"')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	tok := l.Tok("SHAPE_DATA", end)
	tok.Val = syntax.BreakLines(tok.Val)
	return tok, true
}
