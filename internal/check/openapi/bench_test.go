package openapi

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi/datamodel"

	"github.com/cairn-dev/cairn/internal/check"
)

// The benchmarks check one spec: a typical one (the petstore of the
// corpus, 6 KB), a large one (Blockfrost's, 500 KB, 140 paths, from npm),
// and Stripe's (4.5 MB, 400 paths, from libopenapi's module: over the
// 1 MiB a project walk reads, but a size people ask about). Each has its
// baseline: libopenapi's parse alone, which every check starts with. They
// report cpu-ns/op beside ns/op: the process's CPU time (all its threads,
// the GC's included), which a busy machine does not inflate.

func benchSpec(b *testing.B, path string) {
	content, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	dir := filepath.Dir(path)
	src := dirSource(dir)
	in := &check.Input{Files: []check.File{{Path: filepath.Base(path), Content: content}}, Source: src}
	b.Run("check", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			if _, err := New().Check(context.Background(), in); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	})
	b.Run("parse-only", func(b *testing.B) {
		b.SetBytes(int64(len(content)))
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			if _, err := datamodel.ExtractSpecInfoWithConfig(content, &datamodel.DocumentConfiguration{}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
	})
}

// dirSource reads files under a directory.
type dirSource string

func (d dirSource) ReadFile(p string) ([]byte, error) {
	return os.ReadFile(filepath.Join(string(d), p))
}
func (d dirSource) Exists(p string) bool {
	_, err := os.Stat(filepath.Join(string(d), p))
	return err == nil
}
func (d dirSource) Files(string) ([]string, error) { return nil, nil }

func BenchmarkTypical(b *testing.B) {
	benchSpec(b, "testdata/corpus/valid/petstore-3.0.yaml")
}

func BenchmarkTypicalSplitFiles(b *testing.B) {
	benchSpec(b, "testdata/corpus/valid/split/openapi.yaml")
}

func BenchmarkLarge(b *testing.B) {
	dir := os.Getenv("CAIRN_CORPUS_DIR")
	if dir == "" {
		b.Skip("run eval \"$(bash scripts/corpus.sh)\" first")
	}
	benchSpec(b, filepath.Join(dir, "node_modules/@blockfrost/openapi/openapi.yaml"))
}

func BenchmarkStripe(b *testing.B) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/pb33f/libopenapi").Output()
	if err != nil {
		b.Skip(err)
	}
	benchSpec(b, filepath.Join(strings.TrimSpace(string(out)), "test_specs/stripe.yaml"))
}
