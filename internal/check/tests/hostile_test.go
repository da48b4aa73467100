package testcheck

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/check"
)

// TestHostileInputs feeds pathological files of about 1 MiB to each reader:
// each must end, quickly, with findings or none, never a panic or an error.
func TestHostileInputs(t *testing.T) {
	const n = 1 << 20
	rep := func(s string, k int) string { return strings.Repeat(s, k/len(s)) }
	tests := []struct{ name, file, src string }{
		{"js deep brackets", "a.test.js", rep("(", n/2) + rep(")", n/2)},
		{"js deep templates", "a.test.js", rep("`${", n/2)},
		{"js deep jsx", "a.test.jsx", "x = " + rep("<a>", n/2)},
		{"js chained arrows", "a.test.js", "it('x', " + rep("a=>", n-20) + "1)"},
		{"js many nested tests", "a.test.js", rep("it('x', () => {", n/2) + rep("})", n/4)},
		{"js many sleeps in loops", "a.test.js", "it('x', async () => {" + rep("for(;;){await sleep(1)}", n-40) + "})"},
		{"js only tokens", "a.test.ts", rep("it.only.each`` ", n)},
		{"python deep indent", "test_a.py", func() string {
			var b strings.Builder
			for i := 0; b.Len() < n; i++ {
				b.WriteString(strings.Repeat(" ", i) + "if x:\n")
			}
			return b.String()
		}()},
		{"python deep f-strings", "test_a.py", rep("f'{", n/2)},
		{"python many defs", "test_a.py", rep("def test_a():\n    time.sleep(1)\n", n)},
		{"java nested classes", "ATest.java", rep("class A { @Test void x() { ", n/2)},
		{"rust nested comments", "a.rs", "#[test] fn a() {}" + rep("/*", n/2)},
		{"go deep parens", "a_test.go", "package a\nvar x = " + rep("(", n/2)},
		{"go many tests", "a_test.go", "package a\nimport \"testing\"\n" + rep("func TestA(t *testing.T) { go func() { t.Fatal() }() }\n", n)},
		{"cobertura deep", "coverage.xml", "<?xml version=\"1.0\"?><coverage>" + rep("<a>", n/2)},
		{"go profile long blocks", "coverage.out", "mode: set\n" + rep("a.go:1.1,1048576.1 1 0\n", n)},
		{"lcov many lines", "lcov.info", "SF:a.js\n" + rep("DA:1048576,0\n", n)},
		{"binary junk", "a.test.ts", string([]byte{0xff, 0xfe, 0, 1, 2, '`', '$', '{'})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: tt.file, Content: []byte(tt.src)}}})
			if err != nil {
				t.Errorf("Check: %v", err)
			}
			if d := time.Since(start); d > raceSlowdown*20*time.Second { // quadratic work takes minutes here
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := New().Check(ctx, &check.Input{Files: []check.File{{Path: "a_test.go", Content: []byte("package a\n")}}})
	if err == nil {
		t.Error("a cancelled check went on")
	}
}
