package testcheck

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
)

func TestExplore(t *testing.T) {
	dir := os.Getenv("EXPLORE")
	if dir == "" {
		t.Skip("EXPLORE unset")
	}
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: dir, Params: map[string]map[string]string{"tests": {"missing": os.Getenv("MISSING")}}})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]int{}
	for _, f := range rep.Findings {
		by[string(f.Severity)+" "+f.Rule]++
		if os.Getenv("QUIET") == "" || strings.Contains(f.Rule, os.Getenv("SHOW")) && os.Getenv("SHOW") != "" {
			fmt.Println(f)
		}
	}
	fmt.Println("files", rep.Files, by, rep.Notes, len(rep.Skipped))
}
