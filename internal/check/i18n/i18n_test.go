package i18n

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

func TestRules(t *testing.T) { checktest.Rules(t, New()) }

func TestCorpus(t *testing.T) {
	tally := checktest.Corpus(t, New(), "testdata/corpus", nil)
	t.Log(tally)
}

func runOn(t *testing.T, root string, params map[string]string) *check.Report {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root, Params: map[string]map[string]string{"i18n": params}})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
