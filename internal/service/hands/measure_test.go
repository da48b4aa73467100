package hands_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

// The measurements of the hands' closing note: each check's corpus, a
// typical file per check through the service, and scan_secrets over
// Cairn's own repository, each against a baseline of the same run.

// corpus is one check's corpus in its package's testdata, with the params
// its own corpus test runs it with.
type corpus struct {
	check  string
	dir    string // under internal/check
	params map[string]string
}

var corpora = []corpus{
	{"mermaid", "mermaid/testdata/corpus", nil},
	{"openapi", "openapi/testdata/corpus", nil},
	{"sql", "sql/testdata/postgres", map[string]string{"dialect": "postgres"}},
	{"sql", "sql/testdata/mysql", map[string]string{"dialect": "mysql"}},
	{"sql", "sql/testdata/sqlite", map[string]string{"dialect": "sqlite"}},
	{"tests", "tests/testdata/corpus", map[string]string{"threshold": "50"}},
	{"dockerfile", "dockerfile/testdata/corpus", nil},
	{"i18n", "i18n/testdata/corpus", nil},
	{"tkb", "tkb/testdata/corpus", nil},
	{"designtokens", "designtokens/testdata/corpus", nil},
	{"a11y", "a11y/testdata/corpus", map[string]string{"render": "off"}},
	{"perf", "perf/testdata/corpus", map[string]string{"js_budget": "2", "css_budget": "1", "image_budget": "1", "font_budget": "1"}},
	{"secrets", "secrets/testdata/corpus", map[string]string{"scope": "all"}},
}

func checker(t testing.TB, name string) check.Checker {
	for _, c := range hands.Checkers() {
		if c.Name() == name {
			return c
		}
	}
	t.Fatalf("no check %s", name)
	return nil
}

// TestCorpusTally runs every check over its corpus (hand-written valid
// files and seeded defects; the real files of npm packages are each
// package's own TestCorpus, with CAIRN_CORPUS_DIR) and prints the table:
//
//	go test ./internal/service/hands -run TestCorpusTally -v
//
// It fails, as each package's test does, on an error on a valid file or a
// seeded defect not found.
func TestCorpusTally(t *testing.T) {
	var b strings.Builder
	fmt.Fprintf(&b, "%-22s %6s %6s %6s %8s %8s\n", "check (corpus)", "valid", "false", "defect", "caught", "findings")
	var sum checktest.Tally
	for _, c := range corpora {
		tally := checktest.Corpus(t, checker(t, c.check), filepath.Join("..", "..", "check", filepath.FromSlash(c.dir)), c.params)
		name := c.check
		if c.check == "sql" {
			name += " " + c.params["dialect"]
		}
		fmt.Fprintf(&b, "%-22s %6d %6d %6d %4d/%-3d %8d\n", name, tally.ValidFiles, tally.FalseErrors, tally.DefectFiles, tally.Caught, tally.Seeded, tally.Findings)
		sum.ValidFiles += tally.ValidFiles
		sum.FalseErrors += tally.FalseErrors
		sum.DefectFiles += tally.DefectFiles
		sum.Caught += tally.Caught
		sum.Seeded += tally.Seeded
		sum.Findings += tally.Findings
	}
	fmt.Fprintf(&b, "%-22s %6d %6d %6d %4d/%-3d %8d\n", "total", sum.ValidFiles, sum.FalseErrors, sum.DefectFiles, sum.Caught, sum.Seeded, sum.Findings)
	t.Logf("valid: files of the valid corpus; false: errors on them (goal 0); defect: files with seeded defects; caught: found at their line (goal all)\n%s", b.String())
}

// typical is a file of ordinary size for each check, in its valid corpus.
var typical = []struct {
	check, root, file string
	params            map[string]string
}{
	{"mermaid", "mermaid/testdata/corpus/valid", "login-sequence.mmd", nil},
	{"openapi", "openapi/testdata/corpus/valid", "petstore-3.0.yaml", nil},
	{"sql", "sql/testdata/postgres/valid", "schema.sql", map[string]string{"dialect": "postgres"}},
	{"tests", "tests/testdata/corpus/valid", "go/internal/kv/kv_test.go", nil},
	{"dockerfile", "dockerfile/testdata/corpus/valid", "python-worker/Dockerfile", nil},
	{"i18n", "i18n/testdata/corpus/valid", "po/fr.po", nil},
	{"tkb", "tkb/testdata/corpus/valid", "knowledge/backend/caching.md", nil},
	{"designtokens", "designtokens/testdata/corpus/valid", "dtcg/tokens/components.tokens.json", nil},
	{"a11y", "a11y/testdata/corpus/valid", "index.html", map[string]string{"render": "off"}},
	{"perf", "perf/testdata/corpus/valid", "main.go", nil},
	{"secrets", "secrets/testdata/corpus/valid", "config.go", map[string]string{"scope": "all"}},
}

// nop reads every file it is given and finds nothing: the baseline of the
// runner's own work (walking, .gitignore, reading, suppressions).
type nop struct{}

func (nop) Name() string                                              { return "nop" }
func (nop) Rules() []check.Rule                                       { return nil }
func (nop) Wants(string, []byte) bool                                 { return true }
func (nop) Check(context.Context, *check.Input) (check.Result, error) { return check.Result{}, nil }

// BenchmarkTypicalFile is one typical file per check through the service,
// as a tool call makes it (config read, path resolved, the file read and
// checked), against the runner alone on the same file (baseline):
//
//	go test ./internal/service/hands -run '^$' -bench TypicalFile -benchmem
func BenchmarkTypicalFile(b *testing.B) {
	hands.WarmUp() // PostgreSQL's parser compiles once a process
	for _, tc := range typical {
		root := filepath.Join("..", "..", "check", filepath.FromSlash(tc.root))
		b.Run("baseline/"+tc.check, func(b *testing.B) {
			for b.Loop() {
				if _, err := check.Run(context.Background(), []check.Checker{nop{}}, check.Request{Root: root, Paths: []string{tc.file}}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tc.check, func(b *testing.B) {
			svc := hands.New(root)
			req := hands.Request{Checks: []string{tc.check}, Paths: []string{tc.file}, Params: map[string]map[string]string{tc.check: tc.params}}
			res, err := svc.Check(context.Background(), req)
			if err != nil || res.Files != 1 {
				b.Fatalf("%v, %d files", err, res.Files)
			}
			for b.Loop() {
				if _, err := svc.Check(context.Background(), req); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// repoRoot is Cairn's own repository (this worktree).
func repoRoot(tb testing.TB) string {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		tb.Skip("not in the repository")
	}
	return root
}

// BenchmarkScanSecretsRepo is scan_secrets over Cairn's own repository
// (every file the walk gives, .gitignore respected), against the walk that
// reads the same files and checks nothing (baseline):
//
//	go test ./internal/service/hands -run '^$' -bench Repo -benchmem
func BenchmarkScanSecretsRepo(b *testing.B) {
	root := repoRoot(b)
	b.Run("baseline-walk-read", func(b *testing.B) {
		for b.Loop() {
			rep, err := check.Run(context.Background(), []check.Checker{nop{}}, check.Request{Root: root})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(rep.Files), "files")
		}
	})
	b.Run("scan_secrets", func(b *testing.B) {
		svc := hands.New(root)
		for b.Loop() {
			res, err := svc.Check(context.Background(), hands.Request{Checks: []string{"secrets"},
				Params: map[string]map[string]string{"secrets": {"scope": "all"}}})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(res.Files), "files")
			b.ReportMetric(float64(res.Total), "findings")
		}
	})
}
