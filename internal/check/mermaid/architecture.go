package mermaid

import (
	"fmt"
	"strings"
)

// Architecture diagrams (architecture.langium): groups, services,
// junctions, edges such as db:L -- R:api, and align rows; then the checks
// architectureDb makes, which adds all groups first, then services,
// junctions, edges and alignments: an id used twice, a parent that is not
// a group, an edge end that is not a service or junction.

func architectureLexer(t string) *langLexer {
	keywords := []string{"architecture-beta", "group", "service", "junction", "in", "align", "row", "column", ":", "--", "-"}
	terms := append([]langTerm{
		{name: "ARROW_DIRECTION", match: charIn("LRTB")},
		{name: "ARROW_GROUP", match: lit("{group}", false)},
		{name: "ARROW_INTO", match: charIn("<>")},
		{name: "ARCH_ICON", match: archIcon},
		{name: "ARCH_TITLE", match: archTitle},
	}, commonTerms("ACC_DESCR", "ACC_TITLE", "TITLE", "STRING", "ID", "NEWLINE")...)
	return newLangLexer(t, keywords, []string{"architecture"}, terms, matchID)
}

// archIcon is \([\w-:]+\).
func archIcon(t string, i int) int {
	if t[i] != '(' {
		return -1
	}
	j := i + 1
	for j < len(t) && (isWordByte(t[j]) || t[j] == '-' || t[j] == ':') {
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
	if e := matchString(t, i+1); e > 0 && e < len(t) && t[e] == ']' {
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
	langParser
	code      src
	groups    []archDecl
	nodes     []archDecl
	edges     []archEdge
	alignings [][]token
}

type archDecl struct {
	id, parent token
	hasParent  bool
	kind       string
}

type archEdge struct {
	lhs, rhs           token
	lhsGroup, rhsGroup bool
}

func parseArchitecture(d *diagram, code src) {
	p := &archParser{langParser: langParser{newParser(d, code, architectureLexer(code.text))}, code: code}
	p.hint = p.archHint
	if runParse(p.start) {
		p.populate()
	}
}

func (p *archParser) start() {
	for p.at("NEWLINE") {
		p.take()
	}
	p.expect("architecture-beta", "architecture-beta")
	for !p.at(tokEOF) {
		switch {
		case p.at("NEWLINE"):
			p.take()
		case p.titleAndAccessibilities():
		default:
			p.statement()
		}
	}
}

func (p *archParser) statement() {
	switch kw := p.peek(0); kw.kind {
	case "group", "service", "junction":
		p.take()
		decl := archDecl{id: p.expect("ID", "the "+kw.kind+"'s id"), kind: kw.kind}
		if kw.kind == "service" && p.at("STRING") {
			p.take()
		} else if kw.kind != "junction" {
			p.accept("ARCH_ICON")
		}
		if kw.kind != "junction" {
			p.accept("ARCH_TITLE")
		}
		if _, ok := p.accept("in"); ok {
			decl.parent, decl.hasParent = p.expect("ID", "the id of the group it is in"), true
		}
		p.eol()
		if kw.kind == "group" {
			p.groups = append(p.groups, decl)
		} else {
			p.nodes = append(p.nodes, decl)
		}
	case "align":
		p.take()
		if !p.at("row", "column") {
			p.fail("row or column after align")
		}
		p.take()
		members := []token{p.expect("ID", "the services to align")}
		members = append(members, p.expect("ID", "at least two services to align"))
		for p.at("ID") {
			members = append(members, p.take())
		}
		p.eol()
		p.alignings = append(p.alignings, members)
	case "ID":
		p.edge()
	default:
		p.fail("group, service, junction, align or an edge (a:R -- L:b)")
	}
}

// edge is id[{group}]:DIR [<] -- [>] DIR:id[{group}], or with -[title]-.
func (p *archParser) edge() {
	e := archEdge{lhs: p.take()}
	_, e.lhsGroup = p.accept("ARROW_GROUP")
	p.expect(":", "a colon and the side the edge leaves from (a:R -- L:b)")
	p.expect("ARROW_DIRECTION", "the side the edge leaves from: L, R, T or B")
	p.accept("ARROW_INTO")
	if _, ok := p.accept("-"); ok {
		p.expect("ARCH_TITLE", "the edge's [title] between - and -")
		p.expect("-", "- after the edge's title")
	} else {
		p.expect("--", "-- between the two ends of the edge")
	}
	p.accept("ARROW_INTO")
	p.expect("ARROW_DIRECTION", "the side the edge arrives at: L, R, T or B")
	p.expect(":", "a colon before the id the edge goes to")
	e.rhs = p.expect("ID", "the id the edge goes to")
	_, e.rhsGroup = p.accept("ARROW_GROUP")
	p.eol()
	p.edges = append(p.edges, e)
}

func (p *archParser) archHint(found token, expected string) string {
	if found.kind == "ARROW_DIRECTION" && strings.Contains(expected, "id") {
		return fmt.Sprintf("expected %s, found %q: an id may not start with L, R, T or B (Mermaid reads that letter as a side); rename it", expected, found.val)
	}
	return p.langHint(found, expected)
}

// populate replays architectureDb's checks in its order.
func (p *archParser) populate() {
	kinds, parents := map[string]string{}, map[string]string{}
	fail := func(at token, msg string) {
		from, last := tokenSpan(p.code.text, at)
		p.d.report(ruleValue, p.code, from, last, msg+", which Mermaid refuses", "fix the ids; the message says which")
	}
	for _, decls := range [][]archDecl{p.groups, p.nodes} {
		for _, d := range decls {
			kind := "node"
			if d.kind == "group" {
				kind = "group"
			}
			switch {
			case kinds[d.id.val] != "":
				fail(d.id, fmt.Sprintf("the %s id %s is already used by another %s", d.kind, quoteShort(d.id.val), kinds[d.id.val]))
				return
			case d.hasParent && d.parent.val == d.id.val:
				fail(d.parent, fmt.Sprintf("%s %s is placed within itself", d.kind, quoteShort(d.id.val)))
				return
			case d.hasParent && kinds[d.parent.val] == "":
				fail(d.parent, fmt.Sprintf("%s %s is in %s, which no group before it defines", d.kind, quoteShort(d.id.val), quoteShort(d.parent.val)))
				return
			case d.hasParent && kinds[d.parent.val] == "node":
				fail(d.parent, fmt.Sprintf("%s %s is in %s, which is not a group", d.kind, quoteShort(d.id.val), quoteShort(d.parent.val)))
				return
			}
			kinds[d.id.val] = kind
			if d.hasParent && kind == "node" {
				parents[d.id.val] = d.parent.val
			}
		}
	}
	for _, e := range p.edges {
		for _, end := range []token{e.lhs, e.rhs} {
			switch kinds[end.val] {
			case "":
				fail(end, fmt.Sprintf("the edge names %s, which no service, junction or group defines", quoteShort(end.val)))
				return
			case "group":
				fail(end, fmt.Sprintf("the edge names group %s; an edge joins services or junctions (use service{group} to leave a group)", quoteShort(end.val)))
				return
			}
		}
	}
	for _, e := range p.edges {
		l, r := parents[e.lhs.val], parents[e.rhs.val]
		if l == "" || r == "" || l != r {
			continue
		}
		if e.lhsGroup {
			fail(e.lhs, fmt.Sprintf("%s{group} leaves its group, but %s is in the same group %s", e.lhs.val, quoteShort(e.rhs.val), quoteShort(l)))
			return
		}
		if e.rhsGroup {
			fail(e.rhs, fmt.Sprintf("%s{group} leaves its group, but %s is in the same group %s", e.rhs.val, quoteShort(e.lhs.val), quoteShort(r)))
			return
		}
	}
	for _, members := range p.alignings {
		for _, m := range members {
			if kinds[m.val] != "node" {
				fail(m, fmt.Sprintf("align names %s, which is not a service or junction", quoteShort(m.val)))
				return
			}
		}
	}
}
