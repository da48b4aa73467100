package models

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
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

func c4Rules() map[string][]syntax.LexRule {
	initial := []syntax.LexRule{
		{Kind: "title", Match: syntax.KwLine("title", "#\n;", false)},
		{Kind: "accDescription", Match: syntax.KwLine("accDescription", "#\n;", false)},
		{Match: func(t string, i int) int {
			if strings.HasPrefix(t[i:], "%%") {
				return syntax.NewlineRunFrom(t, syntax.LineEnd(t, i))
			}
			return -1
		}},
		{Kind: "NEWLINE", Match: func(t string, i int) int {
			if e := syntax.NewlineRunEnd(t, i); e > 0 {
				return e
			}
			return -1
		}},
		{Match: syntax.Spaces},
	}
	for _, h := range []string{"C4Context", "C4Container", "C4Component", "C4Dynamic", "C4Deployment"} {
		initial = append(initial, syntax.LexRule{Kind: "C4_HEADER", Match: syntax.Word(h, false)})
	}
	for _, e := range c4Elements {
		initial = append(initial, syntax.LexRule{Kind: e.kind, Match: syntax.Word(e.word, false), Push: "element"})
	}
	initial = append(initial, syntax.LexRule{Kind: "LBRACE", Match: syntax.Lit("{", false)}, syntax.LexRule{Kind: "RBRACE", Match: syntax.Lit("}", false)})
	var dirs []syntax.LexRule
	for _, d := range []string{"TB", "BT", "RL", "LR"} {
		dirs = append(dirs, syntax.LexRule{Kind: "direction_" + strings.ToLower(d), Match: directionLine(d)})
	}
	initial = append(dirs, initial...)
	return syntax.WithAcc(initial, 6, false, map[string][]syntax.LexRule{
		"element": {
			{Kind: "ATTRIBUTE_EMPTY", Match: emptyFirstArg, Push: "attribute"},
			{Match: syntax.Lit("(", false), Push: "attribute"}, {Match: syntax.Lit(")", false), Pops: 2},
		},
		"attribute": {
			{Match: syntax.Lit(")", false), Pops: 2}, {Kind: "ATTRIBUTE_EMPTY", Match: syntax.Lit(",,", false)}, {Match: syntax.Lit(",", false)},
			{Kind: "ATTRIBUTE_EMPTY", Match: spacedQuote("\"\"")}, {Match: spacedQuote("\""), Push: "string"},
			{Match: spacedQuote("$"), Push: "string_kv"}, {Kind: "STR", Match: syntax.RunNot(",")},
		},
		"string":          {{Match: syntax.Lit("\"", false), Pops: 1}, {Kind: "STR", Match: syntax.RestNot("\"")}},
		"string_kv":       {{Kind: "STR_KEY", Match: syntax.RestNot("="), Push: "string_kv_key"}},
		"string_kv_key":   {{Match: kvOpen, Pops: 1, Push: "string_kv_value"}},
		"string_kv_value": {{Kind: "STR_VALUE", Match: syntax.RunNot("\"")}, {Match: syntax.Lit("\"", false), Pops: 2}},
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
	syntax.Parser
	code syntax.Src
}

// ParseC4 checks the code of a diagram of its type, reporting what it finds to d.
func ParseC4(d *syntax.Diagram, code syntax.Src) {
	atEnd := syntax.AtEndWith(map[string]string{"": "EOF", "element": "EOF_IN_STRUCT", "string": "STR", "string_kv": "STR_KEY"})
	p := &c4Parser{Parser: syntax.NewParser(d, code, syntax.NewRuleLexer(code.Text, c4Rules(), atEnd)), code: code}
	syntax.RunParse(p.start)
}

func (p *c4Parser) start() {
	if strings.HasPrefix(p.Peek(0).Kind, "direction_") {
		p.Take()
		if !p.At(syntax.TokEOF) {
			p.Fail("the end of the diagram")
		}
		return
	}
	p.Expect("C4_HEADER", "C4Context, C4Container, C4Component, C4Dynamic or C4Deployment")
	p.Expect("NEWLINE", "a line break after the diagram type")
	p.statements(false)
	p.Expect("EOF", "the end of the diagram")
}

// statements is one or more statements, separated by line breaks.
func (p *c4Parser) statements(inBoundary bool) {
	for {
		p.statement()
		if _, ok := p.Accept("NEWLINE"); !ok {
			return
		}
		if p.At("EOF") || inBoundary && p.At("RBRACE") {
			return
		}
	}
}

func (p *c4Parser) statement() {
	t := p.Peek(0)
	switch {
	case t.Kind == "title", t.Kind == "accDescription":
		p.Take()
	case p.AccStatement():
	case c4Boundaries[t.Kind]:
		p.boundary()
	case c4Kinds[t.Kind]:
		p.Take()
		p.attributes(t)
	default:
		p.Fail("an element (Person, System, Container, ...), a relationship (Rel, BiRel, ...), a boundary or a title")
	}
}

var c4Kinds = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range c4Elements {
		m[e.kind] = true
	}
	return m
}()

func (p *c4Parser) attributes(kw syntax.Token) {
	n := 0
	for {
		switch {
		case p.At("STR", "ATTRIBUTE", "ATTRIBUTE_EMPTY"):
			p.Take()
		case p.At("STR_KEY"):
			p.Take()
			p.Expect("STR_VALUE", `the value of the $key="value" argument`)
		default:
			if n == 0 {
				p.Fail(fmt.Sprintf("the arguments of %s in parentheses, right after its name: %s(id, \"label\")", kw.Val, kw.Val))
			}
			return
		}
		n++
	}
}

func (p *c4Parser) boundary() {
	kw := p.Take()
	p.attributes(kw)
	p.Enter(kw)
	if _, ok := p.Accept("LBRACE"); ok {
		p.Expect("NEWLINE", "a line break after {")
	} else {
		p.Expect("NEWLINE", "{ after the boundary")
		p.Expect("LBRACE", "{ to open the boundary")
		p.Accept("NEWLINE")
	}
	if t := p.Peek(0); !c4Kinds[t.Kind] {
		p.Fail("an element, relationship or boundary inside the boundary")
	}
	p.statements(true)
	if !p.At("RBRACE") {
		line, _ := p.D.File.Lines.Pos(p.code.FileOff(kw.From))
		p.Fail(fmt.Sprintf("} to close the %s opened at line %d", kw.Val, line))
	}
	p.Take()
	p.Leave()
}
