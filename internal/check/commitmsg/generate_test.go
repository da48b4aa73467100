package commitmsg

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const renameAndEditDiff = `diff --git a/pkg/a.go b/pkg/b.go
similarity index 90%
rename from pkg/a.go
rename to pkg/b.go
index 1111111..2222222 100644
--- a/pkg/a.go
+++ b/pkg/b.go
@@ -1,4 +1,5 @@ package pkg
 package pkg
 
-func A() {}
+// B was A.
+func B() {}
 
diff --git "a/docs/h\303\251llo.md" "b/docs/h\303\251llo.md"
new file mode 100644
index 0000000..3333333
--- /dev/null
+++ "b/docs/h\303\251llo.md"
@@ -0,0 +1,2 @@
+# Hello
+world
\ No newline at end of file
diff --git a/logo.png b/logo.png
deleted file mode 100644
index 4444444..0000000
Binary files a/logo.png and /dev/null differ
`

func TestParseDiff(t *testing.T) {
	files, err := ParseDiff(renameAndEditDiff)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Old, New       string
		Status         Status
		Binary         bool
		Added, Removed int
	}
	var got []row
	for _, f := range files {
		got = append(got, row{f.OldPath, f.NewPath, f.Status, f.Binary, f.Added, f.Removed})
	}
	want := []row{
		{"pkg/a.go", "pkg/b.go", Renamed, false, 2, 1},
		{"", "docs/héllo.md", Added, false, 2, 0},
		{"logo.png", "", Deleted, true, 0, 0},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	if files[0].Hunks[0].Section != "package pkg" {
		t.Errorf("section %q", files[0].Hunks[0].Section)
	}
	newC, err := files[0].Apply([]byte("package pkg\n\nfunc A() {}\n\n"))
	if err != nil || string(newC) != "package pkg\n\n// B was A.\nfunc B() {}\n\n" {
		t.Errorf("Apply = %q, %v", newC, err)
	}
	if _, err := files[0].Apply([]byte("package other\n\nfunc A() {}\n")); err == nil {
		t.Error("Apply on other content: want an error")
	}
}

func TestParseDiffRefusesBrokenHunks(t *testing.T) {
	if _, err := ParseDiff("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n?x\n"); err == nil {
		t.Error("want an error for a hunk line without a mark")
	}
	if _, err := ParseDiff("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -a +1 @@\n"); err == nil {
		t.Error("want an error for a bad hunk header")
	}
	if _, err := Generate(Input{Diff: ""}); !errors.Is(err, ErrEmptyDiff) {
		t.Errorf("empty diff: %v", err)
	}
}

// goChange builds a one-file modification diff of a Go file.
func goChange(t *testing.T, path, old, new string) Input {
	t.Helper()
	var b strings.Builder
	ol, nl := strings.Split(strings.TrimSuffix(old, "\n"), "\n"), strings.Split(strings.TrimSuffix(new, "\n"), "\n")
	b.WriteString("diff --git a/" + path + " b/" + path + "\n--- a/" + path + "\n+++ b/" + path + "\n")
	b.WriteString("@@ -1," + itoa(len(ol)) + " +1," + itoa(len(nl)) + " @@\n")
	for _, l := range ol {
		b.WriteString("-" + l + "\n")
	}
	for _, l := range nl {
		b.WriteString("+" + l + "\n")
	}
	return Input{Diff: b.String(), Old: func(string) ([]byte, error) { return []byte(old), nil }}
}

func itoa(n int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(n)) }

func fmtInt(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func TestGoBreaking(t *testing.T) {
	tests := []struct {
		name, path, old, new string
		breaking             bool
	}{
		{"interface gains a method", "api/api.go",
			"package api\n\ntype Store interface {\n\tGet(k string) string\n}\n",
			"package api\n\ntype Store interface {\n\tGet(k string) string\n\tDelete(k string) error\n}\n", true},
		{"struct field type changes", "api/api.go",
			"package api\n\ntype Config struct {\n\tTimeout int\n}\n",
			"package api\n\nimport \"time\"\n\ntype Config struct {\n\tTimeout time.Duration\n}\n", true},
		{"parameter renamed only", "api/api.go",
			"package api\n\nfunc Open(p string) error { return nil }\n",
			"package api\n\nfunc Open(path string) error { return nil }\n", false},
		{"struct gains a field", "api/api.go",
			"package api\n\ntype Config struct {\n\tTimeout int\n}\n",
			"package api\n\ntype Config struct {\n\tTimeout int\n\tRetries int\n}\n", false},
		{"removal in an internal package", "internal/api/api.go",
			"package api\n\nfunc Open() {}\n\nfunc Close() {}\n",
			"package api\n\nfunc Open() {}\n", false},
		{"removal in package main", "cmd/tool/main.go",
			"package main\n\nfunc Helper() {}\n\nfunc main() {}\n",
			"package main\n\nfunc main() {}\n", false},
		{"method removed from an exported type", "api/api.go",
			"package api\n\ntype C struct{}\n\nfunc (c *C) Do() {}\n\nfunc (c *C) Undo() {}\n",
			"package api\n\ntype C struct{}\n\nfunc (c *C) Do() {}\n", true},
		{"generic type parameter changes", "api/api.go",
			"package api\n\nfunc Map[T any](xs []T) []T { return xs }\n",
			"package api\n\nfunc Map[T comparable](xs []T) []T { return xs }\n", true},
		{"python private def removed among public ones", "lib/util.py",
			"def parse(s):\n    return s\n\n\ndef _private():\n    pass\n\n\ndef dump(x):\n    return x\n",
			"def parse(s):\n    return s\n\n\ndef dump(x):\n    return x\n", false},
		{"python private def removed is not breaking", "lib/util.py",
			"def parse(s):\n    return s\n\n\ndef _private():\n    pass\n",
			"def parse(s):\n    return s\n", false},
		{"python public def removed (really)", "lib/util.py",
			"def parse(s):\n    return s\n\n\ndef dump(x):\n    return x\n",
			"def parse(s):\n    return s\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Generate(goChange(t, tt.path, tt.old, tt.new))
			if err != nil {
				t.Fatal(err)
			}
			if s.Breaking != tt.breaking {
				t.Errorf("breaking = %v, want %v\n%s\n%v", s.Breaking, tt.breaking, s.Message, s.Reasons)
			}
			if tt.breaking && !strings.Contains(s.Message, "\nBREAKING CHANGE: ") {
				t.Errorf("no BREAKING CHANGE footer:\n%s", s.Message)
			}
		})
	}
}

func TestJSExports(t *testing.T) {
	src := []byte("export default function main() {}\nexport const A = 1, b = 2;\nexport { x as y, z };\nexport type { T } from './t';\nexports.old = 1;\nmodule.exports = { p, q: r };\nfunction hidden() {}\n")
	var got []string
	for _, d := range jsAPI(src) {
		got = append(got, d.key)
	}
	want := []string{"export main", "export A", "export default", "export y", "export z", "export T", "export p", "export q", "export old"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
}

func TestGenerateSubjectFitsAndRefs(t *testing.T) {
	long := "package verylongpackagenameforatest\n\n"
	for _, n := range []string{"AlphaBetaGammaDeltaEpsilon", "ZetaEtaThetaIotaKappaLambda", "MuNuXiOmicronPiRhoSigma"} {
		long += "func " + n + "() {}\n"
	}
	in := Input{Diff: "diff --git a/verylongpackagenameforatest/x.go b/verylongpackagenameforatest/x.go\nnew file mode 100644\n--- /dev/null\n+++ b/verylongpackagenameforatest/x.go\n@@ -0,0 +1,5 @@\n+" +
		strings.ReplaceAll(strings.TrimSuffix(long, "\n"), "\n", "\n+") + "\n", Refs: []string{"T-12", "T-14"}}
	s, err := Generate(in)
	if err != nil {
		t.Fatal(err)
	}
	h, _, _ := strings.Cut(s.Message, "\n")
	if len(h) > 72 || s.Type != "feat" {
		t.Errorf("header %q (%d chars), type %s", h, len(h), s.Type)
	}
	if !strings.HasSuffix(s.Message, "\n\nRefs: T-12, T-14\n") {
		t.Errorf("refs footer missing:\n%s", s.Message)
	}
	for _, f := range Lint(s.Message, Options{}) {
		t.Errorf("generated message fails lint: %s", f)
	}
}

// FuzzGenerate: any diff gives a message or an error, never a panic, and
// a message passes Lint's header rules.
func FuzzGenerate(f *testing.F) {
	f.Add(renameAndEditDiff, "package pkg\n\nfunc A() {}\n\n")
	f.Add("diff --git a/go.mod b/go.mod\n--- a/go.mod\n+++ b/go.mod\n@@ -3 +3 @@\n-require x.io/y v1.0.0\n+require x.io/y v1.1.0\n", "module m\n\ngo 1.22\nrequire x.io/y v1.0.0\n")
	f.Add("--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@ def f(\n-def f(a):\n+def g(a):\n", "def f(a):\n")
	f.Fuzz(func(t *testing.T, diff, old string) {
		s, err := Generate(Input{Diff: diff, Old: func(string) ([]byte, error) { return []byte(old), nil }})
		if err != nil {
			return
		}
		h, _, _ := strings.Cut(s.Message, "\n")
		if len([]rune(h)) > 72 {
			t.Errorf("header over 72: %q", h)
		}
		_ = Lint(s.Message, Options{})
	})
}

func FuzzLint(f *testing.F) {
	f.Add("feat(api)!: drop v1\n\nbody\n\nBREAKING CHANGE: gone")
	f.Add("Merge branch 'x'")
	f.Fuzz(func(t *testing.T, msg string) {
		for _, fd := range Lint(msg, Options{}) {
			if fd.Line < 1 {
				t.Errorf("finding without a line: %v", fd)
			}
		}
	})
}
