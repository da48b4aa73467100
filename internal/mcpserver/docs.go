package mcpserver

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
)

//go:generate go test -run TestReadmeToolTables -update .
//go:generate go test -run TestInputSchemasGenerated -update .

// ToolTable is the README's table of one toolset's tools, generated from
// their declarations: each tool's name, its arguments in order, whether it
// only reads, and its description. A test holds README.md to it.
func ToolTable(toolset string) (string, error) {
	if _, err := resolveToolsets([]string{toolset}); err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("| tool | what it does |\n|---|---|\n")
	for _, t := range allTools() {
		if t.Toolset != toolset {
			continue
		}
		desc := t.Def.Description
		switch {
		case t.ReadOnly():
			desc += " *(read-only)*"
		case t.ReadOnlyVariant != nil:
			desc += " *(its read actions stay under `--read-only`)*"
		}
		fmt.Fprintf(&b, "| `%s(%s)` | %s |\n", t.Def.Name, strings.Join(argNames(t), ", "), strings.ReplaceAll(desc, "|", `\|`))
	}
	return b.String(), nil
}

// argNames are a tool's arguments in declaration order.
func argNames(t tool.Tool) []string {
	s := t.Schema()
	names := make([]string, 0, len(s.Properties))
	seen := map[string]bool{}
	for _, n := range s.PropertyOrder {
		if _, ok := s.Properties[n]; ok && !seen[n] {
			names, seen[n] = append(names, n), true
		}
	}
	var rest []string
	for n := range s.Properties {
		if !seen[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}
