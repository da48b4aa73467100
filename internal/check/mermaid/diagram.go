package mermaid

import (
	"cmp"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/cairn-dev/cairn/internal/check"
)

// fileCheck is one file being checked.
type fileCheck struct {
	path      string
	lines     lines
	findings  []check.Finding
	unchecked []unchecked
}

// unchecked is a diagram of a type this checker does not parse.
type unchecked struct{ typ, where string }

// diagramType is a diagram type Mermaid knows, as its detector finds it.
type diagramType struct {
	id   string // Mermaid's id for it: "flowchart-v2"
	name string // the keyword people write: "flowchart"
	// detect reports whether text (comments and white space at its start
	// skipped) is of this type; nil: it starts with one of keywords.
	detect   func(text string) bool
	keywords []string
	// parse checks the diagram's code; nil: this package does not parse
	// the type, and says so.
	parse func(d *diagram, code src)
}

// diagram is one diagram being checked.
type diagram struct {
	fc  *fileCheck
	raw src
	typ *diagramType
	// frontMatter and inits are the diagram's settings: its front matter
	// and the JSON of its init directives.
	frontMatter *yaml.Node
	inits       []map[string]any
}

// report adds a finding of rule at s's offsets from to last (inclusive; no
// span when last < from).
func (d *diagram) report(rule string, s src, from, last int, msg, fix string) {
	d.reportSev("", rule, s, from, last, msg, fix)
}

// reportSev is report with a severity other than the rule's.
func (d *diagram) reportSev(sev check.Severity, rule string, s src, from, last int, msg, fix string) {
	r := ruleByID[rule]
	f := check.Finding{Rule: rule, Severity: cmp.Or(sev, r.Severity), File: d.fc.path,
		Message: msg, Fix: fix, Link: check.RuleLink(r)}
	f.Line, f.Col = d.fc.lines.pos(s.fileOff(from))
	if last >= from {
		f.EndLine, f.EndCol = d.fc.lines.pos(s.fileOff(last))
	}
	d.fc.findings = append(d.fc.findings, f)
}

// setting returns a diagram type's setting (config.<section>.<key>), from
// an init directive or the front matter's config, as Mermaid merges them
// (directives win).
func (d *diagram) setting(section, key string) (string, bool) {
	for i := len(d.inits) - 1; i >= 0; i-- {
		for _, top := range []string{section, "config"} {
			if m, ok := d.inits[i][top].(map[string]any); ok {
				if v, ok := m[key]; ok {
					return fmt.Sprint(v), true
				}
			}
		}
	}
	return yamlPath(d.frontMatter, "config", section, key)
}

// yamlPath looks up a scalar by mapping keys.
func yamlPath(n *yaml.Node, keys ...string) (string, bool) {
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return "", false
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	if n == nil || n.Kind != yaml.ScalarNode {
		return "", false
	}
	return n.Value, true
}
