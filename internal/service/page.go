package service

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/task"
)

// Page is the part of a list a caller asks for: skip Offset items, return
// at most Limit (zero: the list's default).
type Page struct {
	Offset int
	Limit  int
}

// PageRule is a list's default and largest page. Every surface reads its
// bounds from here (the MCP schemas too), so all accept the same pages.
type PageRule struct {
	Default int
	Max     int
}

// The lists' page rules.
var (
	PlanPage      = PageRule{Default: 20, Max: 50}    // get_tasks, query_tasks, `cairn tasks`, loops
	OutlinePage   = PageRule{Default: 200, Max: 1000} // the focus outline, a line a task
	ArchivePage   = PageRule{Default: 20, Max: 100}   // completed tasks
	MemoryPage    = PageRule{Default: 10, Max: 50}    // memory search
	SessionPage   = PageRule{Default: 20, Max: 50}    // the session list
	DiagnosePage  = PageRule{Default: 3, Max: 10}     // diagnose_error's similar mistakes
	LifecyclePage = PageRule{Default: 20, Max: 100}   // lifecycle_list, `cairn lifecycles`
	RecordPage    = PageRule{Default: 20, Max: 200}   // each list of a branch context (branch get), newest first
	// The siblings to the left of the current task, nearest first: a line
	// each, or with bodies (up to 2,000 bytes each) fewer. One Max, so that
	// one schema bounds both.
	SiblingPage     = PageRule{Default: 10, Max: 50}
	SiblingBodyPage = PageRule{Default: 3, Max: SiblingPage.Max}
)

// apply checks p against the rule and fills in the default limit.
func (r PageRule) apply(p Page) (Page, error) {
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

// window is the page's bounds in a list of n, and the offset of the next
// page (zero when nothing follows).
func (p Page) window(n int) (lo, hi, next int) {
	lo = min(p.Offset, n)
	hi = min(lo+p.Limit, n)
	if hi < n {
		next = hi
	}
	return lo, hi, next
}

// nextOffset is the offset after a page of n items at offset out of total
// (zero when nothing follows).
func nextOffset(offset, n, total int) int {
	if offset+n < total {
		return offset + n
	}
	return 0
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

// parseStatuses reads statuses as a caller spells them (any case).
func parseStatuses(field string, in []string) ([]task.Status, error) {
	var out []task.Status
	for _, s := range in {
		st := task.Status(strings.ToLower(strings.TrimSpace(s)))
		if !st.Valid() {
			return nil, &problem.FieldError{Field: field, Problem: "has " + problem.Quote(s), Fix: "use " + oneOf(task.Statuses)}
		}
		out = append(out, st)
	}
	return out, nil
}

// parsePriorities reads priorities as a caller spells them (any case).
func parsePriorities(field string, in []string) ([]task.Priority, error) {
	var out []task.Priority
	for _, s := range in {
		p := task.Priority(strings.ToLower(strings.TrimSpace(s)))
		if !p.Valid() {
			return nil, &problem.FieldError{Field: field, Problem: "has " + problem.Quote(s), Fix: "use " + oneOf(task.Priorities)}
		}
		out = append(out, p)
	}
	return out, nil
}
