package mermaid

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check/mermaid/flowchart"
	"github.com/cairn-dev/cairn/internal/check/mermaid/internal/syntax"

	"github.com/cairn-dev/cairn/internal/check"
)

func benchFile(b *testing.B, name string) []byte {
	b.Helper()
	content, err := os.ReadFile(filepath.Join("testdata", "corpus", "valid", name))
	if err != nil {
		b.Fatal(err)
	}
	return content
}

// largeFlowchart is a flowchart of about 200 KB: 4000 nodes in chains
// and subgraphs, with labels, styles and classes.
func largeFlowchart() []byte {
	var sb strings.Builder
	sb.WriteString("flowchart TD\n")
	for g := 0; g < 40; g++ {
		fmt.Fprintf(&sb, "    subgraph group%d [Group %d]\n", g, g)
		for i := 0; i < 100; i++ {
			n := g*100 + i
			fmt.Fprintf(&sb, "        n%d[Step %d of the process] -->|next| n%d(Then %d)\n", n, n, n+1, n+1)
		}
		sb.WriteString("    end\n")
	}
	sb.WriteString("    classDef hot fill:#f96,stroke:#333\n    class n1,n2 hot\n    style n3 fill:#eee\n")
	return []byte(sb.String())
}

func benchCheck(b *testing.B, name string, content []byte) {
	b.Helper()
	c := New()
	in := &check.Input{Files: []check.File{{Path: name, Content: content}}}
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Check(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckTypical checks a typical flowchart (the corpus's checkout
// flow, 1.5 KB).
func BenchmarkCheckTypical(b *testing.B) {
	benchCheck(b, "checkout-flow.mmd", benchFile(b, "checkout-flow.mmd"))
}

// BenchmarkCheckTypicalSequence checks a typical sequence diagram.
func BenchmarkCheckTypicalSequence(b *testing.B) {
	benchCheck(b, "login-sequence.mmd", benchFile(b, "login-sequence.mmd"))
}

// BenchmarkCheckLarge checks a 200 KB flowchart.
func BenchmarkCheckLarge(b *testing.B) {
	content := largeFlowchart()
	benchCheck(b, "large.mmd", content)
}

// BenchmarkLexLarge is the baseline: the flowchart lexer alone over the
// same 200 KB, without preprocessing, parsing or checks.
func BenchmarkLexLarge(b *testing.B) {
	content := string(largeFlowchart())
	b.SetBytes(int64(len(content)))
	b.ReportAllocs()
	for b.Loop() {
		l := flowchart.NewFlowLexer(content)
		for l.Next().Kind != syntax.TokEOF {
		}
	}
}
