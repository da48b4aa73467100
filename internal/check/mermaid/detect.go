package mermaid

import (
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/internal/check/mermaid/charts"
	"github.com/cairn-dev/cairn/internal/check/mermaid/class"
	"github.com/cairn-dev/cairn/internal/check/mermaid/er"
	"github.com/cairn-dev/cairn/internal/check/mermaid/flowchart"
	"github.com/cairn-dev/cairn/internal/check/mermaid/gantt"
	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"
	"github.com/cairn-dev/cairn/internal/check/mermaid/models"
	"github.com/cairn-dev/cairn/internal/check/mermaid/sequence"
	"github.com/cairn-dev/cairn/internal/check/mermaid/state"
)

// diagramTypes are Mermaid's detectors in the order it tries them
// (diagram-orchestration.ts): the first that matches decides.
// (Built on first use: an init would cost every cairn process.)
var diagramTypes = sync.OnceValue(func() []*syntax.DiagramType {
	return []*syntax.DiagramType{
		{ID: "error", Name: "error", Detect: func(t string) bool { return strings.ToLower(strings.TrimSpace(t)) == "error" }},
		{ID: "---", Name: "---", Keywords: []string{"---"}},
		{ID: "flowchart-elk", Name: "flowchart-elk", Keywords: []string{"flowchart-elk"}, Parse: flowchart.ParseFlowchart},
		{ID: "mindmap", Name: "mindmap", Keywords: []string{"mindmap"}, Parse: models.ParseMindmap},
		{ID: "architecture", Name: "architecture", Keywords: []string{"architecture"}, Parse: models.ParseArchitecture},
		{ID: "agentflow", Name: "agentflow-beta", Detect: wordPrefix("agentflow-beta")},
		{ID: "c4", Name: "C4", Detect: detectC4, Parse: models.ParseC4},
		{ID: "kanban", Name: "kanban", Keywords: []string{"kanban"}, Parse: models.ParseKanban},
		{ID: "classDiagram", Name: "classDiagram", Keywords: []string{"classDiagram"}, Parse: class.ParseClass},
		{ID: "er", Name: "erDiagram", Keywords: []string{"erDiagram"}, Parse: er.ParseER},
		{ID: "gantt", Name: "gantt", Keywords: []string{"gantt"}, Parse: gantt.ParseGantt},
		{ID: "info", Name: "info", Keywords: []string{"info"}, Parse: charts.ParseInfo},
		{ID: "pie", Name: "pie", Keywords: []string{"pie"}, Parse: charts.ParsePie},
		{ID: "requirement", Name: "requirementDiagram", Keywords: []string{"requirement"}, Parse: models.ParseRequirement},
		{ID: "sequence", Name: "sequenceDiagram", Keywords: []string{"sequenceDiagram"}, Parse: sequence.ParseSequence},
		{ID: "swimlanes", Name: "swimlane-beta", Detect: wordPrefix("swimlane-beta")},
		{ID: "flowchart-v2", Name: "flowchart", Keywords: []string{"graph", "flowchart"}, Parse: flowchart.ParseFlowchart},
		{ID: "timeline", Name: "timeline", Keywords: []string{"timeline"}, Parse: charts.ParseTimeline},
		{ID: "gitGraph", Name: "gitGraph", Keywords: []string{"gitGraph"}, Parse: models.ParseGitGraph},
		{ID: "stateDiagram", Name: "stateDiagram", Keywords: []string{"stateDiagram"}, Parse: state.ParseState},
		{ID: "journey", Name: "journey", Keywords: []string{"journey"}, Parse: charts.ParseJourney},
		{ID: "quadrantChart", Name: "quadrantChart", Keywords: []string{"quadrantChart"}, Parse: charts.ParseQuadrant},
		{ID: "sankey", Name: "sankey", Keywords: []string{"sankey"}, Parse: charts.ParseSankey},
		{ID: "packet", Name: "packet", Keywords: []string{"packet"}, Parse: charts.ParsePacket},
		{ID: "xychart", Name: "xychart", Keywords: []string{"xychart"}, Parse: charts.ParseXYChart},
		{ID: "block", Name: "block", Keywords: []string{"block"}},
		{ID: "eventmodeling", Name: "eventmodeling", Keywords: []string{"eventmodeling"}},
		{ID: "treeView", Name: "treeView-beta", Keywords: []string{"treeView-beta"}},
		{ID: "radar", Name: "radar-beta", Keywords: []string{"radar-beta"}},
		{ID: "ishikawa", Name: "ishikawa", Detect: detectIshikawa},
		{ID: "treemap", Name: "treemap", Keywords: []string{"treemap"}},
		{ID: "railroad", Name: "railroad-beta", Detect: foldPrefix("railroad-beta")},
		{ID: "railroadEbnf", Name: "railroad-ebnf-beta", Detect: foldPrefix("railroad-ebnf-beta")},
		{ID: "railroadAbnf", Name: "railroad-abnf-beta", Detect: foldPrefix("railroad-abnf-beta")},
		{ID: "railroadPeg", Name: "railroad-peg-beta", Detect: foldPrefix("railroad-peg-beta")},
		{ID: "venn", Name: "venn-beta", Keywords: []string{"venn-beta"}},
		{ID: "wardley", Name: "wardley-beta", Detect: foldPrefix("wardley-beta")},
		{ID: "cynefin", Name: "cynefin-beta", Detect: detectCynefin},
		{ID: "usecase", Name: "usecase-beta", Detect: detectUsecase},
	}
})

// detect finds the diagram type of cleaned (the text after front matter,
// directives and comment lines are removed), reporting text of no type.
func detect(d *syntax.Diagram, cleaned syntax.Src) (*syntax.DiagramType, bool) {
	t := detectionText(cleaned.Text)
	for _, typ := range diagramTypes() {
		if matches(typ, t) {
			if typ.ID == "---" {
				d.Report(syntax.RuleFrontMatter, cleaned, 0, 2, "the diagram starts with --- but has no closed front matter block",
					"open and close the front matter with unindented --- lines, each followed by a line break, or remove the ---")
				return nil, false
			}
			if typ.ID == "error" {
				return nil, false // Mermaid's own "error" diagram
			}
			return typ, true
		}
	}
	reportUnknown(d, cleaned, t)
	return nil, false
}

// matches reports whether t is of type typ.
func matches(typ *syntax.DiagramType, t string) bool {
	if typ.Detect != nil {
		return typ.Detect(t)
	}
	s := syntax.TrimJSLeft(t)
	for _, k := range typ.Keywords {
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
		s := syntax.TrimJSLeft(t)
		return syntax.HasWord(s, 0, kw, false)
	}
}

func foldPrefix(kw string) func(string) bool {
	return func(t string) bool {
		s := syntax.TrimJSLeft(t)
		return syntax.HasPrefixAt(s, 0, kw, true)
	}
}

// detectC4 is Mermaid's /^\s*C4Context|C4Container|C4Component|C4Dynamic|C4Deployment/,
// which finds all but the first anywhere in the text.
func detectC4(t string) bool {
	if strings.HasPrefix(syntax.TrimJSLeft(t), "C4Context") {
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
	s := syntax.TrimJSLeft(t)
	if !syntax.HasPrefixAt(s, 0, "ishikawa", true) {
		return false
	}
	i := len("ishikawa")
	if syntax.HasPrefixAt(s, i, "-beta", true) && syntax.WordEnds(s, i+5) {
		return true
	}
	return syntax.WordEnds(s, i)
}

func detectCynefin(t string) bool {
	s := syntax.TrimJSLeft(t)
	if !strings.HasPrefix(s, "cynefin-beta") {
		return false
	}
	r := s[len("cynefin-beta"):]
	return r == "" || r[0] == ':' || syntax.IsJSSpaceByte(r[0])
}

func detectUsecase(t string) bool {
	s := syntax.TrimJSLeft(t)
	if !strings.HasPrefix(s, "usecase-beta") {
		return false
	}
	r := s[len("usecase-beta"):]
	return r == "" || syntax.IsJSSpaceByte(r[0])
}

// reportUnknown reports text that starts with no diagram type, naming the
// types Mermaid knows.
func reportUnknown(d *syntax.Diagram, cleaned syntax.Src, t string) {
	if strings.TrimSpace(cleaned.Text) == "" {
		d.Report(syntax.RuleUnknownDiagram, d.Raw, 0, -1, "the diagram is empty: it has no diagram type",
			"start the diagram with one of "+knownKeywords())
		return
	}
	at := syntax.SkipJSSpace(cleaned.Text, 0)
	word := cleaned.Text[at:syntax.LineEnd(cleaned.Text, at)]
	if i := strings.IndexAny(word, " \t"); i >= 0 {
		word = word[:i]
	}
	msg := "the diagram's text after its comments is empty: it has no diagram type"
	if strings.TrimSpace(t) != "" {
		msg = "Mermaid knows no diagram type " + syntax.QuoteShort(word)
	}
	last := at + len(word) - 1
	d.Report(syntax.RuleUnknownDiagram, cleaned, at, last, msg,
		"start the diagram with one of "+knownKeywords())
}

func knownKeywords() string {
	return "flowchart, graph, sequenceDiagram, classDiagram, stateDiagram-v2, erDiagram, gantt, pie, journey, gitGraph, " +
		"mindmap, timeline, quadrantChart, xychart, requirementDiagram, C4Context, C4Container, C4Component, C4Dynamic, " +
		"C4Deployment, kanban, packet, radar-beta, treemap, architecture-beta, sankey, block, info, venn-beta, ishikawa, " +
		"wardley-beta, treeView-beta, eventmodeling, cynefin-beta, usecase-beta, railroad-beta"
}
