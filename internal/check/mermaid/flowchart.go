package mermaid

import (
	"fmt"
	"strconv"
	"strings"
)

// The flowchart parser, after flow.jison's grammar: a recursive descent
// over the tokens of flowLexer, recording what the semantic checks need.

type flowParser struct {
	parser
	code src
	m    *flowModel
}

// flowModel is what a flowchart says, for the checks after parsing.
type flowModel struct {
	nodes     map[string]bool  // ids a vertex statement draws
	subgraphs map[string]bool  // subgraph ids
	edgeIDs   map[string]bool  // ids given to links (e1@-->)
	classDefs map[string]token // classDef names, first definition
	edges     int
	// refs are ids named by style, class and click, checked at the end.
	refs []flowRef
	// classUses are classes applied with class or :::.
	classUses []token
	lastNode  token // the last node id read, for messages
}

func parseFlowchart(d *diagram, code src) {
	code = trimAfterBraces(code)
	p := &flowParser{parser: newParser(d, code, newFlowLexer(code.text)), code: code, m: &flowModel{
		nodes: map[string]bool{}, subgraphs: map[string]bool{}, edgeIDs: map[string]bool{}, classDefs: map[string]token{},
	}}
	p.hint = p.flowHint
	if !runParse(p.start) {
		return
	}
	p.checkModel()
}

func (p *flowParser) start() {
	for p.at("SPACE", "NEWLINE") {
		p.take()
	}
	p.expect("GRAPH", "flowchart or graph")
	switch {
	case p.at("NODIR"):
		p.take()
	case p.at("DIR"):
		p.take()
		p.firstSeparator()
	default:
		p.fail("a direction (TB, TD, BT, RL or LR) or a line break after " + quoteShort(p.last.val))
	}
	p.document(nil)
}

// firstSeparator is FirstStmtSeparator: ; or a line break, after spaces.
func (p *flowParser) firstSeparator() {
	if _, ok := p.accept("SEMI"); ok {
		return
	}
	for p.at("SPACE") {
		p.take()
	}
	p.expect("NEWLINE", "a line break after the direction")
}

// document reads statements up to the end, or up to the end of the
// subgraph opened by open.
func (p *flowParser) document(open *token) {
	for {
		switch p.peek(0).kind {
		case tokEOF:
			if open != nil {
				p.failMsg(p.peek(0), fmt.Sprintf("subgraph %s is never closed: expected end before the end of the diagram", subgraphName(*open)))
			}
			return
		case "end":
			if open != nil {
				p.take()
				return
			}
			p.failMsg(p.peek(0), "this end closes no subgraph (a node cannot be named end: write End or \"end\")")
		case "SEMI", "NEWLINE", "SPACE", "EOF":
			p.take()
		default:
			p.statement()
		}
	}
}

func subgraphName(t token) string {
	if t.val == "" {
		return "opened here"
	}
	return quoteShort(t.val)
}

func (p *flowParser) statement() {
	switch p.peek(0).kind {
	case "STYLE":
		p.styleStatement()
	case "LINKSTYLE":
		p.linkStyleStatement()
	case "CLASSDEF":
		p.classDefStatement()
	case "CLASS":
		p.classStatement()
	case "CLICK":
		p.clickStatement()
	case "subgraph":
		p.subgraph()
		return
	case "direction_tb", "direction_bt", "direction_rl", "direction_lr", "direction_td":
		p.take()
		return
	case "acc_title":
		p.take()
		p.expect("acc_title_value", "the accessible title")
		return
	case "acc_descr":
		p.take()
		p.expect("acc_descr_value", "the accessible description")
		return
	case "acc_descr_multiline_value":
		p.take()
		return
	default:
		p.vertexStatement()
	}
	p.separator()
}

func (p *flowParser) separator() {
	if p.at("NEWLINE", "SEMI", "EOF") {
		p.take()
		return
	}
	p.fail("a link (-->, ---, -.->, ==>), & or the end of the statement")
}

// vertexStatement is a node, or nodes joined by links.
func (p *flowParser) vertexStatement() {
	prev := p.node()
	p.nodeTail()
	for p.at("LINK", "START_LINK", "LINK_ID") {
		p.link()
		next := p.node()
		p.m.edges += len(prev) * len(next)
		prev = next
		p.nodeTail()
	}
}

// nodeTail reads what may follow a node in a vertex statement: shape data
// or spaces.
func (p *flowParser) nodeTail() {
	if p.at("SHAPE_DATA") {
		p.shapeData()
		return
	}
	for p.at("SPACE") {
		p.take()
	}
}

// node is one vertex, or several joined by &; it returns their ids.
func (p *flowParser) node() []string {
	ids := []string{p.styledVertex()}
	for {
		k := 0
		for p.peek(k).kind == "SHAPE_DATA" {
			k++
		}
		if p.peek(k).kind != "SPACE" || p.peek(k+1).kind != "AMP" {
			if k > 0 && p.peek(k).kind == "SPACE" {
				p.shapeData()
				p.take()
				p.fail("& and another node after the shape data")
			}
			return ids
		}
		if k > 0 {
			p.shapeData()
		}
		p.take()
		p.take()
		p.expect("SPACE", "a space after &")
		for p.at("SPACE") {
			p.take()
		}
		ids = append(ids, p.styledVertex())
	}
}

func (p *flowParser) shapeData() {
	first := p.peek(0)
	var b strings.Builder
	last := first
	for p.at("SHAPE_DATA") {
		last = p.take()
		b.WriteString(last.val)
	}
	p.checkShapeData(shapeData{text: b.String(), from: first.from, to: last.to})
}

// styledVertex is a vertex with an optional :::class.
func (p *flowParser) styledVertex() string {
	id := p.vertex()
	if _, ok := p.accept("STYLE_SEPARATOR"); ok {
		cls := p.idString("a class name after :::")
		p.m.classUses = append(p.m.classUses, cls)
	}
	return id
}

var idStringKinds = map[string]bool{"NUM": true, "NODE_STRING": true, "DOWN": true, "MINUS": true, "DEFAULT": true,
	"COMMA": true, "COLON": true, "AMP": true, "BRKT": true, "MULT": true, "UNICODE_TEXT": true}

// idString is a node id: one or more id tokens, run together.
func (p *flowParser) idString(what string) token {
	if !idStringKinds[p.peek(0).kind] {
		p.fail(what)
	}
	first := p.take()
	id := first
	for idStringKinds[p.peek(0).kind] {
		t := p.take()
		id.val += t.val
		id.to = t.to
	}
	id.kind = "ID"
	return id
}

// shapeClosers maps a label's opening token to the tokens that may close
// it.
var shapeClosers = map[string][]string{
	"SQS": {"SQE"}, "DOUBLECIRCLESTART": {"DOUBLECIRCLEEND"}, "(-": {"-)"}, "STADIUMSTART": {"STADIUMEND"},
	"SUBROUTINESTART": {"SUBROUTINEEND"}, "CYLINDERSTART": {"CYLINDEREND"}, "TAGEND": {"SQE"},
	"TRAPSTART": {"TRAPEND", "INVTRAPEND"}, "INVTRAPSTART": {"INVTRAPEND", "TRAPEND"},
}

var closerText = map[string]string{
	"SQE": "]", "DOUBLECIRCLEEND": ")))", "-)": "-)", "STADIUMEND": "])", "SUBROUTINEEND": "]]",
	"CYLINDEREND": ")]", "TRAPEND": `\]`, "INVTRAPEND": "/]", "PE": ")", "DIAMOND_STOP": "}",
}

// vertex is a node id and its optional shape and label.
func (p *flowParser) vertex() string {
	id := p.idString("a node id")
	p.m.nodes[id.val] = true
	p.m.lastNode = id
	open := p.peek(0)
	switch open.kind {
	case "PS":
		p.take()
		_, circle := p.accept("PS")
		p.label(open)
		p.closeLabel(open, "PE")
		if circle {
			p.closeLabel(open, "PE")
		}
	case "DIAMOND_START":
		p.take()
		double := false
		if _, ok := p.accept("DIAMOND_START"); ok {
			double = true
		}
		p.label(open)
		p.closeLabel(open, "DIAMOND_STOP")
		if double {
			p.closeLabel(open, "DIAMOND_STOP")
		}
	case "VERTEX_WITH_PROPS_START":
		p.take()
		p.expect("NODE_STRING", "a property name after [|")
		p.expect("COLON", "a colon after the property name")
		p.expect("NODE_STRING", "a property value")
		p.expect("PIPE", "| after the property")
		p.label(open)
		p.closeLabel(open, "SQE")
	default:
		closers, ok := shapeClosers[open.kind]
		if !ok {
			return id.val
		}
		p.take()
		p.label(open)
		if open.kind == "TAGEND" && !p.at("SQE") && strings.HasSuffix(id.val, "-") {
			p.arrowHint(id)
		}
		p.closeLabel(open, closers...)
	}
	return id.val
}

// arrowHint reports A->B, read by Mermaid as node "A-" with an odd-shaped
// label that never closes.
func (p *flowParser) arrowHint(id token) {
	at := token{kind: "MINUS", val: "->", from: id.to - 1, to: id.to + 1}
	p.failMsg(at, fmt.Sprintf("expected a link or the end of the statement after node %s, found '->' (flowchart arrows are -->, ---, -.->, ==>)",
		quoteShort(strings.TrimSuffix(id.val, "-"))))
}

var textTokenKinds = map[string]bool{"TEXT": true, "TAGSTART": true, "TAGEND": true, "UNICODE_TEXT": true}

// label is a node's text: text tokens, or a string followed by text tokens.
func (p *flowParser) label(open token) {
	if !p.at("STR", "MD_STR") && !textTokenKinds[p.peek(0).kind] {
		p.fail("the label text after " + quoteShort(open.val))
	}
	p.take()
	for textTokenKinds[p.peek(0).kind] {
		p.take()
	}
}

// closeLabel expects one of the tokens that close the label opened by open.
func (p *flowParser) closeLabel(open token, closers ...string) {
	for _, c := range closers {
		if p.at(c) {
			p.take()
			return
		}
	}
	want := make([]string, len(closers))
	for i, c := range closers {
		want[i] = quoteShort(closerText[c])
	}
	line, col := p.d.fc.lines.pos(p.code.fileOff(open.from))
	found := p.peek(0)
	msg := fmt.Sprintf("expected %s to close the label opened by %s at line %d, column %d, found %s",
		strings.Join(want, " or "), quoteShort(open.val), line, col, describe(found))
	switch found.kind {
	case "PS", "PE", "SQS", "SQE", "DIAMOND_START", "DIAMOND_STOP", "PIPE", "STADIUMSTART", "SUBROUTINESTART",
		"CYLINDERSTART", "DOUBLECIRCLESTART", "TRAPSTART", "INVTRAPSTART", "(-":
		msg += "; put a label holding brackets in double quotes: A[\"f(x)\"]"
	}
	p.failMsg(found, msg)
}

// link is an arrow, with its optional text (-->|text| or -- text -->) and
// id (e1@-->).
func (p *flowParser) link() {
	if id, ok := p.accept("LINK_ID"); ok {
		p.m.edgeIDs[strings.TrimSuffix(id.val, "@")] = true
	}
	if start, ok := p.accept("START_LINK"); ok {
		p.edgeText(start)
		if !p.at("LINK") {
			p.fail(fmt.Sprintf("the end of the link that %s started (its text cannot hold %s)",
				quoteShort(strings.TrimSpace(start.val)), quoteShort(strings.TrimSpace(start.val))))
		}
		p.take()
		return
	}
	p.expect("LINK", "a link")
	if pipe, ok := p.accept("PIPE"); ok {
		p.label(pipe)
		if !p.at("PIPE") {
			p.fail("| to close the link text")
		}
		p.take()
		p.accept("SPACE")
	}
}

func (p *flowParser) edgeText(start token) {
	if !p.at("EDGE_TEXT", "UNICODE_TEXT", "STR", "MD_STR") {
		p.fail("the link text after " + quoteShort(strings.TrimSpace(start.val)))
	}
	p.take()
	for p.at("EDGE_TEXT", "UNICODE_TEXT") {
		p.take()
	}
}

func (p *flowParser) styleStatement() {
	kw := p.take()
	p.expect("SPACE", "a space after style")
	id := p.idString("the id of the node to style")
	p.m.refs = append(p.m.refs, flowRef{id: id.val, at: id, verb: kw.val})
	p.expect("SPACE", "a space before the styles")
	p.stylesOpt()
}

var styleComponentKinds = map[string]bool{"NUM": true, "NODE_STRING": true, "COLON": true, "UNIT": true, "SPACE": true,
	"BRKT": true, "STYLE": true, "PCT": true}

// stylesOpt is style (, style)*, each style one or more components.
func (p *flowParser) stylesOpt() {
	for {
		if !styleComponentKinds[p.peek(0).kind] {
			p.fail("a style such as fill:#f9f or stroke-width:2px")
		}
		for styleComponentKinds[p.peek(0).kind] {
			p.take()
		}
		if _, ok := p.accept("COMMA"); !ok {
			return
		}
	}
}

func (p *flowParser) linkStyleStatement() {
	p.take()
	p.expect("SPACE", "a space after linkStyle")
	if _, ok := p.accept("DEFAULT"); !ok {
		p.numList()
	}
	p.expect("SPACE", "a space after the link numbers")
	if _, ok := p.accept("INTERPOLATE"); ok {
		p.expect("SPACE", "a space after interpolate")
		p.alphaNum("a curve name (basis, linear, ...)")
		if _, ok := p.accept("SPACE"); ok {
			p.stylesOpt()
		}
		return
	}
	p.stylesOpt()
}

// numList is linkStyle's link numbers, each checked against the links
// drawn so far (Mermaid applies linkStyle as it reads it).
func (p *flowParser) numList() {
	for {
		n := p.expect("NUM", "a link number (links count from 0) or default")
		if v, err := strconv.Atoi(n.val); err != nil || v >= p.m.edges {
			p.d.report(ruleLinkStyleIndex, p.code, n.from, n.to-1,
				fmt.Sprintf("linkStyle %s names a link that does not exist: the diagram has %d link(s) before this line, numbered from 0",
					n.val, p.m.edges),
				"use an index below the number of links written before the linkStyle (A & B --> C counts as two)")
		}
		if _, ok := p.accept("COMMA"); !ok {
			return
		}
	}
}

var alphaNumKinds = map[string]bool{"NUM": true, "UNICODE_TEXT": true, "NODE_STRING": true, "DIR": true, "DOWN": true,
	"MINUS": true, "COMMA": true, "COLON": true, "AMP": true, "BRKT": true, "MULT": true}

func (p *flowParser) alphaNum(what string) token {
	if !alphaNumKinds[p.peek(0).kind] {
		p.fail(what)
	}
	t := p.take()
	for alphaNumKinds[p.peek(0).kind] {
		n := p.take()
		t.val += n.val
		t.to = n.to
	}
	return t
}

func (p *flowParser) classDefStatement() {
	p.take()
	p.expect("SPACE", "a space after classDef")
	names := p.idString("a class name")
	for _, n := range splitIDs(names) {
		if prev, dup := p.m.classDefs[n.val]; dup {
			line, _ := p.d.fc.lines.pos(p.code.fileOff(prev.from))
			p.d.report(ruleDuplicate, p.code, n.from, n.to-1,
				fmt.Sprintf("classDef %s is defined again (first at line %d); Mermaid merges the two", n.val, line),
				"keep one classDef per class")
		} else {
			p.m.classDefs[n.val] = n
		}
	}
	p.expect("SPACE", "a space before the styles")
	p.stylesOpt()
}

func (p *flowParser) classStatement() {
	kw := p.take()
	p.expect("SPACE", "a space after class")
	ids := p.idString("the ids of the nodes to class")
	for _, id := range splitIDs(ids) {
		p.m.refs = append(p.m.refs, flowRef{id: id.val, at: id, verb: kw.val})
	}
	p.expect("SPACE", "a space before the class name")
	cls := p.idString("a class name")
	p.m.classUses = append(p.m.classUses, cls)
}

func (p *flowParser) clickStatement() {
	click := p.take()
	if strings.TrimSpace(click.val) == "" {
		p.failAt(click, "the id of the node to click")
	}
	p.m.refs = append(p.m.refs, flowRef{id: click.val, at: click, verb: "click"})
	switch {
	case p.at("CALLBACKNAME"):
		p.take()
		p.accept("CALLBACKARGS")
		p.optionalTooltip(false)
	case p.at("HREF"):
		p.take()
		p.expect("STR", "the link in double quotes")
		p.optionalTooltip(true)
	case p.at("STR"):
		p.take()
		p.optionalTooltip(true)
	default:
		p.alphaNum("a callback name, call name(args), href \"url\" or \"url\"")
		p.optionalTooltip(false)
	}
}

// optionalTooltip reads [SPACE STR] [SPACE LINK_TARGET] after a click.
func (p *flowParser) optionalTooltip(target bool) {
	if !p.at("SPACE") {
		return
	}
	next := p.peek(1).kind
	if next == "STR" {
		p.take()
		p.take()
		if !target || !p.at("SPACE") || p.peek(1).kind != "LINK_TARGET" {
			return
		}
		next = "LINK_TARGET"
	}
	if target && next == "LINK_TARGET" {
		p.take()
		p.take()
	}
}

var textNoTagsKinds = map[string]bool{"NUM": true, "NODE_STRING": true, "SPACE": true, "MINUS": true, "AMP": true,
	"UNICODE_TEXT": true, "COLON": true, "MULT": true, "BRKT": true, "STYLE": true, "LINKSTYLE": true, "CLASSDEF": true,
	"CLASS": true, "CLICK": true, "GRAPH": true, "DIR": true, "subgraph": true, "end": true, "DOWN": true, "UP": true,
	"START_LINK": true}

func (p *flowParser) subgraph() {
	open := p.take()
	if _, ok := p.accept("SPACE"); ok {
		title := p.textNoTags()
		open.val = strings.TrimSpace(title.val)
		if sq, ok := p.accept("SQS"); ok {
			p.label(sq)
			p.closeLabel(sq, "SQE")
		}
		if id := strings.TrimSpace(title.val); id != "" && !strings.ContainsAny(id, " ") {
			p.m.subgraphs[id] = true
		}
	} else {
		open.val = ""
	}
	if !p.at("NEWLINE", "SEMI", "EOF") {
		p.fail("a line break after the subgraph title")
	}
	p.take()
	p.enter(open)
	p.document(&open)
	p.leave()
}

// textNoTags is a subgraph title: words, or a string followed by words.
func (p *flowParser) textNoTags() token {
	if !p.at("STR", "MD_STR") && !textNoTagsKinds[p.peek(0).kind] {
		p.fail("a subgraph id or title")
	}
	t := p.take()
	for textNoTagsKinds[p.peek(0).kind] {
		n := p.take()
		t.val += n.val
		t.to = n.to
	}
	return t
}

// flowHint words the common flowchart mistakes.
func (p *flowParser) flowHint(found token, expected string) string {
	switch {
	case found.kind == "MINUS" && p.peek(1).kind == "TAGEND" && p.peek(1).from == found.to:
		return fmt.Sprintf("expected a link or the end of the statement after node %s, found '->' (flowchart arrows are -->, ---, -.->, ==>)",
			quoteShort(p.m.lastNode.val))
	case found.kind == "end":
		return fmt.Sprintf("expected %s, found the keyword end (a node cannot be named end: write End or \"end\")", expected)
	case found.kind == tokError && (found.val == "=" || found.val == "-"):
		return fmt.Sprintf("expected %s, found %q (flowchart arrows are -->, ---, -.->, ==>)", expected, found.val)
	}
	return ""
}

// trimAfterBraces is flowParser.ts's src.replace(/}\s*\n/g, '}\n'): the
// white space between a closing brace and the line break after it goes.
func trimAfterBraces(s src) src {
	var edits []edit
	t := s.text
	for i := strings.IndexByte(t, '}'); i >= 0; {
		j := skipJSSpace(t, i+1)
		if nl := strings.LastIndexByte(t[i+1:j], '\n'); nl >= 0 && nl > 0 {
			edits = append(edits, edit{from: i + 1, to: i + 1 + nl})
		}
		k := strings.IndexByte(t[j:], '}')
		if k < 0 {
			break
		}
		i = j + k
	}
	return s.apply(edits)
}
