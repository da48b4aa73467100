package sequence

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
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
	syntax.Scanner[seqState]
}

func newSeqLexer(t string) *seqLexer { return &seqLexer{Scanner: syntax.NewScanner(t, ssInitial)} }

func (l *seqLexer) Next() syntax.Token {
	for {
		st := l.State()
		if l.Pos >= len(l.Src) && st != ssLine && st != ssAlias && st != ssAccTitle && st != ssAccDescr && st != ssAccDescrMulti {
			if st == ssInitial && !l.EOFSent {
				l.EOFSent = true
				return syntax.Token{Kind: "NEWLINE", From: l.Pos, To: l.Pos}
			}
			return syntax.Token{Kind: syntax.TokEOF, From: l.Pos, To: l.Pos}
		}
		if tok, ok := l.lexOne(st); ok {
			return tok
		}
	}
}

func (l *seqLexer) lexOne(st seqState) (syntax.Token, bool) {
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
		l.Pop()
		return l.Tok(kind, syntax.LineEnd(l.Src, l.Pos)), true
	case ssAccDescrMulti:
		if l.Pos < len(l.Src) && l.Src[l.Pos] == '}' {
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
		if end == len(l.Src) {
			l.Pop()
		}
		return l.Tok("acc_descr_multiline_value", end), true
	}
	return l.initial()
}

// skipInline skips ((?!\n)\s)+ and #... comments, the first rules of the
// ID, ALIAS and LINE states; it reports whether it moved.
func (l *seqLexer) skipInline() bool {
	if j := syntax.SkipLineSpace(l.Src, l.Pos); j > l.Pos {
		l.Pos = j
		return true
	}
	if l.Pos < len(l.Src) && l.Src[l.Pos] == '#' {
		l.Pos = syntax.LineEnd(l.Src, l.Pos)
		return true
	}
	return false
}

func (l *seqLexer) inID() (syntax.Token, bool) {
	if l.skipInline() {
		return syntax.Token{}, false
	}
	t, i := l.Src, l.Pos
	if strings.HasPrefix(t[i:], "@{") {
		l.Push(ssConfig)
		return l.Tok("CONFIG_START", i+2), true
	}
	j := i
	for j < len(t) && strings.IndexByte("<>:\n,;@", t[j]) < 0 && !syntax.IsJSSpaceByte(t[j]) {
		j++
	}
	if j > i {
		if strings.HasPrefix(t[syntax.SkipJSSpace(t, j):], "@{") {
			return l.trimmed("ACTOR", j), true
		}
		if followedByAs(t, j) {
			l.Push(ssAlias)
			return l.trimmed("ACTOR", j), true
		}
	}
	if end, ok := seqActorToLineEnd(t, i); ok {
		l.Pop()
		return l.trimmed("ACTOR", end), true
	}
	l.Pop()
	return l.trimmed("INVALID", syntax.LineEnd(t, i)), true
}

// followedByAs is the lookahead (?=\s+as\s).
func followedByAs(t string, j int) bool {
	k := syntax.SkipJSSpace(t, j)
	if k == j || !syntax.HasPrefixAt(t, k, "as", true) || k+2 >= len(t) {
		return false
	}
	r, _ := syntax.DecodeRune(t, k+2)
	return syntax.IsJSSpace(r)
}

// seqActorToLineEnd is [^<>:\n,;@]+(?=\s*[\n;#]|$): a name running to the
// end of its statement.
func seqActorToLineEnd(t string, i int) (int, bool) {
	j := i
	for j < len(t) && strings.IndexByte("<>:\n,;@", t[j]) < 0 {
		j++
	}
	// Backtrack to an end followed by \s*[\n;#], or at the end of the text.
	k := syntax.SkipJSSpace(t, j) // the first non-space at or after e
	for e := j; e > i; e-- {
		if e < j && !syntax.IsJSSpaceByte(t[e]) {
			k = e
		}
		if e == len(t) || strings.IndexByte(t[e:k], '\n') >= 0 || k < len(t) && (t[k] == ';' || t[k] == '#') {
			return e, true
		}
	}
	return 0, false
}

// trimmed makes a token whose value is trimmed, as the rules' actions do.
func (l *seqLexer) trimmed(kind string, end int) syntax.Token {
	t := l.Tok(kind, end)
	t.Val = strings.TrimSpace(t.Val)
	return t
}

func (l *seqLexer) inConfig() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == '}' {
		if followedByAs(t, i+1) {
			l.Pop()
			l.Push(ssAlias)
		} else {
			l.Pop()
			l.Pop()
		}
		return l.Tok("CONFIG_END", i+1), true
	}
	end := strings.IndexByte(t[i:], '}')
	if end < 0 {
		end = len(t)
	} else {
		end += i
	}
	return l.Tok("CONFIG_CONTENT", end), true
}

func (l *seqLexer) inAlias() (syntax.Token, bool) {
	if l.skipInline() {
		return syntax.Token{}, false
	}
	t, i := l.Src, l.Pos
	if syntax.HasWord(t, i, "as", true) {
		l.Pop()
		l.Pop()
		l.Push(ssLine)
		return l.Tok("AS", i+2), true
	}
	l.Pop()
	l.Pop()
	return syntax.Token{Kind: "NEWLINE", From: i, To: i}, true
}

func (l *seqLexer) inLine() (syntax.Token, bool) {
	if l.skipInline() {
		return syntax.Token{}, false
	}
	t, i := l.Src, l.Pos
	j := i
	for j < len(t) && t[j] != '#' && t[j] != '\n' && t[j] != ';' {
		j++
	}
	l.Pop()
	return l.Tok("restOfLine", j), true
}

// seqLineKeywords begin the LINE state: the rest of the line is their text.
var seqLineKeywords = []struct{ word, kind string }{
	{"loop", "loop"}, {"rect", "rect"}, {"opt", "opt"}, {"alt", "alt"}, {"else", "else"}, {"par", "par"},
	{"par_over", "par_over"}, {"and", "and"}, {"critical", "critical"}, {"option", "option"}, {"break", "break"},
}

func (l *seqLexer) initial() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == '\n' {
		j := i
		for j < len(t) && t[j] == '\n' {
			j++
		}
		return l.Tok("NEWLINE", j), true
	}
	if j := syntax.SkipJSSpace(t, i); j > i {
		l.Pos = j
		return syntax.Token{}, false
	}
	if end := seqCommentEnd(t, i); end > i {
		l.Pos = end
		return syntax.Token{}, false
	}
	if end := seqNumEnd(t, i); end > i {
		return l.Tok("NUM", end), true
	}
	if tok, ok := l.keyword(); ok {
		return tok, true
	} else if l.Pos != i {
		return syntax.Token{}, false
	}
	if end := seqActorEnd(t, i); end > i {
		return l.trimmed("ACTOR", end), true
	}
	if kind, n := seqArrow(t, i); kind != "" {
		return l.Tok(kind, i+n), true
	}
	return l.punctuation()
}

// seqCommentEnd matches the comment rules: #..., %... (not %{) and a
// character other than } followed by %%.
func seqCommentEnd(t string, i int) int {
	switch {
	case t[i] == '#':
		return syntax.LineEnd(t, i)
	case t[i] == '%' && !strings.HasPrefix(t[i+1:], "{"):
		return syntax.LineEnd(t, i)
	case t[i] != '}' && t[i] != '\n':
		_, n := syntax.DecodeRune(t, i)
		if strings.HasPrefix(t[i+n:], "%%") {
			return syntax.LineEnd(t, i)
		}
	}
	return i
}

// seqNumEnd matches ([0-9]+(\.[0-9]{1,2})?|\.[0-9]{1,2})(?=[ \n]+).
func seqNumEnd(t string, i int) int {
	ok := func(e int) bool { return e < len(t) && (t[e] == ' ' || t[e] == '\n') }
	j := i
	for j < len(t) && syntax.IsDigit(t[j]) {
		j++
	}
	if j > i {
		if j < len(t) && t[j] == '.' {
			for n := 2; n >= 1; n-- {
				if syntax.DigitsAt(t, j+1, n) && ok(j+1+n) {
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
			if syntax.DigitsAt(t, i+1, n) && ok(i+1+n) {
				return i + 1 + n
			}
		}
	}
	return i
}

// keyword matches the keyword rules, box to ";".
func (l *seqLexer) keyword() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if syntax.HasWord(t, i, "box", true) {
		l.Push(ssLine)
		return l.Tok("box", i+3), true
	}
	for _, k := range []struct{ w, kind string }{{"participant", "participant"}, {"actor", "participant_actor"}} {
		if syntax.HasWord(t, i, k.w, true) {
			l.Push(ssID)
			return l.Tok(k.kind, i+len(k.w)), true
		}
	}
	if syntax.HasWord(t, i, "create", true) {
		return l.Tok("create", i+6), true
	}
	if syntax.HasWord(t, i, "destroy", true) {
		l.Push(ssID)
		return l.Tok("destroy", i+7), true
	}
	for _, k := range seqLineKeywords {
		if syntax.HasWord(t, i, k.word, true) {
			l.Push(ssLine)
			return l.Tok(k.kind, i+len(k.word)), true
		}
	}
	return l.keyword2()
}

func (l *seqLexer) keyword2() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	for _, k := range []struct{ w, kind string }{{"end", "end"}, {"left of", "left_of"}, {"right of", "right_of"}} {
		if syntax.HasWord(t, i, k.w, true) {
			return l.Tok(k.kind, i+len(k.w)), true
		}
	}
	for _, w := range []string{"links", "link", "properties", "details"} {
		if syntax.HasPrefixAt(t, i, w, true) && linkLookahead(t, i+len(w)) {
			return l.Tok(w, i+len(w)), true
		}
	}
	for _, k := range []struct{ w, kind string }{{"over", "over"}, {"note", "note"}} {
		if syntax.HasWord(t, i, k.w, true) {
			return l.Tok(k.kind, i+len(k.w)), true
		}
	}
	for _, w := range []string{"activate", "deactivate"} {
		if syntax.HasWord(t, i, w, true) {
			l.Push(ssID)
			return l.Tok(w, i+len(w)), true
		}
	}
	if end := seqTitleEnd(t, i, "title"); end > 0 {
		return l.Tok("title", end), true
	}
	if end := seqTitleEnd(t, i, "title:"); end > 0 {
		return l.Tok("legacy_title", end), true
	}
	if kind, end, st := syntax.AccKeyword(t, i, true); kind != "" {
		switch st {
		case syntax.FsAccTitle:
			l.Push(ssAccTitle)
		case syntax.FsAccDescr:
			l.Push(ssAccDescr)
		default:
			l.Push(ssAccDescrMulti)
			l.Pos = end
			return syntax.Token{}, false
		}
		return l.Tok(kind, end), true
	}
	for _, k := range []struct{ w, kind string }{{"sequenceDiagram", "SD"}, {"autonumber", "autonumber"}, {"off", "off"}} {
		if syntax.HasWord(t, i, k.w, true) {
			return l.Tok(k.kind, i+len(k.w)), true
		}
	}
	switch t[i] {
	case ',':
		return l.Tok(",", i+1), true
	case ';':
		return l.Tok("NEWLINE", i+1), true
	}
	return syntax.Token{}, false
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
	r, _ := syntax.DecodeRune(t, k)
	return !syntax.IsJSSpace(r) && !strings.ContainsRune("/\\+()<>:\n,;-", r)
}

// seqTitleEnd matches kw\s[^#\n;]+ at i.
func seqTitleEnd(t string, i int, kw string) int {
	if !syntax.HasPrefixAt(t, i, kw, true) {
		return 0
	}
	j := i + len(kw)
	if j >= len(t) {
		return 0
	}
	r, n := syntax.DecodeRune(t, j)
	if !syntax.IsJSSpace(r) {
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
		if syntax.HasPrefixAt(t, i, a.s, true) {
			return a.kind, len(a.s)
		}
	}
	return "", 0
}

// punctuation matches the rules after the arrows: a message text, : + -
// () and anything else as INVALID.
func (l *seqLexer) punctuation() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	switch {
	case t[i] == ':':
		j := i + 1
		for j < len(t) && t[j] != '#' && t[j] != '\n' && t[j] != ';' {
			j++
		}
		return l.Tok("TXT", j), true
	case t[i] == '+':
		return l.Tok("+", i+1), true
	case t[i] == '-':
		return l.Tok("-", i+1), true
	case strings.HasPrefix(t[i:], "()"):
		return l.Tok("()", i+2), true
	}
	_, n := syntax.DecodeRune(t, i)
	return l.Tok("INVALID", i+n), true
}
