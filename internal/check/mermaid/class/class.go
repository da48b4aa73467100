package class

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// The class diagram parser, after classDiagram.jison's grammar, recording
// the classes, the classDefs and the names that style, cssClass, click,
// link, callback and note for refer to.

type classParser struct {
	syntax.Parser
	code syntax.Src
	// classes are the class names declared or used in relations and
	// members; bodies are those declared with a { } body, first place.
	classes   map[string]bool
	bodies    map[string]syntax.Token
	classDefs map[string]bool
	refs      []syntax.FlowRef
	cssUses   []syntax.Token
}

// ParseClass checks the code of a diagram of its type, reporting what it finds to d.
func ParseClass(d *syntax.Diagram, code syntax.Src) {
	p := &classParser{Parser: syntax.NewParser(d, code, newClassLexer(code.Text)), code: code,
		classes: map[string]bool{}, bodies: map[string]syntax.Token{}, classDefs: map[string]bool{}}
	p.Hint = p.classHint
	if !syntax.RunParse(p.start) {
		return
	}
	p.checkRefs()
}

func (p *classParser) start() {
	p.Expect("CLASS_DIAGRAM", "classDiagram")
	p.Expect("NEWLINE", "a line break after classDiagram")
	p.statements()
	p.Expect("EOF", "the end of the line")
	if !p.At(syntax.TokEOF) {
		p.Fail("the end of the diagram")
	}
}

// statements is statement (NEWLINE statement)* NEWLINE?: at least one.
func (p *classParser) statements() {
	for {
		p.statement()
		if _, ok := p.Accept("NEWLINE"); !ok || p.At("EOF") {
			return
		}
	}
}

var alphaNumTokenKinds = map[string]bool{"UNICODE_TEXT": true, "NUM": true, "ALPHA": true, "MINUS": true}

func (p *classParser) statement() {
	t := p.Peek(0)
	switch t.Kind {
	case "direction_tb", "direction_bt", "direction_rl", "direction_lr", "acc_descr_multiline_value":
		p.Take()
	case "acc_title":
		p.Take()
		p.Expect("acc_title_value", "the accessible title")
	case "acc_descr":
		p.Take()
		p.Expect("acc_descr_value", "the accessible description")
	case "NAMESPACE":
		p.namespace()
	case "CLASS":
		p.classStatement()
	case "ANNOTATION_START":
		p.Take()
		p.alphaNumToken("an annotation name after <<")
		p.Expect("ANNOTATION_END", ">> to close the annotation")
		name := p.className("the class the annotation is for")
		if !p.classes[name.Val] {
			from, last := syntax.TokenSpan(p.code.Text, name)
			p.D.Report(syntax.RuleSyntax, p.code, from, last,
				fmt.Sprintf("the annotation is for class %s, which is not declared before it; Mermaid fails on this", syntax.QuoteShort(name.Val)),
				"declare the class (class "+name.Val+") before annotating it, or fix the name"+syntax.NearestHint(name.Val, p.classes))
		}
	case "CALLBACK", "LINK", "CLICK":
		p.click()
	case "STYLE":
		p.Take()
		id := p.Expect("ALPHA", "the class to style")
		p.refs = append(p.refs, syntax.FlowRef{ID: id.Val, At: id, Verb: "style"})
		p.stylesOpt()
	case "CSSCLASS":
		p.Take()
		ids := p.Expect("STR", "the class names in double quotes")
		for _, id := range syntax.SplitIDs(syntax.Token{Val: ids.Val, From: ids.From, To: ids.To}) {
			p.refs = append(p.refs, syntax.FlowRef{ID: id.Val, At: id, Verb: "cssClass"})
		}
		p.cssUses = append(p.cssUses, p.Expect("ALPHA", "the CSS class to apply"))
	case "NOTE_FOR", "NOTE":
		p.note()
	case "CLASSDEF":
		p.Take()
		p.classDefName()
		for {
			if _, ok := p.Accept("COMMA"); !ok {
				break
			}
			p.classDefName()
		}
		p.stylesOpt()
	case "MEMBER", "SEPARATOR":
		p.Take()
	default:
		if alphaNumTokenKinds[t.Kind] || t.Kind == "BQUOTE_STR" {
			p.relationOrMember()
			return
		}
		p.Fail("a statement (class, a relation such as A <|-- B, a member such as A : +int id, note, ...)")
	}
}

func (p *classParser) classDefName() {
	n := p.Expect("ALPHA", "a class name after classDef")
	p.classDefs[n.Val] = true
}

func (p *classParser) alphaNumToken(what string) syntax.Token {
	if !alphaNumTokenKinds[p.Peek(0).Kind] {
		p.Fail(what)
	}
	return p.Take()
}

// className is a class name: name tokens, possibly joined by dots, ending
// in an optional generic; or a `quoted` name.
func (p *classParser) className(what string) syntax.Token {
	var name syntax.Token
	for first := true; ; first = false {
		t := p.Peek(0)
		if t.Kind == "BQUOTE_STR" {
			p.Take()
			p.Accept("GENERICTYPE")
			return joinName(name, t, first)
		}
		if !alphaNumTokenKinds[t.Kind] {
			p.Fail(what)
		}
		name = joinName(name, p.Take(), first)
		switch next := p.Peek(0); {
		case next.Kind == "DOT":
			p.Take()
			name.Val += "."
			what = "a name after the dot"
		case alphaNumTokenKinds[next.Kind] || next.Kind == "BQUOTE_STR":
		case next.Kind == "GENERICTYPE":
			p.Take()
			return name
		default:
			return name
		}
	}
}

func joinName(name, t syntax.Token, first bool) syntax.Token {
	if first {
		return t
	}
	name.Val += t.Val
	name.To = t.To
	return name
}

var relationTypeKinds = map[string]bool{"AGGREGATION": true, "EXTENSION": true, "COMPOSITION": true, "DEPENDENCY": true, "LOLLIPOP": true}
var lineTypeKinds = map[string]bool{"LINE": true, "DOTTED_LINE": true}

// relationOrMember is a relation (A <|-- B), a member (A : +int id) or a
// class named alone.
func (p *classParser) relationOrMember() {
	name := p.className("a class name")
	next := p.Peek(0)
	switch {
	case next.Kind == "LABEL":
		p.Take()
		p.declare(name)
		p.checkMember(next)
		return
	case next.Kind == "STR" || relationTypeKinds[next.Kind] || lineTypeKinds[next.Kind]:
	default:
		return
	}
	p.declare(name)
	p.Accept("STR")
	p.relation()
	p.Accept("STR")
	p.declare(p.className("the class at the other end of the relation"))
	p.Accept("LABEL")
}

// relation is [type] line [type]: <|--, *--, o--, -->, ..|>, --, ...
func (p *classParser) relation() {
	if relationTypeKinds[p.Peek(0).Kind] {
		p.Take()
	}
	if !lineTypeKinds[p.Peek(0).Kind] {
		p.Fail("a relation line (-- or ..), as in A <|-- B, A *-- B, A o-- B, A --> B, A ..> B")
	}
	p.Take()
	if relationTypeKinds[p.Peek(0).Kind] {
		p.Take()
	}
}

func (p *classParser) classStatement() {
	kw := p.Take()
	name := p.className("a class name after class")
	p.declare(name)
	p.classLabel()
	hasBody := false
	switch {
	case p.At("STYLE_SEPARATOR"):
		p.Take()
		p.cssUses = append(p.cssUses, p.alphaNumToken("a style class after :::"))
		if p.At("STRUCT_START") {
			p.Take()
			p.members(true)
			hasBody = true
		}
	case p.At("ANNOTATION_START"):
		p.Take()
		p.alphaNumToken("an annotation name after <<")
		p.Expect("ANNOTATION_END", ">> to close the annotation")
		if p.At("STRUCT_START") {
			p.Take()
			p.members(false)
			hasBody = true
		}
	case p.At("STRUCT_START"):
		p.Take()
		p.members(false)
		hasBody = true
	}
	if hasBody {
		p.duplicateBody(kw, name)
	}
}

// declare records a class the diagram has.
func (p *classParser) declare(name syntax.Token) { p.classes[name.Val] = true }

func (p *classParser) classLabel() {
	if _, ok := p.Accept("SQS"); ok {
		p.Expect("STR", "the label in double quotes")
		p.Expect("SQE", "] to close the label")
	}
}

// members reads a class body's member lines up to its }.
func (p *classParser) members(required bool) {
	n := 0
	for p.At("MEMBER") {
		p.checkMember(p.Take())
		n++
	}
	if n == 0 && required {
		p.Fail("a member (a body after :::style cannot be empty)")
	}
	if !p.At("STRUCT_STOP") {
		p.Fail("} to close the class body")
	}
	p.Take()
}

// duplicateBody reports a class given a body twice.
func (p *classParser) duplicateBody(kw, name syntax.Token) {
	if prev, ok := p.bodies[name.Val]; ok {
		line, _ := p.D.File.Lines.Pos(p.code.FileOff(prev.From))
		p.D.Report(syntax.RuleDuplicate, p.code, name.From, name.To-1,
			fmt.Sprintf("class %s is given a body again (first at line %d); Mermaid merges the members", syntax.QuoteShort(name.Val), line),
			"declare the class's members in one place")
		return
	}
	p.bodies[name.Val] = name
}

func (p *classParser) namespace() {
	p.Enter(p.Take())
	defer p.Leave()
	p.namespaceName()
	p.classLabel()
	p.Expect("STRUCT_START", "{ to open the namespace")
	p.Accept("NEWLINE")
	for {
		switch p.Peek(0).Kind {
		case "CLASS":
			p.classStatement()
		case "NOTE_FOR", "NOTE":
			p.note()
		case "NAMESPACE":
			p.namespace()
		default:
			p.Fail("class, note or namespace (a namespace holds only those)")
		}
		if _, ok := p.Accept("NEWLINE"); !ok || p.At("STRUCT_STOP") {
			break
		}
	}
	p.Expect("STRUCT_STOP", "} to close the namespace")
}

func (p *classParser) namespaceName() {
	for {
		if p.At("BQUOTE_STR") {
			p.Take()
			return
		}
		p.alphaNumToken("a namespace name")
		p.Accept("DOT")
		if !alphaNumTokenKinds[p.Peek(0).Kind] && !p.At("BQUOTE_STR") {
			if p.Last.Kind == "DOT" {
				p.Fail("a name after the dot")
			}
			return
		}
	}
}

func (p *classParser) note() {
	if kw := p.Take(); kw.Kind == "NOTE_FOR" {
		name := p.className("the class the note is for")
		p.refs = append(p.refs, syntax.FlowRef{ID: name.Val, At: name, Verb: "note for"})
	}
	p.Expect("STR", "the note's text in double quotes")
}

func (p *classParser) click() {
	kw := p.Take()
	name := p.className("the class to link")
	p.refs = append(p.refs, syntax.FlowRef{ID: name.Val, At: name, Verb: kw.Val})
	switch kw.Kind {
	case "CALLBACK":
		p.Expect("STR", "the callback name in double quotes")
		p.Accept("STR")
	case "LINK":
		p.Expect("STR", "the link in double quotes")
		p.Accept("STR")
		p.Accept("LINK_TARGET")
	default:
		switch {
		case p.At("CALLBACK_NAME"):
			p.Take()
			p.Accept("CALLBACK_ARGS")
			p.Accept("STR")
		case p.At("HREF"):
			p.Take()
			p.Expect("STR", "the link in double quotes")
			p.Accept("STR")
			p.Accept("LINK_TARGET")
		default:
			p.Fail("call name() or href \"url\" after the class")
		}
	}
}

var classStyleKinds = map[string]bool{"ALPHA": true, "NUM": true, "COLON": true, "UNIT": true, "SPACE": true, "BRKT": true,
	"STYLE": true, "PCT": true, "LABEL": true}

func (p *classParser) stylesOpt() {
	for {
		if !classStyleKinds[p.Peek(0).Kind] {
			p.Fail("a style such as fill:#f9f")
		}
		for classStyleKinds[p.Peek(0).Kind] {
			p.Take()
		}
		if _, ok := p.Accept("COMMA"); !ok {
			return
		}
	}
}

func (p *classParser) classHint(found syntax.Token, expected string) string {
	if found.Kind == "EOF_IN_STRUCT" {
		return "a { body is never closed: expected } before the end of the diagram"
	}
	return ""
}

// checkRefs reports names that style, cssClass, click and note for give
// that no class has, and classes applied that no classDef defines.
func (p *classParser) checkRefs() {
	for _, r := range p.refs {
		if p.classes[r.ID] {
			continue
		}
		p.D.Report(syntax.RuleUndefinedNode, p.code, r.At.From, r.At.To-1,
			fmt.Sprintf("%s names %s, which no class of the diagram has", r.Verb, syntax.QuoteShort(r.ID)),
			"use the name of a class the diagram declares (names are case-sensitive)"+syntax.NearestHint(r.ID, p.classes))
	}
	for _, c := range p.cssUses {
		if p.classDefs[c.Val] || c.Val == "default" {
			continue
		}
		p.D.Report(syntax.RuleUndefinedClass, p.code, c.From, c.To-1,
			fmt.Sprintf("class %s is applied but no classDef of the diagram defines it; unless the page's CSS does, it adds no style", syntax.QuoteShort(c.Val)),
			"define it with classDef "+c.Val+" fill:..., or fix the name"+syntax.NearestHint(c.Val, p.classDefs))
	}
}

// checkMember reports a member Mermaid's member parser fails on: one with
// a ")" (so read as a method) but no "(" with a name before it.
func (p *classParser) checkMember(m syntax.Token) {
	text := strings.TrimSpace(strings.TrimPrefix(m.Val, ":"))
	if strings.HasPrefix(text, "<<") && strings.HasSuffix(text, ">>") || strings.Index(text, ")") <= 0 {
		return
	}
	if open := strings.Index(text[1:], "("); open >= 0 && strings.LastIndex(text, ")") > open+1 {
		return
	}
	from, last := syntax.TokenSpan(p.code.Text, m)
	p.D.Report(syntax.RuleSyntax, p.code, from, last,
		fmt.Sprintf("member %s has a \")\" but no \"(\" before it, so Mermaid reads it as a method and fails", syntax.QuoteShort(text)),
		"write a method as name(args) type, or remove the stray )")
}
