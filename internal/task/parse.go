package task

import (
	"strings"

	"github.com/cairn-dev/cairn/internal/problem"
)

// ParseStatuses reads statuses as a caller spells them (any case).
func ParseStatuses(field string, in []string) ([]Status, error) {
	var out []Status
	for _, s := range in {
		st := Status(strings.ToLower(strings.TrimSpace(s)))
		if !st.Valid() {
			return nil, &problem.FieldError{Field: field, Problem: "has " + problem.Quote(s), Fix: "use " + oneOf(Statuses)}
		}
		out = append(out, st)
	}
	return out, nil
}

// ParsePriorities reads priorities as a caller spells them (any case).
func ParsePriorities(field string, in []string) ([]Priority, error) {
	var out []Priority
	for _, s := range in {
		p := Priority(strings.ToLower(strings.TrimSpace(s)))
		if !p.Valid() {
			return nil, &problem.FieldError{Field: field, Problem: "has " + problem.Quote(s), Fix: "use " + oneOf(Priorities)}
		}
		out = append(out, p)
	}
	return out, nil
}

// oneOf words a list of choices: "a, b or c".
func oneOf[T ~string](vs []T) string {
	ss := make([]string, len(vs))
	for i, v := range vs {
		ss[i] = string(v)
	}
	if len(ss) < 2 {
		return strings.Join(ss, "")
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " or " + ss[len(ss)-1]
}
