package syntax

import (
	"cmp"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/cairn-dev/cairn/internal/check"
)

// FileCheck is one file being checked.
type FileCheck struct {
	Path      string
	Lines     lines
	Findings  []check.Finding
	Unchecked []Unchecked
}

// Unchecked is a diagram of a type this checker does not parse.
type Unchecked struct{ Typ, Where string }

// DiagramType is a diagram type Mermaid knows, as its detector finds it.
type DiagramType struct {
	ID   string // Mermaid's id for it: "flowchart-v2"
	Name string // the keyword people write: "flowchart"
	// Detect reports whether text (comments and white space at its start
	// skipped) is of this type; nil: it starts with one of keywords.
	Detect   func(text string) bool
	Keywords []string
	// Parse checks the diagram's code; nil: this package does not parse
	// the type, and says so.
	Parse func(d *Diagram, code Src)
}

// Diagram is one diagram being checked.
type Diagram struct {
	File *FileCheck
	Raw  Src
	Typ  *DiagramType
	// FrontMatter and Inits are the diagram's settings: its front matter
	// and the JSON of its init directives.
	FrontMatter *yaml.Node
	Inits       []map[string]any
}

// Report adds a finding of rule at s's offsets from to last (inclusive; no
// span when last < from).
func (d *Diagram) Report(rule string, s Src, from, last int, msg, fix string) {
	d.ReportSev("", rule, s, from, last, msg, fix)
}

// ReportSev is report with a severity other than the rule's.
func (d *Diagram) ReportSev(sev check.Severity, rule string, s Src, from, last int, msg, fix string) {
	r := ruleByID[rule]
	f := check.Finding{Rule: rule, Severity: cmp.Or(sev, r.Severity), File: d.File.Path,
		Message: msg, Fix: fix, Link: check.RuleLink(r)}
	f.Line, f.Col = d.File.Lines.Pos(s.FileOff(from))
	if last >= from {
		f.EndLine, f.EndCol = d.File.Lines.Pos(s.FileOff(last))
	}
	d.File.Findings = append(d.File.Findings, f)
}

// Setting returns a diagram type's setting (config.<section>.<key>), from
// an init directive or the front matter's config, as Mermaid merges them
// (directives win).
func (d *Diagram) Setting(section, key string) (string, bool) {
	for i := len(d.Inits) - 1; i >= 0; i-- {
		for _, top := range []string{section, "config"} {
			if m, ok := d.Inits[i][top].(map[string]any); ok {
				if v, ok := m[key]; ok {
					return fmt.Sprint(v), true
				}
			}
		}
	}
	return YamlPath(d.FrontMatter, "config", section, key)
}

// YamlPath looks up a scalar by mapping keys.
func YamlPath(n *yaml.Node, keys ...string) (string, bool) {
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
