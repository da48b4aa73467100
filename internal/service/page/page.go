// Package page holds what every list of Cairn's services shares: the page a
// caller asks for (an offset and a limit), each list's default and largest
// page, the arithmetic of a page's bounds, and the time bounds a list is
// filtered by.
package page

import (
	"fmt"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Page is the part of a list a caller asks for: skip Offset items, return
// at most Limit (zero: the list's default).
type Page struct {
	Offset int
	Limit  int
}

// Rule is a list's default and largest page. Every surface reads its
// bounds from here (the MCP schemas too), so all accept the same pages.
type Rule struct {
	Default int
	Max     int
}

// The lists' page rules.
var (
	Plan      = Rule{Default: 20, Max: 50}    // get_tasks, query_tasks, `cairn tasks`, loops
	Outline   = Rule{Default: 200, Max: 1000} // the focus outline, a line a task
	Archive   = Rule{Default: 20, Max: 100}   // completed tasks
	Memory    = Rule{Default: 10, Max: 50}    // memory search
	Session   = Rule{Default: 20, Max: 50}    // the session list
	Diagnose  = Rule{Default: 3, Max: 10}     // diagnose_error's similar mistakes
	Lifecycle = Rule{Default: 20, Max: 100}   // lifecycle_list, `cairn lifecycles`
	Record    = Rule{Default: 20, Max: 200}   // each list of a branch context (branch get), newest first
	// The siblings to the left of the current task, nearest first: a line
	// each, or with bodies (up to 2,000 bytes each) fewer. One Max, so that
	// one schema bounds both.
	Sibling     = Rule{Default: 10, Max: 50}
	SiblingBody = Rule{Default: 3, Max: Sibling.Max}
)

// Apply checks p against the rule and fills in the default limit.
func (r Rule) Apply(p Page) (Page, error) {
	if p.Offset < 0 {
		return p, &problem.FieldError{Field: "offset", Problem: "is negative", Fix: "pass 0 or the next offset of the previous page"}
	}
	if p.Limit < 0 || p.Limit > r.Max {
		return p, &problem.FieldError{Field: "limit", Problem: fmt.Sprintf("is %d", p.Limit), Fix: fmt.Sprintf("pass a limit from 1 to %d", r.Max)}
	}
	if p.Limit == 0 {
		p.Limit = r.Default
	}
	return p, nil
}

// Window is the page's bounds in a list of n, and the offset of the next
// page (zero when nothing follows).
func (p Page) Window(n int) (lo, hi, next int) {
	lo = min(p.Offset, n)
	hi = min(lo+p.Limit, n)
	if hi < n {
		next = hi
	}
	return lo, hi, next
}

// NextOffset is the offset after a page of n items at offset out of total
// (zero when nothing follows).
func NextOffset(offset, n, total int) int {
	if offset+n < total {
		return offset + n
	}
	return 0
}

// OneOf words a list of choices: "a, b or c".
func OneOf[T ~string](vs []T) string {
	ss := make([]string, len(vs))
	for i, v := range vs {
		ss[i] = string(v)
	}
	if len(ss) < 2 {
		return strings.Join(ss, "")
	}
	return strings.Join(ss[:len(ss)-1], ", ") + " or " + ss[len(ss)-1]
}

// ParseTime reads an ISO 8601 date or date-time; one without a zone is UTC.
func ParseTime(field, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, &problem.FieldError{Field: field, Problem: "is " + problem.Quote(s) + ", not an ISO 8601 date",
		Fix: "use a date such as 2025-12-10 or 2025-12-10T09:00:00Z"}
}
