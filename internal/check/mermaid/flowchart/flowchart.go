package flowchart

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// The flowchart parser, after flow.jison's grammar: a recursive descent
// over the tokens of flowLexer, recording what the semantic checks need.

type flowParser struct {
	syntax.Parser
	code syntax.Src
	m    *flowModel
}

// flowModel is what a flowchart says, for the checks after parsing.
type flowModel struct {
	nodes     map[string]bool         // ids a vertex statement draws
	subgraphs map[string]bool         // subgraph ids
	edgeIDs   map[string]bool         // ids given to links (e1@-->)
	classDefs map[string]syntax.Token // classDef names, first definition
	edges     int
	// refs are ids named by style, class and click, checked at the end.
	refs []syntax.FlowRef
	// classUses are classes applied with class or :::.
	classUses []syntax.Token
	lastNode  syntax.Token // the last node id read, for messages
}

// ParseFlowchart checks the code of a diagram of its type, reporting what it finds to d.
func ParseFlowchart(d *syntax.Diagram, code syntax.Src) {
	code = trimAfterBraces(code)
	p := &flowParser{Parser: syntax.NewParser(d, code, NewFlowLexer(code.Text)), code: code, m: &flowModel{
		nodes: map[string]bool{}, subgraphs: map[string]bool{}, edgeIDs: map[string]bool{}, classDefs: map[string]syntax.Token{},
	}}
	p.Hint = p.flowHint
	if !syntax.RunParse(p.start) {
		return
	}
	p.checkModel()
}

func (p *flowParser) start() {
	for p.At("SPACE", "NEWLINE") {
		p.Take()
	}
	p.Expect("GRAPH", "flowchart or graph")
	switch {
	case p.At("NODIR"):
		p.Take()
	case p.At("DIR"):
		p.Take()
		p.firstSeparator()
	default:
		p.Fail("a direction (TB, TD, BT, RL or LR) or a line break after " + syntax.QuoteShort(p.Last.Val))
	}
	p.document(nil)
}

// firstSeparator is FirstStmtSeparator: ; or a line break, after spaces.
func (p *flowParser) firstSeparator() {
	if _, ok := p.Accept("SEMI"); ok {
		return
	}
	for p.At("SPACE") {
		p.Take()
	}
	p.Expect("NEWLINE", "a line break after the direction")
}

// document reads statements up to the end, or up to the end of the
// subgraph opened by open.
func (p *flowParser) document(open *syntax.Token) {
	for {
		switch p.Peek(0).Kind {
		case syntax.TokEOF:
			if open != nil {
				p.FailMsg(p.Peek(0), fmt.Sprintf("subgraph %s is never closed: expected end before the end of the diagram", subgraphName(*open)))
			}
			return
		case "end":
			if open != nil {
				p.Take()
				return
			}
			p.FailMsg(p.Peek(0), "this end closes no subgraph (a node cannot be named end: write End or \"end\")")
		case "SEMI", "NEWLINE", "SPACE", "EOF":
			p.Take()
		default:
			p.statement()
		}
	}
}

func subgraphName(t syntax.Token) string {
	if t.Val == "" {
		return "opened here"
	}
	return syntax.QuoteShort(t.Val)
}

func (p *flowParser) statement() {
	switch p.Peek(0).Kind {
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
		p.Take()
		return
	case "acc_title":
		p.Take()
		p.Expect("acc_title_value", "the accessible title")
		return
	case "acc_descr":
		p.Take()
		p.Expect("acc_descr_value", "the accessible description")
		return
	case "acc_descr_multiline_value":
		p.Take()
		return
	default:
		p.vertexStatement()
	}
	p.separator()
}

func (p *flowParser) separator() {
	if p.At("NEWLINE", "SEMI", "EOF") {
		p.Take()
		return
	}
	p.Fail("a link (-->, ---, -.->, ==>), & or the end of the statement")
}

// vertexStatement is a node, or nodes joined by links.
func (p *flowParser) vertexStatement() {
	prev := p.node()
	p.nodeTail()
	for p.At("LINK", "START_LINK", "LINK_ID") {
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
	if p.At("SHAPE_DATA") {
		p.shapeData()
		return
	}
	for p.At("SPACE") {
		p.Take()
	}
}

// node is one vertex, or several joined by &; it returns their ids.
func (p *flowParser) node() []string {
	ids := []string{p.styledVertex()}
	for {
		k := 0
		for p.Peek(k).Kind == "SHAPE_DATA" {
			k++
		}
		if p.Peek(k).Kind != "SPACE" || p.Peek(k+1).Kind != "AMP" {
			if k > 0 && p.Peek(k).Kind == "SPACE" {
				p.shapeData()
				p.Take()
				p.Fail("& and another node after the shape data")
			}
			return ids
		}
		if k > 0 {
			p.shapeData()
		}
		p.Take()
		p.Take()
		p.Expect("SPACE", "a space after &")
		for p.At("SPACE") {
			p.Take()
		}
		ids = append(ids, p.styledVertex())
	}
}

func (p *flowParser) shapeData() {
	first := p.Peek(0)
	var b strings.Builder
	last := first
	for p.At("SHAPE_DATA") {
		last = p.Take()
		b.WriteString(last.Val)
	}
	p.checkShapeData(syntax.ShapeData{Text: b.String(), From: first.From, To: last.To})
}

// styledVertex is a vertex with an optional :::class.
func (p *flowParser) styledVertex() string {
	id := p.vertex()
	if _, ok := p.Accept("STYLE_SEPARATOR"); ok {
		cls := p.idString("a class name after :::")
		p.m.classUses = append(p.m.classUses, cls)
	}
	return id
}

var idStringKinds = map[string]bool{"NUM": true, "NODE_STRING": true, "DOWN": true, "MINUS": true, "DEFAULT": true,
	"COMMA": true, "COLON": true, "AMP": true, "BRKT": true, "MULT": true, "UNICODE_TEXT": true}

// idString is a node id: one or more id tokens, run together.
func (p *flowParser) idString(what string) syntax.Token {
	if !idStringKinds[p.Peek(0).Kind] {
		p.Fail(what)
	}
	first := p.Take()
	id := first
	for idStringKinds[p.Peek(0).Kind] {
		t := p.Take()
		id.Val += t.Val
		id.To = t.To
	}
	id.Kind = "ID"
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
	p.m.nodes[id.Val] = true
	p.m.lastNode = id
	open := p.Peek(0)
	switch open.Kind {
	case "PS":
		p.Take()
		_, circle := p.Accept("PS")
		p.label(open)
		p.closeLabel(open, "PE")
		if circle {
			p.closeLabel(open, "PE")
		}
	case "DIAMOND_START":
		p.Take()
		double := false
		if _, ok := p.Accept("DIAMOND_START"); ok {
			double = true
		}
		p.label(open)
		p.closeLabel(open, "DIAMOND_STOP")
		if double {
			p.closeLabel(open, "DIAMOND_STOP")
		}
	case "VERTEX_WITH_PROPS_START":
		p.Take()
		p.Expect("NODE_STRING", "a property name after [|")
		p.Expect("COLON", "a colon after the property name")
		p.Expect("NODE_STRING", "a property value")
		p.Expect("PIPE", "| after the property")
		p.label(open)
		p.closeLabel(open, "SQE")
	default:
		closers, ok := shapeClosers[open.Kind]
		if !ok {
			return id.Val
		}
		p.Take()
		p.label(open)
		if open.Kind == "TAGEND" && !p.At("SQE") && strings.HasSuffix(id.Val, "-") {
			p.arrowHint(id)
		}
		p.closeLabel(open, closers...)
	}
	return id.Val
}

// arrowHint reports A->B, read by Mermaid as node "A-" with an odd-shaped
// label that never closes.
func (p *flowParser) arrowHint(id syntax.Token) {
	at := syntax.Token{Kind: "MINUS", Val: "->", From: id.To - 1, To: id.To + 1}
	p.FailMsg(at, fmt.Sprintf("expected a link or the end of the statement after node %s, found '->' (flowchart arrows are -->, ---, -.->, ==>)",
		syntax.QuoteShort(strings.TrimSuffix(id.Val, "-"))))
}

var textTokenKinds = map[string]bool{"TEXT": true, "TAGSTART": true, "TAGEND": true, "UNICODE_TEXT": true}

// label is a node's text: text tokens, or a string followed by text tokens.
func (p *flowParser) label(open syntax.Token) {
	if !p.At("STR", "MD_STR") && !textTokenKinds[p.Peek(0).Kind] {
		p.Fail("the label text after " + syntax.QuoteShort(open.Val))
	}
	p.Take()
	for textTokenKinds[p.Peek(0).Kind] {
		p.Take()
	}
}

// closeLabel expects one of the tokens that close the label opened by open.
func (p *flowParser) closeLabel(open syntax.Token, closers ...string) {
	for _, c := range closers {
		if p.At(c) {
			p.Take()
			return
		}
	}
	want := make([]string, len(closers))
	for i, c := range closers {
		want[i] = syntax.QuoteShort(closerText[c])
	}
	line, col := p.D.File.Lines.Pos(p.code.FileOff(open.From))
	found := p.Peek(0)
	msg := fmt.Sprintf("expected %s to close the label opened by %s at line %d, column %d, found %s",
		strings.Join(want, " or "), syntax.QuoteShort(open.Val), line, col, syntax.Describe(found))
	switch found.Kind {
	case "PS", "PE", "SQS", "SQE", "DIAMOND_START", "DIAMOND_STOP", "PIPE", "STADIUMSTART", "SUBROUTINESTART",
		"CYLINDERSTART", "DOUBLECIRCLESTART", "TRAPSTART", "INVTRAPSTART", "(-":
		msg += "; put a label holding brackets in double quotes: A[\"f(x)\"]"
	}
	p.FailMsg(found, msg)
}

// link is an arrow, with its optional text (-->|text| or -- text -->) and
// id (e1@-->).
func (p *flowParser) link() {
	if id, ok := p.Accept("LINK_ID"); ok {
		p.m.edgeIDs[strings.TrimSuffix(id.Val, "@")] = true
	}
	if start, ok := p.Accept("START_LINK"); ok {
		p.edgeText(start)
		if !p.At("LINK") {
			p.Fail(fmt.Sprintf("the end of the link that %s started (its text cannot hold %s)",
				syntax.QuoteShort(strings.TrimSpace(start.Val)), syntax.QuoteShort(strings.TrimSpace(start.Val))))
		}
		p.Take()
		return
	}
	p.Expect("LINK", "a link")
	if pipe, ok := p.Accept("PIPE"); ok {
		p.label(pipe)
		if !p.At("PIPE") {
			p.Fail("| to close the link text")
		}
		p.Take()
		p.Accept("SPACE")
	}
}

func (p *flowParser) edgeText(start syntax.Token) {
	if !p.At("EDGE_TEXT", "UNICODE_TEXT", "STR", "MD_STR") {
		p.Fail("the link text after " + syntax.QuoteShort(strings.TrimSpace(start.Val)))
	}
	p.Take()
	for p.At("EDGE_TEXT", "UNICODE_TEXT") {
		p.Take()
	}
}

func (p *flowParser) styleStatement() {
	kw := p.Take()
	p.Expect("SPACE", "a space after style")
	id := p.idString("the id of the node to style")
	p.m.refs = append(p.m.refs, syntax.FlowRef{ID: id.Val, At: id, Verb: kw.Val})
	p.Expect("SPACE", "a space before the styles")
	p.stylesOpt()
}

var styleComponentKinds = map[string]bool{"NUM": true, "NODE_STRING": true, "COLON": true, "UNIT": true, "SPACE": true,
	"BRKT": true, "STYLE": true, "PCT": true}

// stylesOpt is style (, style)*, each style one or more components.
func (p *flowParser) stylesOpt() {
	for {
		if !styleComponentKinds[p.Peek(0).Kind] {
			p.Fail("a style such as fill:#f9f or stroke-width:2px")
		}
		for styleComponentKinds[p.Peek(0).Kind] {
			p.Take()
		}
		if _, ok := p.Accept("COMMA"); !ok {
			return
		}
	}
}

func (p *flowParser) linkStyleStatement() {
	p.Take()
	p.Expect("SPACE", "a space after linkStyle")
	if _, ok := p.Accept("DEFAULT"); !ok {
		p.numList()
	}
	p.Expect("SPACE", "a space after the link numbers")
	if _, ok := p.Accept("INTERPOLATE"); ok {
		p.Expect("SPACE", "a space after interpolate")
		p.alphaNum("a curve name (basis, linear, ...)")
		if _, ok := p.Accept("SPACE"); ok {
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
		n := p.Expect("NUM", "a link number (links count from 0) or default")
		if v, err := strconv.Atoi(n.Val); err != nil || v >= p.m.edges {
			p.D.Report(syntax.RuleLinkStyleIndex, p.code, n.From, n.To-1,
				fmt.Sprintf("linkStyle %s names a link that does not exist: the diagram has %d link(s) before this line, numbered from 0",
					n.Val, p.m.edges),
				"use an index below the number of links written before the linkStyle (A & B --> C counts as two)")
		}
		if _, ok := p.Accept("COMMA"); !ok {
			return
		}
	}
}

var alphaNumKinds = map[string]bool{"NUM": true, "UNICODE_TEXT": true, "NODE_STRING": true, "DIR": true, "DOWN": true,
	"MINUS": true, "COMMA": true, "COLON": true, "AMP": true, "BRKT": true, "MULT": true}

func (p *flowParser) alphaNum(what string) syntax.Token {
	if !alphaNumKinds[p.Peek(0).Kind] {
		p.Fail(what)
	}
	t := p.Take()
	for alphaNumKinds[p.Peek(0).Kind] {
		n := p.Take()
		t.Val += n.Val
		t.To = n.To
	}
	return t
}

func (p *flowParser) classDefStatement() {
	p.Take()
	p.Expect("SPACE", "a space after classDef")
	names := p.idString("a class name")
	for _, n := range syntax.SplitIDs(names) {
		if prev, dup := p.m.classDefs[n.Val]; dup {
			line, _ := p.D.File.Lines.Pos(p.code.FileOff(prev.From))
			p.D.Report(syntax.RuleDuplicate, p.code, n.From, n.To-1,
				fmt.Sprintf("classDef %s is defined again (first at line %d); Mermaid merges the two", n.Val, line),
				"keep one classDef per class")
		} else {
			p.m.classDefs[n.Val] = n
		}
	}
	p.Expect("SPACE", "a space before the styles")
	p.stylesOpt()
}

func (p *flowParser) classStatement() {
	kw := p.Take()
	p.Expect("SPACE", "a space after class")
	ids := p.idString("the ids of the nodes to class")
	for _, id := range syntax.SplitIDs(ids) {
		p.m.refs = append(p.m.refs, syntax.FlowRef{ID: id.Val, At: id, Verb: kw.Val})
	}
	p.Expect("SPACE", "a space before the class name")
	cls := p.idString("a class name")
	p.m.classUses = append(p.m.classUses, cls)
}

func (p *flowParser) clickStatement() {
	click := p.Take()
	if strings.TrimSpace(click.Val) == "" {
		p.FailAt(click, "the id of the node to click")
	}
	p.m.refs = append(p.m.refs, syntax.FlowRef{ID: click.Val, At: click, Verb: "click"})
	switch {
	case p.At("CALLBACKNAME"):
		p.Take()
		p.Accept("CALLBACKARGS")
		p.optionalTooltip(false)
	case p.At("HREF"):
		p.Take()
		p.Expect("STR", "the link in double quotes")
		p.optionalTooltip(true)
	case p.At("STR"):
		p.Take()
		p.optionalTooltip(true)
	default:
		p.alphaNum("a callback name, call name(args), href \"url\" or \"url\"")
		p.optionalTooltip(false)
	}
}

// optionalTooltip reads [SPACE STR] [SPACE LINK_TARGET] after a click.
func (p *flowParser) optionalTooltip(target bool) {
	if !p.At("SPACE") {
		return
	}
	next := p.Peek(1).Kind
	if next == "STR" {
		p.Take()
		p.Take()
		if !target || !p.At("SPACE") || p.Peek(1).Kind != "LINK_TARGET" {
			return
		}
		next = "LINK_TARGET"
	}
	if target && next == "LINK_TARGET" {
		p.Take()
		p.Take()
	}
}

var textNoTagsKinds = map[string]bool{"NUM": true, "NODE_STRING": true, "SPACE": true, "MINUS": true, "AMP": true,
	"UNICODE_TEXT": true, "COLON": true, "MULT": true, "BRKT": true, "STYLE": true, "LINKSTYLE": true, "CLASSDEF": true,
	"CLASS": true, "CLICK": true, "GRAPH": true, "DIR": true, "subgraph": true, "end": true, "DOWN": true, "UP": true,
	"START_LINK": true}

func (p *flowParser) subgraph() {
	open := p.Take()
	if _, ok := p.Accept("SPACE"); ok {
		title := p.textNoTags()
		open.Val = strings.TrimSpace(title.Val)
		if sq, ok := p.Accept("SQS"); ok {
			p.label(sq)
			p.closeLabel(sq, "SQE")
		}
		if id := strings.TrimSpace(title.Val); id != "" && !strings.ContainsAny(id, " ") {
			p.m.subgraphs[id] = true
		}
	} else {
		open.Val = ""
	}
	if !p.At("NEWLINE", "SEMI", "EOF") {
		p.Fail("a line break after the subgraph title")
	}
	p.Take()
	p.Enter(open)
	p.document(&open)
	p.Leave()
}

// textNoTags is a subgraph title: words, or a string followed by words.
func (p *flowParser) textNoTags() syntax.Token {
	if !p.At("STR", "MD_STR") && !textNoTagsKinds[p.Peek(0).Kind] {
		p.Fail("a subgraph id or title")
	}
	t := p.Take()
	for textNoTagsKinds[p.Peek(0).Kind] {
		n := p.Take()
		t.Val += n.Val
		t.To = n.To
	}
	return t
}

// flowHint words the common flowchart mistakes.
func (p *flowParser) flowHint(found syntax.Token, expected string) string {
	switch {
	case found.Kind == "MINUS" && p.Peek(1).Kind == "TAGEND" && p.Peek(1).From == found.To:
		return fmt.Sprintf("expected a link or the end of the statement after node %s, found '->' (flowchart arrows are -->, ---, -.->, ==>)",
			syntax.QuoteShort(p.m.lastNode.Val))
	case found.Kind == "end":
		return fmt.Sprintf("expected %s, found the keyword end (a node cannot be named end: write End or \"end\")", expected)
	case found.Kind == syntax.TokError && (found.Val == "=" || found.Val == "-"):
		return fmt.Sprintf("expected %s, found %q (flowchart arrows are -->, ---, -.->, ==>)", expected, found.Val)
	}
	return ""
}

// trimAfterBraces is flowParser.ts's src.replace(/}\s*\n/g, '}\n'): the
// white space between a closing brace and the line break after it goes.
func trimAfterBraces(s syntax.Src) syntax.Src {
	var edits []syntax.Edit
	t := s.Text
	for i := strings.IndexByte(t, '}'); i >= 0; {
		j := syntax.SkipJSSpace(t, i+1)
		if nl := strings.LastIndexByte(t[i+1:j], '\n'); nl >= 0 && nl > 0 {
			edits = append(edits, syntax.Edit{From: i + 1, To: i + 1 + nl})
		}
		k := strings.IndexByte(t[j:], '}')
		if k < 0 {
			break
		}
		i = j + k
	}
	return s.Apply(edits)
}
