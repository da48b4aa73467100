package flowchart

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// The flowchart lexer, after flow.jison: its start conditions and, in each,
// its rules in their order (the first rule that matches wins, as in a Jison
// lexer without the flex option).

type flowLexer struct {
	t          string
	pos        int
	stack      []syntax.FlowState
	graphSeen  bool // the first graph keyword opens the dir state
	eofSent    bool
	ws         spaceRuns
	dir        syntax.DirectionLines
	linkID     linkIDRun
	emptySteps int // zero-width matches in a row, to stop a loop
}

func NewFlowLexer(t string) *flowLexer {
	return &flowLexer{t: t, stack: []syntax.FlowState{syntax.FsInitial}}
}

func (l *flowLexer) state() syntax.FlowState { return l.stack[len(l.stack)-1] }

func (l *flowLexer) push(s syntax.FlowState) { l.stack = append(l.stack, s) }

func (l *flowLexer) pop() {
	if len(l.stack) > 1 {
		l.stack = l.stack[:len(l.stack)-1]
	}
}

// tok makes a token of kind from l.pos to end and moves there.
func (l *flowLexer) tok(kind string, end int) syntax.Token {
	t := syntax.Token{Kind: kind, Val: l.t[l.pos:end], From: l.pos, To: end}
	l.pos = end
	return t
}

func (l *flowLexer) Next() syntax.Token {
	for {
		if l.pos >= len(l.t) {
			if l.state() == syntax.FsInitial && !l.eofSent {
				l.eofSent = true
				return syntax.Token{Kind: "EOF", From: l.pos, To: l.pos}
			}
			if st := l.state(); st != syntax.FsAccTitle && st != syntax.FsAccDescr && st != syntax.FsClick && st != syntax.FsAccDescrMulti {
				return syntax.Token{Kind: syntax.TokEOF, From: l.pos, To: l.pos}
			}
		}
		start := l.pos
		tok, ok := l.lexOne()
		if ok {
			return tok
		}
		if l.pos == start {
			l.emptySteps++
			if l.emptySteps > 4 {
				return syntax.Token{Kind: syntax.TokEOF, From: l.pos, To: l.pos}
			}
		} else {
			l.emptySteps = 0
		}
	}
}

// lexOne runs the current state's rules once: a token, or none when the
// rule only changes state.
func (l *flowLexer) lexOne() (syntax.Token, bool) {
	switch l.state() {
	case syntax.FsInitial:
		return l.initial()
	case syntax.FsString:
		return l.inString()
	case syntax.FsMdString:
		return l.inMdString()
	case syntax.FsAccTitle, syntax.FsAccDescr:
		kind := "acc_title_value"
		if l.state() == syntax.FsAccDescr {
			kind = "acc_descr_value"
		}
		l.pop()
		return l.tok(kind, syntax.LineEnd(l.t, l.pos)), true
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
	return l.errorTok(), true
}

func (l *flowLexer) errorTok() syntax.Token {
	_, n := syntax.DecodeRune(l.t, l.pos)
	t := l.tok(syntax.TokError, min(l.pos+n, len(l.t)))
	l.pos = len(l.t) // a Jison lexer stops at its first error
	l.stack = l.stack[:1]
	l.eofSent = true
	return t
}

// quotes are the rules every state has first: "` opens a Markdown string,
// " a string.
func (l *flowLexer) quotes() bool {
	if strings.HasPrefix(l.t[l.pos:], "\"`") {
		l.pos += 2
		l.push(syntax.FsMdString)
		return true
	}
	if l.t[l.pos] == '"' {
		l.pos++
		l.push(syntax.FsString)
		return true
	}
	return false
}

// anyState are the <*> rules after the quotes: invisible links, and the
// brackets that open a label.
func (l *flowLexer) anyState() (syntax.Token, bool) {
	if end := l.ws.invisibleLink(l.t, l.pos); end > 0 {
		return l.tok("LINK", end), true
	}
	if k, end, st := openBracket(l.t, l.pos); k != "" {
		l.push(st)
		return l.tok(k, end), true
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
	t, i := l.t, l.pos
	if i >= len(t) {
		l.eofSent = true
		return syntax.Token{Kind: "EOF", From: i, To: i}, true
	}
	if tok, ok := l.accessibility(); ok {
		return tok, true
	} else if l.pos != i {
		return syntax.Token{}, false
	}
	if strings.HasPrefix(t[i:], "@{") {
		l.push(syntax.FsShapeData)
		tok := l.tok("SHAPE_DATA", i+2)
		tok.Val = ""
		return tok, true
	}
	if syntax.HasPrefixAt(t, i, "call", false) {
		if j := syntax.SkipJSSpace(t, i+4); j > i+4 {
			l.pos = j
			l.push(syntax.FsCallbackName)
			return syntax.Token{}, false
		}
	}
	if l.quotes() {
		return syntax.Token{}, false
	}
	if tok, ok := l.keyword(); ok {
		return tok, true
	} else if l.pos != i {
		return syntax.Token{}, false
	}
	if kind, end := l.dir.Match(t, i); kind != "" {
		return l.tok(kind, end), true
	}
	if end := l.linkID.match(t, i); end > 0 {
		return l.tok("LINK_ID", end), true
	}
	return l.punctuation()
}

// accessibility matches accTitle: and accDescr: / accDescr {; the last
// only changes state.
func (l *flowLexer) accessibility() (syntax.Token, bool) {
	kind, end, st := syntax.AccKeyword(l.t, l.pos, false)
	if kind == "" {
		return syntax.Token{}, false
	}
	l.push(st)
	if st == syntax.FsAccDescrMulti {
		l.pos = end
		return syntax.Token{}, false
	}
	return l.tok(kind, end), true
}

func (l *flowLexer) accDescrMulti() (syntax.Token, bool) {
	if l.pos >= len(l.t) {
		l.pop()
		return syntax.Token{Kind: "acc_descr_multiline_value", From: l.pos, To: l.pos}, true
	}
	if l.t[l.pos] == '}' {
		l.pos++
		l.pop()
		return syntax.Token{}, false
	}
	end := strings.IndexByte(l.t[l.pos:], '}')
	if end < 0 {
		end = len(l.t)
	} else {
		end += l.pos
	}
	return l.tok("acc_descr_multiline_value", end), true
}

var flowKeywords = []struct{ word, kind string }{
	{"style", "STYLE"}, {"default", "DEFAULT"}, {"linkStyle", "LINKSTYLE"}, {"interpolate", "INTERPOLATE"},
	{"classDef", "CLASSDEF"}, {"class", "CLASS"},
}

// keyword matches the keyword rules, style to _top.
func (l *flowLexer) keyword() (syntax.Token, bool) {
	t, i := l.t, l.pos
	for _, k := range flowKeywords {
		if syntax.HasWord(t, i, k.word, false) {
			return l.tok(k.kind, i+len(k.word)), true
		}
	}
	if syntax.HasPrefixAt(t, i, "href", false) && i+4 < len(t) {
		if r, n := syntax.DecodeRune(t, i+4); syntax.IsJSSpace(r) {
			return l.tok("HREF", i+4+n), true
		}
	}
	if syntax.HasPrefixAt(t, i, "click", false) {
		if j := syntax.SkipJSSpace(t, i+5); j > i+5 {
			l.pos = j
			l.push(syntax.FsClick)
			return syntax.Token{}, false
		}
	}
	for _, g := range []string{"flowchart-elk", "swimlane-beta", "graph", "flowchart"} {
		if syntax.HasWord(t, i, g, false) {
			if !l.graphSeen {
				l.graphSeen = true
				l.push(syntax.FsDir)
			}
			return l.tok("GRAPH", i+len(g)), true
		}
	}
	if syntax.HasWord(t, i, "subgraph", false) {
		return l.tok("subgraph", i+8), true
	}
	if syntax.HasWord(t, i, "end", false) {
		return l.tok("end", syntax.SkipJSSpace(t, i+3)), true
	}
	for _, w := range []string{"_self", "_blank", "_parent", "_top"} {
		if syntax.HasWord(t, i, w, false) {
			return l.tok("LINK_TARGET", i+len(w)), true
		}
	}
	return syntax.Token{}, false
}

// punctuation matches the rules from NUM to the end of the INITIAL state.
func (l *flowLexer) punctuation() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if syntax.IsDigit(t[i]) {
		j := i
		for j < len(t) && syntax.IsDigit(t[j]) {
			j++
		}
		return l.tok("NUM", j), true
	}
	switch {
	case t[i] == '#':
		return l.tok("BRKT", i+1), true
	case strings.HasPrefix(t[i:], ":::"):
		return l.tok("STYLE_SEPARATOR", i+3), true
	case t[i] == ':':
		return l.tok("COLON", i+1), true
	case t[i] == '&':
		return l.tok("AMP", i+1), true
	case t[i] == ';':
		return l.tok("SEMI", i+1), true
	case t[i] == ',':
		return l.tok("COMMA", i+1), true
	case t[i] == '*':
		return l.tok("MULT", i+1), true
	}
	if tok, ok := l.links(); ok {
		return tok, true
	}
	return l.shapesAndText()
}

// links matches the link rules of the INITIAL state, in order.
func (l *flowLexer) links() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if end := l.ws.link(t, i, '-'); end > 0 {
		l.pop()
		return l.tok("LINK", end), true
	}
	if end := l.ws.startLink(t, i, "--"); end > 0 {
		l.push(syntax.FsEdgeText)
		return l.tok("START_LINK", end), true
	}
	if end := l.ws.link(t, i, '='); end > 0 {
		l.pop()
		return l.tok("LINK", end), true
	}
	if end := l.ws.startLink(t, i, "=="); end > 0 {
		l.push(syntax.FsThickEdgeText)
		return l.tok("START_LINK", end), true
	}
	if end := l.ws.dottedLink(t, i); end > 0 {
		l.pop()
		return l.tok("LINK", end), true
	}
	if end := l.ws.startLink(t, i, "-."); end > 0 {
		l.push(syntax.FsDottedEdgeText)
		return l.tok("START_LINK", end), true
	}
	if end := l.ws.invisibleLink(t, i); end > 0 {
		return l.tok("LINK", end), true
	}
	return syntax.Token{}, false
}

// shapesAndText matches the INITIAL rules from (- to the end.
func (l *flowLexer) shapesAndText() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if k, end, st := openBracket(t, i); k != "" {
		l.push(st)
		return l.tok(k, end), true
	}
	if strings.HasPrefix(t[i:], "[|") {
		return l.tok("VERTEX_WITH_PROPS_START", i+2), true
	}
	if t[i] == '>' {
		l.push(syntax.FsText)
		return l.tok("TAGEND", i+1), true
	}
	if k, end, st := laterBracket(t, i); k != "" {
		l.push(st)
		return l.tok(k, end), true
	}
	switch {
	case t[i] == '<':
		return l.tok("TAGSTART", i+1), true
	case t[i] == '^':
		return l.tok("UP", i+1), true
	case strings.HasPrefix(t[i:], "\\|"):
		return l.tok("SEP", i+2), true
	case syntax.HasWord(t, i, "v", false):
		return l.tok("DOWN", i+1), true
	}
	if end := nodeStringEnd(t, i); end > i {
		return l.tok("NODE_STRING", end), true
	}
	if t[i] == '-' {
		return l.tok("MINUS", i+1), true
	}
	if r, n := syntax.DecodeRune(t, i); syntax.IsUnicodeText(r) {
		return l.tok("UNICODE_TEXT", i+n), true
	}
	if k, end := singleBracket(t, i); k != "" {
		l.push(syntax.FsText)
		return l.tok(k, end), true
	}
	if end := syntax.NewlinesEnd(t, i); end > i {
		return l.tok("NEWLINE", end), true
	}
	if end := spaceEnd(t, i); end > i {
		return l.tok("SPACE", end), true
	}
	return l.errorTok(), true
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
	t, i := l.t, l.pos
	if strings.HasPrefix(t[i:], "\"`") {
		l.pos += 2
		l.push(syntax.FsMdString)
		return syntax.Token{}, false
	}
	if t[i] == '"' {
		l.pos++
		l.pop()
		return syntax.Token{}, false
	}
	end := strings.IndexByte(t[i:], '"')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.tok("STR", end), true
}

func (l *flowLexer) inMdString() (syntax.Token, bool) {
	t, i := l.t, l.pos
	j := i
	for j < len(t) && t[j] != '`' && t[j] != '"' {
		j++
	}
	if j > i {
		return l.tok("MD_STR", j), true
	}
	if strings.HasPrefix(t[i:], "`\"") {
		l.pos += 2
		l.pop()
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
	t, i := l.t, l.pos
	if k, end, st := laterBracket(t, i); k != "" {
		l.push(st)
		return l.tok(k, end), true
	}
	if k, end := singleBracket(t, i); k != "" {
		l.push(syntax.FsText)
		return l.tok(k, end), true
	}
	return l.errorTok(), true
}

func (l *flowLexer) inDir() (syntax.Token, bool) {
	t, i := l.t, l.pos
	j := syntax.SkipJSSpace(t, i)
	if nl := strings.LastIndexByte(t[i:j], '\n'); nl >= 0 {
		l.pop()
		return l.tok("NODIR", i+nl+1), true
	}
	for _, d := range []string{"LR", "RL", "TB", "BT", "TD", "BR"} {
		if syntax.HasWord(t, j, d, false) {
			l.pop()
			return l.tok("DIR", j+2), true
		}
	}
	if j < len(t) && (t[j] == '<' || t[j] == '>' || t[j] == '^') {
		l.pop()
		return l.tok("DIR", j+1), true
	}
	if syntax.HasWord(t, j, "v", false) {
		l.pop()
		return l.tok("DIR", j+1), true
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
	t, i := l.t, l.pos
	if l.quotes() {
		return syntax.Token{}, false
	}
	if end := l.ws.invisibleLink(t, i); end > 0 {
		return l.tok("LINK", end), true
	}
	if closer, ok := l.textCloser(); ok {
		return closer, true
	}
	if k, end := singleBracket(t, i); k != "" {
		if k == "PIPE" {
			l.pop()
		} else {
			l.push(syntax.FsText)
		}
		return l.tok(k, end), true
	}
	switch t[i] {
	case ')':
		l.pop()
		return l.tok("PE", i+1), true
	case ']':
		l.pop()
		return l.tok("SQE", i+1), true
	case '}':
		l.pop()
		return l.tok("DIAMOND_STOP", i+1), true
	}
	j := i
	for j < len(t) && strings.IndexByte("[]{}()|\"", t[j]) < 0 {
		j++
	}
	if j > i {
		return l.tok("TEXT", j), true
	}
	return l.errorTok(), true
}

// textCloser matches the text state's rules from (- to [\, where closing
// pairs pop the state and opening ones push it.
func (l *flowLexer) textCloser() (syntax.Token, bool) {
	t, i := l.t, l.pos
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
				l.push(p.st)
			} else {
				l.pop()
			}
			return l.tok(p.kind, i+len(p.s)), true
		}
	}
	return syntax.Token{}, false
}

func (l *flowLexer) inEllipseText() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if l.quotes() {
		return syntax.Token{}, false
	}
	if end := l.ws.invisibleLink(t, i); end > 0 {
		return l.tok("LINK", end), true
	}
	if i+1 < len(t) && (t[i] == '-' || t[i] == '/' || t[i] == ')') && t[i+1] == ')' {
		l.pop()
		return l.tok("-)", i+2), true
	}
	if strings.IndexByte("()[]{}", t[i]) < 0 {
		_, n := syntax.DecodeRune(t, i)
		return l.tok("TEXT", i+n), true
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

func (l *flowLexer) inTrapText() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if l.quotes() {
		return syntax.Token{}, false
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	if k, end, st := laterBracket(t, i); k != "" && (k == "CYLINDERSTART" || k == "DOUBLECIRCLESTART") {
		l.push(st)
		return l.tok(k, end), true
	}
	// [\\(?=\])][\]] — one of \ ( ? = ] and then ].
	if i+1 < len(t) && strings.IndexByte("\\(?=]", t[i]) >= 0 && t[i+1] == ']' {
		l.pop()
		return l.tok("TRAPEND", i+2), true
	}
	if strings.HasPrefix(t[i:], "/]") {
		l.pop()
		return l.tok("INVTRAPEND", i+2), true
	}
	if t[i] == '/' || t[i] == '\\' {
		return l.tok("TEXT", i+1), true
	}
	j := i
	for j < len(t) && strings.IndexByte("\\[](){}/", t[j]) < 0 {
		j++
	}
	if j > i {
		return l.tok("TEXT", j), true
	}
	return l.rest()
}

func (l *flowLexer) inEdgeText() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if l.quotes() {
		return syntax.Token{}, false
	}
	var end int
	var sep byte
	switch l.state() {
	case syntax.FsEdgeText:
		end, sep = l.ws.link(t, i, '-'), '-'
	case syntax.FsThickEdgeText:
		end, sep = l.ws.link(t, i, '='), '='
	default:
		end, sep = l.ws.dottedLink(t, i), '.'
	}
	if end > 0 {
		l.pop()
		return l.tok("LINK", end), true
	}
	if t[i] != sep {
		_, n := syntax.DecodeRune(t, i)
		return l.tok("EDGE_TEXT", i+n), true
	}
	if sep == '-' && (i+1 >= len(t) || t[i+1] != '-') {
		return l.tok("EDGE_TEXT", i+1), true
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

func (l *flowLexer) inClick() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if i >= len(t) {
		l.pop()
		return syntax.Token{Kind: "CLICK", From: i, To: i}, true
	}
	if l.quotes() {
		return syntax.Token{}, false
	}
	if r, n := syntax.DecodeRune(t, i); syntax.IsJSSpace(r) {
		l.pos += n
		l.pop()
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
	return l.tok("CLICK", j), true
}

func (l *flowLexer) inCallbackName() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if t[i] == '(' {
		j := syntax.SkipJSSpace(t, i+1)
		l.pop()
		if j < len(t) && t[j] == ')' {
			l.pos = j + 1
			return syntax.Token{}, false
		}
		l.pos = i + 1
		l.push(syntax.FsCallbackArgs)
		return syntax.Token{}, false
	}
	end := strings.IndexByte(t[i:], '(')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.tok("CALLBACKNAME", end), true
}

func (l *flowLexer) inCallbackArgs() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if t[i] == ')' {
		l.pos++
		l.pop()
		return syntax.Token{}, false
	}
	end := strings.IndexByte(t[i:], ')')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.tok("CALLBACKARGS", end), true
}

func (l *flowLexer) inShapeData() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if t[i] == '"' {
		l.push(syntax.FsShapeDataStr)
		return l.tok("SHAPE_DATA", i+1), true
	}
	j := i
	for j < len(t) && t[j] != '}' && t[j] != '^' && t[j] != '"' {
		j++
	}
	if j > i {
		return l.tok("SHAPE_DATA", j), true
	}
	if t[i] == '}' {
		l.pos++
		l.pop()
		return syntax.Token{}, false
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

func (l *flowLexer) inShapeDataStr() (syntax.Token, bool) {
	t, i := l.t, l.pos
	if t[i] == '"' {
		l.pop()
		return l.tok("SHAPE_DATA", i+1), true
	}
	end := strings.IndexByte(t[i:], '"')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	tok := l.tok("SHAPE_DATA", end)
	tok.Val = syntax.BreakLines(tok.Val)
	return tok, true
}
