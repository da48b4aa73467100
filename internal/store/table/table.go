// Package table keeps a table's columns in one list, from which a SQL
// store makes its select lists, the columns and arguments of its writes,
// and the destinations of its scans, so that these never disagree.
package table

import "strings"

// Column is one column of a table whose rows are written from values of
// type V and read through a row of type R.
type Column[V, R any] struct {
	Name string
	Arg  func(V) any  // its value for a row to write; nil: never written
	Dest func(*R) any // where a read puts it; nil: never read
}

// Columns are a table's columns, in the order reads list them and writes
// set them.
type Columns[V, R any] []Column[V, R]

// Select renders the columns a read lists, each named after prefix (an
// alias and a dot, or "").
func (l Columns[V, R]) Select(prefix string) string {
	var cols []string
	for _, c := range l {
		if c.Dest != nil {
			cols = append(cols, prefix+c.Name)
		}
	}
	return strings.Join(cols, ", ")
}

// Written returns the names of the columns a write sets, in Args' order.
func (l Columns[V, R]) Written() []string {
	var out []string
	for _, c := range l {
		if c.Arg != nil {
			out = append(out, c.Name)
		}
	}
	return out
}

// Args returns v's values for the written columns.
func (l Columns[V, R]) Args(v V) []any {
	var out []any
	for _, c := range l {
		if c.Arg != nil {
			out = append(out, c.Arg(v))
		}
	}
	return out
}

// Dests returns where a scan of the columns Select lists puts them in r.
func (l Columns[V, R]) Dests(r *R) []any {
	out := make([]any, 0, len(l))
	for _, c := range l {
		if c.Dest != nil {
			out = append(out, c.Dest(r))
		}
	}
	return out
}
