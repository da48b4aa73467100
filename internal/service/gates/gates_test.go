package gates_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/internal/service/gates"
	"github.com/cairn-dev/cairn/internal/service/hands"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func byID(r gates.Result) map[string]gates.Gate {
	m := map[string]gates.Gate{}
	for _, g := range r.Gates {
		m[g.ID] = g
	}
	return m
}

// Without a store the gates stand on the checks and the coverage report;
// the test gate says the command it needs.
func TestGatesFromChecksAndCoverage(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.26\n",
		"shop/cart.go": "package shop\n\nfunc Total(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn a + b\n}\n",
		"coverage.out": "mode: set\nexample.com/shop/shop/cart.go:3.26,4.11 1 1\nexample.com/shop/shop/cart.go:4.11,6.3 1 0\nexample.com/shop/shop/cart.go:7.2,7.14 1 1\n",
	})
	s := gates.New(hands.New(root), nil, nil)
	r, err := s.Evaluate(context.Background(), gates.Request{Threshold: 60})
	if err != nil {
		t.Fatal(err)
	}
	g := byID(r)
	if g["coverage"].Status != gates.Pass || g["checks_clean"].Status != gates.Pass {
		t.Errorf("gates: %+v", r.Gates)
	}
	if g["tests_pass"].Status != gates.Unknown || g["tests_pass"].Needs == "" || g["tests_pass"].Phase != "TEST" {
		t.Errorf("tests_pass without a recorded run: %+v", g["tests_pass"])
	}
	r, _ = s.Evaluate(context.Background(), gates.Request{Threshold: 90})
	if c := byID(r)["coverage"]; c.Status != gates.Fail {
		t.Errorf("66.7%% under a 90%% threshold: %+v", c)
	}
	// An error finding fails checks_clean and the derived quality gate.
	write(t, root, map[string]string{"deploy/app.env": "GITHUB_TOKEN=ghp_R7nXq2Lm9Vt4Kp8Zw3Yb6Hc1Jd5Fs0Ag2Nu7\n"})
	r, _ = s.Evaluate(context.Background(), gates.Request{})
	g = byID(r)
	if g["checks_clean"].Status != gates.Fail || g["quality_gates"].Status != gates.Fail {
		t.Errorf("a committed token: %+v", r.Gates)
	}
	if _, err := s.Evaluate(context.Background(), gates.Request{Threshold: 101}); err == nil {
		t.Error("threshold 101 accepted")
	}
}
