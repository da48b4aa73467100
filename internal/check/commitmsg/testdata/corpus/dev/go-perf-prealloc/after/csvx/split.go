package csvx

import "strings"

// Fields splits a line on commas, honoring double quotes.
func Fields(line string) []string {
	// One allocation for the result and a builder reused across fields:
	// string concatenation made this quadratic on long fields.
	out := make([]string, 0, strings.Count(line, ",")+1)
	var field strings.Builder
	field.Grow(len(line))
	quoted := false
	for _, r := range line {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ',' && !quoted:
			out = append(out, field.String())
			field.Reset()
		default:
			field.WriteRune(r)
		}
	}
	return append(out, field.String())
}
