package state

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// The state diagram parser, after stateDiagram.jison's grammar, recording
// the states, classDefs and the ids class and style statements name.

type stateParser struct {
	syntax.Parser
	code      syntax.Src
	lex       *stateLexer
	states    map[string]bool
	classDefs map[string]syntax.Token
	refs      []syntax.FlowRef
	classUses []syntax.Token
	// descrs counts each state's descriptions; composite marks the states
	// with a body. Mermaid refuses a composite state with two.
	descrs    map[string]int
	composite map[string]syntax.Token
}

// ParseState checks the code of a diagram of its type, reporting what it finds to d.
func ParseState(d *syntax.Diagram, code syntax.Src) {
	lex := newStateLexer(code.Text)
	p := &stateParser{Parser: syntax.NewParser(d, code, lex), code: code, lex: lex,
		states: map[string]bool{}, classDefs: map[string]syntax.Token{}, descrs: map[string]int{}, composite: map[string]syntax.Token{}}
	p.Hint = p.stateHint
	if !syntax.RunParse(p.start) {
		return
	}
	p.checkRefs()
}

func (p *stateParser) start() {
	for p.At("SPACE", "NL") {
		p.Take()
	}
	p.Expect("SD", "stateDiagram-v2 (or stateDiagram) and a line break")
	p.document(false)
	if !p.At(syntax.TokEOF) {
		p.Fail("a statement")
	}
}

// document reads lines up to the end, or up to the } of a composite
// state.
func (p *stateParser) document(inStruct bool) {
	for {
		switch p.Peek(0).Kind {
		case syntax.TokEOF, "STRUCT_STOP":
			return
		case "NL", "SPACE":
			p.Take()
		default:
			p.statement()
		}
	}
}

func (p *stateParser) statement() {
	t := p.Peek(0)
	switch t.Kind {
	case "classDef":
		p.Take()
		if !p.At("CLASSDEF_ID", "DEFAULT") {
			p.Fail("a class name after classDef (classDef default is not accepted here: Mermaid reads it as a different token)")
		}
		id := p.Take()
		name := strings.TrimSpace(id.Val)
		if prev, dup := p.classDefs[name]; dup {
			line, _ := p.D.File.Lines.Pos(p.code.FileOff(prev.From))
			p.D.Report(syntax.RuleDuplicate, p.code, id.From, id.From+len(name)-1,
				fmt.Sprintf("classDef %s is defined again (first at line %d); Mermaid merges the two", name, line), "keep one classDef per class")
		} else {
			p.classDefs[name] = id
		}
		p.Expect("CLASSDEF_STYLEOPTS", "the styles")
	case "style":
		p.Take()
		ids := p.Expect("STYLE_IDS", "the ids of the states to style")
		p.addRefs(ids, "style")
		p.Expect("STYLEDEF_STYLEOPTS", "the styles")
	case "class":
		p.Take()
		ids := p.Expect("CLASSENTITY_IDS", "the ids of the states to class")
		p.addRefs(ids, "class")
		cls := p.Expect("STYLECLASS", "the class name")
		p.classUses = append(p.classUses, cls)
	case "ID", "EDGE_STATE":
		p.transition()
	case "HIDE_EMPTY", "FORK", "JOIN", "CHOICE", "CONCURRENT", "direction_tb", "direction_bt", "direction_rl",
		"direction_lr", "acc_descr_multiline_value":
		if t.Kind == "FORK" || t.Kind == "JOIN" || t.Kind == "CHOICE" {
			p.states[t.Val] = true
		}
		p.Take()
	case "scale":
		p.Take()
		p.Expect("WIDTH", "a width after scale")
	case "COMPOSIT_STATE":
		p.Take()
		p.states[t.Val] = true
		if p.optionalBody() {
			p.composite[t.Val] = t
		}
	case "STATE_DESCR":
		p.Take()
		p.Expect("AS", "as and the state's id after its description")
		id := p.Expect("ID", "the state's id")
		name, extra, two := strings.Cut(strings.TrimSpace(id.Val), ":")
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
		p.Take()
		p.Expect("acc_title_value", "the accessible title")
	case "acc_descr":
		p.Take()
		p.Expect("acc_descr_value", "the accessible description")
	case "CLICK":
		p.Take()
		p.idStatement()
		if _, ok := p.Accept("HREF"); !ok {
			p.Expect("STRING", "the link in double quotes")
		}
		p.Expect("STRING", "the text in double quotes")
		p.Expect("NL", "the end of the line")
	default:
		p.Fail("a statement (a state, a transition such as A --> B, state X { ... }, note, classDef, ...)")
	}
}

func (p *stateParser) addRefs(ids syntax.Token, verb string) {
	from := ids.From
	for _, part := range strings.Split(ids.Val, ",") {
		name := strings.TrimSpace(part)
		off := from + strings.Index(part, name)
		if name != "" {
			p.refs = append(p.refs, syntax.FlowRef{ID: name, At: syntax.Token{Val: name, From: off, To: off + len(name)}, Verb: verb})
		}
		from += len(part) + 1
	}
}

// optionalBody reads a composite state's { document }, if there is one.
func (p *stateParser) optionalBody() bool {
	open, ok := p.Accept("STRUCT_START")
	if !ok {
		return false
	}
	p.Enter(open)
	p.document(true)
	if !p.At("STRUCT_STOP") {
		line, _ := p.D.File.Lines.Pos(p.code.FileOff(open.From))
		p.FailMsg(p.Peek(0), fmt.Sprintf("the composite state opened by { at line %d is never closed: expected } before the end of the diagram", line))
	}
	p.Take()
	p.Leave()
	return true
}

// transition is a state, or A --> B, with an optional : description.
func (p *stateParser) transition() {
	first := p.Peek(0)
	p.idStatement()
	if _, ok := p.Accept("-->"); ok {
		if !p.At("ID", "EDGE_STATE") {
			p.Fail("the state the transition goes to")
		}
		p.idStatement()
		p.Accept("DESCR")
		return
	}
	if _, ok := p.Accept("DESCR"); ok {
		p.descrs[strings.TrimSpace(first.Val)]++
	}
}

func (p *stateParser) idStatement() {
	t := p.Peek(0)
	if !p.At("ID", "EDGE_STATE") {
		p.Fail("a state id or [*]")
	}
	p.Take()
	if t.Kind == "ID" {
		p.states[strings.TrimSpace(t.Val)] = true
	}
	if _, ok := p.Accept("STYLE_SEPARATOR"); ok {
		cls := p.Expect("ID", "a class name after :::")
		p.classUses = append(p.classUses, cls)
	}
}

func (p *stateParser) note() {
	p.Take()
	if p.At("left_of", "right_of") {
		p.Take()
		p.Expect("ID", "the state the note is beside")
		p.Expect("NOTE_TEXT", "the note's text (: text, or lines ending with end note)")
		return
	}
	p.Expect("NOTE_TEXT", "left of, right of or a \"text\" after note")
	p.Expect("AS", "as and an id after the note's text")
	p.Expect("ID", "the note's id")
}

func (p *stateParser) stateHint(found syntax.Token, expected string) string {
	if found.Kind == syntax.TokError && p.lex.failed != "" {
		return p.lex.failed + " (Mermaid refuses it; write state \"Two words\" as Id {)"
	}
	return ""
}

func (p *stateParser) checkRefs() {
	for name, at := range p.composite {
		if p.descrs[name] >= 2 {
			from, last := syntax.TokenSpan(p.code.Text, at)
			p.D.Report(syntax.RuleValue, p.code, from, last,
				fmt.Sprintf("composite state %s has a label and another description, which Mermaid refuses (a state with a body can only have a label)", syntax.QuoteShort(name)),
				"remove the extra description (the "+name+" : ... line), or drop the state \"...\" as label")
		}
	}
	for _, r := range p.refs {
		if p.states[r.ID] {
			continue
		}
		p.D.Report(syntax.RuleUndefinedNode, p.code, r.At.From, r.At.To-1,
			fmt.Sprintf("%s names %s, which no statement of the diagram has as a state; Mermaid creates a new state", r.Verb, syntax.QuoteShort(r.ID)),
			"use the id of a state the diagram has (ids are case-sensitive)"+syntax.NearestHint(r.ID, p.states))
	}
	defs := map[string]bool{}
	for k := range p.classDefs {
		defs[k] = true
	}
	for _, c := range p.classUses {
		name := strings.TrimSpace(c.Val)
		if defs[name] || name == "default" || name == "" {
			continue
		}
		off := c.From + strings.Index(c.Val, name)
		p.D.Report(syntax.RuleUndefinedClass, p.code, off, off+len(name)-1,
			fmt.Sprintf("class %s is applied but no classDef of the diagram defines it; unless the page's CSS does, it adds no style", syntax.QuoteShort(name)),
			"define it with classDef "+name+" fill:..., or fix the name"+syntax.NearestHint(name, defs))
	}
}
