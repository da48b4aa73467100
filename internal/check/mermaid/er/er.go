package er

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// The entity relationship diagram: a lexer and parser after
// erDiagram.jison (case-insensitive; entity blocks, cardinalities, styles,
// subgraphs), with checks on attributes declared twice and on names that
// class and style statements give.

type erState uint8

const (
	erInitial erState = iota
	erBlock
	erBlockBq
	erStyle
	erAccTitle
	erAccDescr
	erAccDescrMulti
)

// erAcc are the states of the accessibility statements' values.
var erAcc = syntax.AccStates[erState]{Title: erAccTitle, Descr: erAccDescr, Multi: erAccDescrMulti}

type erLexer struct {
	syntax.Scanner[erState]
	dir syntax.DirectionLines
}

func (l *erLexer) Next() syntax.Token {
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

func (l *erLexer) atEnd(st erState) syntax.Token {
	kind := ""
	switch st {
	case erInitial:
		kind = "EOF"
	case erAccTitle:
		kind = "acc_title_value"
	case erAccDescr:
		kind = "acc_descr_value"
	case erAccDescrMulti:
		kind = "acc_descr_multiline_value"
	}
	return l.End(kind)
}

func (l *erLexer) lexOne(st erState) (syntax.Token, bool) {
	if tok, emit, ok := l.AccValue(erAcc, st); ok {
		return tok, emit
	}
	t, i := l.Src, l.Pos
	switch st {
	case erBlock:
		return l.inBlock()
	case erBlockBq:
		if t[i] == '`' {
			l.Pos++
			l.Pop()
			return syntax.Token{}, false
		}
		return l.Tok("ATTRIBUTE_WORD", syntax.IndexByteFrom(t, i, '`')), true
	case erStyle:
		return l.inStyle()
	}
	return l.initial()
}

func (l *erLexer) initial() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if tok, emit, ok := l.AccKeyword(erAcc, true); ok {
		return tok, emit
	}
	if kind, end := l.dir.Match(t, i); kind != "" && kind != "direction_td" {
		return l.Tok(kind, end), true
	}
	if t[i] == ' ' || t[i] == '\t' || t[i] == '\r' {
		for l.Pos < len(t) && (t[l.Pos] == ' ' || t[l.Pos] == '\t' || t[l.Pos] == '\r') {
			l.Pos++
		}
		return syntax.Token{}, false
	}
	if t[i] == '\n' {
		j := i
		for j < len(t) && t[j] == '\n' {
			j++
		}
		return l.Tok("NEWLINE", j), true
	}
	if t[i] == '"' {
		end := syntax.IndexByteFrom(t, i+1, '"')
		if end < len(t) {
			if strings.ContainsAny(t[i+1:end], "%\r\n\v\b\\") || end == i+1 {
				return l.Tok("WORD", end+1), true
			}
			return l.Tok("ENTITY_NAME", end+1), true
		}
	}
	return l.initialWords()
}

func (l *erLexer) initialWords() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	switch {
	case syntax.HasWord(t, i, "erDiagram", true):
		return l.Tok("ER_DIAGRAM", i+9), true
	case t[i] == '{':
		l.Push(erBlock)
		return l.Tok("BLOCK_START", i+1), true
	case t[i] == '#':
		return l.Tok("BRKT", i+1), true
	case t[i] == ',':
		return l.Tok("COMMA", i+1), true
	case strings.HasPrefix(t[i:], ":::"):
		return l.Tok("STYLE_SEPARATOR", i+3), true
	case t[i] == ':':
		return l.Tok("COLON", i+1), true
	case t[i] == '[':
		return l.Tok("SQS", i+1), true
	case t[i] == ']':
		return l.Tok("SQE", i+1), true
	case syntax.HasWord(t, i, "style", true):
		l.Push(erStyle)
		return l.Tok("STYLE", i+5), true
	case syntax.HasWord(t, i, "classDef", true):
		l.Push(erStyle)
		return l.Tok("CLASSDEF", i+8), true
	case syntax.HasWord(t, i, "class", true):
		return l.Tok("CLASS", i+5), true
	case syntax.HasWord(t, i, "subgraph", true):
		return l.Tok("SUBGRAPH", i+8), true
	case syntax.HasWord(t, i, "end", true):
		return l.Tok("END", syntax.SkipJSSpace(t, i+3)), true
	}
	if kind, n := erCardinality(t, i); kind != "" {
		return l.Tok(kind, i+n), true
	}
	return l.initialRest()
}

// erCardinalityWords are the cardinality and relation rules, in order.
var erCardinalityWords = []struct {
	s, kind string
	word    bool // followed by \b
}{
	{"one or zero", "ZERO_OR_ONE", true}, {"one or more", "ONE_OR_MORE", true}, {"one or many", "ONE_OR_MORE", true},
	{"1+", "ONE_OR_MORE", false}, {"|o", "ZERO_OR_ONE", true}, {"zero or one", "ZERO_OR_ONE", true},
	{"zero or more", "ZERO_OR_MORE", true}, {"zero or many", "ZERO_OR_MORE", true}, {"0+", "ZERO_OR_MORE", false},
	{"}o", "ZERO_OR_MORE", true}, {"many(0)", "ZERO_OR_MORE", false}, {"many(1)", "ONE_OR_MORE", false},
	{"many", "ZERO_OR_MORE", true}, {"}|", "ONE_OR_MORE", false}, {"one", "ONLY_ONE", true},
	{"only one", "ONLY_ONE", true},
}

func erCardinality(t string, i int) (string, int) {
	for _, c := range erCardinalityWords {
		if syntax.HasPrefixAt(t, i, c.s, true) && (!c.word || syntax.WordEnds(t, i+len(c.s))) {
			return c.kind, len(c.s)
		}
	}
	return "", 0
}

func (l *erLexer) initialRest() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if syntax.IsDigit(t[i]) {
		return l.number()
	}
	for _, c := range []struct{ s, kind string }{
		{"||", "ONLY_ONE"}, {"o|", "ZERO_OR_ONE"}, {"o{", "ZERO_OR_MORE"}, {"|{", "ONE_OR_MORE"},
	} {
		if syntax.HasPrefixAt(t, i, c.s, true) {
			return l.Tok(c.kind, i+2), true
		}
	}
	if (t[i] == 'u' || t[i] == 'U') && i+1 < len(t) && strings.IndexByte(".-|", t[i+1]) >= 0 {
		return l.Tok("MD_PARENT", i+1), true
	}
	switch {
	case strings.HasPrefix(t[i:], ".."):
		return l.Tok("NON_IDENTIFYING", i+2), true
	case strings.HasPrefix(t[i:], "--"):
		return l.Tok("IDENTIFYING", i+2), true
	case syntax.HasWord(t, i, "to", true):
		return l.Tok("IDENTIFYING", i+2), true
	case syntax.HasWord(t, i, "optionally to", true):
		return l.Tok("NON_IDENTIFYING", i+13), true
	case strings.HasPrefix(t[i:], ".-"), strings.HasPrefix(t[i:], "-."):
		return l.Tok("NON_IDENTIFYING", i+2), true
	}
	if end := erTextEnd(t, i, true); end > i {
		return l.Tok("UNICODE_TEXT", end), true
	}
	_, n := syntax.DecodeRune(t, i)
	return l.Tok(t[i:i+n], i+n), true
}

// number matches the DECIMAL_NUM, the 1 rules and NUM.
func (l *erLexer) number() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	j := i
	for j < len(t) && syntax.IsDigit(t[j]) {
		j++
	}
	if j < len(t) && t[j] == '.' && j+1 < len(t) && syntax.IsDigit(t[j+1]) {
		k := j + 1
		for k < len(t) && syntax.IsDigit(t[k]) {
			k++
		}
		return l.Tok("DECIMAL_NUM", k), true
	}
	if t[i] == '1' {
		k := syntax.SkipJSSpace(t, i+1)
		if k > i+1 && k < len(t) && (syntax.IsAlpha(t[k]) || t[k] == '_' || t[k] == '"' || t[k] == '\'' || syntax.IsDigit(t[k])) {
			return l.Tok("ONLY_ONE", i+1), true
		}
		for _, s := range []string{"--", "..", ".-", "-."} {
			if strings.HasPrefix(t[i+1:], s) {
				return l.Tok("ONLY_ONE", i+1), true
			}
		}
		if syntax.WordEnds(t, i+1) {
			return l.Tok("ENTITY_ONE", i+1), true
		}
	}
	return l.Tok("NUM", j), true
}

// erTextEnd matches ([^\x00-\x7F]|\w|-|\*|\.)+ (without . in styles).
func erTextEnd(t string, i int, dot bool) int {
	j := i
	for j < len(t) {
		c := t[j]
		if c >= 0x80 || syntax.IsWordByte(c) || c == '-' || c == '*' || dot && c == '.' {
			j++
			continue
		}
		break
	}
	return j
}

func (l *erLexer) inBlock() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if j := syntax.SkipJSSpace(t, i); j > i {
		l.Pos = j
		return syntax.Token{}, false
	}
	for _, k := range []string{"PK", "FK", "UK"} {
		if syntax.HasWord(t, i, k, true) && (i == 0 || !syntax.IsWordByte(t[i-1])) {
			return l.Tok("ATTRIBUTE_KEY", i+2), true
		}
	}
	if end := erGenericWordEnd(t, i); end > 0 {
		return l.Tok("ATTRIBUTE_WORD", end), true
	}
	if end := erAttributeWordEnd(t, i); end > i {
		return l.Tok("ATTRIBUTE_WORD", end), true
	}
	switch t[i] {
	case '`':
		l.Pos++
		l.Push(erBlockBq)
		return syntax.Token{}, false
	case '"':
		if end := strings.IndexByte(t[i+1:], '"'); end >= 0 {
			return l.Tok("COMMENT", i+end+2), true
		}
	case '}':
		l.Pop()
		return l.Tok("BLOCK_STOP", i+1), true
	}
	_, n := syntax.DecodeRune(t, i)
	return l.Tok(t[i:i+n], i+n), true
}

// erGenericWordEnd matches ([^\s]*)[~].*[~]([^\s]*) at i: a type with a
// generic, up to the last ~ of the line and the word after it.
func erGenericWordEnd(t string, i int) int {
	j := i
	first := -1
	for j < len(t) && !syntax.IsJSSpaceByte(t[j]) {
		if t[j] == '~' && first < 0 {
			first = j
		}
		j++
	}
	if first < 0 {
		return 0
	}
	le := syntax.LineEnd(t, first)
	last := strings.LastIndexByte(t[first+1:le], '~')
	if last < 0 {
		return 0
	}
	k := first + 1 + last + 1
	for k < len(t) && !syntax.IsJSSpaceByte(t[k]) {
		k++
	}
	return k
}

// erAttributeWordEnd matches [\*A-Za-z_\u00C0-\uFFFF][A-Za-z0-9\-_\[\]\(\)\.,\u00C0-\uFFFF\*]*.
func erAttributeWordEnd(t string, i int) int {
	r, n := syntax.DecodeRune(t, i)
	if !(r == '*' || r == '_' || r < 0x80 && syntax.IsAlpha(byte(r)) || r >= 0xC0) {
		return i
	}
	j := i + n
	for j < len(t) {
		r, n := syntax.DecodeRune(t, j)
		if r >= 0xC0 || r < 0x80 && (syntax.IsWordByte(byte(r)) || strings.ContainsRune("-[]().,*", r)) {
			j += n
			continue
		}
		break
	}
	return j
}

func (l *erLexer) inStyle() (syntax.Token, bool) {
	t, i := l.Src, l.Pos
	if t[i] == '\n' {
		j := i
		for j < len(t) && t[j] == '\n' {
			j++
		}
		l.Pop()
		return l.Tok("NEWLINE", j), true
	}
	if j := syntax.SkipJSSpace(t, i); j > i {
		l.Pos = j
		return syntax.Token{}, false
	}
	switch t[i] {
	case ':':
		return l.Tok("COLON", i+1), true
	case ',':
		return l.Tok("COMMA", i+1), true
	case '#':
		return l.Tok("BRKT", i+1), true
	case ';':
		return l.Tok("SEMI", i+1), true
	}
	if end := erTextEnd(t, i, false); end > i {
		return l.Tok("STYLE_TEXT", end), true
	}
	return l.Fail(), true
}

type erParser struct {
	syntax.Parser
	code      syntax.Src
	entities  map[string]bool
	classDefs map[string]bool
	refs      []syntax.FlowRef
	classUses []syntax.Token
}

// ParseER checks the code of a diagram of its type, reporting what it finds to d.
func ParseER(d *syntax.Diagram, code syntax.Src) {
	p := &erParser{Parser: syntax.NewParser(d, code, &erLexer{Scanner: syntax.NewScanner(code.Text, erInitial)}), code: code,
		entities: map[string]bool{}, classDefs: map[string]bool{}}
	p.Hint = p.erHint
	if !syntax.RunParse(p.start) {
		return
	}
	p.checkRefs()
}

func (p *erParser) start() {
	p.Expect("ER_DIAGRAM", "erDiagram")
	p.document(false)
	p.Expect("EOF", "the end of the diagram")
	if !p.At(syntax.TokEOF) {
		p.Fail("the end of the diagram")
	}
}

func (p *erParser) document(inSubgraph bool) {
	for {
		switch p.Peek(0).Kind {
		case "NEWLINE":
			p.Take()
		case "EOF", syntax.TokEOF:
			return
		case "END":
			if inSubgraph {
				return
			}
			p.Fail("a statement (end closes no subgraph)")
		default:
			p.statement()
		}
	}
}

var erEntityKinds = map[string]bool{"ENTITY_NAME": true, "UNICODE_TEXT": true, "NUM": true, "DECIMAL_NUM": true, "ENTITY_ONE": true}
var erCardinalityKinds = map[string]bool{"ZERO_OR_ONE": true, "ZERO_OR_MORE": true, "ONE_OR_MORE": true, "ONLY_ONE": true, "MD_PARENT": true}

func (p *erParser) statement() {
	t := p.Peek(0)
	switch t.Kind {
	case "acc_title":
		p.Take()
		p.Expect("acc_title_value", "the accessible title")
	case "acc_descr":
		p.Take()
		p.Expect("acc_descr_value", "the accessible description")
	case "acc_descr_multiline_value", "direction_tb", "direction_bt", "direction_rl", "direction_lr":
		p.Take()
	case "CLASSDEF":
		p.Take()
		for _, n := range p.idList("a class name after classDef") {
			p.classDefs[n.Val] = true
		}
		p.stylesOpt()
		p.separator()
	case "STYLE":
		p.Take()
		for _, n := range p.idList("the entities to style") {
			p.refs = append(p.refs, syntax.FlowRef{ID: n.Val, At: n, Verb: "style"})
		}
		p.stylesOpt()
		p.separator()
	case "CLASS":
		p.Take()
		for _, n := range p.idList("the entities to class") {
			p.refs = append(p.refs, syntax.FlowRef{ID: n.Val, At: n, Verb: "class"})
		}
		p.classUses = append(p.classUses, p.idList("a class name")...)
	case "SUBGRAPH":
		p.subgraph()
	default:
		if !erEntityKinds[t.Kind] {
			p.Fail("an entity name, a relationship or a statement")
		}
		p.entityStatement()
	}
}

func (p *erParser) entityName(what string) syntax.Token {
	if !erEntityKinds[p.Peek(0).Kind] {
		p.Fail(what)
	}
	t := p.Take()
	t.Val = strings.ReplaceAll(t.Val, `"`, "")
	p.entities[t.Val] = true
	return t
}

func (p *erParser) entityStatement() {
	name := p.entityName("an entity name")
	if _, ok := p.Accept("SQS"); ok {
		p.entityName("the entity's alias")
		p.Expect("SQE", "] to close the alias")
		p.styleSep(name)
		p.block(name)
		return
	}
	p.styleSep(name)
	if erCardinalityKinds[p.Peek(0).Kind] {
		p.relation()
		return
	}
	p.block(name)
}

func (p *erParser) styleSep(name syntax.Token) {
	if _, ok := p.Accept("STYLE_SEPARATOR"); ok {
		p.classUses = append(p.classUses, p.idList("a class name after :::")...)
	}
}

// relation is cardinality relType cardinality entity [:::class] : role.
func (p *erParser) relation() {
	p.Take()
	if !p.At("IDENTIFYING", "NON_IDENTIFYING") {
		p.Fail("a relationship line: -- (identifying) or .. (non-identifying), as in ||--o{")
	}
	p.Take()
	if !erCardinalityKinds[p.Peek(0).Kind] {
		p.Fail("a cardinality after the line: |o, ||, }o, }|, o|, |{ or o{ (zero or one, exactly one, zero or more, one or more)")
	}
	p.Take()
	name := p.entityName("the entity at the other end of the relationship")
	p.styleSep(name)
	p.Expect("COLON", "a colon and the relationship's label (A ||--o{ B : places)")
	if !p.At("WORD", "ENTITY_NAME", "UNICODE_TEXT") {
		p.Fail("the relationship's label after the colon")
	}
	p.Take()
}

// block is an entity's optional { attributes }.
func (p *erParser) block(entity syntax.Token) {
	if _, ok := p.Accept("BLOCK_START"); !ok {
		return
	}
	seen := map[string]syntax.Token{}
	for p.At("ATTRIBUTE_WORD") {
		p.Take()
		p.Accept("?")
		attr := p.Expect("ATTRIBUTE_WORD", "the attribute's name after its type")
		if prev, dup := seen[attr.Val]; dup {
			line, _ := p.D.File.Lines.Pos(p.code.FileOff(prev.From))
			p.D.Report(syntax.RuleDuplicate, p.code, attr.From, attr.To-1,
				fmt.Sprintf("entity %s declares attribute %s again (first at line %d)", syntax.QuoteShort(entity.Val), syntax.QuoteShort(attr.Val), line),
				"remove or rename one of the two attributes")
		} else {
			seen[attr.Val] = attr
		}
		if _, ok := p.Accept("ATTRIBUTE_KEY"); ok {
			for p.At(",") {
				p.Take()
				p.Expect("ATTRIBUTE_KEY", "PK, FK or UK after the comma")
			}
		}
		p.Accept("COMMENT")
	}
	if !p.At("BLOCK_STOP") {
		p.Fail("an attribute (type name [PK|FK|UK] [\"comment\"]) or } to close the entity")
	}
	p.Take()
}

func (p *erParser) idList(what string) []syntax.Token {
	var out []syntax.Token
	for {
		if !p.At("UNICODE_TEXT", "STYLE_TEXT") {
			p.Fail(what)
		}
		out = append(out, p.Take())
		if !p.At("COMMA") || p.Peek(1).Kind != "UNICODE_TEXT" && p.Peek(1).Kind != "STYLE_TEXT" {
			return out
		}
		p.Take()
	}
}

func (p *erParser) stylesOpt() {
	kinds := map[string]bool{"STYLE_TEXT": true, "NUM": true, "COLON": true, "BRKT": true}
	for {
		if !kinds[p.Peek(0).Kind] {
			p.Fail("a style such as fill:#f9f")
		}
		for kinds[p.Peek(0).Kind] {
			p.Take()
		}
		if _, ok := p.Accept("COMMA"); !ok {
			return
		}
	}
}

func (p *erParser) separator() {
	if !p.At("SEMI", "NEWLINE", "EOF") {
		p.Fail("the end of the statement")
	}
	p.Take()
}

func (p *erParser) subgraph() {
	open := p.Take()
	p.Enter(open)
	p.entityName("the subgraph's id")
	if _, ok := p.Accept("SQS"); ok {
		p.entityName("the subgraph's title")
		for erEntityKinds[p.Peek(0).Kind] {
			p.Take()
		}
		p.Expect("SQE", "] to close the title")
	}
	p.separator()
	p.document(true)
	if !p.At("END") {
		line, _ := p.D.File.Lines.Pos(p.code.FileOff(open.From))
		p.FailMsg(p.Peek(0), fmt.Sprintf("the subgraph opened at line %d is never closed: expected end", line))
	}
	p.Take()
	p.Leave()
}

func (p *erParser) erHint(found syntax.Token, expected string) string {
	if found.Kind == "UNICODE_TEXT" && strings.Contains(expected, "statement") && strings.ContainsAny(found.Val, "-.") {
		return fmt.Sprintf("expected %s, found %s; a relationship needs a cardinality on each side of the line (A ||--o{ B : label)",
			expected, syntax.Describe(found))
	}
	return ""
}

func (p *erParser) checkRefs() {
	for _, r := range p.refs {
		if p.entities[r.ID] {
			continue
		}
		p.D.Report(syntax.RuleUndefinedNode, p.code, r.At.From, r.At.To-1,
			fmt.Sprintf("%s names %s, which is not an entity of the diagram; Mermaid ignores it", r.Verb, syntax.QuoteShort(r.ID)),
			"use the name of an entity the diagram has (names are case-sensitive)"+syntax.NearestHint(r.ID, p.entities))
	}
	for _, c := range p.classUses {
		if p.classDefs[c.Val] || c.Val == "default" {
			continue
		}
		p.D.Report(syntax.RuleUndefinedClass, p.code, c.From, c.To-1,
			fmt.Sprintf("class %s is applied but no classDef of the diagram defines it; unless the page's CSS does, it adds no style", syntax.QuoteShort(c.Val)),
			"define it with classDef "+c.Val+" fill:..., or fix the name"+syntax.NearestHint(c.Val, p.classDefs))
	}
}
