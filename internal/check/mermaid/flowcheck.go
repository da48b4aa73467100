package mermaid

import (
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The checks Mermaid's flowchart code makes after parsing (flowDb.ts), and
// the references it silently gets wrong.

// maxEdges is Mermaid's default maxEdges.
const maxEdges = 500

func (p *flowParser) checkModel() {
	m := p.m
	for _, r := range m.refs {
		if m.nodes[r.id] || m.subgraphs[r.id] || m.edgeIDs[r.id] {
			continue
		}
		what := "creates a new node"
		if r.verb != "style" {
			what = "does nothing"
		}
		p.d.report(ruleUndefinedNode, p.code, r.at.from, r.at.to-1,
			fmt.Sprintf("%s names %s, which no statement of the flowchart draws; Mermaid %s", r.verb, quoteShort(r.id), what),
			"use the id of a node the diagram draws (ids are case-sensitive)"+nearestHint(r.id, m.nodes))
	}
	for _, c := range m.classUses {
		for _, n := range splitIDs(c) {
			if _, ok := m.classDefs[n.val]; ok || n.val == "default" {
				continue
			}
			p.d.report(ruleUndefinedClass, p.code, n.from, n.to-1,
				fmt.Sprintf("class %s is applied but no classDef of the diagram defines it; unless the page's CSS does, it adds no style", quoteShort(n.val)),
				"define it with classDef "+n.val+" fill:...,stroke:..., or fix the name"+nearestHintTokens(n.val, m.classDefs))
		}
	}
	if m.edges > maxEdges {
		p.d.report(ruleSizeLimit, p.code, 0, -1,
			fmt.Sprintf("the flowchart has %d links, over Mermaid's default maxEdges of %d, so Mermaid refuses it unless the site raises the limit", m.edges, maxEdges),
			"split the flowchart, or raise maxEdges in mermaid.initialize wherever it is rendered")
	}
}

// checkShapeData parses a node's @{ ... } as Mermaid does and checks its
// shape.
func (p *flowParser) checkShapeData(s shapeData) {
	doc, ok := parseMetadata(p.d, p.code, s)
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
		why := "Mermaid has no shape " + quoteShort(v)
		if v != strings.ToLower(v) || strings.Contains(v, "_") {
			why += " (shape names are lowercase, with - between words)"
		}
		p.d.report(ruleUnknownShape, p.code, s.from, s.to-1, why,
			"use one of Mermaid's shapes: rect, rounded, stadium, fr-rect, cyl, circle, diam, hex, lean-r, lean-l, trap-b, trap-t, dbl-circ, doc, docs, ..."+
				nearestHint(strings.ToLower(v), shapeSet))
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

// parseMetadata parses an @{ ... } block's YAML as Mermaid does (js-yaml,
// wrapped in braces when on one line), reporting an error in it.
func parseMetadata(d *diagram, code src, s shapeData) (*yaml.Node, bool) {
	text := s.text
	if !strings.Contains(text, "\n") {
		text = "{\n" + text + "\n}"
	} else {
		text += "\n"
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		_, msg := yamlErrorLine(err)
		if yamlStricter(msg, s.text) {
			return nil, false
		}
		d.report(ruleSyntax, code, s.from, s.to-1, "the @{ ... } data is not valid YAML: "+msg,
			"write it as key: value pairs separated by commas, quoting values that hold : or #: A@{ shape: rect, label: \"a: b\" }")
		return nil, false
	}
	if k := duplicateKey(&doc, 0); k != nil {
		d.report(ruleSyntax, code, s.from, s.to-1, fmt.Sprintf("the @{ ... } data has the key %q twice, which Mermaid's YAML reader refuses", k.Value),
			"keep one of the two keys")
		return nil, false
	}
	return &doc, true
}

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

// nearestHint suggests the known name closest to s, if one is close.
func nearestHint(s string, known map[string]bool) string {
	best, bestD := "", 3
	names := make([]string, 0, len(known))
	for k := range known {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if d := editDistance(strings.ToLower(s), strings.ToLower(k), bestD); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" || best == s {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", quoteShort(best))
}

func nearestHintTokens(s string, known map[string]token) string {
	m := make(map[string]bool, len(known))
	for k := range known {
		m[k] = true
	}
	return nearestHint(s, m)
}

// editDistance is the Levenshtein distance of a and b, or limit when it is
// at least limit (long strings are not compared).
func editDistance(a, b string, limit int) int {
	if len(a) > 64 || len(b) > 64 {
		return limit
	}
	if d := len(a) - len(b); d >= limit || -d >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], limit)
}

// yamlStricter reports a YAML error that go-yaml gives where Mermaid's
// js-yaml (YAML 1.2) may accept the text: plain scalars that start with
// ":" or hold "?" in a flow mapping.
func yamlStricter(msg, text string) bool {
	if !strings.Contains(msg, "did not find expected node content") &&
		!strings.Contains(msg, "did not find expected ',' or '}'") {
		return false
	}
	if strings.Contains(text, "?") {
		return true
	}
	for i := 0; i+1 < len(text); i++ {
		if text[i] == ':' && (i == 0 || text[i-1] == ' ' || text[i-1] == ',' || text[i-1] == ':') && text[i+1] != ' ' {
			return true
		}
	}
	return false
}
