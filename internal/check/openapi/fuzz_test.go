package openapi

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/check"
)

// FuzzCheck feeds the checker any bytes as a YAML or JSON spec, with a
// $ref'd file beside it: no panic, no Go error, bounded time. Run it with
// a short minimization, or the fuzzer spends its time minimizing:
//
//	go test ./internal/check/openapi -run XXX -fuzz FuzzCheck -fuzztime 60s -fuzzminimizetime 1s
func FuzzCheck(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/corpus/*/*.*")
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, filepath.Ext(p) == ".json")
		}
	}
	f.Add([]byte("openapi: 3.1.0\npaths:\n  /a/{b}:\n    $ref: 'x.yaml#/p'\n"), false)
	f.Add([]byte(`{"swagger": "2.0", "paths": {"/a": {"get": {"parameters": [{"$ref": "#/parameters/x"}]}}}}`), true)
	f.Fuzz(func(t *testing.T, content []byte, asJSON bool) {
		name := "spec.yaml"
		if asJSON {
			name = "spec.json"
		}
		src := memSource{"x.yaml": content, "p/y.json": content}
		start := time.Now()
		_, err := New().Check(context.Background(), &check.Input{
			Files:  []check.File{{Path: name, Content: content}},
			Source: src,
		})
		if err != nil {
			t.Fatalf("Go error: %v", err)
		}
		if d := time.Since(start); d > 30*time.Second { // a hang or a blow-up, not a speed budget
			t.Fatalf("took %v on %d bytes", d, len(content))
		}
	})
}

// memSource is a project of files held in memory.
type memSource map[string][]byte

func (m memSource) ReadFile(p string) ([]byte, error) {
	if b, ok := m[p]; ok {
		return b, nil
	}
	return nil, os.ErrNotExist
}

func (m memSource) Exists(p string) bool { _, ok := m[p]; return ok }

func (m memSource) Files(string) ([]string, error) { return nil, nil }
