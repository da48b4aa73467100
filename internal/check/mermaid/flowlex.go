package mermaid

import (
	"strings"
)

// The flowchart lexer, after flow.jison: its start conditions and, in each,
// its rules in their order (the first rule that matches wins, as in a Jison
// lexer without the flex option).

type flowLexer struct {
	t          string
	pos        int
	stack      []flowState
	graphSeen  bool // the first graph keyword opens the dir state
	eofSent    bool
	ws         spaceRuns
	dir        directionLines
	linkID     linkIDRun
	emptySteps int // zero-width matches in a row, to stop a loop
}

func newFlowLexer(t string) *flowLexer {
	return &flowLexer{t: t, stack: []flowState{fsInitial}}
}

func (l *flowLexer) state() flowState { return l.stack[len(l.stack)-1] }

func (l *flowLexer) push(s flowState) { l.stack = append(l.stack, s) }

func (l *flowLexer) pop() {
	if len(l.stack) > 1 {
		l.stack = l.stack[:len(l.stack)-1]
	}
}

// tok makes a token of kind from l.pos to end and moves there.
func (l *flowLexer) tok(kind string, end int) token {
	t := token{kind: kind, val: l.t[l.pos:end], from: l.pos, to: end}
	l.pos = end
	return t
}

func (l *flowLexer) next() token {
	for {
		if l.pos >= len(l.t) {
			if l.state() == fsInitial && !l.eofSent {
				l.eofSent = true
				return token{kind: "EOF", from: l.pos, to: l.pos}
			}
			if st := l.state(); st != fsAccTitle && st != fsAccDescr && st != fsClick && st != fsAccDescrMulti {
				return token{kind: tokEOF, from: l.pos, to: l.pos}
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
				return token{kind: tokEOF, from: l.pos, to: l.pos}
			}
		} else {
			l.emptySteps = 0
		}
	}
}

// lexOne runs the current state's rules once: a token, or none when the
// rule only changes state.
func (l *flowLexer) lexOne() (token, bool) {
	switch l.state() {
	case fsInitial:
		return l.initial()
	case fsString:
		return l.inString()
	case fsMdString:
		return l.inMdString()
	case fsAccTitle, fsAccDescr:
		kind := "acc_title_value"
		if l.state() == fsAccDescr {
			kind = "acc_descr_value"
		}
		l.pop()
		return l.tok(kind, lineEnd(l.t, l.pos)), true
	case fsAccDescrMulti:
		return l.accDescrMulti()
	case fsDir:
		return l.inDir()
	case fsText:
		return l.inText()
	case fsEllipseText:
		return l.inEllipseText()
	case fsTrapText:
		return l.inTrapText()
	case fsEdgeText, fsThickEdgeText, fsDottedEdgeText:
		return l.inEdgeText()
	case fsClick:
		return l.inClick()
	case fsCallbackName:
		return l.inCallbackName()
	case fsCallbackArgs:
		return l.inCallbackArgs()
	case fsShapeData:
		return l.inShapeData()
	case fsShapeDataStr:
		return l.inShapeDataStr()
	}
	return l.errorTok(), true
}

func (l *flowLexer) errorTok() token {
	_, n := decodeRune(l.t, l.pos)
	t := l.tok(tokError, min(l.pos+n, len(l.t)))
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
		l.push(fsMdString)
		return true
	}
	if l.t[l.pos] == '"' {
		l.pos++
		l.push(fsString)
		return true
	}
	return false
}

// anyState are the <*> rules after the quotes: invisible links, and the
// brackets that open a label.
func (l *flowLexer) anyState() (token, bool) {
	if end := l.ws.invisibleLink(l.t, l.pos); end > 0 {
		return l.tok("LINK", end), true
	}
	if k, end, st := openBracket(l.t, l.pos); k != "" {
		l.push(st)
		return l.tok(k, end), true
	}
	return token{}, false
}

// openBracket matches the <*> rules that open a label, in rule order
// (the single brackets come later; see singleBracket).
func openBracket(t string, i int) (kind string, end int, st flowState) {
	switch {
	case strings.HasPrefix(t[i:], "(-"):
		return "(-", i + 2, fsEllipseText
	case strings.HasPrefix(t[i:], "(["):
		return "STADIUMSTART", i + 2, fsText
	case strings.HasPrefix(t[i:], "[["):
		return "SUBROUTINESTART", i + 2, fsText
	}
	return "", 0, 0
}

// laterBracket matches the <*> rules after [[ in rule order: [( ((( [/ [\.
func laterBracket(t string, i int) (kind string, end int, st flowState) {
	switch {
	case strings.HasPrefix(t[i:], "[("):
		return "CYLINDERSTART", i + 2, fsText
	case strings.HasPrefix(t[i:], "((("):
		return "DOUBLECIRCLESTART", i + 3, fsText
	case strings.HasPrefix(t[i:], "[/"):
		return "TRAPSTART", i + 2, fsTrapText
	case strings.HasPrefix(t[i:], "[\\"):
		return "INVTRAPSTART", i + 2, fsTrapText
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

func (l *flowLexer) initial() (token, bool) {
	t, i := l.t, l.pos
	if i >= len(t) {
		l.eofSent = true
		return token{kind: "EOF", from: i, to: i}, true
	}
	if tok, ok := l.accessibility(); ok {
		return tok, true
	} else if l.pos != i {
		return token{}, false
	}
	if strings.HasPrefix(t[i:], "@{") {
		l.push(fsShapeData)
		tok := l.tok("SHAPE_DATA", i+2)
		tok.val = ""
		return tok, true
	}
	if hasPrefixAt(t, i, "call", false) {
		if j := skipJSSpace(t, i+4); j > i+4 {
			l.pos = j
			l.push(fsCallbackName)
			return token{}, false
		}
	}
	if l.quotes() {
		return token{}, false
	}
	if tok, ok := l.keyword(); ok {
		return tok, true
	} else if l.pos != i {
		return token{}, false
	}
	if kind, end := l.dir.match(t, i); kind != "" {
		return l.tok(kind, end), true
	}
	if end := l.linkID.match(t, i); end > 0 {
		return l.tok("LINK_ID", end), true
	}
	return l.punctuation()
}

// accessibility matches accTitle: and accDescr: / accDescr {; the last
// only changes state.
func (l *flowLexer) accessibility() (token, bool) {
	kind, end, st := accKeyword(l.t, l.pos, false)
	if kind == "" {
		return token{}, false
	}
	l.push(st)
	if st == fsAccDescrMulti {
		l.pos = end
		return token{}, false
	}
	return l.tok(kind, end), true
}

func (l *flowLexer) accDescrMulti() (token, bool) {
	if l.pos >= len(l.t) {
		l.pop()
		return token{kind: "acc_descr_multiline_value", from: l.pos, to: l.pos}, true
	}
	if l.t[l.pos] == '}' {
		l.pos++
		l.pop()
		return token{}, false
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
func (l *flowLexer) keyword() (token, bool) {
	t, i := l.t, l.pos
	for _, k := range flowKeywords {
		if hasWord(t, i, k.word, false) {
			return l.tok(k.kind, i+len(k.word)), true
		}
	}
	if hasPrefixAt(t, i, "href", false) && i+4 < len(t) {
		if r, n := decodeRune(t, i+4); isJSSpace(r) {
			return l.tok("HREF", i+4+n), true
		}
	}
	if hasPrefixAt(t, i, "click", false) {
		if j := skipJSSpace(t, i+5); j > i+5 {
			l.pos = j
			l.push(fsClick)
			return token{}, false
		}
	}
	for _, g := range []string{"flowchart-elk", "swimlane-beta", "graph", "flowchart"} {
		if hasWord(t, i, g, false) {
			if !l.graphSeen {
				l.graphSeen = true
				l.push(fsDir)
			}
			return l.tok("GRAPH", i+len(g)), true
		}
	}
	if hasWord(t, i, "subgraph", false) {
		return l.tok("subgraph", i+8), true
	}
	if hasWord(t, i, "end", false) {
		return l.tok("end", skipJSSpace(t, i+3)), true
	}
	for _, w := range []string{"_self", "_blank", "_parent", "_top"} {
		if hasWord(t, i, w, false) {
			return l.tok("LINK_TARGET", i+len(w)), true
		}
	}
	return token{}, false
}

// punctuation matches the rules from NUM to the end of the INITIAL state.
func (l *flowLexer) punctuation() (token, bool) {
	t, i := l.t, l.pos
	if isDigit(t[i]) {
		j := i
		for j < len(t) && isDigit(t[j]) {
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
func (l *flowLexer) links() (token, bool) {
	t, i := l.t, l.pos
	if end := l.ws.link(t, i, '-'); end > 0 {
		l.pop()
		return l.tok("LINK", end), true
	}
	if end := l.ws.startLink(t, i, "--"); end > 0 {
		l.push(fsEdgeText)
		return l.tok("START_LINK", end), true
	}
	if end := l.ws.link(t, i, '='); end > 0 {
		l.pop()
		return l.tok("LINK", end), true
	}
	if end := l.ws.startLink(t, i, "=="); end > 0 {
		l.push(fsThickEdgeText)
		return l.tok("START_LINK", end), true
	}
	if end := l.ws.dottedLink(t, i); end > 0 {
		l.pop()
		return l.tok("LINK", end), true
	}
	if end := l.ws.startLink(t, i, "-."); end > 0 {
		l.push(fsDottedEdgeText)
		return l.tok("START_LINK", end), true
	}
	if end := l.ws.invisibleLink(t, i); end > 0 {
		return l.tok("LINK", end), true
	}
	return token{}, false
}

// shapesAndText matches the INITIAL rules from (- to the end.
func (l *flowLexer) shapesAndText() (token, bool) {
	t, i := l.t, l.pos
	if k, end, st := openBracket(t, i); k != "" {
		l.push(st)
		return l.tok(k, end), true
	}
	if strings.HasPrefix(t[i:], "[|") {
		return l.tok("VERTEX_WITH_PROPS_START", i+2), true
	}
	if t[i] == '>' {
		l.push(fsText)
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
	case hasWord(t, i, "v", false):
		return l.tok("DOWN", i+1), true
	}
	if end := nodeStringEnd(t, i); end > i {
		return l.tok("NODE_STRING", end), true
	}
	if t[i] == '-' {
		return l.tok("MINUS", i+1), true
	}
	if r, n := decodeRune(t, i); isUnicodeText(r) {
		return l.tok("UNICODE_TEXT", i+n), true
	}
	if k, end := singleBracket(t, i); k != "" {
		l.push(fsText)
		return l.tok(k, end), true
	}
	if end := newlinesEnd(t, i); end > i {
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
	if isAlpha(c) || isDigit(c) {
		return true
	}
	return strings.IndexByte("!\"#$%&'*+.`?\\_/", c) >= 0
}

// spaceEnd matches [^\S\n\r]+ at i: white space other than line breaks.
func spaceEnd(t string, i int) int {
	j := i
	for j < len(t) && t[j] != '\n' && t[j] != '\r' {
		r, n := decodeRune(t, j)
		if !isJSSpace(r) {
			break
		}
		j += n
	}
	return j
}

func (l *flowLexer) inString() (token, bool) {
	t, i := l.t, l.pos
	if strings.HasPrefix(t[i:], "\"`") {
		l.pos += 2
		l.push(fsMdString)
		return token{}, false
	}
	if t[i] == '"' {
		l.pos++
		l.pop()
		return token{}, false
	}
	end := strings.IndexByte(t[i:], '"')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.tok("STR", end), true
}

func (l *flowLexer) inMdString() (token, bool) {
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
		return token{}, false
	}
	if l.quotes() {
		return token{}, false
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

// rest are the <*> rules after the brackets: [( ((( [/ [\ and then | ( [ {.
func (l *flowLexer) rest() (token, bool) {
	t, i := l.t, l.pos
	if k, end, st := laterBracket(t, i); k != "" {
		l.push(st)
		return l.tok(k, end), true
	}
	if k, end := singleBracket(t, i); k != "" {
		l.push(fsText)
		return l.tok(k, end), true
	}
	return l.errorTok(), true
}

func (l *flowLexer) inDir() (token, bool) {
	t, i := l.t, l.pos
	j := skipJSSpace(t, i)
	if nl := strings.LastIndexByte(t[i:j], '\n'); nl >= 0 {
		l.pop()
		return l.tok("NODIR", i+nl+1), true
	}
	for _, d := range []string{"LR", "RL", "TB", "BT", "TD", "BR"} {
		if hasWord(t, j, d, false) {
			l.pop()
			return l.tok("DIR", j+2), true
		}
	}
	if j < len(t) && (t[j] == '<' || t[j] == '>' || t[j] == '^') {
		l.pop()
		return l.tok("DIR", j+1), true
	}
	if hasWord(t, j, "v", false) {
		l.pop()
		return l.tok("DIR", j+1), true
	}
	if l.quotes() {
		return token{}, false
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

// inText is the state inside a node's label brackets.
func (l *flowLexer) inText() (token, bool) {
	t, i := l.t, l.pos
	if l.quotes() {
		return token{}, false
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
			l.push(fsText)
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
func (l *flowLexer) textCloser() (token, bool) {
	t, i := l.t, l.pos
	pairs := []struct {
		s, kind string
		push    bool
		st      flowState
	}{
		{"(-", "(-", true, fsEllipseText}, {"])", "STADIUMEND", false, 0}, {"([", "STADIUMSTART", true, fsText},
		{"]]", "SUBROUTINEEND", false, 0}, {"[[", "SUBROUTINESTART", true, fsText},
		{")]", "CYLINDEREND", false, 0}, {"[(", "CYLINDERSTART", true, fsText},
		{")))", "DOUBLECIRCLEEND", false, 0}, {"(((", "DOUBLECIRCLESTART", true, fsText},
		{"[/", "TRAPSTART", true, fsTrapText}, {"[\\", "INVTRAPSTART", true, fsTrapText},
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
	return token{}, false
}

func (l *flowLexer) inEllipseText() (token, bool) {
	t, i := l.t, l.pos
	if l.quotes() {
		return token{}, false
	}
	if end := l.ws.invisibleLink(t, i); end > 0 {
		return l.tok("LINK", end), true
	}
	if i+1 < len(t) && (t[i] == '-' || t[i] == '/' || t[i] == ')') && t[i+1] == ')' {
		l.pop()
		return l.tok("-)", i+2), true
	}
	if strings.IndexByte("()[]{}", t[i]) < 0 {
		_, n := decodeRune(t, i)
		return l.tok("TEXT", i+n), true
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

func (l *flowLexer) inTrapText() (token, bool) {
	t, i := l.t, l.pos
	if l.quotes() {
		return token{}, false
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

func (l *flowLexer) inEdgeText() (token, bool) {
	t, i := l.t, l.pos
	if l.quotes() {
		return token{}, false
	}
	var end int
	var sep byte
	switch l.state() {
	case fsEdgeText:
		end, sep = l.ws.link(t, i, '-'), '-'
	case fsThickEdgeText:
		end, sep = l.ws.link(t, i, '='), '='
	default:
		end, sep = l.ws.dottedLink(t, i), '.'
	}
	if end > 0 {
		l.pop()
		return l.tok("LINK", end), true
	}
	if t[i] != sep {
		_, n := decodeRune(t, i)
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

func (l *flowLexer) inClick() (token, bool) {
	t, i := l.t, l.pos
	if i >= len(t) {
		l.pop()
		return token{kind: "CLICK", from: i, to: i}, true
	}
	if l.quotes() {
		return token{}, false
	}
	if r, n := decodeRune(t, i); isJSSpace(r) {
		l.pos += n
		l.pop()
		return token{}, false
	}
	j := i
	for j < len(t) {
		r, n := decodeRune(t, j)
		if isJSSpace(r) {
			break
		}
		j += n
	}
	return l.tok("CLICK", j), true
}

func (l *flowLexer) inCallbackName() (token, bool) {
	t, i := l.t, l.pos
	if t[i] == '(' {
		j := skipJSSpace(t, i+1)
		l.pop()
		if j < len(t) && t[j] == ')' {
			l.pos = j + 1
			return token{}, false
		}
		l.pos = i + 1
		l.push(fsCallbackArgs)
		return token{}, false
	}
	end := strings.IndexByte(t[i:], '(')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.tok("CALLBACKNAME", end), true
}

func (l *flowLexer) inCallbackArgs() (token, bool) {
	t, i := l.t, l.pos
	if t[i] == ')' {
		l.pos++
		l.pop()
		return token{}, false
	}
	end := strings.IndexByte(t[i:], ')')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.tok("CALLBACKARGS", end), true
}

func (l *flowLexer) inShapeData() (token, bool) {
	t, i := l.t, l.pos
	if t[i] == '"' {
		l.push(fsShapeDataStr)
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
		return token{}, false
	}
	if tok, ok := l.anyState(); ok {
		return tok, true
	}
	return l.rest()
}

func (l *flowLexer) inShapeDataStr() (token, bool) {
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
	tok.val = breakLines(tok.val)
	return tok, true
}
