package mermaid

import (
	"strings"
	"sync"
)

// diagramTypes are Mermaid's detectors in the order it tries them
// (diagram-orchestration.ts): the first that matches decides.
// (Built on first use: an init would cost every cairn process.)
var diagramTypes = sync.OnceValue(func() []*diagramType {
	return []*diagramType{
		{id: "error", name: "error", detect: func(t string) bool { return strings.ToLower(strings.TrimSpace(t)) == "error" }},
		{id: "---", name: "---", keywords: []string{"---"}},
		{id: "flowchart-elk", name: "flowchart-elk", keywords: []string{"flowchart-elk"}, parse: parseFlowchart},
		{id: "mindmap", name: "mindmap", keywords: []string{"mindmap"}, parse: parseMindmap},
		{id: "architecture", name: "architecture", keywords: []string{"architecture"}, parse: parseArchitecture},
		{id: "agentflow", name: "agentflow-beta", detect: wordPrefix("agentflow-beta")},
		{id: "c4", name: "C4", detect: detectC4, parse: parseC4},
		{id: "kanban", name: "kanban", keywords: []string{"kanban"}, parse: parseKanban},
		{id: "classDiagram", name: "classDiagram", keywords: []string{"classDiagram"}, parse: parseClass},
		{id: "er", name: "erDiagram", keywords: []string{"erDiagram"}, parse: parseER},
		{id: "gantt", name: "gantt", keywords: []string{"gantt"}, parse: parseGantt},
		{id: "info", name: "info", keywords: []string{"info"}, parse: parseInfo},
		{id: "pie", name: "pie", keywords: []string{"pie"}, parse: parsePie},
		{id: "requirement", name: "requirementDiagram", keywords: []string{"requirement"}, parse: parseRequirement},
		{id: "sequence", name: "sequenceDiagram", keywords: []string{"sequenceDiagram"}, parse: parseSequence},
		{id: "swimlanes", name: "swimlane-beta", detect: wordPrefix("swimlane-beta")},
		{id: "flowchart-v2", name: "flowchart", keywords: []string{"graph", "flowchart"}, parse: parseFlowchart},
		{id: "timeline", name: "timeline", keywords: []string{"timeline"}, parse: parseTimeline},
		{id: "gitGraph", name: "gitGraph", keywords: []string{"gitGraph"}, parse: parseGitGraph},
		{id: "stateDiagram", name: "stateDiagram", keywords: []string{"stateDiagram"}, parse: parseState},
		{id: "journey", name: "journey", keywords: []string{"journey"}, parse: parseJourney},
		{id: "quadrantChart", name: "quadrantChart", keywords: []string{"quadrantChart"}, parse: parseQuadrant},
		{id: "sankey", name: "sankey", keywords: []string{"sankey"}, parse: parseSankey},
		{id: "packet", name: "packet", keywords: []string{"packet"}, parse: parsePacket},
		{id: "xychart", name: "xychart", keywords: []string{"xychart"}, parse: parseXYChart},
		{id: "block", name: "block", keywords: []string{"block"}},
		{id: "eventmodeling", name: "eventmodeling", keywords: []string{"eventmodeling"}},
		{id: "treeView", name: "treeView-beta", keywords: []string{"treeView-beta"}},
		{id: "radar", name: "radar-beta", keywords: []string{"radar-beta"}},
		{id: "ishikawa", name: "ishikawa", detect: detectIshikawa},
		{id: "treemap", name: "treemap", keywords: []string{"treemap"}},
		{id: "railroad", name: "railroad-beta", detect: foldPrefix("railroad-beta")},
		{id: "railroadEbnf", name: "railroad-ebnf-beta", detect: foldPrefix("railroad-ebnf-beta")},
		{id: "railroadAbnf", name: "railroad-abnf-beta", detect: foldPrefix("railroad-abnf-beta")},
		{id: "railroadPeg", name: "railroad-peg-beta", detect: foldPrefix("railroad-peg-beta")},
		{id: "venn", name: "venn-beta", keywords: []string{"venn-beta"}},
		{id: "wardley", name: "wardley-beta", detect: foldPrefix("wardley-beta")},
		{id: "cynefin", name: "cynefin-beta", detect: detectCynefin},
		{id: "usecase", name: "usecase-beta", detect: detectUsecase},
	}
})

// detect finds the diagram type of cleaned (the text after front matter,
// directives and comment lines are removed), reporting text of no type.
func detect(d *diagram, cleaned src) (*diagramType, bool) {
	t := detectionText(cleaned.text)
	for _, typ := range diagramTypes() {
		if typ.matches(t) {
			if typ.id == "---" {
				d.report(ruleFrontMatter, cleaned, 0, 2, "the diagram starts with --- but has no closed front matter block",
					"open and close the front matter with unindented --- lines, each followed by a line break, or remove the ---")
				return nil, false
			}
			if typ.id == "error" {
				return nil, false // Mermaid's own "error" diagram
			}
			return typ, true
		}
	}
	reportUnknown(d, cleaned, t)
	return nil, false
}

func (typ *diagramType) matches(t string) bool {
	if typ.detect != nil {
		return typ.detect(t)
	}
	s := trimJSLeft(t)
	for _, k := range typ.keywords {
		if strings.HasPrefix(s, k) {
			return true
		}
	}
	return false
}

// detectionText is what Mermaid's detectType tests: the text with each
// %% comment to the end of its line (and the white space before it)
// removed.
func detectionText(t string) string {
	if !strings.Contains(t, "%%") {
		return t
	}
	var b strings.Builder
	for {
		i := strings.Index(t, "%%")
		if i < 0 {
			break
		}
		nl := strings.IndexByte(t[i:], '\n')
		if nl < 0 {
			break
		}
		head := strings.TrimRight(t[:i], " \t\n\v\f\r")
		b.WriteString(head)
		b.WriteByte('\n')
		t = t[i+nl+1:]
	}
	b.WriteString(t)
	return b.String()
}

func wordPrefix(kw string) func(string) bool {
	return func(t string) bool {
		s := trimJSLeft(t)
		return hasWord(s, 0, kw, false)
	}
}

func foldPrefix(kw string) func(string) bool {
	return func(t string) bool {
		s := trimJSLeft(t)
		return hasPrefixAt(s, 0, kw, true)
	}
}

// detectC4 is Mermaid's /^\s*C4Context|C4Container|C4Component|C4Dynamic|C4Deployment/,
// which finds all but the first anywhere in the text.
func detectC4(t string) bool {
	if strings.HasPrefix(trimJSLeft(t), "C4Context") {
		return true
	}
	for _, k := range []string{"C4Container", "C4Component", "C4Dynamic", "C4Deployment"} {
		if strings.Contains(t, k) {
			return true
		}
	}
	return false
}

func detectIshikawa(t string) bool {
	s := trimJSLeft(t)
	if !hasPrefixAt(s, 0, "ishikawa", true) {
		return false
	}
	i := len("ishikawa")
	if hasPrefixAt(s, i, "-beta", true) && wordEnds(s, i+5) {
		return true
	}
	return wordEnds(s, i)
}

func detectCynefin(t string) bool {
	s := trimJSLeft(t)
	if !strings.HasPrefix(s, "cynefin-beta") {
		return false
	}
	r := s[len("cynefin-beta"):]
	return r == "" || r[0] == ':' || isJSSpaceByte(r[0])
}

func detectUsecase(t string) bool {
	s := trimJSLeft(t)
	if !strings.HasPrefix(s, "usecase-beta") {
		return false
	}
	r := s[len("usecase-beta"):]
	return r == "" || isJSSpaceByte(r[0])
}

// reportUnknown reports text that starts with no diagram type, naming the
// types Mermaid knows.
func reportUnknown(d *diagram, cleaned src, t string) {
	if strings.TrimSpace(cleaned.text) == "" {
		d.report(ruleUnknownDiagram, d.raw, 0, -1, "the diagram is empty: it has no diagram type",
			"start the diagram with one of "+knownKeywords())
		return
	}
	at := skipJSSpace(cleaned.text, 0)
	word := cleaned.text[at:lineEnd(cleaned.text, at)]
	if i := strings.IndexAny(word, " \t"); i >= 0 {
		word = word[:i]
	}
	msg := "the diagram's text after its comments is empty: it has no diagram type"
	if strings.TrimSpace(t) != "" {
		msg = "Mermaid knows no diagram type " + quoteShort(word)
	}
	last := at + len(word) - 1
	d.report(ruleUnknownDiagram, cleaned, at, last, msg,
		"start the diagram with one of "+knownKeywords())
}

func knownKeywords() string {
	return "flowchart, graph, sequenceDiagram, classDiagram, stateDiagram-v2, erDiagram, gantt, pie, journey, gitGraph, " +
		"mindmap, timeline, quadrantChart, xychart, requirementDiagram, C4Context, C4Container, C4Component, C4Dynamic, " +
		"C4Deployment, kanban, packet, radar-beta, treemap, architecture-beta, sankey, block, info, venn-beta, ishikawa, " +
		"wardley-beta, treeView-beta, eventmodeling, cynefin-beta, usecase-beta, railroad-beta"
}
