package models

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
)

// Architecture diagrams (architecture.langium): groups, services,
// junctions, edges such as db:L -- R:api, and align rows; then the checks
// architectureDb makes, which adds all groups first, then services,
// junctions, edges and alignments: an id used twice, a parent that is not
// a group, an edge end that is not a service or junction.

func architectureLexer(t string) *syntax.LangLexer {
	keywords := []string{"architecture-beta", "group", "service", "junction", "in", "align", "row", "column", ":", "--", "-"}
	terms := append([]syntax.LangTerm{
		{Name: "ARROW_DIRECTION", Match: syntax.CharIn("LRTB")},
		{Name: "ARROW_GROUP", Match: syntax.Lit("{group}", false)},
		{Name: "ARROW_INTO", Match: syntax.CharIn("<>")},
		{Name: "ARCH_ICON", Match: archIcon},
		{Name: "ARCH_TITLE", Match: archTitle},
	}, syntax.CommonTerms("ACC_DESCR", "ACC_TITLE", "TITLE", "STRING", "ID", "NEWLINE")...)
	return syntax.NewLangLexer(t, keywords, []string{"architecture"}, terms, syntax.MatchID)
}

// archIcon is \([\w-:]+\).
func archIcon(t string, i int) int {
	if t[i] != '(' {
		return -1
	}
	j := i + 1
	for j < len(t) && (syntax.IsWordByte(t[j]) || t[j] == '-' || t[j] == ':') {
		j++
	}
	if j == i+1 || j >= len(t) || t[j] != ')' {
		return -1
	}
	return j + 1
}

// archTitle is \[(?:"..."|'...'|[^\[\]\r\n]+)\].
func archTitle(t string, i int) int {
	if t[i] != '[' || i+1 >= len(t) {
		return -1
	}
	if e := syntax.MatchString(t, i+1); e > 0 && e < len(t) && t[e] == ']' {
		return e + 1
	}
	j := i + 1
	for j < len(t) && strings.IndexByte("[]\r\n", t[j]) < 0 {
		j++
	}
	if j == i+1 || j >= len(t) || t[j] != ']' {
		return -1
	}
	return j + 1
}

type archParser struct {
	syntax.LangParser
	code      syntax.Src
	groups    []archDecl
	nodes     []archDecl
	edges     []archEdge
	alignings [][]syntax.Token
}

type archDecl struct {
	id, parent syntax.Token
	hasParent  bool
	kind       string
}

type archEdge struct {
	lhs, rhs           syntax.Token
	lhsGroup, rhsGroup bool
}

// ParseArchitecture checks the code of a diagram of its type, reporting what it finds to d.
func ParseArchitecture(d *syntax.Diagram, code syntax.Src) {
	p := &archParser{LangParser: syntax.LangParser{Parser: syntax.NewParser(d, code, architectureLexer(code.Text))}, code: code}
	p.Hint = p.archHint
	if syntax.RunParse(p.start) {
		p.populate()
	}
}

func (p *archParser) start() {
	for p.At("NEWLINE") {
		p.Take()
	}
	p.Expect("architecture-beta", "architecture-beta")
	for !p.At(syntax.TokEOF) {
		switch {
		case p.At("NEWLINE"):
			p.Take()
		case p.TitleAndAccessibilities():
		default:
			p.statement()
		}
	}
}

func (p *archParser) statement() {
	switch kw := p.Peek(0); kw.Kind {
	case "group", "service", "junction":
		p.Take()
		decl := archDecl{id: p.Expect("ID", "the "+kw.Kind+"'s id"), kind: kw.Kind}
		if kw.Kind == "service" && p.At("STRING") {
			p.Take()
		} else if kw.Kind != "junction" {
			p.Accept("ARCH_ICON")
		}
		if kw.Kind != "junction" {
			p.Accept("ARCH_TITLE")
		}
		if _, ok := p.Accept("in"); ok {
			decl.parent, decl.hasParent = p.Expect("ID", "the id of the group it is in"), true
		}
		p.Eol()
		if kw.Kind == "group" {
			p.groups = append(p.groups, decl)
		} else {
			p.nodes = append(p.nodes, decl)
		}
	case "align":
		p.Take()
		if !p.At("row", "column") {
			p.Fail("row or column after align")
		}
		p.Take()
		members := []syntax.Token{p.Expect("ID", "the services to align")}
		members = append(members, p.Expect("ID", "at least two services to align"))
		for p.At("ID") {
			members = append(members, p.Take())
		}
		p.Eol()
		p.alignings = append(p.alignings, members)
	case "ID":
		p.edge()
	default:
		p.Fail("group, service, junction, align or an edge (a:R -- L:b)")
	}
}

// edge is id[{group}]:DIR [<] -- [>] DIR:id[{group}], or with -[title]-.
func (p *archParser) edge() {
	e := archEdge{lhs: p.Take()}
	_, e.lhsGroup = p.Accept("ARROW_GROUP")
	p.Expect(":", "a colon and the side the edge leaves from (a:R -- L:b)")
	p.Expect("ARROW_DIRECTION", "the side the edge leaves from: L, R, T or B")
	p.Accept("ARROW_INTO")
	if _, ok := p.Accept("-"); ok {
		p.Expect("ARCH_TITLE", "the edge's [title] between - and -")
		p.Expect("-", "- after the edge's title")
	} else {
		p.Expect("--", "-- between the two ends of the edge")
	}
	p.Accept("ARROW_INTO")
	p.Expect("ARROW_DIRECTION", "the side the edge arrives at: L, R, T or B")
	p.Expect(":", "a colon before the id the edge goes to")
	e.rhs = p.Expect("ID", "the id the edge goes to")
	_, e.rhsGroup = p.Accept("ARROW_GROUP")
	p.Eol()
	p.edges = append(p.edges, e)
}

func (p *archParser) archHint(found syntax.Token, expected string) string {
	if found.Kind == "ARROW_DIRECTION" && strings.Contains(expected, "id") {
		return fmt.Sprintf("expected %s, found %q: an id may not start with L, R, T or B (Mermaid reads that letter as a side); rename it", expected, found.Val)
	}
	return p.LangHint(found, expected)
}

// populate replays architectureDb's checks in its order.
func (p *archParser) populate() {
	kinds, parents := map[string]string{}, map[string]string{}
	fail := func(at syntax.Token, msg string) {
		from, last := syntax.TokenSpan(p.code.Text, at)
		p.D.Report(syntax.RuleValue, p.code, from, last, msg+", which Mermaid refuses", "fix the ids; the message says which")
	}
	for _, decls := range [][]archDecl{p.groups, p.nodes} {
		for _, d := range decls {
			kind := "node"
			if d.kind == "group" {
				kind = "group"
			}
			switch {
			case kinds[d.id.Val] != "":
				fail(d.id, fmt.Sprintf("the %s id %s is already used by another %s", d.kind, syntax.QuoteShort(d.id.Val), kinds[d.id.Val]))
				return
			case d.hasParent && d.parent.Val == d.id.Val:
				fail(d.parent, fmt.Sprintf("%s %s is placed within itself", d.kind, syntax.QuoteShort(d.id.Val)))
				return
			case d.hasParent && kinds[d.parent.Val] == "":
				fail(d.parent, fmt.Sprintf("%s %s is in %s, which no group before it defines", d.kind, syntax.QuoteShort(d.id.Val), syntax.QuoteShort(d.parent.Val)))
				return
			case d.hasParent && kinds[d.parent.Val] == "node":
				fail(d.parent, fmt.Sprintf("%s %s is in %s, which is not a group", d.kind, syntax.QuoteShort(d.id.Val), syntax.QuoteShort(d.parent.Val)))
				return
			}
			kinds[d.id.Val] = kind
			if d.hasParent && kind == "node" {
				parents[d.id.Val] = d.parent.Val
			}
		}
	}
	for _, e := range p.edges {
		for _, end := range []syntax.Token{e.lhs, e.rhs} {
			switch kinds[end.Val] {
			case "":
				fail(end, fmt.Sprintf("the edge names %s, which no service, junction or group defines", syntax.QuoteShort(end.Val)))
				return
			case "group":
				fail(end, fmt.Sprintf("the edge names group %s; an edge joins services or junctions (use service{group} to leave a group)", syntax.QuoteShort(end.Val)))
				return
			}
		}
	}
	for _, e := range p.edges {
		l, r := parents[e.lhs.Val], parents[e.rhs.Val]
		if l == "" || r == "" || l != r {
			continue
		}
		if e.lhsGroup {
			fail(e.lhs, fmt.Sprintf("%s{group} leaves its group, but %s is in the same group %s", e.lhs.Val, syntax.QuoteShort(e.rhs.Val), syntax.QuoteShort(l)))
			return
		}
		if e.rhsGroup {
			fail(e.rhs, fmt.Sprintf("%s{group} leaves its group, but %s is in the same group %s", e.rhs.Val, syntax.QuoteShort(e.lhs.Val), syntax.QuoteShort(r)))
			return
		}
	}
	for _, members := range p.alignings {
		for _, m := range members {
			if kinds[m.Val] != "node" {
				fail(m, fmt.Sprintf("align names %s, which is not a service or junction", syntax.QuoteShort(m.Val)))
				return
			}
		}
	}
}
