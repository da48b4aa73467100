// Package mermaid checks Mermaid diagrams: .mmd and .mermaid files, and the
// ```mermaid blocks of Markdown files (.md, .mdx, .markdown), each block
// with the line numbers of the Markdown file.
//
// There is no Go parser for Mermaid, so this package has its own: for each
// diagram type a lexer and a recursive-descent parser written from
// Mermaid's grammars (the Jison grammars of the mermaid package and the
// Langium grammars of @mermaid-js/parser, version 12.3), following their
// lexer states and rule order so that what Mermaid accepts is accepted and
// what it refuses is refused at the same token. Before a parser runs, the
// text goes through what Mermaid does to it first: YAML front matter
// (checked as YAML), %%{init: ...}%% directives (checked as JSON), %%
// comment lines, entity encoding. Type detection follows Mermaid's
// detectors in their order.
//
// Checked diagram types: flowchart/graph (and flowchart-elk),
// sequenceDiagram, classDiagram, stateDiagram(-v2), erDiagram, gantt, pie,
// journey, gitGraph, mindmap, timeline, quadrantChart, xychart(-beta),
// requirementDiagram, C4 (C4Context, C4Container, C4Component, C4Dynamic,
// C4Deployment), kanban, packet(-beta), sankey(-beta), architecture-beta and
// info. Other types Mermaid knows (block, radar, treemap, venn, ishikawa,
// wardley, treeView, eventmodeling, cynefin, usecase, railroad, agentflow,
// swimlane) are reported in the result's notes as not checked, never
// passed silently; text of no type Mermaid knows is a finding that names
// the types it knows.
//
// Beyond syntax, it reports what Mermaid's own code refuses after parsing
// (an unknown @{ shape }, a linkStyle index past the last link, a negative
// pie value, a gitGraph checkout of a branch that does not exist, a
// sequence deactivation with no activation, a second mind map root, a
// packet field out of order, more than 500 flowchart links) and what
// renders wrongly without an error (a gantt task after an id that no task
// has, a date that does not match dateFormat, read with dayjs's strict
// rules as Mermaid reads it, a style or class on a node the diagram never
// draws, an undefined classDef, a journey score that is not a number).
//
// Not checked: the meaning of config values, CSS in style statements,
// Markdown in labels, icon names, and whether a diagram lays out well.
// Front matter and @{ } data are read with go-yaml, which in rare cases
// accepts or refuses YAML that Mermaid's js-yaml reads the other way; a
// gantt date outside dateFormat is an error only where JavaScript's own
// date reading surely fails too, and a warning otherwise.
//
// Params: none.
package mermaid

import (
	"cmp"
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Checker checks Mermaid diagrams.
type Checker struct{}

// New returns the Mermaid checker.
func New() *Checker { return &Checker{} }

// Name is "mermaid".
func (*Checker) Name() string { return "mermaid" }

// Wants takes Mermaid files and Markdown files (which may hold ```mermaid
// blocks past the first bytes; a file without any gives no finding).
func (*Checker) Wants(p string, _ []byte) bool { return isMermaid(p) || isMarkdown(p) }

// Rules lists the checker's rules.
func (*Checker) Rules() []check.Rule { return syntax.Rules }

// Check checks each file's diagrams.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	for k := range in.Params {
		return check.Result{}, &problem.FieldError{Field: "params." + k, Problem: "is not a mermaid option",
			Fix: "the mermaid check takes no options; remove it"}
	}
	var res check.Result
	skipped := map[string][]string{}
	for _, f := range in.Files {
		if err := ctx.Err(); err != nil {
			return check.Result{}, err
		}
		fc := checkFile(f.Path, string(f.Content))
		res.Findings = append(res.Findings, fc.Findings...)
		for _, u := range fc.Unchecked {
			skipped[u.Typ] = append(skipped[u.Typ], u.Where)
		}
	}
	res.Notes = uncheckedNotes(skipped)
	return res, nil
}

// uncheckedNotes says which diagrams were of a type this checker does not
// parse.
func uncheckedNotes(skipped map[string][]string) []string {
	types := make([]string, 0, len(skipped))
	for t := range skipped {
		types = append(types, t)
	}
	sort.Strings(types)
	var notes []string
	for _, t := range types {
		where := skipped[t]
		more := ""
		if len(where) > 5 {
			more = fmt.Sprintf(" and %d more", len(where)-5)
			where = where[:5]
		}
		notes = append(notes, fmt.Sprintf("mermaid: %d %s diagram(s) not checked (this check does not parse %s yet): %s%s",
			len(skipped[t]), t, t, strings.Join(where, ", "), more))
	}
	return notes
}

// checkFile checks a file's diagrams: the whole file, or a Markdown file's
// mermaid blocks.
func checkFile(p, content string) *syntax.FileCheck {
	fc := &syntax.FileCheck{Path: p, Lines: syntax.NewLines(content)}
	if isMarkdown(p) {
		for _, b := range mermaidBlocks(content) {
			checkDiagram(fc, b)
		}
		return fc
	}
	checkDiagram(fc, syntax.NewSrc(content, 0))
	return fc
}

// checkDiagram checks one diagram of fc.
func checkDiagram(fc *syntax.FileCheck, raw syntax.Src) {
	d := &syntax.Diagram{File: fc, Raw: raw}
	p := prepare(d, raw)
	d.FrontMatter = p.frontMatter
	typ, ok := detect(d, p.cleaned)
	if !ok {
		return
	}
	d.Typ = typ
	checkSize(d, p.cleaned)
	if typ.Parse == nil {
		line, _ := fc.Lines.Pos(p.cleaned.FileOff(0))
		fc.Unchecked = append(fc.Unchecked, syntax.Unchecked{Typ: typ.Name, Where: fmt.Sprintf("%s:%d", cmp.Or(fc.Path, "<inline>"), line)})
		return
	}
	typ.Parse(d, p.code)
}

// checkSize reports a diagram over Mermaid's default maxTextSize, which
// it measures in UTF-16 code units on the cleaned text.
func checkSize(d *syntax.Diagram, cleaned syntax.Src) {
	n := 0
	for _, r := range cleaned.Text {
		n++
		if r > 0xffff {
			n++
		}
	}
	if n <= maxTextSize {
		return
	}
	d.Report(syntax.RuleSizeLimit, cleaned, 0, -1,
		fmt.Sprintf("the diagram is %d characters long, over Mermaid's default maxTextSize of %d, so Mermaid shows an error instead unless the site raises the limit", n, maxTextSize),
		"split the diagram, or raise maxTextSize in mermaid.initialize wherever it is rendered")
}

// maxTextSize is Mermaid's default maxTextSize.
const maxTextSize = 50000
