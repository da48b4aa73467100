// Package sqlq writes the SQL of the stores' filtered and paged reads once
// for both SQL backends: the conditions a query's fields make, the order a
// sort names (the domain's orders of statuses and priorities among them)
// and the page. A Dialect says what differs: how a statement marks its
// arguments, how it binds a time, how it matches a list and what a
// missing limit is.
package sqlq

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Dialect is what differs between the SQL backends in the statements
// built here.
type Dialect struct {
	// Dollar numbers the arguments ($1, $2) and says the backend is
	// PostgreSQL (lists bind as arrays, tables are keyed by project);
	// else each is ? and it is SQLite (lists bind as JSON).
	Dollar bool
	// Time is a time as the store binds it (zero: never asked).
	Time func(time.Time) any
	// NoLimit is the LIMIT argument that means none.
	NoLimit any
}

// Where is a statement's WHERE conditions and their arguments, built in
// order.
type Where struct {
	d     Dialect
	conds []string
	Args  []any
}

// Where starts conditions with base, whose ? marks take args in order
// (PostgreSQL: the project, "project_id = ?"); base may be empty.
func (d Dialect) Where(base string, args ...any) *Where {
	w := &Where{d: d}
	if base != "" {
		w.And(base, args...)
	}
	return w
}

// Arg adds an argument and returns its mark.
func (w *Where) Arg(v any) string {
	w.Args = append(w.Args, v)
	if w.d.Dollar {
		return "$" + strconv.Itoa(len(w.Args))
	}
	return "?"
}

// And adds cond, whose ? marks take vals in order.
func (w *Where) And(cond string, vals ...any) {
	if len(vals) == 0 {
		w.conds = append(w.conds, cond)
		return
	}
	var b strings.Builder
	parts := strings.Split(cond, "?")
	for i, p := range parts {
		b.WriteString(p)
		if i < len(parts)-1 {
			b.WriteString(w.Arg(vals[i]))
		}
	}
	w.conds = append(w.conds, b.String())
}

// In adds "col is one of vals", unless vals is empty.
func (w *Where) In(col string, vals []string) {
	if len(vals) > 0 {
		w.conds = append(w.conds, w.in(col, vals))
	}
}

// in is "col is one of vals" (PostgreSQL: an array argument; SQLite: one
// mark a value).
func (w *Where) in(col string, vals []string) string {
	if w.d.Dollar {
		return col + " = ANY(" + w.Arg(vals) + ")"
	}
	marks := make([]string, len(vals))
	for i, v := range vals {
		marks[i] = w.Arg(v)
	}
	return col + " IN (" + strings.Join(marks, ",") + ")"
}

// IDs adds "col is one of ids", unless ids is empty: one argument however
// many there are, so the statement's text does not vary with them
// (PostgreSQL: an array; SQLite: a JSON list).
func (w *Where) IDs(col string, ids []int64) {
	if len(ids) > 0 {
		w.conds = append(w.conds, w.ids(col, ids))
	}
}

func (w *Where) ids(col string, ids []int64) string {
	if w.d.Dollar {
		return col + " = ANY(" + w.Arg(ids) + ")"
	}
	b, _ := json.Marshal(ids)
	return col + " IN (SELECT value FROM json_each(" + w.Arg(string(b)) + "))"
}

// Empty reports whether w has no conditions.
func (w *Where) Empty() bool { return len(w.conds) == 0 }

// Time adds cond (one ? mark) with t, unless t is zero.
func (w *Where) Time(cond string, t time.Time) {
	if !t.IsZero() {
		w.And(cond, w.d.Time(t))
	}
}

// String is the conditions joined with AND (none: TRUE).
func (w *Where) String() string {
	if len(w.conds) == 0 {
		return "TRUE"
	}
	return strings.Join(w.conds, " AND ")
}

// Page is a LIMIT and OFFSET clause (limit zero or less: none), its
// arguments added.
func (w *Where) Page(limit, offset int) string {
	return w.Limit(limit) + " OFFSET " + w.Arg(max(offset, 0))
}

// Limit is a LIMIT clause (n zero or less: none), its argument added.
func (w *Where) Limit(n int) string {
	var v any = w.d.NoLimit
	if n > 0 {
		v = n
	}
	return " LIMIT " + w.Arg(v)
}

// Int64s is vs as int64s.
func Int64s[T ~int64](vs []T) []int64 {
	out := make([]int64, len(vs))
	for i, v := range vs {
		out[i] = int64(v)
	}
	return out
}

// TimeDest is a scan destination for a time as either store keeps it
// (SQLite: microseconds since the epoch; PostgreSQL: a timestamp) that
// writes it into *t in UTC, the zero time for NULL.
func TimeDest(t *time.Time) any { return timeDest{t} }

type timeDest struct{ t *time.Time }

func (d timeDest) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		*d.t = time.Time{}
	case int64:
		*d.t = time.UnixMicro(v).UTC()
	case time.Time:
		*d.t = v.UTC()
	default:
		return fmt.Errorf("scan time: %T", v)
	}
	return nil
}

// Strs is vs as strings.
func Strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// Rows is what the result sets of both drivers offer a scan.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// Collect reads every row with scan; the caller closes rows. Its slice
// doubles as it grows: append grows a large slice by a quarter, which for
// 10,000 tasks allocated five times their size.
func Collect[R Rows, T any](rows R, scan func(R) (T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		if len(out) == cap(out) {
			out = slices.Grow(out, max(len(out), 8))
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
