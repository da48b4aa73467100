package models

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// Mind maps, after mindmap.jison: one node a line, its indentation its
// depth, with shapes, ::icon() and ::: classes; mindmapDb refuses a second
// root (a node no deeper than the first).

func mindmapRules() map[string][]syntax.LexRule {
	return treeRules("mindmap", "MINDMAP", "([\n){}", false)
}

// treeRules are the lexer rules mindmap.jison and kanban.jison share: the
// keyword, one node a line, shapes, icons, classes, and (kanban) @{ data }.
func treeRules(keyword, kind, idStop string, shapeData bool) map[string][]syntax.LexRule {
	open := func(s string) syntax.LexRule {
		return syntax.LexRule{Kind: "NODE_DSTART", Match: syntax.Lit(s, false), Push: "NODE"}
	}
	closeR := func(s string) syntax.LexRule {
		return syntax.LexRule{Kind: "NODE_DEND", Match: syntax.Lit(s, false), Pops: 1}
	}
	rules := map[string][]syntax.LexRule{
		"": {
			{Kind: "SPACELINE", Match: commentLine}, {Kind: kind, Match: syntax.Word(keyword, true)},
			{Match: syntax.Lit(":::", false), Push: "CLASS"}, {Match: syntax.Lit("::icon(", true), Push: "ICON"},
			{Kind: "SPACELINE", Match: spaceLine}, {Kind: "NL", Match: syntax.Newlines},
			open("-)"), open("(-"), open("))"), open(")"), open("(("), open("{{"), open("("), open("["),
			{Kind: "SPACELIST", Match: syntax.Spaces}, {Kind: "NODE_ID", Match: syntax.RunNot(idStop)},
		},
		"CLASS": {{Kind: "CLASS", Match: syntax.RunNot("\n"), Pops: 1}, {Match: syntax.Lit("\n", false), Pops: 1}},
		"ICON":  {{Kind: "ICON", Match: syntax.RunNot(")")}, {Match: syntax.Lit(")", false), Pops: 1}},
		"NODE": {
			{Match: syntax.Lit("\"`", false), Push: "NSTR2"}, {Match: syntax.Lit("\"", false), Push: "NSTR"},
			closeR("))"), closeR(")"), closeR("]"), closeR("}}"), closeR("(-"), closeR("-)"), closeR("(("), closeR("("),
			{Kind: "NODE_DESCR", Match: syntax.RunNot(")](}")}, {Kind: "NODE_DESCR", Match: syntax.RunNot("\n")},
		},
		"NSTR2": {{Kind: "NODE_DESCR", Match: syntax.RunNot("`\"")}, {Match: syntax.Lit("`\"", false), Pops: 1}},
		"NSTR":  {{Kind: "NODE_DESCR", Match: syntax.RunNot("\"")}, {Match: syntax.Lit("\"", false), Pops: 1}},
	}
	if shapeData {
		rules[""] = append([]syntax.LexRule{{Kind: "SHAPE_DATA", Match: syntax.Lit("@{", false), Push: "shapeData"}}, rules[""]...)
		rules["shapeData"] = []syntax.LexRule{
			{Kind: "SHAPE_DATA", Match: syntax.Lit("\"", false), Push: "shapeDataStr"},
			{Kind: "SHAPE_DATA", Match: syntax.RunNot("}^\"")}, {Match: syntax.Lit("}", false), Pops: 1},
		}
		rules["shapeDataStr"] = []syntax.LexRule{
			{Kind: "SHAPE_DATA", Match: syntax.Lit("\"", false), Pops: 1}, {Kind: "SHAPE_DATA", Match: syntax.RunNot("\"")},
		}
	}
	return rules
}

// commentLine matches \s*%%.* (white space, then %% to the line's end).
func commentLine(t string, i int) int {
	j := syntax.SkipJSSpace(t, i)
	if !strings.HasPrefix(t[j:], "%%") {
		return -1
	}
	return syntax.LineEnd(t, j)
}

// spaceLine matches [\s]+[\n]: white space up to its last line break,
// with at least one character before it.
func spaceLine(t string, i int) int {
	j := syntax.SkipJSSpace(t, i)
	nl := strings.LastIndexByte(t[i:j], '\n')
	if nl <= 0 {
		return -1
	}
	return i + nl + 1
}

type mindmapParser struct {
	syntax.Parser
	code   syntax.Src
	levels []int // each node's level, as mindmapDb computes it
	base   int
	// kanban: the kanban diagram, with @{ data } and any number of columns.
	kanban    bool
	keyword   string
	outdented *syntax.Token // a kanban item indented less than the first column
}

// ParseMindmap checks the code of a diagram of its type, reporting what it finds to d.
func ParseMindmap(d *syntax.Diagram, code syntax.Src) {
	lex := syntax.NewRuleLexer(code.Text, mindmapRules(), map[string]string{"": "EOF"})
	p := &mindmapParser{Parser: syntax.NewParser(d, code, lex), code: code, keyword: "MINDMAP"}
	syntax.RunParse(p.start)
}

// ParseKanban checks a kanban board (kanban.jison): the mind map's syntax
// with @{ ... } data on items, read as YAML as kanbanDb does.
func ParseKanban(d *syntax.Diagram, code syntax.Src) {
	lex := syntax.NewRuleLexer(code.Text, treeRules("kanban", "KANBAN", "([\n){}@", true), map[string]string{"": "EOF"})
	p := &mindmapParser{Parser: syntax.NewParser(d, code, lex), code: code, kanban: true, keyword: "KANBAN"}
	syntax.RunParse(p.start)
}

func (p *mindmapParser) start() {
	if p.At("SPACELINE") {
		for p.At("SPACELINE", "NL") {
			p.Take()
		}
	}
	p.Expect(p.keyword, strings.ToLower(p.keyword))
	p.Accept("NL")
	for {
		p.statement()
		if !p.At("NL", "EOF", "SPACELINE") {
			p.Fail("the end of the line")
		}
		p.Take()
		for p.At("NL", "EOF") {
			p.Take()
		}
		if p.At(syntax.TokEOF) {
			return
		}
	}
}

func (p *mindmapParser) statement() {
	level := 0
	if sp, ok := p.Accept("SPACELIST"); ok {
		level = len(sp.Val)
	}
	switch {
	case p.At("NODE_ID", "NODE_DSTART"):
		p.node(level)
		if p.kanban && p.At("SHAPE_DATA") {
			p.shapeData()
		}
	case p.At("ICON", "CLASS"):
		t := p.Take()
		if len(p.levels) == 0 {
			p.FailMsg(t, "an icon or class before the first node, which makes Mermaid fail; it decorates the node above it")
		}
	case p.At("SPACELINE"):
		if p.Last.Kind != "SPACELIST" {
			p.Take()
		}
	case p.Last.Kind == "SPACELIST":
	default:
		p.Fail("a node: a name, or a shape such as [text], (text), ((text)), {{text}}")
	}
}

func (p *mindmapParser) node(level int) {
	first := p.Peek(0)
	if _, ok := p.Accept("NODE_ID"); ok && !p.At("NODE_DSTART") {
		p.addNode(level, first)
		return
	}
	open := p.Expect("NODE_DSTART", "a shape")
	p.Expect("NODE_DESCR", "the node's text after "+syntax.QuoteShort(open.Val))
	if !p.At("NODE_DEND") {
		p.Fail("the end of the shape opened by " + syntax.QuoteShort(open.Val))
	}
	p.Take()
	p.addNode(level, first)
}

// kanbanNode adds an item as kanbanDb does, which refuses any item after
// one indented less than the first column.
func (p *mindmapParser) kanbanNode(level int, at syntax.Token) {
	if p.outdented != nil {
		from, last := syntax.TokenSpan(p.code.Text, *p.outdented)
		p.D.Report(syntax.RuleSyntax, p.code, from, last,
			fmt.Sprintf("%s is indented less than the first column, which makes Mermaid refuse the items after it", syntax.QuoteShort(strings.TrimSpace(p.outdented.Val))),
			"indent every column as much as the first, and the items under them more")
		panic(syntax.Bailout{})
	}
	if len(p.levels) > 0 && level < p.levels[0] {
		a := at
		p.outdented = &a
	}
	p.levels = append(p.levels, level)
}

// shapeData reads an item's @{ ... } and checks it as YAML.
func (p *mindmapParser) shapeData() {
	first := p.Peek(0)
	var b strings.Builder
	last := first
	inString := false
	for p.At("SHAPE_DATA") {
		last = p.Take()
		switch {
		case last.Val == "@{":
		case last.Val == "\"":
			inString = !inString
			b.WriteString(last.Val)
		case inString:
			b.WriteString(syntax.BreakLines(last.Val))
		default:
			b.WriteString(last.Val)
		}
	}
	doc, ok := syntax.ParseMetadata(p.D, p.code, syntax.ShapeData{Text: b.String(), From: first.From, To: last.To})
	if !ok || len(doc.Content) == 0 {
		return
	}
	if shape, ok := syntax.YamlPath(doc.Content[0], "shape"); ok && (shape != strings.ToLower(shape) || strings.Contains(shape, "_")) {
		p.D.Report(syntax.RuleUnknownShape, p.code, first.From, last.To-1,
			fmt.Sprintf("Mermaid has no shape %s (shape names are lowercase)", syntax.QuoteShort(shape)), "use a lowercase shape name, such as kanbanItem's default")
	}
}

// addNode places a node as mindmapDb does: the first is the root; every
// other needs a node above it with a smaller level.
func (p *mindmapParser) addNode(level int, at syntax.Token) {
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
	from, last := syntax.TokenSpan(p.code.Text, at)
	p.D.Report(syntax.RuleSyntax, p.code, from, last,
		fmt.Sprintf("node %s is indented no deeper than the root, so it would be a second root, which Mermaid refuses", syntax.QuoteShort(strings.TrimSpace(at.Val))),
		"indent it under the root (a mind map has one root: the first node)")
	panic(syntax.Bailout{})
}
