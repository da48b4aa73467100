package commitmsg

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchInput is a realistic staged diff: the go-feat-range corpus case,
// its diff written as git writes it, old contents read from before/.
func benchInput(b *testing.B) Input {
	b.Helper()
	dir := filepath.Join("testdata", "corpus", "dev", "go-fix-nil-labels")
	read := func(p string) string {
		c, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		return string(c)
	}
	oldSrc := read(filepath.Join(dir, "before", "metrics", "registry.go"))
	newSrc := read(filepath.Join(dir, "after", "metrics", "registry.go"))
	oldTest := read(filepath.Join(dir, "before", "metrics", "registry_test.go"))
	newTest := read(filepath.Join(dir, "after", "metrics", "registry_test.go"))
	diff := wholeFileDiff("metrics/registry.go", oldSrc, newSrc) + wholeFileDiff("metrics/registry_test.go", oldTest, newTest)
	return Input{Diff: diff, Old: func(p string) ([]byte, error) {
		return os.ReadFile(filepath.Join(dir, "before", filepath.FromSlash(p)))
	}}
}

// wholeFileDiff is a diff replacing all of old by new in one hunk.
func wholeFileDiff(path, old, new string) string {
	ol := strings.Split(strings.TrimSuffix(old, "\n"), "\n")
	nl := strings.Split(strings.TrimSuffix(new, "\n"), "\n")
	var b strings.Builder
	b.WriteString("diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n")
	b.WriteString("@@ -1," + fmtInt(len(ol)) + " +1," + fmtInt(len(nl)) + " @@\n")
	for _, l := range ol {
		b.WriteString("-" + l + "\n")
	}
	for _, l := range nl {
		b.WriteString("+" + l + "\n")
	}
	return b.String()
}

// BenchmarkGenerate measures Generate on a two-file diff against parsing
// the diff alone (the baseline every generator pays).
func BenchmarkGenerate(b *testing.B) {
	in := benchInput(b)
	b.Run("generate", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Generate(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The go/parser floor: parsing the changed Go files before and after,
	// which comparing exported API cannot avoid.
	var files [][]byte
	for _, p := range []string{"metrics/registry.go", "metrics/registry_test.go"} {
		old, err := in.Old(p)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, old, old)
	}
	b.Run("baseline-go-parse-before-after", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				if _, err := parser.ParseFile(token.NewFileSet(), "x.go", f, parser.SkipObjectResolution); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("baseline-parse-diff", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ParseDiff(in.Diff); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkLint(b *testing.B) {
	msg := "feat(store)!: add memory tags\n\nTags let agents group entries and find them again by\nname across sessions.\n\nRefs: #42\nBREAKING CHANGE: Put takes a Tags argument\n"
	b.ReportAllocs()
	for b.Loop() {
		Lint(msg, Options{})
	}
}
