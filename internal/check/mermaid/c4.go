package mermaid

import (
	"fmt"
	"strings"
)

// C4 diagrams (c4Diagram.jison): C4Context, C4Container, C4Component,
// C4Dynamic and C4Deployment, with elements, relationships and boundaries
// written as calls: Person(id, "label", "description").

// c4Elements are the element and relationship keywords, in the lexer's
// order, each entering the state that reads its arguments.
var c4Elements = []struct{ word, kind string }{
	{"Person_Ext", "PERSON_EXT"}, {"Person", "PERSON"}, {"SystemQueue_Ext", "SYSTEM_EXT_QUEUE"},
	{"SystemDb_Ext", "SYSTEM_EXT_DB"}, {"System_Ext", "SYSTEM_EXT"}, {"SystemQueue", "SYSTEM_QUEUE"},
	{"SystemDb", "SYSTEM_DB"}, {"System", "SYSTEM"}, {"Boundary", "BOUNDARY"},
	{"Enterprise_Boundary", "ENTERPRISE_BOUNDARY"}, {"System_Boundary", "SYSTEM_BOUNDARY"},
	{"ContainerQueue_Ext", "CONTAINER_EXT_QUEUE"}, {"ContainerDb_Ext", "CONTAINER_EXT_DB"},
	{"Container_Ext", "CONTAINER_EXT"}, {"ContainerQueue", "CONTAINER_QUEUE"}, {"ContainerDb", "CONTAINER_DB"},
	{"Container", "CONTAINER"}, {"Container_Boundary", "CONTAINER_BOUNDARY"},
	{"ComponentQueue_Ext", "COMPONENT_EXT_QUEUE"}, {"ComponentDb_Ext", "COMPONENT_EXT_DB"},
	{"Component_Ext", "COMPONENT_EXT"}, {"ComponentQueue", "COMPONENT_QUEUE"}, {"ComponentDb", "COMPONENT_DB"},
	{"Component", "COMPONENT"}, {"Deployment_Node", "NODE"}, {"Node", "NODE"}, {"Node_L", "NODE_L"},
	{"Node_R", "NODE_R"}, {"Rel", "REL"}, {"BiRel", "BIREL"}, {"Rel_Up", "REL_U"}, {"Rel_U", "REL_U"},
	{"Rel_Down", "REL_D"}, {"Rel_D", "REL_D"}, {"Rel_Left", "REL_L"}, {"Rel_L", "REL_L"},
	{"Rel_Right", "REL_R"}, {"Rel_R", "REL_R"}, {"Rel_Back", "REL_B"}, {"RelIndex", "REL_INDEX"},
	{"UpdateElementStyle", "UPDATE_EL_STYLE"}, {"UpdateRelStyle", "UPDATE_REL_STYLE"},
	{"UpdateLayoutConfig", "UPDATE_LAYOUT_CONFIG"},
}

var c4Boundaries = map[string]bool{"ENTERPRISE_BOUNDARY": true, "SYSTEM_BOUNDARY": true, "BOUNDARY": true,
	"CONTAINER_BOUNDARY": true, "NODE": true, "NODE_L": true, "NODE_R": true}

func c4Rules() map[string][]lexRule {
	initial := []lexRule{
		{kind: "title", match: kwLine("title", "#\n;", false)},
		{kind: "accDescription", match: kwLine("accDescription", "#\n;", false)},
		{match: func(t string, i int) int {
			if strings.HasPrefix(t[i:], "%%") {
				return newlineRunFrom(t, lineEnd(t, i))
			}
			return -1
		}},
		{kind: "NEWLINE", match: func(t string, i int) int {
			if e := newlineRunEnd(t, i); e > 0 {
				return e
			}
			return -1
		}},
		{match: spaces},
	}
	for _, h := range []string{"C4Context", "C4Container", "C4Component", "C4Dynamic", "C4Deployment"} {
		initial = append(initial, lexRule{kind: "C4_HEADER", match: word(h, false)})
	}
	for _, e := range c4Elements {
		initial = append(initial, lexRule{kind: e.kind, match: word(e.word, false), push: "element"})
	}
	initial = append(initial, lexRule{kind: "LBRACE", match: lit("{", false)}, lexRule{kind: "RBRACE", match: lit("}", false)})
	var dirs []lexRule
	for _, d := range []string{"TB", "BT", "RL", "LR"} {
		dirs = append(dirs, lexRule{kind: "direction_" + strings.ToLower(d), match: directionLine(d)})
	}
	initial = append(dirs, initial...)
	return withAcc(initial, 6, false, map[string][]lexRule{
		"element": {
			{kind: "ATTRIBUTE_EMPTY", match: emptyFirstArg, push: "attribute"},
			{match: lit("(", false), push: "attribute"}, {match: lit(")", false), pops: 2},
		},
		"attribute": {
			{match: lit(")", false), pops: 2}, {kind: "ATTRIBUTE_EMPTY", match: lit(",,", false)}, {match: lit(",", false)},
			{kind: "ATTRIBUTE_EMPTY", match: spacedQuote("\"\"")}, {match: spacedQuote("\""), push: "string"},
			{match: spacedQuote("$"), push: "string_kv"}, {kind: "STR", match: runNot(",")},
		},
		"string":          {{match: lit("\"", false), pops: 1}, {kind: "STR", match: restNot("\"")}},
		"string_kv":       {{kind: "STR_KEY", match: restNot("="), push: "string_kv_key"}},
		"string_kv_key":   {{match: kvOpen, pops: 1, push: "string_kv_value"}},
		"string_kv_value": {{kind: "STR_VALUE", match: runNot("\"")}, {match: lit("\"", false), pops: 2}},
	})
}

// emptyFirstArg matches [(][ ]*[,].
func emptyFirstArg(t string, i int) int {
	if t[i] != '(' {
		return -1
	}
	j := i + 1
	for j < len(t) && t[j] == ' ' {
		j++
	}
	if j < len(t) && t[j] == ',' {
		return j + 1
	}
	return -1
}

// spacedQuote matches [ ]*s.
func spacedQuote(s string) func(string, int) int {
	return func(t string, i int) int {
		j := i
		for j < len(t) && t[j] == ' ' {
			j++
		}
		if strings.HasPrefix(t[j:], s) {
			return j + len(s)
		}
		return -1
	}
}

// kvOpen matches [=][ ]*["].
func kvOpen(t string, i int) int {
	if t[i] != '=' {
		return -1
	}
	return spacedQuote("\"")(t, i+1)
}

type c4Parser struct {
	parser
	code src
}

func parseC4(d *diagram, code src) {
	atEnd := atEndWith(map[string]string{"": "EOF", "element": "EOF_IN_STRUCT", "string": "STR", "string_kv": "STR_KEY"})
	p := &c4Parser{parser: newParser(d, code, newRuleLexer(code.text, c4Rules(), atEnd)), code: code}
	runParse(p.start)
}

func (p *c4Parser) start() {
	if strings.HasPrefix(p.peek(0).kind, "direction_") {
		p.take()
		if !p.at(tokEOF) {
			p.fail("the end of the diagram")
		}
		return
	}
	p.expect("C4_HEADER", "C4Context, C4Container, C4Component, C4Dynamic or C4Deployment")
	p.expect("NEWLINE", "a line break after the diagram type")
	p.statements(false)
	p.expect("EOF", "the end of the diagram")
}

// statements is one or more statements, separated by line breaks.
func (p *c4Parser) statements(inBoundary bool) {
	for {
		p.statement()
		if _, ok := p.accept("NEWLINE"); !ok {
			return
		}
		if p.at("EOF") || inBoundary && p.at("RBRACE") {
			return
		}
	}
}

func (p *c4Parser) statement() {
	t := p.peek(0)
	switch {
	case t.kind == "title", t.kind == "accDescription":
		p.take()
	case p.accStatement():
	case c4Boundaries[t.kind]:
		p.boundary()
	case c4Kinds[t.kind]:
		p.take()
		p.attributes(t)
	default:
		p.fail("an element (Person, System, Container, ...), a relationship (Rel, BiRel, ...), a boundary or a title")
	}
}

var c4Kinds = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range c4Elements {
		m[e.kind] = true
	}
	return m
}()

func (p *c4Parser) attributes(kw token) {
	n := 0
	for {
		switch {
		case p.at("STR", "ATTRIBUTE", "ATTRIBUTE_EMPTY"):
			p.take()
		case p.at("STR_KEY"):
			p.take()
			p.expect("STR_VALUE", `the value of the $key="value" argument`)
		default:
			if n == 0 {
				p.fail(fmt.Sprintf("the arguments of %s in parentheses, right after its name: %s(id, \"label\")", kw.val, kw.val))
			}
			return
		}
		n++
	}
}

func (p *c4Parser) boundary() {
	kw := p.take()
	p.attributes(kw)
	p.enter(kw)
	if _, ok := p.accept("LBRACE"); ok {
		p.expect("NEWLINE", "a line break after {")
	} else {
		p.expect("NEWLINE", "{ after the boundary")
		p.expect("LBRACE", "{ to open the boundary")
		p.accept("NEWLINE")
	}
	if t := p.peek(0); !c4Kinds[t.kind] {
		p.fail("an element, relationship or boundary inside the boundary")
	}
	p.statements(true)
	if !p.at("RBRACE") {
		line, _ := p.d.fc.lines.pos(p.code.fileOff(kw.from))
		p.fail(fmt.Sprintf("} to close the %s opened at line %d", kw.val, line))
	}
	p.take()
	p.leave()
}
