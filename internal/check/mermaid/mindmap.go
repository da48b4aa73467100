package mermaid

import (
	"fmt"
	"strings"
)

// Mind maps, after mindmap.jison: one node a line, its indentation its
// depth, with shapes, ::icon() and ::: classes; mindmapDb refuses a second
// root (a node no deeper than the first).

func mindmapRules() map[string][]lexRule { return treeRules("mindmap", "MINDMAP", "([\n){}", false) }

// treeRules are the lexer rules mindmap.jison and kanban.jison share: the
// keyword, one node a line, shapes, icons, classes, and (kanban) @{ data }.
func treeRules(keyword, kind, idStop string, shapeData bool) map[string][]lexRule {
	open := func(s string) lexRule { return lexRule{kind: "NODE_DSTART", match: lit(s, false), push: "NODE"} }
	closeR := func(s string) lexRule { return lexRule{kind: "NODE_DEND", match: lit(s, false), pops: 1} }
	rules := map[string][]lexRule{
		"": {
			{kind: "SPACELINE", match: commentLine}, {kind: kind, match: word(keyword, true)},
			{match: lit(":::", false), push: "CLASS"}, {match: lit("::icon(", true), push: "ICON"},
			{kind: "SPACELINE", match: spaceLine}, {kind: "NL", match: newlines},
			open("-)"), open("(-"), open("))"), open(")"), open("(("), open("{{"), open("("), open("["),
			{kind: "SPACELIST", match: spaces}, {kind: "NODE_ID", match: runNot(idStop)},
		},
		"CLASS": {{kind: "CLASS", match: runNot("\n"), pops: 1}, {match: lit("\n", false), pops: 1}},
		"ICON":  {{kind: "ICON", match: runNot(")")}, {match: lit(")", false), pops: 1}},
		"NODE": {
			{match: lit("\"`", false), push: "NSTR2"}, {match: lit("\"", false), push: "NSTR"},
			closeR("))"), closeR(")"), closeR("]"), closeR("}}"), closeR("(-"), closeR("-)"), closeR("(("), closeR("("),
			{kind: "NODE_DESCR", match: runNot(")](}")}, {kind: "NODE_DESCR", match: runNot("\n")},
		},
		"NSTR2": {{kind: "NODE_DESCR", match: runNot("`\"")}, {match: lit("`\"", false), pops: 1}},
		"NSTR":  {{kind: "NODE_DESCR", match: runNot("\"")}, {match: lit("\"", false), pops: 1}},
	}
	if shapeData {
		rules[""] = append([]lexRule{{kind: "SHAPE_DATA", match: lit("@{", false), push: "shapeData"}}, rules[""]...)
		rules["shapeData"] = []lexRule{
			{kind: "SHAPE_DATA", match: lit("\"", false), push: "shapeDataStr"},
			{kind: "SHAPE_DATA", match: runNot("}^\"")}, {match: lit("}", false), pops: 1},
		}
		rules["shapeDataStr"] = []lexRule{
			{kind: "SHAPE_DATA", match: lit("\"", false), pops: 1}, {kind: "SHAPE_DATA", match: runNot("\"")},
		}
	}
	return rules
}

// commentLine matches \s*%%.* (white space, then %% to the line's end).
func commentLine(t string, i int) int {
	j := skipJSSpace(t, i)
	if !strings.HasPrefix(t[j:], "%%") {
		return -1
	}
	return lineEnd(t, j)
}

// spaceLine matches [\s]+[\n]: white space up to its last line break,
// with at least one character before it.
func spaceLine(t string, i int) int {
	j := skipJSSpace(t, i)
	nl := strings.LastIndexByte(t[i:j], '\n')
	if nl <= 0 {
		return -1
	}
	return i + nl + 1
}

type mindmapParser struct {
	parser
	code   src
	levels []int // each node's level, as mindmapDb computes it
	base   int
	// kanban: the kanban diagram, with @{ data } and any number of columns.
	kanban    bool
	keyword   string
	outdented *token // a kanban item indented less than the first column
}

func parseMindmap(d *diagram, code src) {
	lex := newRuleLexer(code.text, mindmapRules(), map[string]string{"": "EOF"})
	p := &mindmapParser{parser: newParser(d, code, lex), code: code, keyword: "MINDMAP"}
	runParse(p.start)
}

// parseKanban checks a kanban board (kanban.jison): the mind map's syntax
// with @{ ... } data on items, read as YAML as kanbanDb does.
func parseKanban(d *diagram, code src) {
	lex := newRuleLexer(code.text, treeRules("kanban", "KANBAN", "([\n){}@", true), map[string]string{"": "EOF"})
	p := &mindmapParser{parser: newParser(d, code, lex), code: code, kanban: true, keyword: "KANBAN"}
	runParse(p.start)
}

func (p *mindmapParser) start() {
	if p.at("SPACELINE") {
		for p.at("SPACELINE", "NL") {
			p.take()
		}
	}
	p.expect(p.keyword, strings.ToLower(p.keyword))
	p.accept("NL")
	for {
		p.statement()
		if !p.at("NL", "EOF", "SPACELINE") {
			p.fail("the end of the line")
		}
		p.take()
		for p.at("NL", "EOF") {
			p.take()
		}
		if p.at(tokEOF) {
			return
		}
	}
}

func (p *mindmapParser) statement() {
	level := 0
	if sp, ok := p.accept("SPACELIST"); ok {
		level = len(sp.val)
	}
	switch {
	case p.at("NODE_ID", "NODE_DSTART"):
		p.node(level)
		if p.kanban && p.at("SHAPE_DATA") {
			p.shapeData()
		}
	case p.at("ICON", "CLASS"):
		t := p.take()
		if len(p.levels) == 0 {
			p.failMsg(t, "an icon or class before the first node, which makes Mermaid fail; it decorates the node above it")
		}
	case p.at("SPACELINE"):
		if p.last.kind != "SPACELIST" {
			p.take()
		}
	case p.last.kind == "SPACELIST":
	default:
		p.fail("a node: a name, or a shape such as [text], (text), ((text)), {{text}}")
	}
}

func (p *mindmapParser) node(level int) {
	first := p.peek(0)
	if _, ok := p.accept("NODE_ID"); ok && !p.at("NODE_DSTART") {
		p.addNode(level, first)
		return
	}
	open := p.expect("NODE_DSTART", "a shape")
	p.expect("NODE_DESCR", "the node's text after "+quoteShort(open.val))
	if !p.at("NODE_DEND") {
		p.fail("the end of the shape opened by " + quoteShort(open.val))
	}
	p.take()
	p.addNode(level, first)
}

// kanbanNode adds an item as kanbanDb does, which refuses any item after
// one indented less than the first column.
func (p *mindmapParser) kanbanNode(level int, at token) {
	if p.outdented != nil {
		from, last := tokenSpan(p.code.text, *p.outdented)
		p.d.report(ruleSyntax, p.code, from, last,
			fmt.Sprintf("%s is indented less than the first column, which makes Mermaid refuse the items after it", quoteShort(strings.TrimSpace(p.outdented.val))),
			"indent every column as much as the first, and the items under them more")
		panic(bailout{})
	}
	if len(p.levels) > 0 && level < p.levels[0] {
		a := at
		p.outdented = &a
	}
	p.levels = append(p.levels, level)
}

// shapeData reads an item's @{ ... } and checks it as YAML.
func (p *mindmapParser) shapeData() {
	first := p.peek(0)
	var b strings.Builder
	last := first
	inString := false
	for p.at("SHAPE_DATA") {
		last = p.take()
		switch {
		case last.val == "@{":
		case last.val == "\"":
			inString = !inString
			b.WriteString(last.val)
		case inString:
			b.WriteString(breakLines(last.val))
		default:
			b.WriteString(last.val)
		}
	}
	doc, ok := parseMetadata(p.d, p.code, shapeData{text: b.String(), from: first.from, to: last.to})
	if !ok || len(doc.Content) == 0 {
		return
	}
	if shape, ok := yamlPath(doc.Content[0], "shape"); ok && (shape != strings.ToLower(shape) || strings.Contains(shape, "_")) {
		p.d.report(ruleUnknownShape, p.code, first.from, last.to-1,
			fmt.Sprintf("Mermaid has no shape %s (shape names are lowercase)", quoteShort(shape)), "use a lowercase shape name, such as kanbanItem's default")
	}
}

// addNode places a node as mindmapDb does: the first is the root; every
// other needs a node above it with a smaller level.
func (p *mindmapParser) addNode(level int, at token) {
	if p.kanban {
		p.kanbanNode(level, at)
		return
	}
	if len(p.levels) == 0 {
		p.base = level
		p.levels = append(p.levels, 0)
		return
	}
	level -= p.base
	for i := len(p.levels) - 1; i >= 0; i-- {
		if p.levels[i] < level {
			p.levels = append(p.levels, level)
			return
		}
	}
	from, last := tokenSpan(p.code.text, at)
	p.d.report(ruleSyntax, p.code, from, last,
		fmt.Sprintf("node %s is indented no deeper than the root, so it would be a second root, which Mermaid refuses", quoteShort(strings.TrimSpace(at.val))),
		"indent it under the root (a mind map has one root: the first node)")
	panic(bailout{})
}
