package sqlq

import (
	"fmt"
	"strings"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// Tasks builds a store.Query's (not a Level one's) statements over the
// visible tasks on w (the store's own conditions, such as
// the project; the visible tasks' is added here), the page listing cols.
// An unknown sort is an Invalid refusal.
func Tasks(w *Where, q store.Query, cols string) (Statements, error) {
	order, err := taskOrder(q.Sort)
	if err != nil {
		return Statements{}, err
	}
	w.And("removed_at IS NULL")
	w.In("status", Strs(q.Statuses))
	w.In("priority", Strs(q.Priorities))
	w.Time("created_at > ?", q.CreatedAfter)
	w.Time("created_at < ?", q.CreatedBefore)
	w.Time("updated_at > ?", q.UpdatedAfter)
	w.Time("updated_at < ?", q.UpdatedBefore)
	cond := w.String()
	s := Statements{Count: `SELECT count(*) FROM tasks WHERE ` + cond, CountArgs: w.Args[:len(w.Args):len(w.Args)]}
	dir := " ASC"
	if q.Desc {
		dir = " DESC"
	}
	s.Page = `SELECT ` + cols + ` FROM tasks WHERE ` + cond + ` ORDER BY ` + order + dir + `, id` + dir + w.Page(q.Limit, q.Offset)
	s.PageArgs = w.Args
	return s, nil
}

// taskOrder is the ORDER BY expression of a sort.
func taskOrder(sort string) (string, error) {
	switch sort {
	case store.SortPriority:
		// By importance, so that Desc means most important first.
		return ranks("priority", task.PrioritiesLowFirst), nil
	case store.SortStatus:
		return ranks("status", task.Statuses), nil
	case store.SortCreated:
		return "created_at", nil
	case store.SortUpdated:
		return "updated_at", nil
	case store.SortID, "":
		return "id", nil
	}
	return "", &problem.Error{Kind: problem.Invalid, Problem: fmt.Sprintf("invalid argument: unknown sort %q", sort)}
}

// ranks orders a text column by a list of values, for ORDER BY.
func ranks[T ~string](col string, values []T) string {
	var b strings.Builder
	b.WriteString("CASE " + col)
	for i, v := range values {
		fmt.Fprintf(&b, " WHEN '%s' THEN %d", v, i) // values are the domain's constants, never input
	}
	fmt.Fprintf(&b, " ELSE %d END", len(values))
	return b.String()
}
