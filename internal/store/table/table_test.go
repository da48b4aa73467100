package table

import (
	"fmt"
	"testing"
)

type note struct {
	ID    int64
	Title string
	Score float64 // computed: never written
}

type noteRow struct{ n note }

var noteColumns = Columns[note, noteRow]{
	{Name: "id", Dest: func(r *noteRow) any { return &r.n.ID }},
	{Name: "title", Arg: func(n note) any { return n.Title }, Dest: func(r *noteRow) any { return &r.n.Title }},
	{Name: "fingerprint", Arg: func(n note) any { return len(n.Title) }}, // written, never read
}

// The four lists agree: reads list the columns with a destination, in
// order, and writes those with an argument.
func TestColumns(t *testing.T) {
	if got := noteColumns.Select("n."); got != "n.id, n.title" {
		t.Errorf("Select = %q", got)
	}
	if got := fmt.Sprint(noteColumns.Written()); got != "[title fingerprint]" {
		t.Errorf("Written = %s", got)
	}
	if got := fmt.Sprint(noteColumns.Args(note{ID: 7, Title: "wal"})); got != "[wal 3]" {
		t.Errorf("Args = %s", got)
	}
	var r noteRow
	dests := noteColumns.Dests(&r)
	if len(dests) != 2 {
		t.Fatalf("Dests = %d destinations; want 2", len(dests))
	}
	*dests[0].(*int64), *dests[1].(*string) = 7, "wal"
	if r.n != (note{ID: 7, Title: "wal"}) {
		t.Errorf("a scan into Dests reads %+v", r.n)
	}
}
