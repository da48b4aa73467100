package tkb

import (
	"context"
	"os"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

func TestRules(t *testing.T) { checktest.Rules(t, New()) }

func TestCorpus(t *testing.T) {
	t.Log(checktest.Corpus(t, New(), "testdata/corpus", nil))
}

func runOn(t *testing.T, root string, params map[string]string) *check.Report {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root, Params: map[string]map[string]string{"tkb": params}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestShow prints the report on $TKB_DIR.
func TestShow(t *testing.T) {
	dir := os.Getenv("TKB_DIR")
	if dir == "" {
		t.Skip("set TKB_DIR")
	}
	rep := runOn(t, dir, nil)
	for _, f := range rep.Findings {
		t.Log(f)
	}
	for _, n := range rep.Notes {
		t.Log("note:", n)
	}
}
