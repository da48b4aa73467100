package check_test

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
)

// broken is a checker that panics, as a parser fed hostile input may.
type broken struct{ todo }

func (*broken) Name() string { return "broken" }
func (*broken) Check(context.Context, *check.Input) (check.Result, error) {
	panic("index out of range")
}

// TestObserveSeesEachRun: Observe is told of each checker that ran, with
// its files and its findings after suppressions; a checker that fails is
// told with its error.
func TestObserveSeesEachRun(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.txt": "TODO one\nTODO two // cairn:ignore todo/left known\n", "b.txt": "TODO three\n", "c.md": "x\n"})
	var runs []check.CheckRun
	_, err := check.Run(context.Background(), []check.Checker{&todo{}}, check.Request{Root: root,
		Observe: func(r check.CheckRun) { runs = append(runs, r) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Check != "todo" || runs[0].Files != 2 || runs[0].Err != nil ||
		runs[0].BySeverity[check.Warning] != 2 || runs[0].Duration < 0 {
		t.Errorf("runs %+v: want todo over 2 files with 2 warnings (one suppressed)", runs)
	}

	runs = nil
	_, err = check.Run(context.Background(), []check.Checker{&broken{}}, check.Request{Root: root,
		Observe: func(r check.CheckRun) { runs = append(runs, r) }})
	if err == nil || len(runs) != 1 || runs[0].Check != "broken" || runs[0].Err == nil {
		t.Errorf("a failing checker: err %v, runs %+v; want its run told with the error", err, runs)
	}
}
