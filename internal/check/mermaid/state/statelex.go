package state

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// The state diagram lexer, after stateDiagram.jison (case-insensitive):
// the states for state declarations, notes, classDef/class/style lines and
// composite state bodies, where line breaks are not tokens.

type stState uint8

const (
	stInitial stState = iota
	stStruct
	stState_
	stStateString
	stStateID
	stNote
	stNoteID
	stNoteText
	stFloatingNote
	stFloatingNoteID
	stClassDef
	stClassDefID
	stClass
	stClassStyle
	stStyle
	stStyleDefStyles
	stScale
	stAccTitle
	stAccDescr
	stAccDescrMulti
)

type stateLexer struct {
	syntax.Scanner[stState]
	dir syntax.DirectionLines
	// failed is the message of an error a lexer rule throws (a state name
	// of two words before {).
	failed string
}

func newStateLexer(t string) *stateLexer {
	return &stateLexer{Scanner: syntax.NewScanner(t, stInitial)}
}

func (l *stateLexer) Next() syntax.Token {
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

// atEnd gives, once, the token of a rule that matches the empty string at
// the end (or NL in the INITIAL state), then nothing.
func (l *stateLexer) atEnd(st stState) syntax.Token {
	kind := ""
	switch st {
	case stInitial:
		kind = "NL"
	case stAccTitle:
		kind = "acc_title_value"
	case stAccDescr:
		kind = "acc_descr_value"
	case stAccDescrMulti:
		kind = "acc_descr_multiline_value"
	case stStateString:
		kind = "STATE_DESCR"
	case stStateID, stFloatingNoteID:
		kind = "ID"
	case stFloatingNote:
		kind = "NOTE_TEXT"
	case stClassDefID:
		kind = "CLASSDEF_STYLEOPTS"
	case stClassStyle:
		kind = "STYLECLASS"
	case stStyleDefStyles:
		kind = "STYLEDEF_STYLEOPTS"
	}
	return l.End(kind)
}

func (l *stateLexer) lexOne(st stState) (syntax.Token, bool) {
	switch st {
	case stInitial:
		return l.initial()
	case stStruct:
		return l.inStruct()
	case stState_:
		return l.inState()
	case stNote, stNoteID, stNoteText, stFloatingNote, stFloatingNoteID:
		return l.inNote(st)
	}
	return l.inLineStates(st)
}

// processID is the rules' processId: an id holding %% is cut there and
// the rest read again; one starting with %% is dropped.
func (l *stateLexer) processID(kind string, end int) (syntax.Token, bool) {
	text := l.Src[l.Pos:end]
	idx := strings.Index(text, "%%")
	if idx == 0 {
		l.Pos = end
		return syntax.Token{}, false
	}
	if idx > 0 {
		end = l.Pos + idx
	}
	return l.Tok(kind, end), true
}

// skipInline is ((?!\n)\s)+, #... and %%... comments: the first rules of
// the struct and state states.
func (l *stateLexer) skipInline() bool {
	t, i := l.Src, l.Pos
	if j := syntax.SkipLineSpace(t, i); j > i {
		l.Pos = j
		return true
	}
	if t[i] == '#' || strings.HasPrefix(t[i:], "%%") && !strings.HasPrefix(t[i+2:], "{") {
		l.Pos = syntax.LineEnd(t, i)
		return true
	}
	return false
}

func (l *stateLexer) initial() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if tok, ok := l.headRules(); ok || l.Pos != i {
		return tok, ok
	}
	if t[i] == '\n' {
		j := i
		for j < len(t) && t[j] == '\n' {
			j++
		}
		return l.Tok("NL", j), true
	}
	if j := syntax.SkipJSSpace(t, i); j > i {
		l.Pos = j
		return syntax.Token{}, false
	}
	if t[i] == '#' || strings.HasPrefix(t[i:], "%%") && !strings.HasPrefix(t[i+2:], "{") {
		l.Pos = syntax.LineEnd(t, i)
		return syntax.Token{}, false
	}
	if end := keywordSpace(t, i, "scale"); end > 0 {
		l.Push(stScale)
		return l.Tok("scale", end), true
	}
	if kind, end, st := syntax.AccKeyword(t, i, true); kind != "" {
		return l.accessibility(kind, end, st)
	}
	if tok, ok := l.lineKeywords(); ok || l.Pos != i {
		return tok, ok
	}
	if t[i] == '{' {
		l.Pop()
		l.Push(stStruct)
		return l.Tok("STRUCT_START", i+1), true
	}
	if end := keywordSpace(t, i, "note"); end > 0 {
		l.Push(stNote)
		return l.Tok("note", end), true
	}
	if end := keywordSpace(t, i, "stateDiagram"); end > 0 {
		return l.Tok("SD", end), true
	}
	if end := keywordSpace(t, i, "stateDiagram-v2"); end > 0 {
		return l.Tok("SD", end), true
	}
	if syntax.HasWord(t, i, "hide empty description", true) {
		return l.Tok("HIDE_EMPTY", i+22), true
	}
	return l.idRules(true)
}

// headRules are click, href, "string", default and the direction lines.
func (l *stateLexer) headRules() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	switch {
	case syntax.HasWord(t, i, "click", true):
		return l.Tok("CLICK", i+5), true
	case syntax.HasWord(t, i, "href", true):
		return l.Tok("HREF", i+4), true
	case t[i] == '"':
		if j := strings.IndexByte(t[i+1:], '"'); j >= 0 {
			return l.Tok("STRING", i+j+2), true
		}
	case syntax.HasWord(t, i, "default", true):
		return l.Tok("DEFAULT", i+7), true
	}
	if kind, end := l.dir.Match(t, i); kind != "" && kind != "direction_td" {
		return l.Tok(kind, end), true
	}
	return syntax.Token{}, false
}

func (l *stateLexer) accessibility(kind string, end int, st syntax.FlowState) (syntax.Token, bool) {
	switch st {
	case syntax.FsAccTitle:
		l.Push(stAccTitle)
	case syntax.FsAccDescr:
		l.Push(stAccDescr)
	default:
		l.Push(stAccDescrMulti)
		l.Pos = end
		return syntax.Token{}, false
	}
	return l.Tok(kind, end), true
}

// keywordSpace matches kw\s+ at i (case-insensitive).
func keywordSpace(t string, i int, kw string) int {
	if !syntax.HasPrefixAt(t, i, kw, true) {
		return 0
	}
	j := syntax.SkipJSSpace(t, i+len(kw))
	if j == i+len(kw) {
		return 0
	}
	return j
}

// lineKeywords are classDef, class, style and state, each opening its
// state.
func (l *stateLexer) lineKeywords() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if end := keywordSpace(t, i, "classDef"); end > 0 {
		l.Push(stClassDef)
		return l.Tok("classDef", end), true
	}
	if end := keywordSpace(t, i, "class"); end > 0 {
		l.Push(stClass)
		return l.Tok("class", end), true
	}
	if end := keywordSpace(t, i, "style"); end > 0 {
		l.Push(stStyle)
		return l.Tok("style", end), true
	}
	if l.State() == stInitial {
		if end := keywordSpace(t, i, "scale"); end > 0 {
			l.Push(stScale)
			return l.Tok("scale", end), true
		}
	}
	if end := keywordSpace(t, i, "state"); end > 0 {
		l.Pos = end
		l.Push(stState_)
		return syntax.Token{}, false
	}
	return syntax.Token{}, false
}

// idRules are [*], ids, descriptions, --> (and -- in a composite state),
// :::, and in the INITIAL state the end and anything else.
func (l *stateLexer) idRules(initial bool) (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if strings.HasPrefix(t[i:], "[*]") {
		return l.Tok("EDGE_STATE", i+3), true
	}
	j := i
	for j < len(t) && strings.IndexByte(":\n-{", t[j]) < 0 && !syntax.IsJSSpaceByte(t[j]) {
		r, n := syntax.DecodeRune(t, j)
		if syntax.IsJSSpace(r) {
			break
		}
		j += n
	}
	if j > i {
		return l.processID("ID", j)
	}
	if end := stateDescrEnd(t, i); end > 0 {
		tok := l.Tok("DESCR", end)
		tok.Val = strings.TrimSpace(tok.Val)
		return tok, true
	}
	switch {
	case strings.HasPrefix(t[i:], "-->"):
		return l.Tok("-->", i+3), true
	case !initial && strings.HasPrefix(t[i:], "--"):
		return l.Tok("CONCURRENT", i+2), true
	case strings.HasPrefix(t[i:], ":::"):
		return l.Tok("STYLE_SEPARATOR", i+3), true
	}
	if initial {
		_, n := syntax.DecodeRune(t, i)
		return l.Tok("INVALID", i+n), true
	}
	return l.Fail(), true
}

// stateDescrEnd matches \s*:(?:[^:\n;]|:[^:\n;])+ at i.
func stateDescrEnd(t string, i int) int {
	j := syntax.SkipJSSpace(t, i)
	if j >= len(t) || t[j] != ':' {
		return 0
	}
	k := j + 1
	for k < len(t) {
		switch {
		case t[k] != ':' && t[k] != '\n' && t[k] != ';':
			k++
		case t[k] == ':' && k+1 < len(t) && t[k+1] != ':' && t[k+1] != '\n' && t[k+1] != ';':
			k += 2
		default:
			goto done
		}
	}
done:
	if k == j+1 {
		return 0
	}
	return k
}

func (l *stateLexer) inStruct() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if l.skipInline() {
		return syntax.Token{}, false
	}
	if tok, ok := l.lineKeywords(); ok || l.Pos != i {
		return tok, ok
	}
	if kind, end := l.dir.Match(t, i); kind != "" && kind != "direction_td" {
		return l.Tok(kind, end), true
	}
	switch t[i] {
	case '}':
		l.Pop()
		return l.Tok("STRUCT_STOP", i+1), true
	case '\n':
		l.Pos++
		return syntax.Token{}, false
	}
	if end := keywordSpace(t, i, "note"); end > 0 {
		l.Push(stNote)
		return l.Tok("note", end), true
	}
	return l.idRules(false)
}

// inState reads after "state": a fork, join or choice, a "description",
// a name, as, and the { of a composite state.
func (l *stateLexer) inState() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if l.skipInline() {
		return syntax.Token{}, false
	}
	for _, m := range []struct{ s, kind string }{
		{"<<fork>>", "FORK"}, {"<<join>>", "JOIN"}, {"<<choice>>", "CHOICE"},
		{"[[fork]]", "FORK"}, {"[[join]]", "JOIN"}, {"[[choice]]", "CHOICE"},
	} {
		le := syntax.LineEnd(t, i)
		if k := lastIndexFold(t[i:le], m.s); k >= 0 {
			l.Pop()
			tok := l.Tok(m.kind, i+k+len(m.s))
			tok.Val = strings.TrimSpace(tok.Val[:k])
			return tok, true
		}
	}
	if t[i] == '"' {
		l.Pos++
		l.Push(stStateString)
		return syntax.Token{}, false
	}
	if end := asKeyword(t, i, true); end > 0 {
		l.Push(stStateID)
		return l.Tok("AS", end), true
	}
	if msg := twoWordState(t, i); msg != "" {
		l.failed = msg
		return l.Fail(), true
	}
	switch t[i] {
	case '\n':
		l.Pos++
		l.Pop()
		return syntax.Token{}, false
	case '{':
		l.Pop()
		l.Push(stStruct)
		return l.Tok("STRUCT_START", i+1), true
	}
	j := i
	for j < len(t) && t[j] != '{' {
		r, n := syntax.DecodeRune(t, j)
		if syntax.IsJSSpace(r) {
			break
		}
		j += n
	}
	if j > i {
		return l.Tok("COMPOSIT_STATE", j), true
	}
	return l.Fail(), true
}

// lastIndexFold is the last index of sub in s, ignoring ASCII case.
func lastIndexFold(s, sub string) int {
	return strings.LastIndex(strings.ToLower(s), strings.ToLower(sub))
}

// asKeyword matches \s*as\s+ (plus: a space must follow) or \s*as\s*.
func asKeyword(t string, i int, plus bool) int {
	j := syntax.SkipJSSpace(t, i)
	if !syntax.HasPrefixAt(t, j, "as", true) {
		return 0
	}
	k := syntax.SkipJSSpace(t, j+2)
	if plus && k == j+2 {
		return 0
	}
	return k
}

// twoWordState is the rule \w+\s+\w+.*?\{, whose action throws: a state
// name of two words before a {.
func twoWordState(t string, i int) string {
	j := i
	for j < len(t) && syntax.IsWordByte(t[j]) {
		j++
	}
	if j == i {
		return ""
	}
	k := syntax.SkipJSSpace(t, j)
	if k == j {
		return ""
	}
	m := k
	for m < len(t) && syntax.IsWordByte(t[m]) {
		m++
	}
	if m == k {
		return ""
	}
	// .*?\{ : a { on the rest of that line.
	if b := strings.IndexByte(t[m:syntax.LineEnd(t, m)], '{'); b >= 0 {
		name := strings.TrimSpace(t[i : m+b])
		return "state name must be a single word, found " + syntax.QuoteShort(name)
	}
	return ""
}

func (l *stateLexer) inNote(st stState) (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	switch st {
	case stNote:
		for _, k := range []struct{ w, kind string }{{"left of", "left_of"}, {"right of", "right_of"}} {
			if syntax.HasWord(t, i, k.w, true) {
				l.Pop()
				l.Push(stNoteID)
				return l.Tok(k.kind, i+len(k.w)), true
			}
		}
		if t[i] == '"' {
			l.Pos++
			l.Pop()
			l.Push(stFloatingNote)
			return syntax.Token{}, false
		}
	case stNoteID:
		j := syntax.SkipJSSpace(t, i)
		k := j
		for k < len(t) && strings.IndexByte(":\n-", t[k]) < 0 && !syntax.IsJSSpaceByte(t[k]) {
			k++
		}
		if k > j {
			tok, ok := l.processID("ID", k)
			if ok {
				l.Pop()
				l.Push(stNoteText)
			}
			return tok, ok
		}
	case stNoteText:
		return l.noteText()
	case stFloatingNote:
		if end := asKeyword(t, i, false); end > 0 {
			l.Pop()
			l.Push(stFloatingNoteID)
			return l.Tok("AS", end), true
		}
		if t[i] == '"' {
			l.Pos++
			return syntax.Token{}, false
		}
		return l.Tok("NOTE_TEXT", syntax.IndexByteFrom(t, i, '"')), true
	case stFloatingNoteID:
		tok, ok := l.processID("ID", syntax.LineEnd(t, i))
		if ok {
			l.Pop()
		}
		return tok, ok
	}
	return l.Fail(), true
}

// noteText is : text to the end of the line, or lines up to "end note".
func (l *stateLexer) noteText() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	j := syntax.SkipJSSpace(t, i)
	if j < len(t) && t[j] == ':' {
		k := j + 1
		for k < len(t) && t[k] != ':' && t[k] != '\n' && t[k] != ';' {
			k++
		}
		if k > j+1 {
			l.Pop()
			return l.Tok("NOTE_TEXT", k), true
		}
	}
	for s := i; ; {
		nl := strings.IndexByte(t[s:], '\n')
		if nl < 0 {
			return l.Fail(), true
		}
		k := syntax.SkipJSSpace(t, s+nl+1)
		if syntax.HasWord(t, k, "end note", true) {
			l.Pop()
			return l.Tok("NOTE_TEXT", k+8), true
		}
		s = max(s+nl+1, k)
	}
}

// inLineStates are the states that read the rest of a classDef, class,
// style or scale line, and the accessibility values.
func (l *stateLexer) inLineStates(st stState) (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	switch st {
	case stStateString:
		if t[i] == '"' {
			l.Pos++
			l.Pop()
			return syntax.Token{}, false
		}
		return l.Tok("STATE_DESCR", syntax.IndexByteFrom(t, i, '"')), true
	case stStateID:
		end := i
		for end < len(t) && t[end] != '\n' && t[end] != '{' {
			end++
		}
		tok, ok := l.processID("ID", end)
		if ok {
			l.Pop()
		}
		return tok, ok
	case stClassDef:
		if end := keywordSpace(t, i, "default"); end > 0 {
			l.Pop()
			l.Push(stClassDefID)
			return l.Tok("DEFAULT_CLASSDEF_ID", end), true
		}
		if end := wordSpace(t, i); end > 0 {
			l.Pop()
			l.Push(stClassDefID)
			return l.Tok("CLASSDEF_ID", end), true
		}
	case stClass:
		if end := classIDsEnd(t, i); end > 0 {
			l.Pop()
			l.Push(stClassStyle)
			return l.Tok("CLASSENTITY_IDS", end), true
		}
	case stStyle:
		j := i
		for j < len(t) && (syntax.IsWordByte(t[j]) || t[j] == ',') {
			j++
		}
		if k := syntax.SkipJSSpace(t, j); j > i && k > j {
			l.Pop()
			l.Push(stStyleDefStyles)
			return l.Tok("STYLE_IDS", k), true
		}
	case stClassDefID, stClassStyle, stStyleDefStyles, stAccTitle, stAccDescr:
		l.Pop()
		return l.Tok(restOfLineKind[st], syntax.LineEnd(t, i)), true
	case stAccDescrMulti:
		if t[i] == '}' {
			l.Pos++
			l.Pop()
			return syntax.Token{}, false
		}
		return l.Tok("acc_descr_multiline_value", syntax.IndexByteFrom(t, i, '}')), true
	case stScale:
		return l.inScale()
	}
	return l.Fail(), true
}

var restOfLineKind = map[stState]string{stClassDefID: "CLASSDEF_STYLEOPTS", stClassStyle: "STYLECLASS",
	stStyleDefStyles: "STYLEDEF_STYLEOPTS", stAccTitle: "acc_title_value", stAccDescr: "acc_descr_value"}

func (l *stateLexer) inScale() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if syntax.IsDigit(t[i]) {
		j := i
		for j < len(t) && syntax.IsDigit(t[j]) {
			j++
		}
		return l.Tok("WIDTH", j), true
	}
	if j := syntax.SkipJSSpace(t, i); j > i && syntax.HasWord(t, j, "width", true) {
		l.Pos = j + 5
		l.Pop()
		return syntax.Token{}, false
	}
	return l.Fail(), true
}

// wordSpace matches \w+\s+ at i.
func wordSpace(t string, i int) int {
	j := i
	for j < len(t) && syntax.IsWordByte(t[j]) {
		j++
	}
	if j == i {
		return 0
	}
	k := syntax.SkipJSSpace(t, j)
	if k == j {
		return 0
	}
	return k
}

// classIDsEnd matches (\w+)+((,\s*\w+)*) at i.
func classIDsEnd(t string, i int) int {
	j := i
	for j < len(t) && syntax.IsWordByte(t[j]) {
		j++
	}
	if j == i {
		return 0
	}
	for j < len(t) && t[j] == ',' {
		k := syntax.SkipJSSpace(t, j+1)
		m := k
		for m < len(t) && syntax.IsWordByte(t[m]) {
			m++
		}
		if m == k {
			break
		}
		j = m
	}
	return j
}
