package mermaid

import (
	"fmt"
	"strings"
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

type erLexer struct {
	t       string
	pos     int
	stack   []erState
	eofSent bool
	dir     directionLines
}

func (l *erLexer) state() erState { return l.stack[len(l.stack)-1] }
func (l *erLexer) push(s erState) { l.stack = append(l.stack, s) }
func (l *erLexer) pop() {
	if len(l.stack) > 1 {
		l.stack = l.stack[:len(l.stack)-1]
	}
}

func (l *erLexer) tok(kind string, end int) token {
	t := token{kind: kind, val: l.t[l.pos:end], from: l.pos, to: end}
	l.pos = end
	return t
}

func (l *erLexer) next() token {
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

func (l *erLexer) atEnd(st erState) token {
	if l.eofSent {
		return token{kind: tokEOF, from: l.pos, to: l.pos}
	}
	l.eofSent = true
	switch st {
	case erInitial:
		return token{kind: "EOF", from: l.pos, to: l.pos}
	case erAccTitle:
		return token{kind: "acc_title_value", from: l.pos, to: l.pos}
	case erAccDescr:
		return token{kind: "acc_descr_value", from: l.pos, to: l.pos}
	case erAccDescrMulti:
		return token{kind: "acc_descr_multiline_value", from: l.pos, to: l.pos}
	}
	return token{kind: tokEOF, from: l.pos, to: l.pos}
}

func (l *erLexer) errorTok() token {
	_, n := decodeRune(l.t, l.pos)
	t := l.tok(tokError, l.pos+n)
	l.pos, l.eofSent = len(l.t), true
	return t
}

func (l *erLexer) lexOne(st erState) (token, bool) {
	t, i := l.t, l.pos
	switch st {
	case erAccTitle, erAccDescr:
		kind := "acc_title_value"
		if st == erAccDescr {
			kind = "acc_descr_value"
		}
		l.pop()
		return l.tok(kind, lineEnd(t, i)), true
	case erAccDescrMulti:
		if t[i] == '}' {
			l.pos++
			l.pop()
			return token{}, false
		}
		return l.tok("acc_descr_multiline_value", indexByteFrom(t, i, '}')), true
	case erBlock:
		return l.inBlock()
	case erBlockBq:
		if t[i] == '`' {
			l.pos++
			l.pop()
			return token{}, false
		}
		return l.tok("ATTRIBUTE_WORD", indexByteFrom(t, i, '`')), true
	case erStyle:
		return l.inStyle()
	}
	return l.initial()
}

func (l *erLexer) initial() (token, bool) {
	t, i := l.t, l.pos
	if kind, end, st := accKeyword(t, i, true); kind != "" {
		switch st {
		case fsAccTitle:
			l.push(erAccTitle)
		case fsAccDescr:
			l.push(erAccDescr)
		default:
			l.push(erAccDescrMulti)
			l.pos = end
			return token{}, false
		}
		return l.tok(kind, end), true
	}
	if kind, end := l.dir.match(t, i); kind != "" && kind != "direction_td" {
		return l.tok(kind, end), true
	}
	if t[i] == ' ' || t[i] == '\t' || t[i] == '\r' {
		for l.pos < len(t) && (t[l.pos] == ' ' || t[l.pos] == '\t' || t[l.pos] == '\r') {
			l.pos++
		}
		return token{}, false
	}
	if t[i] == '\n' {
		j := i
		for j < len(t) && t[j] == '\n' {
			j++
		}
		return l.tok("NEWLINE", j), true
	}
	if t[i] == '"' {
		end := indexByteFrom(t, i+1, '"')
		if end < len(t) {
			if strings.ContainsAny(t[i+1:end], "%\r\n\v\b\\") || end == i+1 {
				return l.tok("WORD", end+1), true
			}
			return l.tok("ENTITY_NAME", end+1), true
		}
	}
	return l.initialWords()
}

func (l *erLexer) initialWords() (token, bool) {
	t, i := l.t, l.pos
	switch {
	case hasWord(t, i, "erDiagram", true):
		return l.tok("ER_DIAGRAM", i+9), true
	case t[i] == '{':
		l.push(erBlock)
		return l.tok("BLOCK_START", i+1), true
	case t[i] == '#':
		return l.tok("BRKT", i+1), true
	case t[i] == ',':
		return l.tok("COMMA", i+1), true
	case strings.HasPrefix(t[i:], ":::"):
		return l.tok("STYLE_SEPARATOR", i+3), true
	case t[i] == ':':
		return l.tok("COLON", i+1), true
	case t[i] == '[':
		return l.tok("SQS", i+1), true
	case t[i] == ']':
		return l.tok("SQE", i+1), true
	case hasWord(t, i, "style", true):
		l.push(erStyle)
		return l.tok("STYLE", i+5), true
	case hasWord(t, i, "classDef", true):
		l.push(erStyle)
		return l.tok("CLASSDEF", i+8), true
	case hasWord(t, i, "class", true):
		return l.tok("CLASS", i+5), true
	case hasWord(t, i, "subgraph", true):
		return l.tok("SUBGRAPH", i+8), true
	case hasWord(t, i, "end", true):
		return l.tok("END", skipJSSpace(t, i+3)), true
	}
	if kind, n := erCardinality(t, i); kind != "" {
		return l.tok(kind, i+n), true
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
		if hasPrefixAt(t, i, c.s, true) && (!c.word || wordEnds(t, i+len(c.s))) {
			return c.kind, len(c.s)
		}
	}
	return "", 0
}

func (l *erLexer) initialRest() (token, bool) {
	t, i := l.t, l.pos
	if isDigit(t[i]) {
		return l.number()
	}
	for _, c := range []struct{ s, kind string }{
		{"||", "ONLY_ONE"}, {"o|", "ZERO_OR_ONE"}, {"o{", "ZERO_OR_MORE"}, {"|{", "ONE_OR_MORE"},
	} {
		if hasPrefixAt(t, i, c.s, true) {
			return l.tok(c.kind, i+2), true
		}
	}
	if (t[i] == 'u' || t[i] == 'U') && i+1 < len(t) && strings.IndexByte(".-|", t[i+1]) >= 0 {
		return l.tok("MD_PARENT", i+1), true
	}
	switch {
	case strings.HasPrefix(t[i:], ".."):
		return l.tok("NON_IDENTIFYING", i+2), true
	case strings.HasPrefix(t[i:], "--"):
		return l.tok("IDENTIFYING", i+2), true
	case hasWord(t, i, "to", true):
		return l.tok("IDENTIFYING", i+2), true
	case hasWord(t, i, "optionally to", true):
		return l.tok("NON_IDENTIFYING", i+13), true
	case strings.HasPrefix(t[i:], ".-"), strings.HasPrefix(t[i:], "-."):
		return l.tok("NON_IDENTIFYING", i+2), true
	}
	if end := erTextEnd(t, i, true); end > i {
		return l.tok("UNICODE_TEXT", end), true
	}
	_, n := decodeRune(t, i)
	return l.tok(t[i:i+n], i+n), true
}

// number matches the DECIMAL_NUM, the 1 rules and NUM.
func (l *erLexer) number() (token, bool) {
	t, i := l.t, l.pos
	j := i
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	if j < len(t) && t[j] == '.' && j+1 < len(t) && isDigit(t[j+1]) {
		k := j + 1
		for k < len(t) && isDigit(t[k]) {
			k++
		}
		return l.tok("DECIMAL_NUM", k), true
	}
	if t[i] == '1' {
		k := skipJSSpace(t, i+1)
		if k > i+1 && k < len(t) && (isAlpha(t[k]) || t[k] == '_' || t[k] == '"' || t[k] == '\'' || isDigit(t[k])) {
			return l.tok("ONLY_ONE", i+1), true
		}
		for _, s := range []string{"--", "..", ".-", "-."} {
			if strings.HasPrefix(t[i+1:], s) {
				return l.tok("ONLY_ONE", i+1), true
			}
		}
		if wordEnds(t, i+1) {
			return l.tok("ENTITY_ONE", i+1), true
		}
	}
	return l.tok("NUM", j), true
}

// erTextEnd matches ([^\x00-\x7F]|\w|-|\*|\.)+ (without . in styles).
func erTextEnd(t string, i int, dot bool) int {
	j := i
	for j < len(t) {
		c := t[j]
		if c >= 0x80 || isWordByte(c) || c == '-' || c == '*' || dot && c == '.' {
			j++
			continue
		}
		break
	}
	return j
}

func (l *erLexer) inBlock() (token, bool) {
	t, i := l.t, l.pos
	if j := skipJSSpace(t, i); j > i {
		l.pos = j
		return token{}, false
	}
	for _, k := range []string{"PK", "FK", "UK"} {
		if hasWord(t, i, k, true) && (i == 0 || !isWordByte(t[i-1])) {
			return l.tok("ATTRIBUTE_KEY", i+2), true
		}
	}
	if end := erGenericWordEnd(t, i); end > 0 {
		return l.tok("ATTRIBUTE_WORD", end), true
	}
	if end := erAttributeWordEnd(t, i); end > i {
		return l.tok("ATTRIBUTE_WORD", end), true
	}
	switch t[i] {
	case '`':
		l.pos++
		l.push(erBlockBq)
		return token{}, false
	case '"':
		if end := strings.IndexByte(t[i+1:], '"'); end >= 0 {
			return l.tok("COMMENT", i+end+2), true
		}
	case '}':
		l.pop()
		return l.tok("BLOCK_STOP", i+1), true
	}
	_, n := decodeRune(t, i)
	return l.tok(t[i:i+n], i+n), true
}

// erGenericWordEnd matches ([^\s]*)[~].*[~]([^\s]*) at i: a type with a
// generic, up to the last ~ of the line and the word after it.
func erGenericWordEnd(t string, i int) int {
	j := i
	first := -1
	for j < len(t) && !isJSSpaceByte(t[j]) {
		if t[j] == '~' && first < 0 {
			first = j
		}
		j++
	}
	if first < 0 {
		return 0
	}
	le := lineEnd(t, first)
	last := strings.LastIndexByte(t[first+1:le], '~')
	if last < 0 {
		return 0
	}
	k := first + 1 + last + 1
	for k < len(t) && !isJSSpaceByte(t[k]) {
		k++
	}
	return k
}

// erAttributeWordEnd matches [\*A-Za-z_\u00C0-\uFFFF][A-Za-z0-9\-_\[\]\(\)\.,\u00C0-\uFFFF\*]*.
func erAttributeWordEnd(t string, i int) int {
	r, n := decodeRune(t, i)
	if !(r == '*' || r == '_' || r < 0x80 && isAlpha(byte(r)) || r >= 0xC0) {
		return i
	}
	j := i + n
	for j < len(t) {
		r, n := decodeRune(t, j)
		if r >= 0xC0 || r < 0x80 && (isWordByte(byte(r)) || strings.ContainsRune("-[]().,*", r)) {
			j += n
			continue
		}
		break
	}
	return j
}

func (l *erLexer) inStyle() (token, bool) {
	t, i := l.t, l.pos
	if t[i] == '\n' {
		j := i
		for j < len(t) && t[j] == '\n' {
			j++
		}
		l.pop()
		return l.tok("NEWLINE", j), true
	}
	if j := skipJSSpace(t, i); j > i {
		l.pos = j
		return token{}, false
	}
	switch t[i] {
	case ':':
		return l.tok("COLON", i+1), true
	case ',':
		return l.tok("COMMA", i+1), true
	case '#':
		return l.tok("BRKT", i+1), true
	case ';':
		return l.tok("SEMI", i+1), true
	}
	if end := erTextEnd(t, i, false); end > i {
		return l.tok("STYLE_TEXT", end), true
	}
	return l.errorTok(), true
}

type erParser struct {
	parser
	code      src
	entities  map[string]bool
	classDefs map[string]bool
	refs      []flowRef
	classUses []token
}

func parseER(d *diagram, code src) {
	p := &erParser{parser: newParser(d, code, &erLexer{t: code.text, stack: []erState{erInitial}}), code: code,
		entities: map[string]bool{}, classDefs: map[string]bool{}}
	p.hint = p.erHint
	if !runParse(p.start) {
		return
	}
	p.checkRefs()
}

func (p *erParser) start() {
	p.expect("ER_DIAGRAM", "erDiagram")
	p.document(false)
	p.expect("EOF", "the end of the diagram")
	if !p.at(tokEOF) {
		p.fail("the end of the diagram")
	}
}

func (p *erParser) document(inSubgraph bool) {
	for {
		switch p.peek(0).kind {
		case "NEWLINE":
			p.take()
		case "EOF", tokEOF:
			return
		case "END":
			if inSubgraph {
				return
			}
			p.fail("a statement (end closes no subgraph)")
		default:
			p.statement()
		}
	}
}

var erEntityKinds = map[string]bool{"ENTITY_NAME": true, "UNICODE_TEXT": true, "NUM": true, "DECIMAL_NUM": true, "ENTITY_ONE": true}
var erCardinalityKinds = map[string]bool{"ZERO_OR_ONE": true, "ZERO_OR_MORE": true, "ONE_OR_MORE": true, "ONLY_ONE": true, "MD_PARENT": true}

func (p *erParser) statement() {
	t := p.peek(0)
	switch t.kind {
	case "acc_title":
		p.take()
		p.expect("acc_title_value", "the accessible title")
	case "acc_descr":
		p.take()
		p.expect("acc_descr_value", "the accessible description")
	case "acc_descr_multiline_value", "direction_tb", "direction_bt", "direction_rl", "direction_lr":
		p.take()
	case "CLASSDEF":
		p.take()
		for _, n := range p.idList("a class name after classDef") {
			p.classDefs[n.val] = true
		}
		p.stylesOpt()
		p.separator()
	case "STYLE":
		p.take()
		for _, n := range p.idList("the entities to style") {
			p.refs = append(p.refs, flowRef{id: n.val, at: n, verb: "style"})
		}
		p.stylesOpt()
		p.separator()
	case "CLASS":
		p.take()
		for _, n := range p.idList("the entities to class") {
			p.refs = append(p.refs, flowRef{id: n.val, at: n, verb: "class"})
		}
		p.classUses = append(p.classUses, p.idList("a class name")...)
	case "SUBGRAPH":
		p.subgraph()
	default:
		if !erEntityKinds[t.kind] {
			p.fail("an entity name, a relationship or a statement")
		}
		p.entityStatement()
	}
}

func (p *erParser) entityName(what string) token {
	if !erEntityKinds[p.peek(0).kind] {
		p.fail(what)
	}
	t := p.take()
	t.val = strings.ReplaceAll(t.val, `"`, "")
	p.entities[t.val] = true
	return t
}

func (p *erParser) entityStatement() {
	name := p.entityName("an entity name")
	if _, ok := p.accept("SQS"); ok {
		p.entityName("the entity's alias")
		p.expect("SQE", "] to close the alias")
		p.styleSep(name)
		p.block(name)
		return
	}
	p.styleSep(name)
	if erCardinalityKinds[p.peek(0).kind] {
		p.relation()
		return
	}
	p.block(name)
}

func (p *erParser) styleSep(name token) {
	if _, ok := p.accept("STYLE_SEPARATOR"); ok {
		p.classUses = append(p.classUses, p.idList("a class name after :::")...)
	}
}

// relation is cardinality relType cardinality entity [:::class] : role.
func (p *erParser) relation() {
	p.take()
	if !p.at("IDENTIFYING", "NON_IDENTIFYING") {
		p.fail("a relationship line: -- (identifying) or .. (non-identifying), as in ||--o{")
	}
	p.take()
	if !erCardinalityKinds[p.peek(0).kind] {
		p.fail("a cardinality after the line: |o, ||, }o, }|, o|, |{ or o{ (zero or one, exactly one, zero or more, one or more)")
	}
	p.take()
	name := p.entityName("the entity at the other end of the relationship")
	p.styleSep(name)
	p.expect("COLON", "a colon and the relationship's label (A ||--o{ B : places)")
	if !p.at("WORD", "ENTITY_NAME", "UNICODE_TEXT") {
		p.fail("the relationship's label after the colon")
	}
	p.take()
}

// block is an entity's optional { attributes }.
func (p *erParser) block(entity token) {
	if _, ok := p.accept("BLOCK_START"); !ok {
		return
	}
	seen := map[string]token{}
	for p.at("ATTRIBUTE_WORD") {
		p.take()
		p.accept("?")
		attr := p.expect("ATTRIBUTE_WORD", "the attribute's name after its type")
		if prev, dup := seen[attr.val]; dup {
			line, _ := p.d.fc.lines.pos(p.code.fileOff(prev.from))
			p.d.report(ruleDuplicate, p.code, attr.from, attr.to-1,
				fmt.Sprintf("entity %s declares attribute %s again (first at line %d)", quoteShort(entity.val), quoteShort(attr.val), line),
				"remove or rename one of the two attributes")
		} else {
			seen[attr.val] = attr
		}
		if _, ok := p.accept("ATTRIBUTE_KEY"); ok {
			for p.at(",") {
				p.take()
				p.expect("ATTRIBUTE_KEY", "PK, FK or UK after the comma")
			}
		}
		p.accept("COMMENT")
	}
	if !p.at("BLOCK_STOP") {
		p.fail("an attribute (type name [PK|FK|UK] [\"comment\"]) or } to close the entity")
	}
	p.take()
}

func (p *erParser) idList(what string) []token {
	var out []token
	for {
		if !p.at("UNICODE_TEXT", "STYLE_TEXT") {
			p.fail(what)
		}
		out = append(out, p.take())
		if !p.at("COMMA") || p.peek(1).kind != "UNICODE_TEXT" && p.peek(1).kind != "STYLE_TEXT" {
			return out
		}
		p.take()
	}
}

func (p *erParser) stylesOpt() {
	kinds := map[string]bool{"STYLE_TEXT": true, "NUM": true, "COLON": true, "BRKT": true}
	for {
		if !kinds[p.peek(0).kind] {
			p.fail("a style such as fill:#f9f")
		}
		for kinds[p.peek(0).kind] {
			p.take()
		}
		if _, ok := p.accept("COMMA"); !ok {
			return
		}
	}
}

func (p *erParser) separator() {
	if !p.at("SEMI", "NEWLINE", "EOF") {
		p.fail("the end of the statement")
	}
	p.take()
}

func (p *erParser) subgraph() {
	open := p.take()
	p.enter(open)
	p.entityName("the subgraph's id")
	if _, ok := p.accept("SQS"); ok {
		p.entityName("the subgraph's title")
		for erEntityKinds[p.peek(0).kind] {
			p.take()
		}
		p.expect("SQE", "] to close the title")
	}
	p.separator()
	p.document(true)
	if !p.at("END") {
		line, _ := p.d.fc.lines.pos(p.code.fileOff(open.from))
		p.failMsg(p.peek(0), fmt.Sprintf("the subgraph opened at line %d is never closed: expected end", line))
	}
	p.take()
	p.leave()
}

func (p *erParser) erHint(found token, expected string) string {
	if found.kind == "UNICODE_TEXT" && strings.Contains(expected, "statement") && strings.ContainsAny(found.val, "-.") {
		return fmt.Sprintf("expected %s, found %s; a relationship needs a cardinality on each side of the line (A ||--o{ B : label)",
			expected, describe(found))
	}
	return ""
}

func (p *erParser) checkRefs() {
	for _, r := range p.refs {
		if p.entities[r.id] {
			continue
		}
		p.d.report(ruleUndefinedNode, p.code, r.at.from, r.at.to-1,
			fmt.Sprintf("%s names %s, which is not an entity of the diagram; Mermaid ignores it", r.verb, quoteShort(r.id)),
			"use the name of an entity the diagram has (names are case-sensitive)"+nearestHint(r.id, p.entities))
	}
	for _, c := range p.classUses {
		if p.classDefs[c.val] || c.val == "default" {
			continue
		}
		p.d.report(ruleUndefinedClass, p.code, c.from, c.to-1,
			fmt.Sprintf("class %s is applied but no classDef of the diagram defines it; unless the page's CSS does, it adds no style", quoteShort(c.val)),
			"define it with classDef "+c.val+" fill:..., or fix the name"+nearestHint(c.val, p.classDefs))
	}
}
