package mermaid

import (
	"fmt"
	"strings"
)

// Mind maps, after mindmap.jison: one node a line, its indentation its
// depth, with shapes, ::icon() and ::: classes; mindmapDb refuses a second
// root (a node no deeper than the first).

func mindmapRules() map[string][]lexRule {
	open := func(s string) lexRule { return lexRule{kind: "NODE_DSTART", match: lit(s, false), push: "NODE"} }
	closeR := func(s string) lexRule { return lexRule{kind: "NODE_DEND", match: lit(s, false), pops: 1} }
	return map[string][]lexRule{
		"": {
			{kind: "SPACELINE", match: commentLine}, {kind: "MINDMAP", match: word("mindmap", true)},
			{match: lit(":::", false), push: "CLASS"}, {match: lit("::icon(", true), push: "ICON"},
			{kind: "SPACELINE", match: spaceLine}, {kind: "NL", match: newlines},
			open("-)"), open("(-"), open("))"), open(")"), open("(("), open("{{"), open("("), open("["),
			{kind: "SPACELIST", match: spaces}, {kind: "NODE_ID", match: runNot("([\n){}")},
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
}

func parseMindmap(d *diagram, code src) {
	lex := newRuleLexer(code.text, mindmapRules(), map[string]string{"": "EOF"})
	p := &mindmapParser{parser: newParser(d, code, lex), code: code}
	runParse(p.start)
}

func (p *mindmapParser) start() {
	if p.at("SPACELINE") {
		for p.at("SPACELINE", "NL") {
			p.take()
		}
	}
	p.expect("MINDMAP", "mindmap")
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

// addNode places a node as mindmapDb does: the first is the root; every
// other needs a node above it with a smaller level.
func (p *mindmapParser) addNode(level int, at token) {
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
