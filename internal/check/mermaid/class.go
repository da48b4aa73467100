package mermaid

import (
	"fmt"
	"strings"
)

// The class diagram parser, after classDiagram.jison's grammar, recording
// the classes, the classDefs and the names that style, cssClass, click,
// link, callback and note for refer to.

type classParser struct {
	parser
	code src
	// classes are the class names declared or used in relations and
	// members; bodies are those declared with a { } body, first place.
	classes   map[string]bool
	bodies    map[string]token
	classDefs map[string]bool
	refs      []flowRef
	cssUses   []token
}

func parseClass(d *diagram, code src) {
	p := &classParser{parser: newParser(d, code, newClassLexer(code.text)), code: code,
		classes: map[string]bool{}, bodies: map[string]token{}, classDefs: map[string]bool{}}
	p.hint = p.classHint
	if !runParse(p.start) {
		return
	}
	p.checkRefs()
}

func (p *classParser) start() {
	p.expect("CLASS_DIAGRAM", "classDiagram")
	p.expect("NEWLINE", "a line break after classDiagram")
	p.statements()
	p.expect("EOF", "the end of the line")
	if !p.at(tokEOF) {
		p.fail("the end of the diagram")
	}
}

// statements is statement (NEWLINE statement)* NEWLINE?: at least one.
func (p *classParser) statements() {
	for {
		p.statement()
		if _, ok := p.accept("NEWLINE"); !ok || p.at("EOF") {
			return
		}
	}
}

var alphaNumTokenKinds = map[string]bool{"UNICODE_TEXT": true, "NUM": true, "ALPHA": true, "MINUS": true}

func (p *classParser) statement() {
	t := p.peek(0)
	switch t.kind {
	case "direction_tb", "direction_bt", "direction_rl", "direction_lr", "acc_descr_multiline_value":
		p.take()
	case "acc_title":
		p.take()
		p.expect("acc_title_value", "the accessible title")
	case "acc_descr":
		p.take()
		p.expect("acc_descr_value", "the accessible description")
	case "NAMESPACE":
		p.namespace()
	case "CLASS":
		p.classStatement()
	case "ANNOTATION_START":
		p.take()
		p.alphaNumToken("an annotation name after <<")
		p.expect("ANNOTATION_END", ">> to close the annotation")
		name := p.className("the class the annotation is for")
		if !p.classes[name.val] {
			from, last := tokenSpan(p.code.text, name)
			p.d.report(ruleSyntax, p.code, from, last,
				fmt.Sprintf("the annotation is for class %s, which is not declared before it; Mermaid fails on this", quoteShort(name.val)),
				"declare the class (class "+name.val+") before annotating it, or fix the name"+nearestHint(name.val, p.classes))
		}
	case "CALLBACK", "LINK", "CLICK":
		p.click()
	case "STYLE":
		p.take()
		id := p.expect("ALPHA", "the class to style")
		p.refs = append(p.refs, flowRef{id: id.val, at: id, verb: "style"})
		p.stylesOpt()
	case "CSSCLASS":
		p.take()
		ids := p.expect("STR", "the class names in double quotes")
		for _, id := range splitIDs(token{val: ids.val, from: ids.from, to: ids.to}) {
			p.refs = append(p.refs, flowRef{id: id.val, at: id, verb: "cssClass"})
		}
		p.cssUses = append(p.cssUses, p.expect("ALPHA", "the CSS class to apply"))
	case "NOTE_FOR", "NOTE":
		p.note()
	case "CLASSDEF":
		p.take()
		p.classDefName()
		for {
			if _, ok := p.accept("COMMA"); !ok {
				break
			}
			p.classDefName()
		}
		p.stylesOpt()
	case "MEMBER", "SEPARATOR":
		p.take()
	default:
		if alphaNumTokenKinds[t.kind] || t.kind == "BQUOTE_STR" {
			p.relationOrMember()
			return
		}
		p.fail("a statement (class, a relation such as A <|-- B, a member such as A : +int id, note, ...)")
	}
}

func (p *classParser) classDefName() {
	n := p.expect("ALPHA", "a class name after classDef")
	p.classDefs[n.val] = true
}

func (p *classParser) alphaNumToken(what string) token {
	if !alphaNumTokenKinds[p.peek(0).kind] {
		p.fail(what)
	}
	return p.take()
}

// className is a class name: name tokens, possibly joined by dots, ending
// in an optional generic; or a `quoted` name.
func (p *classParser) className(what string) token {
	var name token
	for first := true; ; first = false {
		t := p.peek(0)
		if t.kind == "BQUOTE_STR" {
			p.take()
			p.accept("GENERICTYPE")
			return joinName(name, t, first)
		}
		if !alphaNumTokenKinds[t.kind] {
			p.fail(what)
		}
		name = joinName(name, p.take(), first)
		switch next := p.peek(0); {
		case next.kind == "DOT":
			p.take()
			name.val += "."
			what = "a name after the dot"
		case alphaNumTokenKinds[next.kind] || next.kind == "BQUOTE_STR":
		case next.kind == "GENERICTYPE":
			p.take()
			return name
		default:
			return name
		}
	}
}

func joinName(name, t token, first bool) token {
	if first {
		return t
	}
	name.val += t.val
	name.to = t.to
	return name
}

var relationTypeKinds = map[string]bool{"AGGREGATION": true, "EXTENSION": true, "COMPOSITION": true, "DEPENDENCY": true, "LOLLIPOP": true}
var lineTypeKinds = map[string]bool{"LINE": true, "DOTTED_LINE": true}

// relationOrMember is a relation (A <|-- B), a member (A : +int id) or a
// class named alone.
func (p *classParser) relationOrMember() {
	name := p.className("a class name")
	next := p.peek(0)
	switch {
	case next.kind == "LABEL":
		p.take()
		p.declare(name)
		p.checkMember(next)
		return
	case next.kind == "STR" || relationTypeKinds[next.kind] || lineTypeKinds[next.kind]:
	default:
		return
	}
	p.declare(name)
	p.accept("STR")
	p.relation()
	p.accept("STR")
	p.declare(p.className("the class at the other end of the relation"))
	p.accept("LABEL")
}

// relation is [type] line [type]: <|--, *--, o--, -->, ..|>, --, ...
func (p *classParser) relation() {
	if relationTypeKinds[p.peek(0).kind] {
		p.take()
	}
	if !lineTypeKinds[p.peek(0).kind] {
		p.fail("a relation line (-- or ..), as in A <|-- B, A *-- B, A o-- B, A --> B, A ..> B")
	}
	p.take()
	if relationTypeKinds[p.peek(0).kind] {
		p.take()
	}
}

func (p *classParser) classStatement() {
	kw := p.take()
	name := p.className("a class name after class")
	p.declare(name)
	p.classLabel()
	hasBody := false
	switch {
	case p.at("STYLE_SEPARATOR"):
		p.take()
		p.cssUses = append(p.cssUses, p.alphaNumToken("a style class after :::"))
		if p.at("STRUCT_START") {
			p.take()
			p.members(true)
			hasBody = true
		}
	case p.at("ANNOTATION_START"):
		p.take()
		p.alphaNumToken("an annotation name after <<")
		p.expect("ANNOTATION_END", ">> to close the annotation")
		if p.at("STRUCT_START") {
			p.take()
			p.members(false)
			hasBody = true
		}
	case p.at("STRUCT_START"):
		p.take()
		p.members(false)
		hasBody = true
	}
	if hasBody {
		p.duplicateBody(kw, name)
	}
}

// declare records a class the diagram has.
func (p *classParser) declare(name token) { p.classes[name.val] = true }

func (p *classParser) classLabel() {
	if _, ok := p.accept("SQS"); ok {
		p.expect("STR", "the label in double quotes")
		p.expect("SQE", "] to close the label")
	}
}

// members reads a class body's member lines up to its }.
func (p *classParser) members(required bool) {
	n := 0
	for p.at("MEMBER") {
		p.checkMember(p.take())
		n++
	}
	if n == 0 && required {
		p.fail("a member (a body after :::style cannot be empty)")
	}
	if !p.at("STRUCT_STOP") {
		p.fail("} to close the class body")
	}
	p.take()
}

// duplicateBody reports a class given a body twice.
func (p *classParser) duplicateBody(kw, name token) {
	if prev, ok := p.bodies[name.val]; ok {
		line, _ := p.d.fc.lines.pos(p.code.fileOff(prev.from))
		p.d.report(ruleDuplicate, p.code, name.from, name.to-1,
			fmt.Sprintf("class %s is given a body again (first at line %d); Mermaid merges the members", quoteShort(name.val), line),
			"declare the class's members in one place")
		return
	}
	p.bodies[name.val] = name
}

func (p *classParser) namespace() {
	p.enter(p.take())
	defer p.leave()
	p.namespaceName()
	p.classLabel()
	p.expect("STRUCT_START", "{ to open the namespace")
	p.accept("NEWLINE")
	for {
		switch p.peek(0).kind {
		case "CLASS":
			p.classStatement()
		case "NOTE_FOR", "NOTE":
			p.note()
		case "NAMESPACE":
			p.namespace()
		default:
			p.fail("class, note or namespace (a namespace holds only those)")
		}
		if _, ok := p.accept("NEWLINE"); !ok || p.at("STRUCT_STOP") {
			break
		}
	}
	p.expect("STRUCT_STOP", "} to close the namespace")
}

func (p *classParser) namespaceName() {
	for {
		if p.at("BQUOTE_STR") {
			p.take()
			return
		}
		p.alphaNumToken("a namespace name")
		p.accept("DOT")
		if !alphaNumTokenKinds[p.peek(0).kind] && !p.at("BQUOTE_STR") {
			if p.last.kind == "DOT" {
				p.fail("a name after the dot")
			}
			return
		}
	}
}

func (p *classParser) note() {
	if kw := p.take(); kw.kind == "NOTE_FOR" {
		name := p.className("the class the note is for")
		p.refs = append(p.refs, flowRef{id: name.val, at: name, verb: "note for"})
	}
	p.expect("STR", "the note's text in double quotes")
}

func (p *classParser) click() {
	kw := p.take()
	name := p.className("the class to link")
	p.refs = append(p.refs, flowRef{id: name.val, at: name, verb: kw.val})
	switch kw.kind {
	case "CALLBACK":
		p.expect("STR", "the callback name in double quotes")
		p.accept("STR")
	case "LINK":
		p.expect("STR", "the link in double quotes")
		p.accept("STR")
		p.accept("LINK_TARGET")
	default:
		switch {
		case p.at("CALLBACK_NAME"):
			p.take()
			p.accept("CALLBACK_ARGS")
			p.accept("STR")
		case p.at("HREF"):
			p.take()
			p.expect("STR", "the link in double quotes")
			p.accept("STR")
			p.accept("LINK_TARGET")
		default:
			p.fail("call name() or href \"url\" after the class")
		}
	}
}

var classStyleKinds = map[string]bool{"ALPHA": true, "NUM": true, "COLON": true, "UNIT": true, "SPACE": true, "BRKT": true,
	"STYLE": true, "PCT": true, "LABEL": true}

func (p *classParser) stylesOpt() {
	for {
		if !classStyleKinds[p.peek(0).kind] {
			p.fail("a style such as fill:#f9f")
		}
		for classStyleKinds[p.peek(0).kind] {
			p.take()
		}
		if _, ok := p.accept("COMMA"); !ok {
			return
		}
	}
}

func (p *classParser) classHint(found token, expected string) string {
	if found.kind == "EOF_IN_STRUCT" {
		return "a { body is never closed: expected } before the end of the diagram"
	}
	return ""
}

// checkRefs reports names that style, cssClass, click and note for give
// that no class has, and classes applied that no classDef defines.
func (p *classParser) checkRefs() {
	for _, r := range p.refs {
		if p.classes[r.id] {
			continue
		}
		p.d.report(ruleUndefinedNode, p.code, r.at.from, r.at.to-1,
			fmt.Sprintf("%s names %s, which no class of the diagram has", r.verb, quoteShort(r.id)),
			"use the name of a class the diagram declares (names are case-sensitive)"+nearestHint(r.id, p.classes))
	}
	for _, c := range p.cssUses {
		if p.classDefs[c.val] || c.val == "default" {
			continue
		}
		p.d.report(ruleUndefinedClass, p.code, c.from, c.to-1,
			fmt.Sprintf("class %s is applied but no classDef of the diagram defines it; unless the page's CSS does, it adds no style", quoteShort(c.val)),
			"define it with classDef "+c.val+" fill:..., or fix the name"+nearestHint(c.val, p.classDefs))
	}
}

// checkMember reports a member Mermaid's member parser fails on: one with
// a ")" (so read as a method) but no "(" with a name before it.
func (p *classParser) checkMember(m token) {
	text := strings.TrimSpace(strings.TrimPrefix(m.val, ":"))
	if strings.HasPrefix(text, "<<") && strings.HasSuffix(text, ">>") || strings.Index(text, ")") <= 0 {
		return
	}
	if open := strings.Index(text[1:], "("); open >= 0 && strings.LastIndex(text, ")") > open+1 {
		return
	}
	from, last := tokenSpan(p.code.text, m)
	p.d.report(ruleSyntax, p.code, from, last,
		fmt.Sprintf("member %s has a \")\" but no \"(\" before it, so Mermaid reads it as a method and fails", quoteShort(text)),
		"write a method as name(args) type, or remove the stray )")
}
