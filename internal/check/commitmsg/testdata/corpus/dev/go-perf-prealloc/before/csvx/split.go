package csvx

// Fields splits a line on commas, honoring double quotes.
func Fields(line string) []string {
	var out []string
	field := ""
	quoted := false
	for _, r := range line {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ',' && !quoted:
			out = append(out, field)
			field = ""
		default:
			field += string(r)
		}
	}
	return append(out, field)
}
