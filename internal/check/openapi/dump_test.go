package openapi

import (
	"context"
	"fmt"
	"os"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
)

// TestDumpFindingsOfADirectory prints the findings for the directory
// OPENAPI_DUMP names: a tool for looking at real specs by hand.
func TestDumpFindingsOfADirectory(t *testing.T) {
	root := os.Getenv("OPENAPI_DUMP")
	if root == "" {
		t.Skip("set OPENAPI_DUMP to a directory")
	}
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root, MaxFileSize: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		fmt.Println(f)
	}
	for _, s := range rep.Skipped {
		fmt.Println("SKIPPED", s.Path, s.Reason)
	}
	fmt.Println("files", rep.Files)
}
