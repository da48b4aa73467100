package tkb

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
)

func TestParams(t *testing.T) {
	for _, p := range []map[string]string{{"required": "title,colour"}, {"vocab": "x"}} {
		if _, err := New().Check(context.Background(), &check.Input{Params: p}); err == nil {
			t.Errorf("%v: want an error", p)
		}
	}
}

func findings(t *testing.T, files map[string]string, params map[string]string) []string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := root + "/" + name
		if err := os.MkdirAll(p[:strings.LastIndexByte(p, '/')], 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep := runOn(t, root, params)
	var out []string
	for _, f := range rep.Findings {
		out = append(out, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Severity, f.Rule))
	}
	return out
}

const good = "---\ntitle: T\ncategory: %s\nmaturity: %s\nuse_cases: [a]\ndescription: D\n---\n# T\n"

func TestVocabularyParams(t *testing.T) {
	got := findings(t, map[string]string{
		"knowledge/a.md": fmt.Sprintf(good, "backend", "stable"),
		"knowledge/b.md": fmt.Sprintf(good, "Backend", "beta"),
	}, map[string]string{"categories": "backend, frontend", "maturities": "draft,stable"})
	want := []string{"knowledge/b.md:4 error tkb/vocabulary"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestRequiredParam(t *testing.T) {
	got := findings(t, map[string]string{"knowledge/a.md": "---\ntitle: T\n---\n"}, map[string]string{"required": "title,use_cases"})
	want := []string{"knowledge/a.md:1 warning tkb/missing-field"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

// TestSeenAsTheToolsSeeIt pins the tools' reading: an empty front matter
// "---\n---" is no front matter closed (the closing is searched after the
// first line), and maturity falls back to status when it is no string.
func TestSeenAsTheToolsSeeIt(t *testing.T) {
	got := findings(t, map[string]string{
		"knowledge/empty.md":  "---\n---\n# Empty\n",
		"knowledge/status.md": "---\ntitle: S\ncategory: c\nmaturity: 1\nstatus: beta\nuse_cases: [a]\ndescription: D\n---\n",
	}, nil)
	want := []string{
		"knowledge/empty.md:1 error tkb/syntax",
		"knowledge/status.md:4 error tkb/field-type",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestInline(t *testing.T) {
	res, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "inline.md", Content: []byte("---\ntitle: x\nrelated: [nowhere]\n---\n[a](missing.md)\n")}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Rule == ruleBrokenLink || f.Rule == ruleNotIndexed {
			t.Errorf("inline content cannot be placed or its links checked: %s", f)
		}
	}
}

func TestHostile(t *testing.T) {
	laughs := "---\na: &a [x, x, x, x, x, x, x, x, x]\n"
	for i := 'b'; i <= 'j'; i++ {
		laughs += fmt.Sprintf("%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	laughs += "tags: *j\n---\n"
	for _, tc := range []struct{ name, body string }{
		{"billion laughs", laughs},
		{"many links", "---\ntitle: x\n---\n" + strings.Repeat("[a](b.md) [[c]] ", 20000)},
		{"many brackets", "---\ntitle: x\n---\n" + strings.Repeat("[", 300000)},
		{"long front matter", "---\n" + strings.Repeat("k: v\n", 100000) + "---\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			root := t.TempDir()
			_ = os.MkdirAll(root+"/knowledge", 0o755)
			_ = os.WriteFile(root+"/knowledge/x.md", []byte(tc.body), 0o644)
			rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root, MaxFileSize: 4 << 20})
			if err != nil {
				t.Fatal(err)
			}
			_ = rep
			if d := time.Since(start); d > slow*30*time.Second { // a hang or a blow-up, not a speed budget
				t.Errorf("took %v", d)
			}
		})
	}
}

func FuzzCheck(f *testing.F) {
	for _, s := range []string{"---\ntitle: a\n---\n# b", "---\ncategory: [a]\nrelated: x\n---\n[l](y.md) [[z]]", "---\n- a\n---\n", "# x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := New().Check(context.Background(), &check.Input{Files: []check.File{{Path: "knowledge/x.md", Content: []byte(s)}}}); err != nil {
			t.Fatal(err)
		}
	})
}

// BenchmarkTypical checks one entry of the valid corpus, with its folder.
func BenchmarkTypical(b *testing.B) {
	data, err := os.ReadFile("testdata/corpus/valid/knowledge/backend/caching.md")
	if err != nil {
		b.Fatal(err)
	}
	in := &check.Input{Files: []check.File{{Path: "knowledge/backend/caching.md", Content: data}}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New().Check(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFolder checks a folder of 500 entries that link to each other.
func BenchmarkFolder(b *testing.B) {
	var files []check.File
	for i := range 500 {
		body := fmt.Sprintf("---\ntitle: Entry %d\nname: e%d\ncategory: c%d\nmaturity: stable\nuse_cases: [a, b]\ndescription: D\nrelated: [e%d]\n---\n# Entry\n\nSee [[e%d]].\n", i, i, i%7, (i+1)%500, (i+2)%500)
		files = append(files, check.File{Path: fmt.Sprintf("knowledge/e%d.md", i), Content: []byte(body)})
	}
	in := &check.Input{Files: files}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New().Check(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}
