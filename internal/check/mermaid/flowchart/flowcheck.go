package flowchart

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"

	"go.yaml.in/yaml/v3"
)

// The checks Mermaid's flowchart code makes after parsing (flowDb.ts), and
// the references it silently gets wrong.

// maxEdges is Mermaid's default maxEdges.
const maxEdges = 500

func (p *flowParser) checkModel() {
	m := p.m
	for _, r := range m.refs {
		if m.nodes[r.ID] || m.subgraphs[r.ID] || m.edgeIDs[r.ID] {
			continue
		}
		what := "creates a new node"
		if r.Verb != "style" {
			what = "does nothing"
		}
		p.D.Report(syntax.RuleUndefinedNode, p.code, r.At.From, r.At.To-1,
			fmt.Sprintf("%s names %s, which no statement of the flowchart draws; Mermaid %s", r.Verb, syntax.QuoteShort(r.ID), what),
			"use the id of a node the diagram draws (ids are case-sensitive)"+syntax.NearestHint(r.ID, m.nodes))
	}
	for _, c := range m.classUses {
		for _, n := range syntax.SplitIDs(c) {
			if _, ok := m.classDefs[n.Val]; ok || n.Val == "default" {
				continue
			}
			p.D.Report(syntax.RuleUndefinedClass, p.code, n.From, n.To-1,
				fmt.Sprintf("class %s is applied but no classDef of the diagram defines it; unless the page's CSS does, it adds no style", syntax.QuoteShort(n.Val)),
				"define it with classDef "+n.Val+" fill:...,stroke:..., or fix the name"+syntax.NearestHintTokens(n.Val, m.classDefs))
		}
	}
	if m.edges > maxEdges {
		p.D.Report(syntax.RuleSizeLimit, p.code, 0, -1,
			fmt.Sprintf("the flowchart has %d links, over Mermaid's default maxEdges of %d, so Mermaid refuses it unless the site raises the limit", m.edges, maxEdges),
			"split the flowchart, or raise maxEdges in mermaid.initialize wherever it is rendered")
	}
}

// checkShapeData parses a node's @{ ... } as Mermaid does and checks its
// shape.
func (p *flowParser) checkShapeData(s syntax.ShapeData) {
	doc, ok := syntax.ParseMetadata(p.D, p.code, s)
	if !ok || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return
	}
	root := doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value != "shape" {
			continue
		}
		val := root.Content[i+1]
		v := val.Value
		if val.Kind != yaml.ScalarNode || val.Tag == "!!null" || validShape(v) {
			return
		}
		why := "Mermaid has no shape " + syntax.QuoteShort(v)
		if v != strings.ToLower(v) || strings.Contains(v, "_") {
			why += " (shape names are lowercase, with - between words)"
		}
		p.D.Report(syntax.RuleUnknownShape, p.code, s.From, s.To-1, why,
			"use one of Mermaid's shapes: rect, rounded, stadium, fr-rect, cyl, circle, diam, hex, lean-r, lean-l, trap-b, trap-t, dbl-circ, doc, docs, ..."+
				syntax.NearestHint(strings.ToLower(v), shapeSet))
	}
}

var shapeSet = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range shapeNames {
		m[s] = true
	}
	return m
}()

func validShape(s string) bool { return shapeSet[s] }

// shapeNames are the names @{ shape: ... } accepts: Mermaid's shapes and
// their aliases, in lowercase.
var shapeNames = []string{
	"anchor", "bang", "bolt", "bow-rect", "bow-tie-rectangle", "bpmn-activity", "bpmn-annotation",
	"bpmn-boundary", "bpmn-data", "bpmn-data-store", "bpmn-end", "bpmn-gateway", "bpmn-intermediate",
	"bpmn-start", "brace", "brace-l", "brace-r", "braces", "browser", "bucket", "card", "choice",
	"circ", "circle", "cloud", "collate", "com-link", "comment", "composite", "console", "cross-circ",
	"crossed-circle", "curv-trap", "curved-trapezoid", "cyl", "cylinder", "das", "data-store",
	"database", "datastore", "db", "dbl-circ", "decision", "delay", "diam", "diamond", "directory",
	"disk", "display", "div-proc", "div-rect", "divided-process", "divided-rectangle", "doc", "docs",
	"document", "documents", "double-circle", "doublecircle", "event", "extract", "f-circ",
	"filled-circle", "flag", "flip-tri", "flipped-triangle", "folder", "fork", "fr-circ", "fr-rect",
	"framed-circle", "framed-rectangle", "h-cyl", "half-rounded-rectangle", "hex", "hexagon",
	"horizontal-cylinder", "hourglass", "icon", "in-out", "internal-storage", "inv-trapezoid", "join",
	"junction", "lean-l", "lean-left", "lean-r", "lean-right", "lightning-bolt", "lin-cyl", "lin-doc",
	"lin-proc", "lin-rect", "lined-cylinder", "lined-document", "lined-process", "lined-rectangle",
	"loop-limit", "manual", "manual-file", "manual-input", "notch-pent", "notch-rect",
	"notched-pentagon", "notched-rectangle", "note", "odd", "out-in", "paper-tape", "person", "pill",
	"prepare", "priority", "proc", "process", "processes", "procs", "question", "rect", "rectangle",
	"rounded", "shaded-process", "sl-rect", "sloped-rectangle", "sm-circ", "small-circle", "st-doc",
	"st-rect", "stacked-document", "stacked-rectangle", "stadium", "start", "state", "stop",
	"stored-data", "subproc", "subprocess", "subroutine", "summary", "tag-doc", "tag-proc",
	"tag-rect", "tagged-document", "tagged-process", "tagged-rectangle", "terminal", "text", "trap-b",
	"trap-t", "trapezoid", "trapezoid-bottom", "trapezoid-top", "tri", "triangle", "win-pane",
	"window-pane",
}
