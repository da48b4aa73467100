package testcheck

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/internal/check/tests/brace"
	"github.com/cairn-dev/cairn/internal/check/tests/internal/scan"

	"github.com/cairn-dev/cairn/internal/check"
)

// seeds adds the corpus files of one extension to a fuzz target.
func seeds(f *testing.F, exts ...string) {
	filepath.WalkDir("testdata/corpus", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		for _, e := range exts {
			if filepath.Ext(p) == e {
				if b, err := os.ReadFile(p); err == nil {
					f.Add(b)
				}
			}
		}
		return nil
	})
}

// checkInline runs Check on one file as inline content is checked.
func checkInline(t *testing.T, name string, b []byte) {
	_, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: name, Content: b}}})
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
}

func FuzzJS(f *testing.F) {
	seeds(f, ".ts", ".tsx", ".js", ".mjs")
	f.Add([]byte("it.each`a|b`('x', () => <p>{`${/re/}`}</p>)"))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkInline(t, "a.test.tsx", b)
		checkInline(t, "a.test.ts", b)
		if toks, _, err := scan.LexJS(b, false); err == nil {
			if match, err := brace.JSMatch(toks); err == nil {
				(&brace.JSFile{Toks: toks, Match: match}).ExportedCode()
			}
		}
	})
}

func FuzzPython(f *testing.F) {
	seeds(f, ".py")
	f.Add([]byte("f'{a:{b:{c}}}'\n@x\nclass T(TestCase):\n def test_a(self): self.skipTest()\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkInline(t, "test_a.py", b)
	})
}

func FuzzJava(f *testing.F) {
	seeds(f, ".java")
	f.Fuzz(func(t *testing.T, b []byte) {
		checkInline(t, "ATest.java", b)
	})
}

func FuzzRust(f *testing.F) {
	seeds(f, ".rs")
	f.Add([]byte("#[test] fn a() { let c = '\\''; let s = r##\"x\"##; /* /* */ */ 'a: loop { break 'a; } }"))
	f.Fuzz(func(t *testing.T, b []byte) {
		checkInline(t, "lib_test.rs", b)
	})
}

func FuzzGo(f *testing.F) {
	seeds(f, ".go")
	f.Fuzz(func(t *testing.T, b []byte) {
		checkInline(t, "a_test.go", b)
	})
}

func FuzzCoverage(f *testing.F) {
	seeds(f, ".out", ".info", ".xml")
	f.Add([]byte("mode: set\na.go:1.1,3.2 2 0\n"))
	f.Add([]byte("SF:a.js\nDA:1,0\nend_of_record\n"))
	f.Add([]byte("<coverage><packages><package><classes><class filename=\"a.py\"><lines><line number=\"1\" hits=\"0\"/></lines></class></classes></package></packages></coverage>"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, format := range []string{fmtGo, fmtLCOV, fmtCobertura} {
			r, err := parseCoverage(format, b)
			if err != nil {
				continue
			}
			for _, fc := range r.files {
				uncovered(fc, 100)
			}
		}
		checkInline(t, "coverage.out", b)
	})
}
