package testcheck

import (
	"context"
	"go/parser"
	"go/token"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"

	"github.com/cairn-dev/cairn/internal/check"
)

func readCorpus(b *testing.B, p string) []byte {
	src, err := os.ReadFile("testdata/corpus/" + p)
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// large repeats a file's test functions to about n bytes.
func large(src []byte, header, body string, n int) []byte {
	var s strings.Builder
	s.WriteString(header)
	for i := 0; s.Len() < n; i++ {
		s.WriteString(strings.ReplaceAll(body, "NNN", scan.Itoa(i)))
	}
	return []byte(s.String())
}

func benchCheck(b *testing.B, name string, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	in := &check.Input{Files: []check.File{{Path: name, Content: src}}}
	for b.Loop() {
		if _, err := New().Check(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

const goBody = "func TestNNN(t *testing.T) {\n\tfor _, tt := range cases {\n\t\tt.Run(tt.name, func(t *testing.T) {\n\t\t\tgot, err := Parse(tt.in)\n\t\t\tif err != nil {\n\t\t\t\tt.Fatal(err)\n\t\t\t}\n\t\t\tif diff := cmp.Diff(tt.want, got); diff != \"\" {\n\t\t\t\tt.Errorf(\"(-want +got):\\n%s\", diff)\n\t\t\t}\n\t\t})\n\t}\n}\n\n"

func BenchmarkGo(b *testing.B) {
	typical := readCorpus(b, "valid/go/internal/kv/kv_test.go")
	big := large(nil, "package kv\n\nimport \"testing\"\n\n", goBody, 1<<20)
	b.Run("parser-only/typical", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			parser.ParseFile(token.NewFileSet(), "kv_test.go", typical, parser.ParseComments|parser.SkipObjectResolution)
		}
	})
	b.Run("check/typical", func(b *testing.B) { benchCheck(b, "kv_test.go", typical) })
	b.Run("parser-only/1MiB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			parser.ParseFile(token.NewFileSet(), "kv_test.go", big, parser.ParseComments|parser.SkipObjectResolution)
		}
	})
	b.Run("check/1MiB", func(b *testing.B) { benchCheck(b, "big_test.go", big) })
}

const jsBody = "describe('suite NNN', () => {\n  it('works NNN', async () => {\n    const got = await run(`input ${NNN}`, /re[/]NNN/g)\n    expect(got).toEqual({ a: 1, b: [1, 2, 3] })\n  })\n\n  it.each([[1, 2]])('adds %i', (a, b) => {\n    expect(render(<Sum a={a} b={b} />).getByText(\"3\")).toBeTruthy()\n  })\n})\n\n"

func BenchmarkJS(b *testing.B) {
	typical := readCorpus(b, "valid/js/src/money.test.ts")
	big := large(nil, "import { run } from './run'\n", jsBody, 1<<20)
	b.Run("lexer-only/typical", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			scan.LexJS(typical, false)
		}
	})
	b.Run("check/typical", func(b *testing.B) { benchCheck(b, "money.test.ts", typical) })
	b.Run("lexer-only/1MiB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			scan.LexJS(big, true)
		}
	})
	b.Run("check/1MiB", func(b *testing.B) { benchCheck(b, "big.test.tsx", big) })
}

const pyBody = "class TestNNN:\n    @pytest.mark.parametrize('a', [1, 2])\n    def test_a(self, a):\n        got = f\"{a!r:>10} {d['k']}\"\n        assert got\n\n    def test_b(self):\n        with pytest.raises(ValueError):\n            run('''NNN''')\n\n"

func BenchmarkPython(b *testing.B) {
	typical := readCorpus(b, "valid/python/tests/test_stock.py")
	big := large(nil, "import pytest\n\n", pyBody, 1<<20)
	b.Run("check/typical", func(b *testing.B) { benchCheck(b, "test_stock.py", typical) })
	b.Run("check/1MiB", func(b *testing.B) { benchCheck(b, "test_big.py", big) })
}

const javaBody = "  @Test\n  void totalNNN() {\n    Invoice i = new Invoice().add(new BigDecimal(\"NNN\"));\n    assertEquals(new BigDecimal(\"NNN\"), i.total());\n  }\n\n"

func BenchmarkJava(b *testing.B) {
	typical := readCorpus(b, "valid/java/src/test/java/com/acme/billing/InvoiceTest.java")
	big := append(large(nil, "class BigTest {\n", javaBody, 1<<20), "}\n"...)
	b.Run("check/typical", func(b *testing.B) { benchCheck(b, "InvoiceTest.java", typical) })
	b.Run("check/1MiB", func(b *testing.B) { benchCheck(b, "BigTest.java", big) })
}

func BenchmarkCoverage(b *testing.B) {
	var s strings.Builder
	s.WriteString("mode: count\n")
	for i := 0; s.Len() < 1<<20; i++ {
		s.WriteString("example.com/app/pkg/f" + scan.Itoa(i%50) + ".go:" + scan.Itoa(i%900+1) + ".2," + scan.Itoa(i%900+3) + ".4 2 " + scan.Itoa(i%3) + "\n")
	}
	src := []byte(s.String())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseGoProfile(src); err != nil {
			b.Fatal(err)
		}
	}
}
