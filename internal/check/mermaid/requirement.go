package mermaid

import (
	"fmt"
	"strings"
)

// Requirement diagrams, after requirementDiagram.jison (case-insensitive):
// requirement and element blocks with their fields, relationships
// (a - satisfies -> b), classDef/class/style; a relationship naming a
// requirement or element the diagram does not define is reported.

func requirementRules() map[string][]lexRule {
	kw := func(w, kind string) lexRule { return lexRule{kind: kind, match: word(w, true)} }
	tail := []lexRule{{kind: "ALPHA", match: runOfWord}, {kind: "NUM", match: runOf("0123456789")}, {kind: "COMMA", match: lit(",", false)}}
	initial := []lexRule{
		{kind: "title", match: kwLine("title", "#\n;", true)},
		{kind: "direction_tb"}, // placeholders replaced below
		{kind: "NEWLINE", match: crlfRun}, {match: spaces}, {match: hashComment},
		{match: func(t string, i int) int {
			if t[i] == '%' {
				return lineEnd(t, i)
			}
			return -1
		}},
		{kind: "RD", match: word("requirementDiagram", true)},
		{kind: "STRUCT_START", match: lit("{", false)}, {kind: "STRUCT_STOP", match: lit("}", false)},
		{kind: "STYLE_SEPARATOR", match: lit(":::", false)}, {kind: "COLONSEP", match: lit(":", false)},
		kw("id", "ID"), kw("text", "TEXT"), kw("risk", "RISK"), kw("verifyMethod", "VERIFYMTHD"),
		kw("requirement", "REQUIREMENT"), kw("functionalRequirement", "FUNCTIONAL_REQUIREMENT"),
		kw("interfaceRequirement", "INTERFACE_REQUIREMENT"), kw("performanceRequirement", "PERFORMANCE_REQUIREMENT"),
		kw("physicalRequirement", "PHYSICAL_REQUIREMENT"), kw("designConstraint", "DESIGN_CONSTRAINT"),
		kw("low", "LOW_RISK"), kw("medium", "MED_RISK"), kw("high", "HIGH_RISK"),
		kw("analysis", "VERIFY_ANALYSIS"), kw("demonstration", "VERIFY_DEMONSTRATION"), kw("inspection", "VERIFY_INSPECTION"),
		kw("test", "VERIFY_TEST"), kw("element", "ELEMENT"), kw("contains", "CONTAINS"), kw("copies", "COPIES"),
		kw("derives", "DERIVES"), kw("satisfies", "SATISFIES"), kw("verifies", "VERIFIES"), kw("refines", "REFINES"),
		kw("traces", "TRACES"), kw("type", "TYPE"), kw("docref", "DOCREF"),
		{kind: "STYLE", match: word("style", true), push: "style"},
		{kind: "CLASSDEF", match: word("classDef", true), push: "style"},
		{kind: "CLASS", match: word("class", true), push: "style"},
		{kind: "END_ARROW_L", match: lit("<-", false)}, {kind: "END_ARROW_R", match: lit("->", false)},
		{kind: "LINE", match: lit("-", false)}, {match: lit("\"", false), push: "string"},
		{kind: "unqString", match: unqString, trim: true},
	}
	initial = append(initial, tail...)
	var dirs []lexRule
	for _, d := range []string{"TB", "BT", "RL", "LR"} {
		dirs = append(dirs, lexRule{kind: "direction_" + strings.ToLower(d), match: directionLine(d)})
	}
	initial = append(append(append([]lexRule{}, initial[:1]...), dirs...), initial[2:]...)
	style := []lexRule{
		{kind: "ALPHA", match: runOfWord}, {kind: "COLON", match: lit(":", false)}, {kind: "SEMICOLON", match: lit(";", false)},
		{kind: "PERCENT", match: lit("%", false)}, {kind: "MINUS", match: lit("-", false)}, {kind: "BRKT", match: lit("#", false)},
		{match: lit(" ", false)}, {match: lit("\"", false), push: "string"}, {match: lit("\n", false), pops: 1},
	}
	return withAcc(initial, 1, true, map[string][]lexRule{
		"style":  append(style, tail...),
		"string": {{match: lit("\"", false), pops: 1}, {kind: "qString", match: restNot("\"")}},
	})
}

// crlfRun matches (\r?\n)+.
func crlfRun(t string, i int) int {
	j := newlinesEnd(t, i)
	if j == i {
		return -1
	}
	return j
}

// directionLine matches .*direction\s+DIR[^\n]* from i.
func directionLine(dir string) func(string, int) int {
	return func(t string, i int) int {
		le := lineEnd(t, i)
		line := t[i:le]
		for off := strings.LastIndex(line, "direction"); off >= 0; off = strings.LastIndex(line[:off], "direction") {
			q := skipJSSpace(t, i+off+9)
			if q > i+off+9 && hasPrefixAt(t, q, dir, true) {
				return lineEnd(t, q)
			}
			if off == 0 {
				break
			}
		}
		return -1
	}
}

// unqString matches [\w][^:,\r\n\{\<\>\-\=]*.
func unqString(t string, i int) int {
	if !isWordByte(t[i]) {
		return -1
	}
	j := i + 1
	for j < len(t) && strings.IndexByte(":,\r\n{<>-=", t[j]) < 0 {
		j++
	}
	return j
}

type reqParser struct {
	parser
	code  src
	names map[string]bool
	rels  []token
}

func parseRequirement(d *diagram, code src) {
	lex := newRuleLexer(code.text, requirementRules(), atEndWith(map[string]string{"": "EOF", "string": "qString"}))
	p := &reqParser{parser: newParser(d, code, lex), code: code, names: map[string]bool{}}
	if !runParse(p.start) {
		return
	}
	for _, r := range p.rels {
		if !p.names[r.val] {
			p.d.report(ruleUndefinedNode, p.code, r.from, r.to-1,
				fmt.Sprintf("the relationship names %s, which no requirement or element of the diagram defines, so Mermaid draws nothing for it", quoteShort(r.val)),
				"use the name of a requirement or element the diagram defines"+nearestHint(r.val, p.names))
		}
	}
}

var reqTypes = map[string]bool{"REQUIREMENT": true, "FUNCTIONAL_REQUIREMENT": true, "INTERFACE_REQUIREMENT": true,
	"PERFORMANCE_REQUIREMENT": true, "PHYSICAL_REQUIREMENT": true, "DESIGN_CONSTRAINT": true}

func (p *reqParser) start() {
	for p.accStatement() {
		p.accept("NEWLINE")
	}
	p.expect("RD", "requirementDiagram")
	p.expect("NEWLINE", "a line break after requirementDiagram")
	for !p.at("EOF") {
		p.statement()
	}
	p.take()
	if !p.at(tokEOF) {
		p.fail("the end of the diagram")
	}
}

func (p *reqParser) value(what string) token {
	t := p.peek(0)
	if !p.at("unqString", "qString") {
		p.fail(what)
	}
	p.take()
	t.val = strings.TrimSpace(t.val)
	return t
}

func (p *reqParser) statement() {
	t := p.peek(0)
	switch {
	case t.kind == "NEWLINE", strings.HasPrefix(t.kind, "direction_"):
		p.take()
	case p.accStatement():
	case reqTypes[t.kind]:
		p.take()
		p.block(false)
	case t.kind == "ELEMENT":
		p.take()
		p.block(true)
	case t.kind == "CLASSDEF", t.kind == "STYLE":
		p.take()
		p.idList()
		p.styles()
	case t.kind == "CLASS":
		p.take()
		p.idList()
		p.idList()
	case t.kind == "unqString", t.kind == "qString":
		p.relationOrClass()
	default:
		p.fail("a requirement, an element, a relationship (a - satisfies -> b) or a style statement")
	}
}

// block is a requirement's or element's name, optional :::class and body.
func (p *reqParser) block(element bool) {
	name := p.value("a name")
	p.names[name.val] = true
	if _, ok := p.accept("STYLE_SEPARATOR"); ok {
		p.idList()
	}
	p.expect("STRUCT_START", "{ to open the block")
	p.expect("NEWLINE", "a line break after {")
	fields := map[string]func(){
		"ID":   func() { p.value("the id") },
		"TEXT": func() { p.value("the text") },
		"RISK": func() { p.oneOf("a risk: low, medium or high", "LOW_RISK", "MED_RISK", "HIGH_RISK") },
		"VERIFYMTHD": func() {
			p.oneOf("a verify method: analysis, demonstration, inspection or test", "VERIFY_ANALYSIS", "VERIFY_DEMONSTRATION", "VERIFY_INSPECTION", "VERIFY_TEST")
		},
	}
	want := "id:, text:, risk:, verifyMethod: or }"
	if element {
		fields = map[string]func(){"TYPE": func() { p.value("the type") }, "DOCREF": func() { p.value("the document reference") }}
		want = "type:, docRef: or }"
	}
	for {
		k := p.peek(0).kind
		switch {
		case k == "NEWLINE":
			p.take()
		case k == "STRUCT_STOP":
			p.take()
			return
		case fields[k] != nil:
			p.take()
			p.expect("COLONSEP", "a colon after the field's name")
			fields[k]()
			p.expect("NEWLINE", "the end of the line after the field")
		default:
			p.fail(want)
		}
	}
}

func (p *reqParser) oneOf(what string, kinds ...string) {
	if !p.at(kinds...) {
		p.fail(what)
	}
	p.take()
}

func (p *reqParser) relationOrClass() {
	from := p.value("a name")
	if _, ok := p.accept("STYLE_SEPARATOR"); ok {
		p.idList()
		return
	}
	rels := []string{"CONTAINS", "COPIES", "DERIVES", "SATISFIES", "VERIFIES", "REFINES", "TRACES"}
	relWhat := "a relationship: contains, copies, derives, satisfies, verifies, refines or traces"
	switch {
	case p.at("END_ARROW_L"):
		p.take()
		p.oneOf(relWhat, rels...)
		p.expect("LINE", "- after the relationship (a <- satisfies - b)")
	case p.at("LINE"):
		p.take()
		p.oneOf(relWhat, rels...)
		p.expect("END_ARROW_R", "-> after the relationship (a - satisfies -> b)")
	default:
		p.fail("a relationship arrow (a - satisfies -> b) or ::: and a class")
	}
	to := p.value("the name at the other end of the relationship")
	p.rels = append(p.rels, from, to)
}

func (p *reqParser) idList() {
	for {
		if !p.at("ALPHA", "unqString", "qString") {
			p.fail("a name")
		}
		p.take()
		if _, ok := p.accept("COMMA"); !ok {
			return
		}
	}
}

var reqStyleKinds = map[string]bool{"ALPHA": true, "NUM": true, "COLON": true, "UNIT": true, "SPACE": true, "BRKT": true,
	"PCT": true, "MINUS": true, "LABEL": true, "SEMICOLON": true}

func (p *reqParser) styles() {
	for {
		if !reqStyleKinds[p.peek(0).kind] {
			p.fail("a style such as fill:#f9f")
		}
		for reqStyleKinds[p.peek(0).kind] {
			p.take()
		}
		if _, ok := p.accept("COMMA"); !ok {
			return
		}
	}
}
