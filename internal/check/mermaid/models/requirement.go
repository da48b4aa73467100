package models

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// Requirement diagrams, after requirementDiagram.jison (case-insensitive):
// requirement and element blocks with their fields, relationships
// (a - satisfies -> b), classDef/class/style; a relationship naming a
// requirement or element the diagram does not define is reported.

func requirementRules() map[string][]syntax.LexRule {
	kw := func(w, kind string) syntax.LexRule { return syntax.LexRule{Kind: kind, Match: syntax.Word(w, true)} }
	tail := []syntax.LexRule{{Kind: "ALPHA", Match: syntax.RunOfWord}, {Kind: "NUM", Match: syntax.RunOf("0123456789")}, {Kind: "COMMA", Match: syntax.Lit(",", false)}}
	initial := []syntax.LexRule{
		{Kind: "title", Match: syntax.KwLine("title", "#\n;", true)},
		{Kind: "direction_tb"}, // placeholders replaced below
		{Kind: "NEWLINE", Match: crlfRun}, {Match: syntax.Spaces}, {Match: syntax.HashComment},
		{Match: func(t string, i int) int {
			if t[i] == '%' {
				return syntax.LineEnd(t, i)
			}
			return -1
		}},
		{Kind: "RD", Match: syntax.Word("requirementDiagram", true)},
		{Kind: "STRUCT_START", Match: syntax.Lit("{", false)}, {Kind: "STRUCT_STOP", Match: syntax.Lit("}", false)},
		{Kind: "STYLE_SEPARATOR", Match: syntax.Lit(":::", false)}, {Kind: "COLONSEP", Match: syntax.Lit(":", false)},
		kw("id", "ID"), kw("text", "TEXT"), kw("risk", "RISK"), kw("verifyMethod", "VERIFYMTHD"),
		kw("requirement", "REQUIREMENT"), kw("functionalRequirement", "FUNCTIONAL_REQUIREMENT"),
		kw("interfaceRequirement", "INTERFACE_REQUIREMENT"), kw("performanceRequirement", "PERFORMANCE_REQUIREMENT"),
		kw("physicalRequirement", "PHYSICAL_REQUIREMENT"), kw("designConstraint", "DESIGN_CONSTRAINT"),
		kw("low", "LOW_RISK"), kw("medium", "MED_RISK"), kw("high", "HIGH_RISK"),
		kw("analysis", "VERIFY_ANALYSIS"), kw("demonstration", "VERIFY_DEMONSTRATION"), kw("inspection", "VERIFY_INSPECTION"),
		kw("test", "VERIFY_TEST"), kw("element", "ELEMENT"), kw("contains", "CONTAINS"), kw("copies", "COPIES"),
		kw("derives", "DERIVES"), kw("satisfies", "SATISFIES"), kw("verifies", "VERIFIES"), kw("refines", "REFINES"),
		kw("traces", "TRACES"), kw("type", "TYPE"), kw("docref", "DOCREF"),
		{Kind: "STYLE", Match: syntax.Word("style", true), Push: "style"},
		{Kind: "CLASSDEF", Match: syntax.Word("classDef", true), Push: "style"},
		{Kind: "CLASS", Match: syntax.Word("class", true), Push: "style"},
		{Kind: "END_ARROW_L", Match: syntax.Lit("<-", false)}, {Kind: "END_ARROW_R", Match: syntax.Lit("->", false)},
		{Kind: "LINE", Match: syntax.Lit("-", false)}, {Match: syntax.Lit("\"", false), Push: "string"},
		{Kind: "unqString", Match: unqString, Trim: true},
	}
	initial = append(initial, tail...)
	var dirs []syntax.LexRule
	for _, d := range []string{"TB", "BT", "RL", "LR"} {
		dirs = append(dirs, syntax.LexRule{Kind: "direction_" + strings.ToLower(d), Match: directionLine(d)})
	}
	initial = append(append(append([]syntax.LexRule{}, initial[:1]...), dirs...), initial[2:]...)
	style := []syntax.LexRule{
		{Kind: "ALPHA", Match: syntax.RunOfWord}, {Kind: "COLON", Match: syntax.Lit(":", false)}, {Kind: "SEMICOLON", Match: syntax.Lit(";", false)},
		{Kind: "PERCENT", Match: syntax.Lit("%", false)}, {Kind: "MINUS", Match: syntax.Lit("-", false)}, {Kind: "BRKT", Match: syntax.Lit("#", false)},
		{Match: syntax.Lit(" ", false)}, {Match: syntax.Lit("\"", false), Push: "string"}, {Match: syntax.Lit("\n", false), Pops: 1},
	}
	return syntax.WithAcc(initial, 1, true, map[string][]syntax.LexRule{
		"style":  append(style, tail...),
		"string": {{Match: syntax.Lit("\"", false), Pops: 1}, {Kind: "qString", Match: syntax.RestNot("\"")}},
	})
}

// crlfRun matches (\r?\n)+.
func crlfRun(t string, i int) int {
	j := syntax.NewlinesEnd(t, i)
	if j == i {
		return -1
	}
	return j
}

// directionLine matches .*direction\s+DIR[^\n]* from i.
func directionLine(dir string) func(string, int) int {
	return func(t string, i int) int {
		le := syntax.LineEnd(t, i)
		line := t[i:le]
		for off := strings.LastIndex(line, "direction"); off >= 0; off = strings.LastIndex(line[:off], "direction") {
			q := syntax.SkipJSSpace(t, i+off+9)
			if q > i+off+9 && syntax.HasPrefixAt(t, q, dir, true) {
				return syntax.LineEnd(t, q)
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
	if !syntax.IsWordByte(t[i]) {
		return -1
	}
	j := i + 1
	for j < len(t) && strings.IndexByte(":,\r\n{<>-=", t[j]) < 0 {
		j++
	}
	return j
}

type reqParser struct {
	syntax.Parser
	code  syntax.Src
	names map[string]bool
	rels  []syntax.Token
}

// ParseRequirement checks the code of a diagram of its type, reporting what it finds to d.
func ParseRequirement(d *syntax.Diagram, code syntax.Src) {
	lex := syntax.NewRuleLexer(code.Text, requirementRules(), syntax.AtEndWith(map[string]string{"": "EOF", "string": "qString"}))
	p := &reqParser{Parser: syntax.NewParser(d, code, lex), code: code, names: map[string]bool{}}
	if !syntax.RunParse(p.start) {
		return
	}
	for _, r := range p.rels {
		if !p.names[r.Val] {
			p.D.Report(syntax.RuleUndefinedNode, p.code, r.From, r.To-1,
				fmt.Sprintf("the relationship names %s, which no requirement or element of the diagram defines, so Mermaid draws nothing for it", syntax.QuoteShort(r.Val)),
				"use the name of a requirement or element the diagram defines"+syntax.NearestHint(r.Val, p.names))
		}
	}
}

var reqTypes = map[string]bool{"REQUIREMENT": true, "FUNCTIONAL_REQUIREMENT": true, "INTERFACE_REQUIREMENT": true,
	"PERFORMANCE_REQUIREMENT": true, "PHYSICAL_REQUIREMENT": true, "DESIGN_CONSTRAINT": true}

func (p *reqParser) start() {
	for p.AccStatement() {
		p.Accept("NEWLINE")
	}
	p.Expect("RD", "requirementDiagram")
	p.Expect("NEWLINE", "a line break after requirementDiagram")
	for !p.At("EOF") {
		p.statement()
	}
	p.Take()
	if !p.At(syntax.TokEOF) {
		p.Fail("the end of the diagram")
	}
}

func (p *reqParser) value(what string) syntax.Token {
	t := p.Peek(0)
	if !p.At("unqString", "qString") {
		p.Fail(what)
	}
	p.Take()
	t.Val = strings.TrimSpace(t.Val)
	return t
}

func (p *reqParser) statement() {
	t := p.Peek(0)
	switch {
	case t.Kind == "NEWLINE", strings.HasPrefix(t.Kind, "direction_"):
		p.Take()
	case p.AccStatement():
	case reqTypes[t.Kind]:
		p.Take()
		p.block(false)
	case t.Kind == "ELEMENT":
		p.Take()
		p.block(true)
	case t.Kind == "CLASSDEF", t.Kind == "STYLE":
		p.Take()
		p.idList()
		p.styles()
	case t.Kind == "CLASS":
		p.Take()
		p.idList()
		p.idList()
	case t.Kind == "unqString", t.Kind == "qString":
		p.relationOrClass()
	default:
		p.Fail("a requirement, an element, a relationship (a - satisfies -> b) or a style statement")
	}
}

// block is a requirement's or element's name, optional :::class and body.
func (p *reqParser) block(element bool) {
	name := p.value("a name")
	p.names[name.Val] = true
	if _, ok := p.Accept("STYLE_SEPARATOR"); ok {
		p.idList()
	}
	p.Expect("STRUCT_START", "{ to open the block")
	p.Expect("NEWLINE", "a line break after {")
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
		k := p.Peek(0).Kind
		switch {
		case k == "NEWLINE":
			p.Take()
		case k == "STRUCT_STOP":
			p.Take()
			return
		case fields[k] != nil:
			p.Take()
			p.Expect("COLONSEP", "a colon after the field's name")
			fields[k]()
			p.Expect("NEWLINE", "the end of the line after the field")
		default:
			p.Fail(want)
		}
	}
}

func (p *reqParser) oneOf(what string, kinds ...string) {
	if !p.At(kinds...) {
		p.Fail(what)
	}
	p.Take()
}

func (p *reqParser) relationOrClass() {
	from := p.value("a name")
	if _, ok := p.Accept("STYLE_SEPARATOR"); ok {
		p.idList()
		return
	}
	rels := []string{"CONTAINS", "COPIES", "DERIVES", "SATISFIES", "VERIFIES", "REFINES", "TRACES"}
	relWhat := "a relationship: contains, copies, derives, satisfies, verifies, refines or traces"
	switch {
	case p.At("END_ARROW_L"):
		p.Take()
		p.oneOf(relWhat, rels...)
		p.Expect("LINE", "- after the relationship (a <- satisfies - b)")
	case p.At("LINE"):
		p.Take()
		p.oneOf(relWhat, rels...)
		p.Expect("END_ARROW_R", "-> after the relationship (a - satisfies -> b)")
	default:
		p.Fail("a relationship arrow (a - satisfies -> b) or ::: and a class")
	}
	to := p.value("the name at the other end of the relationship")
	p.rels = append(p.rels, from, to)
}

func (p *reqParser) idList() {
	for {
		if !p.At("ALPHA", "unqString", "qString") {
			p.Fail("a name")
		}
		p.Take()
		if _, ok := p.Accept("COMMA"); !ok {
			return
		}
	}
}

var reqStyleKinds = map[string]bool{"ALPHA": true, "NUM": true, "COLON": true, "UNIT": true, "SPACE": true, "BRKT": true,
	"PCT": true, "MINUS": true, "LABEL": true, "SEMICOLON": true}

func (p *reqParser) styles() {
	for {
		if !reqStyleKinds[p.Peek(0).Kind] {
			p.Fail("a style such as fill:#f9f")
		}
		for reqStyleKinds[p.Peek(0).Kind] {
			p.Take()
		}
		if _, ok := p.Accept("COMMA"); !ok {
			return
		}
	}
}
