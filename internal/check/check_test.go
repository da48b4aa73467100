package check_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// todo reports every line holding "TODO" in .txt files: enough of a
// checker to test what Run does around checkers.
type todo struct{ params map[string]string }

func (*todo) Name() string { return "todo" }
func (*todo) Rules() []check.Rule {
	return []check.Rule{{ID: "todo/left", Severity: check.Warning, Title: "TODO left", Why: "w", Fix: "f"}}
}
func (*todo) Wants(p string, _ []byte) bool { return strings.HasSuffix(p, ".txt") }
func (t *todo) Check(_ context.Context, in *check.Input) (check.Result, error) {
	t.params = in.Params
	var res check.Result
	for _, f := range in.Files {
		for i, line := range strings.Split(string(f.Content), "\n") {
			if c := strings.Index(line, "TODO"); c >= 0 {
				res.Findings = append(res.Findings, check.Finding{Rule: "todo/left", File: f.Path, Line: i + 1, Col: c + 1, Message: "a TODO is left"})
			}
		}
	}
	return res, nil
}

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func lines(rep *check.Report) []string {
	var out []string
	for _, f := range rep.Findings {
		out = append(out, f.String())
	}
	return out
}

func TestRun(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		".gitignore":         "build/\n*.log.txt\n",
		"a.txt":              "ok\nTODO one\n",
		"sub/b.txt":          "# cairn:ignore todo/left generated file\nTODO two\nTODO three\n",
		"sub/c.txt":          "cairn:ignore-file todo/left\nTODO four\n",
		"sub/.gitignore":     "skip.txt\n",
		"sub/skip.txt":       "TODO ignored by sub/.gitignore\n",
		"build/x.txt":        "TODO ignored by .gitignore\n",
		"d.log.txt":          "TODO ignored\n",
		"node_modules/n.txt": "TODO never walked\n",
		"bin.txt":            "TODO\x00binary\n",
		"latin1.txt":         "TODO caf\xe9\n",
		"big.txt":            strings.Repeat("TODO\n", 100),
		"other.md":           "TODO not a .txt\n",
	})
	c := &todo{}
	rep, err := check.Run(context.Background(), []check.Checker{c}, check.Request{
		Root: root, MaxFileSize: 200, Params: map[string]map[string]string{"todo": {"k": "v"}},
		Ignore: []check.Suppression{{Rule: "todo/*", Path: "nowhere/**"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"a.txt:2:1 warning todo/left a TODO is left",
		"sub/b.txt:3:1 warning todo/left a TODO is left",
		"sub/c.txt:1:1 info cairn/suppression-reason this suppression of todo/left gives no reason Fix: add why after the rule: cairn:ignore todo/left <reason>",
	}
	if d := cmp.Diff(want, lines(rep)); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
	if rep.Suppressed["todo/left"] != 2 {
		t.Errorf("suppressed = %v, want 2 of todo/left", rep.Suppressed)
	}
	wantSkipped := []check.Skipped{
		{Path: "big.txt", Reason: "500 bytes, over the 200-byte cap"},
		{Path: "bin.txt", Reason: "binary (it has NUL bytes)"},
		{Path: "latin1.txt", Reason: "not UTF-8 text"},
	}
	if d := cmp.Diff(wantSkipped, rep.Skipped); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
	if rep.Files != 3 || rep.ByChecker["todo"] != 3 {
		t.Errorf("files = %d, by checker %v; want 3", rep.Files, rep.ByChecker)
	}
	if c.params["k"] != "v" {
		t.Errorf("params = %v", c.params)
	}
	if rep.Findings[0].Link != "cairn:rule/todo/left" {
		t.Errorf("link = %q", rep.Findings[0].Link)
	}

	t.Run("project suppression by path", func(t *testing.T) {
		rep, err := check.Run(context.Background(), []check.Checker{c}, check.Request{Root: root,
			Paths: []string{"a.txt"}, Ignore: []check.Suppression{{Rule: "todo/left", Path: "*.txt", Reason: "r"}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Findings) != 0 || rep.SuppressedTotal() != 1 {
			t.Errorf("findings %v, suppressed %v", lines(rep), rep.Suppressed)
		}
	})
}

func TestRunRefusesPaths(t *testing.T) {
	outside := t.TempDir()
	write(t, outside, map[string]string{"secret.txt": "TODO outside\n"})
	root := t.TempDir()
	write(t, root, map[string]string{"in.txt": "TODO in\n"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	c := &todo{}
	for _, p := range []string{"../x.txt", outside, "link.txt", "linkdir/secret.txt", "missing.txt"} {
		_, err := check.Run(context.Background(), []check.Checker{c}, check.Request{Root: root, Paths: []string{p}})
		fe, ok := errors.AsType[*problem.FieldError](err)
		if !ok || fe.Field != "path" {
			t.Errorf("path %q: err = %v, want a field error on path", p, err)
		}
	}
	// A walk lists the link to a file but does not read out through it.
	rep, err := check.Run(context.Background(), []check.Checker{c}, check.Request{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"in.txt:1:1 warning todo/left a TODO is left"}, lines(rep)); d != "" {
		t.Errorf("findings (-want +got):\n%s", d)
	}
	if len(rep.Skipped) != 1 || rep.Skipped[0].Path != "link.txt" {
		t.Errorf("skipped = %v, want link.txt", rep.Skipped)
	}
}

func TestRunInline(t *testing.T) {
	c := &todo{}
	rep, err := check.Run(context.Background(), []check.Checker{c}, check.Request{
		Inline: &check.File{Path: "notes.txt", Content: []byte("TODO\n")}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"notes.txt:1:1 warning todo/left a TODO is left"}, lines(rep)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	for _, in := range []check.File{{Path: "x.bin", Content: []byte("a\x00")}, {Path: "x.md", Content: []byte("TODO")}} {
		if _, err := check.Run(context.Background(), []check.Checker{c}, check.Request{Inline: &in}); !problem.Is(err, problem.Invalid) {
			t.Errorf("%s: err = %v, want invalid", in.Path, err)
		}
	}
	if _, err := check.Run(context.Background(), []check.Checker{c}, check.Request{Only: []string{"nope"}}); !problem.Is(err, problem.Invalid) {
		t.Errorf("only nope: err = %v", err)
	}
}
