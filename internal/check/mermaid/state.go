package mermaid

import (
	"fmt"
	"strings"
)

// The state diagram parser, after stateDiagram.jison's grammar, recording
// the states, classDefs and the ids class and style statements name.

type stateParser struct {
	parser
	code      src
	lex       *stateLexer
	states    map[string]bool
	classDefs map[string]token
	refs      []flowRef
	classUses []token
	// descrs counts each state's descriptions; composite marks the states
	// with a body. Mermaid refuses a composite state with two.
	descrs    map[string]int
	composite map[string]token
}

func parseState(d *diagram, code src) {
	lex := newStateLexer(code.text)
	p := &stateParser{parser: newParser(d, code, lex), code: code, lex: lex,
		states: map[string]bool{}, classDefs: map[string]token{}, descrs: map[string]int{}, composite: map[string]token{}}
	p.hint = p.stateHint
	if !runParse(p.start) {
		return
	}
	p.checkRefs()
}

func (p *stateParser) start() {
	for p.at("SPACE", "NL") {
		p.take()
	}
	p.expect("SD", "stateDiagram-v2 (or stateDiagram) and a line break")
	p.document(false)
	if !p.at(tokEOF) {
		p.fail("a statement")
	}
}

// document reads lines up to the end, or up to the } of a composite
// state.
func (p *stateParser) document(inStruct bool) {
	for {
		switch p.peek(0).kind {
		case tokEOF, "STRUCT_STOP":
			return
		case "NL", "SPACE":
			p.take()
		default:
			p.statement()
		}
	}
}

func (p *stateParser) statement() {
	t := p.peek(0)
	switch t.kind {
	case "classDef":
		p.take()
		if !p.at("CLASSDEF_ID", "DEFAULT") {
			p.fail("a class name after classDef (classDef default is not accepted here: Mermaid reads it as a different token)")
		}
		id := p.take()
		name := strings.TrimSpace(id.val)
		if prev, dup := p.classDefs[name]; dup {
			line, _ := p.d.fc.lines.pos(p.code.fileOff(prev.from))
			p.d.report(ruleDuplicate, p.code, id.from, id.from+len(name)-1,
				fmt.Sprintf("classDef %s is defined again (first at line %d); Mermaid merges the two", name, line), "keep one classDef per class")
		} else {
			p.classDefs[name] = id
		}
		p.expect("CLASSDEF_STYLEOPTS", "the styles")
	case "style":
		p.take()
		ids := p.expect("STYLE_IDS", "the ids of the states to style")
		p.addRefs(ids, "style")
		p.expect("STYLEDEF_STYLEOPTS", "the styles")
	case "class":
		p.take()
		ids := p.expect("CLASSENTITY_IDS", "the ids of the states to class")
		p.addRefs(ids, "class")
		cls := p.expect("STYLECLASS", "the class name")
		p.classUses = append(p.classUses, cls)
	case "ID", "EDGE_STATE":
		p.transition()
	case "HIDE_EMPTY", "FORK", "JOIN", "CHOICE", "CONCURRENT", "direction_tb", "direction_bt", "direction_rl",
		"direction_lr", "acc_descr_multiline_value":
		if t.kind == "FORK" || t.kind == "JOIN" || t.kind == "CHOICE" {
			p.states[t.val] = true
		}
		p.take()
	case "scale":
		p.take()
		p.expect("WIDTH", "a width after scale")
	case "COMPOSIT_STATE":
		p.take()
		p.states[t.val] = true
		if p.optionalBody() {
			p.composite[t.val] = t
		}
	case "STATE_DESCR":
		p.take()
		p.expect("AS", "as and the state's id after its description")
		id := p.expect("ID", "the state's id")
		name, extra, two := strings.Cut(strings.TrimSpace(id.val), ":")
		p.states[name] = true
		p.descrs[name]++
		if two && extra != "" {
			p.descrs[name]++
		}
		if p.optionalBody() {
			p.composite[name] = id
		}
	case "note":
		p.note()
	case "acc_title":
		p.take()
		p.expect("acc_title_value", "the accessible title")
	case "acc_descr":
		p.take()
		p.expect("acc_descr_value", "the accessible description")
	case "CLICK":
		p.take()
		p.idStatement()
		if _, ok := p.accept("HREF"); !ok {
			p.expect("STRING", "the link in double quotes")
		}
		p.expect("STRING", "the text in double quotes")
		p.expect("NL", "the end of the line")
	default:
		p.fail("a statement (a state, a transition such as A --> B, state X { ... }, note, classDef, ...)")
	}
}

func (p *stateParser) addRefs(ids token, verb string) {
	from := ids.from
	for _, part := range strings.Split(ids.val, ",") {
		name := strings.TrimSpace(part)
		off := from + strings.Index(part, name)
		if name != "" {
			p.refs = append(p.refs, flowRef{id: name, at: token{val: name, from: off, to: off + len(name)}, verb: verb})
		}
		from += len(part) + 1
	}
}

// optionalBody reads a composite state's { document }, if there is one.
func (p *stateParser) optionalBody() bool {
	open, ok := p.accept("STRUCT_START")
	if !ok {
		return false
	}
	p.enter(open)
	p.document(true)
	if !p.at("STRUCT_STOP") {
		line, _ := p.d.fc.lines.pos(p.code.fileOff(open.from))
		p.failMsg(p.peek(0), fmt.Sprintf("the composite state opened by { at line %d is never closed: expected } before the end of the diagram", line))
	}
	p.take()
	p.leave()
	return true
}

// transition is a state, or A --> B, with an optional : description.
func (p *stateParser) transition() {
	first := p.peek(0)
	p.idStatement()
	if _, ok := p.accept("-->"); ok {
		if !p.at("ID", "EDGE_STATE") {
			p.fail("the state the transition goes to")
		}
		p.idStatement()
		p.accept("DESCR")
		return
	}
	if _, ok := p.accept("DESCR"); ok {
		p.descrs[strings.TrimSpace(first.val)]++
	}
}

func (p *stateParser) idStatement() {
	t := p.peek(0)
	if !p.at("ID", "EDGE_STATE") {
		p.fail("a state id or [*]")
	}
	p.take()
	if t.kind == "ID" {
		p.states[strings.TrimSpace(t.val)] = true
	}
	if _, ok := p.accept("STYLE_SEPARATOR"); ok {
		cls := p.expect("ID", "a class name after :::")
		p.classUses = append(p.classUses, cls)
	}
}

func (p *stateParser) note() {
	p.take()
	if p.at("left_of", "right_of") {
		p.take()
		p.expect("ID", "the state the note is beside")
		p.expect("NOTE_TEXT", "the note's text (: text, or lines ending with end note)")
		return
	}
	p.expect("NOTE_TEXT", "left of, right of or a \"text\" after note")
	p.expect("AS", "as and an id after the note's text")
	p.expect("ID", "the note's id")
}

func (p *stateParser) stateHint(found token, expected string) string {
	if found.kind == tokError && p.lex.failed != "" {
		return p.lex.failed + " (Mermaid refuses it; write state \"Two words\" as Id {)"
	}
	return ""
}

func (p *stateParser) checkRefs() {
	for name, at := range p.composite {
		if p.descrs[name] >= 2 {
			from, last := tokenSpan(p.code.text, at)
			p.d.report(ruleValue, p.code, from, last,
				fmt.Sprintf("composite state %s has a label and another description, which Mermaid refuses (a state with a body can only have a label)", quoteShort(name)),
				"remove the extra description (the "+name+" : ... line), or drop the state \"...\" as label")
		}
	}
	for _, r := range p.refs {
		if p.states[r.id] {
			continue
		}
		p.d.report(ruleUndefinedNode, p.code, r.at.from, r.at.to-1,
			fmt.Sprintf("%s names %s, which no statement of the diagram has as a state; Mermaid creates a new state", r.verb, quoteShort(r.id)),
			"use the id of a state the diagram has (ids are case-sensitive)"+nearestHint(r.id, p.states))
	}
	defs := map[string]bool{}
	for k := range p.classDefs {
		defs[k] = true
	}
	for _, c := range p.classUses {
		name := strings.TrimSpace(c.val)
		if defs[name] || name == "default" || name == "" {
			continue
		}
		off := c.from + strings.Index(c.val, name)
		p.d.report(ruleUndefinedClass, p.code, off, off+len(name)-1,
			fmt.Sprintf("class %s is applied but no classDef of the diagram defines it; unless the page's CSS does, it adds no style", quoteShort(name)),
			"define it with classDef "+name+" fill:..., or fix the name"+nearestHint(name, defs))
	}
}
