package tool

import (
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/task"
)

var ClosedWorld = new(bool)

func Enum(field string, values ...any) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Properties[field].Enum = values }
}

func Bounds(field string, min, max float64) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Properties[field].Minimum, s.Properties[field].Maximum = &min, &max }
}

func Minimum(field string, min float64) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Properties[field].Minimum = &min }
}

// PageShape bounds offset and limit by the service's page rule.
func PageShape(r page.Rule) []func(*jsonschema.Schema) {
	return []func(*jsonschema.Schema){Minimum("offset", 0), Bounds("limit", 1, float64(r.Max))}
}

// ReadOnly marks a tool that changes nothing: --read-only keeps only these,
// and clients use the hint to run them without asking. Tools that write
// take theirs from the core's writeHints (mcpserver/annotations.go).
var ReadOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ClosedWorld}

var PriorityEnum = EnumValues(task.Priorities)

// EnumValues is a list of values as a schema's enum takes them.
func EnumValues[T ~string](ss []T) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
