package mermaid

import (
	"strings"
)

// The sequence diagram lexer, after sequenceDiagram.jison (case-insensitive):
// its start conditions ID, ALIAS, LINE, CONFIG and the accessibility ones,
// and its rules in order.

type seqState uint8

const (
	ssInitial seqState = iota
	ssID
	ssAlias
	ssLine
	ssConfig
	ssAccTitle
	ssAccDescr
	ssAccDescrMulti
)

type seqLexer struct {
	t       string
	pos     int
	stack   []seqState
	eofSent bool
}

func newSeqLexer(t string) *seqLexer { return &seqLexer{t: t, stack: []seqState{ssInitial}} }

func (l *seqLexer) state() seqState { return l.stack[len(l.stack)-1] }
func (l *seqLexer) push(s seqState) { l.stack = append(l.stack, s) }
func (l *seqLexer) pop() {
	if len(l.stack) > 1 {
		l.stack = l.stack[:len(l.stack)-1]
	}
}

func (l *seqLexer) tok(kind string, end int) token {
	t := token{kind: kind, val: l.t[l.pos:end], from: l.pos, to: end}
	l.pos = end
	return t
}

func (l *seqLexer) next() token {
	for {
		st := l.state()
		if l.pos >= len(l.t) && st != ssLine && st != ssAlias && st != ssAccTitle && st != ssAccDescr && st != ssAccDescrMulti {
			if st == ssInitial && !l.eofSent {
				l.eofSent = true
				return token{kind: "NEWLINE", from: l.pos, to: l.pos}
			}
			return token{kind: tokEOF, from: l.pos, to: l.pos}
		}
		if tok, ok := l.lexOne(st); ok {
			return tok
		}
	}
}

func (l *seqLexer) lexOne(st seqState) (token, bool) {
	switch st {
	case ssID:
		return l.inID()
	case ssAlias:
		return l.inAlias()
	case ssLine:
		return l.inLine()
	case ssConfig:
		return l.inConfig()
	case ssAccTitle, ssAccDescr:
		kind := "acc_title_value"
		if st == ssAccDescr {
			kind = "acc_descr_value"
		}
		l.pop()
		return l.tok(kind, lineEnd(l.t, l.pos)), true
	case ssAccDescrMulti:
		if l.pos < len(l.t) && l.t[l.pos] == '}' {
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
		if end == len(l.t) {
			l.pop()
		}
		return l.tok("acc_descr_multiline_value", end), true
	}
	return l.initial()
}

// skipInline skips ((?!\n)\s)+ and #... comments, the first rules of the
// ID, ALIAS and LINE states; it reports whether it moved.
func (l *seqLexer) skipInline() bool {
	if j := skipLineSpace(l.t, l.pos); j > l.pos {
		l.pos = j
		return true
	}
	if l.pos < len(l.t) && l.t[l.pos] == '#' {
		l.pos = lineEnd(l.t, l.pos)
		return true
	}
	return false
}

func (l *seqLexer) inID() (token, bool) {
	if l.skipInline() {
		return token{}, false
	}
	t, i := l.t, l.pos
	if strings.HasPrefix(t[i:], "@{") {
		l.push(ssConfig)
		return l.tok("CONFIG_START", i+2), true
	}
	j := i
	for j < len(t) && strings.IndexByte("<>:\n,;@", t[j]) < 0 && !isJSSpaceByte(t[j]) {
		j++
	}
	if j > i {
		if strings.HasPrefix(t[skipJSSpace(t, j):], "@{") {
			return l.trimmed("ACTOR", j), true
		}
		if followedByAs(t, j) {
			l.push(ssAlias)
			return l.trimmed("ACTOR", j), true
		}
	}
	if end, ok := seqActorToLineEnd(t, i); ok {
		l.pop()
		return l.trimmed("ACTOR", end), true
	}
	l.pop()
	return l.trimmed("INVALID", lineEnd(t, i)), true
}

// followedByAs is the lookahead (?=\s+as\s).
func followedByAs(t string, j int) bool {
	k := skipJSSpace(t, j)
	if k == j || !hasPrefixAt(t, k, "as", true) || k+2 >= len(t) {
		return false
	}
	r, _ := decodeRune(t, k+2)
	return isJSSpace(r)
}

// seqActorToLineEnd is [^<>:\n,;@]+(?=\s*[\n;#]|$): a name running to the
// end of its statement.
func seqActorToLineEnd(t string, i int) (int, bool) {
	j := i
	for j < len(t) && strings.IndexByte("<>:\n,;@", t[j]) < 0 {
		j++
	}
	// Backtrack to an end followed by \s*[\n;#], or at the end of the text.
	k := skipJSSpace(t, j) // the first non-space at or after e
	for e := j; e > i; e-- {
		if e < j && !isJSSpaceByte(t[e]) {
			k = e
		}
		if e == len(t) || strings.IndexByte(t[e:k], '\n') >= 0 || k < len(t) && (t[k] == ';' || t[k] == '#') {
			return e, true
		}
	}
	return 0, false
}

// trimmed makes a token whose value is trimmed, as the rules' actions do.
func (l *seqLexer) trimmed(kind string, end int) token {
	t := l.tok(kind, end)
	t.val = strings.TrimSpace(t.val)
	return t
}

func (l *seqLexer) inConfig() (token, bool) {
	t, i := l.t, l.pos
	if t[i] == '}' {
		if followedByAs(t, i+1) {
			l.pop()
			l.push(ssAlias)
		} else {
			l.pop()
			l.pop()
		}
		return l.tok("CONFIG_END", i+1), true
	}
	end := strings.IndexByte(t[i:], '}')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.tok("CONFIG_CONTENT", end), true
}

func (l *seqLexer) inAlias() (token, bool) {
	if l.skipInline() {
		return token{}, false
	}
	t, i := l.t, l.pos
	if hasWord(t, i, "as", true) {
		l.pop()
		l.pop()
		l.push(ssLine)
		return l.tok("AS", i+2), true
	}
	l.pop()
	l.pop()
	return token{kind: "NEWLINE", from: i, to: i}, true
}

func (l *seqLexer) inLine() (token, bool) {
	if l.skipInline() {
		return token{}, false
	}
	t, i := l.t, l.pos
	j := i
	for j < len(t) && t[j] != '#' && t[j] != '\n' && t[j] != ';' {
		j++
	}
	l.pop()
	return l.tok("restOfLine", j), true
}

// seqLineKeywords begin the LINE state: the rest of the line is their text.
var seqLineKeywords = []struct{ word, kind string }{
	{"loop", "loop"}, {"rect", "rect"}, {"opt", "opt"}, {"alt", "alt"}, {"else", "else"}, {"par", "par"},
	{"par_over", "par_over"}, {"and", "and"}, {"critical", "critical"}, {"option", "option"}, {"break", "break"},
}

func (l *seqLexer) initial() (token, bool) {
	t, i := l.t, l.pos
	if t[i] == '\n' {
		j := i
		for j < len(t) && t[j] == '\n' {
			j++
		}
		return l.tok("NEWLINE", j), true
	}
	if j := skipJSSpace(t, i); j > i {
		l.pos = j
		return token{}, false
	}
	if end := seqCommentEnd(t, i); end > i {
		l.pos = end
		return token{}, false
	}
	if end := seqNumEnd(t, i); end > i {
		return l.tok("NUM", end), true
	}
	if tok, ok := l.keyword(); ok {
		return tok, true
	} else if l.pos != i {
		return token{}, false
	}
	if end := seqActorEnd(t, i); end > i {
		return l.trimmed("ACTOR", end), true
	}
	if kind, n := seqArrow(t, i); kind != "" {
		return l.tok(kind, i+n), true
	}
	return l.punctuation()
}

// seqCommentEnd matches the comment rules: #..., %... (not %{) and a
// character other than } followed by %%.
func seqCommentEnd(t string, i int) int {
	switch {
	case t[i] == '#':
		return lineEnd(t, i)
	case t[i] == '%' && !strings.HasPrefix(t[i+1:], "{"):
		return lineEnd(t, i)
	case t[i] != '}' && t[i] != '\n':
		_, n := decodeRune(t, i)
		if strings.HasPrefix(t[i+n:], "%%") {
			return lineEnd(t, i)
		}
	}
	return i
}

// seqNumEnd matches ([0-9]+(\.[0-9]{1,2})?|\.[0-9]{1,2})(?=[ \n]+).
func seqNumEnd(t string, i int) int {
	ok := func(e int) bool { return e < len(t) && (t[e] == ' ' || t[e] == '\n') }
	j := i
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	if j > i {
		if j < len(t) && t[j] == '.' {
			for n := 2; n >= 1; n-- {
				if digitsAt(t, j+1, n) && ok(j+1+n) {
					return j + 1 + n
				}
			}
		}
		if ok(j) {
			return j
		}
		return i
	}
	if t[i] == '.' {
		for n := 2; n >= 1; n-- {
			if digitsAt(t, i+1, n) && ok(i+1+n) {
				return i + 1 + n
			}
		}
	}
	return i
}

// keyword matches the keyword rules, box to ";".
func (l *seqLexer) keyword() (token, bool) {
	t, i := l.t, l.pos
	if hasWord(t, i, "box", true) {
		l.push(ssLine)
		return l.tok("box", i+3), true
	}
	for _, k := range []struct{ w, kind string }{{"participant", "participant"}, {"actor", "participant_actor"}} {
		if hasWord(t, i, k.w, true) {
			l.push(ssID)
			return l.tok(k.kind, i+len(k.w)), true
		}
	}
	if hasWord(t, i, "create", true) {
		return l.tok("create", i+6), true
	}
	if hasWord(t, i, "destroy", true) {
		l.push(ssID)
		return l.tok("destroy", i+7), true
	}
	for _, k := range seqLineKeywords {
		if hasWord(t, i, k.word, true) {
			l.push(ssLine)
			return l.tok(k.kind, i+len(k.word)), true
		}
	}
	return l.keyword2()
}

func (l *seqLexer) keyword2() (token, bool) {
	t, i := l.t, l.pos
	for _, k := range []struct{ w, kind string }{{"end", "end"}, {"left of", "left_of"}, {"right of", "right_of"}} {
		if hasWord(t, i, k.w, true) {
			return l.tok(k.kind, i+len(k.w)), true
		}
	}
	for _, w := range []string{"links", "link", "properties", "details"} {
		if hasPrefixAt(t, i, w, true) && linkLookahead(t, i+len(w)) {
			return l.tok(w, i+len(w)), true
		}
	}
	for _, k := range []struct{ w, kind string }{{"over", "over"}, {"note", "note"}} {
		if hasWord(t, i, k.w, true) {
			return l.tok(k.kind, i+len(k.w)), true
		}
	}
	for _, w := range []string{"activate", "deactivate"} {
		if hasWord(t, i, w, true) {
			l.push(ssID)
			return l.tok(w, i+len(w)), true
		}
	}
	if end := seqTitleEnd(t, i, "title"); end > 0 {
		return l.tok("title", end), true
	}
	if end := seqTitleEnd(t, i, "title:"); end > 0 {
		return l.tok("legacy_title", end), true
	}
	if kind, end, st := accKeyword(t, i, true); kind != "" {
		switch st {
		case fsAccTitle:
			l.push(ssAccTitle)
		case fsAccDescr:
			l.push(ssAccDescr)
		default:
			l.push(ssAccDescrMulti)
			l.pos = end
			return token{}, false
		}
		return l.tok(kind, end), true
	}
	for _, k := range []struct{ w, kind string }{{"sequenceDiagram", "SD"}, {"autonumber", "autonumber"}, {"off", "off"}} {
		if hasWord(t, i, k.w, true) {
			return l.tok(k.kind, i+len(k.w)), true
		}
	}
	switch t[i] {
	case ',':
		return l.tok(",", i+1), true
	case ';':
		return l.tok("NEWLINE", i+1), true
	}
	return token{}, false
}

// linkLookahead is (?=[ \t]+[^\/\\\+\(\)<>:\n,;\s\-]).
func linkLookahead(t string, j int) bool {
	k := j
	for k < len(t) && (t[k] == ' ' || t[k] == '\t') {
		k++
	}
	if k == j || k >= len(t) {
		return false
	}
	r, _ := decodeRune(t, k)
	return !isJSSpace(r) && !strings.ContainsRune("/\\+()<>:\n,;-", r)
}

// seqTitleEnd matches kw\s[^#\n;]+ at i.
func seqTitleEnd(t string, i int, kw string) int {
	if !hasPrefixAt(t, i, kw, true) {
		return 0
	}
	j := i + len(kw)
	if j >= len(t) {
		return 0
	}
	r, n := decodeRune(t, j)
	if !isJSSpace(r) {
		return 0
	}
	k := j + n
	e := k
	for e < len(t) && t[e] != '#' && t[e] != '\n' && t[e] != ';' {
		e++
	}
	if e == k {
		return 0
	}
	return e
}

// seqActorEnd matches the INITIAL state's actor rule:
// [^/\\+()<\->:\n,;]+ then, while not at an arrow, -* and a run of
// [^+<\->:\n,;].
func seqActorEnd(t string, i int) int {
	j := i
	for j < len(t) && strings.IndexByte("/\\+()<->:\n,;", t[j]) < 0 {
		j++
	}
	if j == i {
		return i
	}
	for !seqArrowAhead(t, j) {
		k := j
		for k < len(t) && t[k] == '-' {
			k++
		}
		m := k
		for m < len(t) && strings.IndexByte("+<->:\n,;", t[m]) < 0 {
			m++
		}
		if m == k {
			break
		}
		j = m
	}
	return j
}

// seqArrowAhead is the actor rule's negative lookahead: an arrow, or ().
func seqArrowAhead(t string, j int) bool {
	if j >= len(t) {
		return false
	}
	at := func(k int) byte {
		if k < len(t) {
			return t[k]
		}
		return 0
	}
	switch t[j] {
	case '-':
		switch c := at(j + 1); c {
		case 'x', 'X', ')', '\\', '/', '-':
			return true
		case '|':
			return at(j+2) == '\\' || at(j+2) == '/'
		}
	case '/':
		return at(j+1) == '/' && at(j+2) == '-' || at(j+1) == '|' && at(j+2) == '-'
	case '\\':
		return at(j+1) == '|' && at(j+2) == '-' || at(j+1) == '\\' && at(j+2) == '-'
	case '(':
		return at(j+1) == ')'
	}
	return false
}

// seqArrows are the arrow rules in their order.
var seqArrows = []struct{ s, kind string }{
	{"->>", "SOLID_ARROW"}, {"<<->>", "BIDIRECTIONAL_SOLID_ARROW"}, {"-->>", "DOTTED_ARROW"},
	{"<<-->>", "BIDIRECTIONAL_DOTTED_ARROW"}, {"->", "SOLID_OPEN_ARROW"}, {"-->", "DOTTED_OPEN_ARROW"},
	{"-x", "SOLID_CROSS"}, {"--x", "DOTTED_CROSS"}, {"-)", "SOLID_POINT"}, {"--)", "DOTTED_POINT"},
	{`--|\`, "SOLID_ARROW_TOP_DOTTED"}, {"--|/", "SOLID_ARROW_BOTTOM_DOTTED"}, {`--\\`, "STICK_ARROW_TOP_DOTTED"},
	{"--//", "STICK_ARROW_BOTTOM_DOTTED"}, {"/|--", "SOLID_ARROW_TOP_REVERSE_DOTTED"},
	{`\|--`, "SOLID_ARROW_BOTTOM_REVERSE_DOTTED"}, {"//--", "STICK_ARROW_TOP_REVERSE_DOTTED"},
	{`\\--`, "STICK_ARROW_BOTTOM_REVERSE_DOTTED"}, {`-|\`, "SOLID_ARROW_TOP"}, {"-|/", "SOLID_ARROW_BOTTOM"},
	{`-\\`, "STICK_ARROW_TOP"}, {"-//", "STICK_ARROW_BOTTOM"}, {"/|-", "SOLID_ARROW_TOP_REVERSE"},
	{`\|-`, "SOLID_ARROW_BOTTOM_REVERSE"}, {"//-", "STICK_ARROW_TOP_REVERSE"}, {`\\-`, "STICK_ARROW_BOTTOM_REVERSE"},
}

func seqArrow(t string, i int) (string, int) {
	for _, a := range seqArrows {
		if hasPrefixAt(t, i, a.s, true) {
			return a.kind, len(a.s)
		}
	}
	return "", 0
}

// punctuation matches the rules after the arrows: a message text, : + -
// () and anything else as INVALID.
func (l *seqLexer) punctuation() (token, bool) {
	t, i := l.t, l.pos
	switch {
	case t[i] == ':':
		j := i + 1
		for j < len(t) && t[j] != '#' && t[j] != '\n' && t[j] != ';' {
			j++
		}
		return l.tok("TXT", j), true
	case t[i] == '+':
		return l.tok("+", i+1), true
	case t[i] == '-':
		return l.tok("-", i+1), true
	case strings.HasPrefix(t[i:], "()"):
		return l.tok("()", i+2), true
	}
	_, n := decodeRune(t, i)
	return l.tok("INVALID", i+n), true
}
