package hands_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	cairnproject "github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service/hands"
)

// gitRepo makes a repository in the test: files committed on main, then a
// feature branch with changes committed, staged, left in the work tree
// and untracked.
func gitRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	root := project(t, map[string]string{
		"go.mod":       "module example.com/shop\n\ngo 1.26\n",
		"db/a.sql":     "SELECT 1;\nUPDATE t SET x = 1;\nSELECT 2;\n",
		"db/b.sql":     "DELETE FROM old;\n",
		"api/api.go":   "package api\n\n// Open opens.\nfunc Open(name string) error { return nil }\n\n// Close closes.\nfunc Close() {}\n",
		"docs/read.md": "# Shop\n",
	})
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	run("add", "-A")
	run("commit", "-qm", "feat: start")
	run("checkout", "-qb", "feature")
	write := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Committed on the branch: a new statement on line 4 of a.sql.
	write("db/a.sql", "SELECT 1;\nUPDATE t SET x = 1;\nSELECT 2;\nDELETE FROM t;\n")
	run("commit", "-qam", "feat: more")
	// main moves on after the branch: not part of the change.
	run("checkout", "-q", "main")
	write("docs/read.md", "# Shop\n\nMore.\n")
	run("commit", "-qam", "docs: more")
	run("checkout", "-q", "feature")
	// Staged: the exported API changes.
	write("api/api.go", "package api\n\n// Open opens.\nfunc Open(name string, mode int) error { return nil }\n")
	run("add", "api/api.go")
	// Untracked: a new file.
	write("db/c.sql", "UPDATE u SET y = 2;\n")
	return root
}

func TestCIDiffSeesExactlyTheChangedFilesAndLines(t *testing.T) {
	root := gitRepo(t)
	h := hands.New(root)
	res, err := h.CI(context.Background(), hands.CIRequest{Base: "main", All: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []hands.Changed{
		{Path: "api/api.go", Status: "modified", Lines: [][2]int{{4, 4}}},
		{Path: "db/a.sql", Status: "modified", Lines: [][2]int{{4, 4}}},
		{Path: "db/c.sql", Status: "untracked", Lines: [][2]int{{1, 1}}},
	}
	if d := cmp.Diff(want, res.Changed); d != "" {
		t.Errorf("changed files (-want +got):\n%s", d)
	}
	if !strings.HasPrefix(res.Scope, "changes since main (merge base ") {
		t.Errorf("scope %q", res.Scope)
	}
	// Every finding of a.sql: the UPDATE on line 2 (unchanged) and the
	// DELETE on line 4 (changed); b.sql was not changed and is not read.
	got := rules(res.Findings)
	for _, w := range []string{"db/a.sql sql/update-without-where", "db/a.sql sql/delete-without-where", "db/c.sql sql/update-without-where"} {
		if !slices.Contains(got, w) {
			t.Errorf("missing %s in %v", w, got)
		}
	}
	if slices.ContainsFunc(res.Findings, func(f check.Finding) bool { return f.File == "db/b.sql" }) {
		t.Errorf("an unchanged file was checked: %v", got)
	}
	// Only the changed lines: the UPDATE of line 2 goes.
	res, err = h.CI(context.Background(), hands.CIRequest{Base: "main", Lines: true, All: true})
	if err != nil {
		t.Fatal(err)
	}
	got = rules(res.Findings)
	if slices.Contains(got, "db/a.sql sql/update-without-where") || !slices.Contains(got, "db/a.sql sql/delete-without-where") || res.OffLines != 1 {
		t.Errorf("on changed lines: %v, %d off", got, res.OffLines)
	}
}

func TestCIWholeTreeAndRefusals(t *testing.T) {
	root := gitRepo(t)
	h := hands.New(root)
	res, err := h.CI(context.Background(), hands.CIRequest{All: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Scope != "the whole tree" || !res.Drift || !slices.Contains(rules(res.Findings), "db/b.sql sql/delete-without-where") {
		t.Errorf("whole tree: %s %v %v", res.Scope, res.Drift, rules(res.Findings))
	}
	for _, tc := range []struct {
		req   hands.CIRequest
		field string
	}{
		{hands.CIRequest{Base: "--upload-pack=x"}, "base"},
		{hands.CIRequest{Base: "nosuchbranch"}, "base"},
		{hands.CIRequest{Base: "main", Diff: "x"}, "base"},
		{hands.CIRequest{Lines: true}, "lines"},
		{hands.CIRequest{Diff: "not a diff"}, "diff"},
	} {
		_, err := h.CI(context.Background(), tc.req)
		fe, ok := errors.AsType[*problem.FieldError](err)
		if !ok || fe.Field != tc.field || fe.Fix == "" {
			t.Errorf("%+v: %v, want a refusal of %s", tc.req, err, tc.field)
		}
	}
	// Not a git work tree: base is refused, saying so.
	_, err = hands.New(project(t, map[string]string{"a.sql": "SELECT 1;\n"})).CI(context.Background(), hands.CIRequest{Base: "main"})
	if fe, ok := errors.AsType[*problem.FieldError](err); !ok || !strings.Contains(fe.Problem, "git") {
		t.Errorf("no git: %v", err)
	}
}

func TestChangedFilesFromADiff(t *testing.T) {
	diff := "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,4 +1,5 @@\n a\n-b\n+B\n+C\n c\n d\n@@ -10,2 +11,2 @@\n k\n-l\n+L\n" +
		"diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"
	got, err := hands.ChangedFiles(diff)
	if err != nil {
		t.Fatal(err)
	}
	want := []hands.Changed{{Path: "x.go", Status: "modified", Lines: [][2]int{{2, 3}, {12, 12}}}, {Path: "gone.txt", Status: "deleted"}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestCommitMessageFromStagedChangesAndRanges(t *testing.T) {
	root := gitRepo(t)
	h := hands.New(root)
	res, err := h.CommitMessage(context.Background(), hands.CommitRequest{Refs: []string{"T12"}})
	if err != nil {
		t.Fatal(err)
	}
	s := res.Suggestion
	if res.Source != "staged changes" || !s.Breaking || !strings.Contains(s.Message, "BREAKING CHANGE:") || !strings.Contains(s.Message, "Refs: T12") {
		t.Errorf("staged: %s\n%s", res.Source, s.Message)
	}
	res, err = h.CommitMessage(context.Background(), hands.CommitRequest{Range: "main...feature"})
	if err != nil {
		t.Fatal(err)
	}
	// From the merge base: only a.sql, not main's docs change.
	if res.Suggestion.Breaking || strings.Contains(res.Suggestion.Message, "read.md") || !strings.Contains(res.Suggestion.Message, "a.sql") {
		t.Errorf("range: %s", res.Suggestion.Message)
	}
	res, err = h.CommitMessage(context.Background(), hands.CommitRequest{Message: "Fixed it."})
	if err != nil || res.Valid() || len(res.Findings) == 0 {
		t.Errorf("check: %v %+v", err, res)
	}
	res, err = h.CommitMessage(context.Background(), hands.CommitRequest{Message: "fix(api): accept a mode\n"})
	if err != nil || !res.Valid() {
		t.Errorf("check of a good message: %v %+v", err, res)
	}
	for _, req := range []hands.CommitRequest{{Message: "x", Diff: "y"}, {Range: "-x"}, {Range: "..b"}, {Refs: []string{"a,b"}}, {Diff: "nothing"}} {
		if _, err := h.CommitMessage(context.Background(), req); !errors.As(err, new(*problem.FieldError)) {
			t.Errorf("%+v: %v, want a field error", req, err)
		}
	}
}

func TestVerifyVersionInAPackageDirectory(t *testing.T) {
	root := project(t, map[string]string{
		"web/package.json":      `{"name":"web","dependencies":{"left-pad":"^1.3.0"}}`,
		"web/package-lock.json": `{"name":"web","lockfileVersion":3,"packages":{"":{"dependencies":{"left-pad":"^1.3.0"}},"node_modules/left-pad":{"version":"1.1.0"}}}`,
	})
	h := hands.New(root)
	r, err := h.VerifyVersion(context.Background(), hands.VersionRequest{Name: "left-pad", Believed: "1.3.0", Dir: "web"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Agree || r.BeliefMatches == nil || *r.BeliefMatches {
		t.Errorf("drifted lock agreed: %+v", r)
	}
	for _, e := range r.Evidence {
		if !strings.HasPrefix(e.File, "web/") {
			t.Errorf("evidence file %q is not relative to the root", e.File)
		}
	}
	for _, dir := range []string{"../", "nope", "web/package.json"} {
		if _, err := h.VerifyVersion(context.Background(), hands.VersionRequest{Name: "x", Dir: dir}); !errors.As(err, new(*problem.FieldError)) {
			t.Errorf("dir %q: %v", dir, err)
		}
	}
}

func TestRunCommandRecordsExitAndTimeout(t *testing.T) {
	h := hands.New(t.TempDir())
	ok := h.RunCommand(context.Background(), cairnproject.CICommand{Name: "ok", Run: "echo hi", Timeout: time.Minute}, nil)
	if ok.Failed() || !strings.Contains(ok.Output, "hi") {
		t.Errorf("ok: %+v", ok)
	}
	bad := h.RunCommand(context.Background(), cairnproject.CICommand{Name: "bad", Run: "echo 'Error: boom' >&2; exit 3", Timeout: time.Minute}, nil)
	f, isF := bad.Finding()
	if bad.ExitCode != 3 || !isF || f.Rule != hands.RuleCommandFailed || !strings.Contains(f.Message, "boom") {
		t.Errorf("bad: %+v %+v", bad, f)
	}
	slow := h.RunCommand(context.Background(), cairnproject.CICommand{Name: "slow", Run: "sleep 5", Timeout: 100 * time.Millisecond}, nil)
	if f, _ := slow.Finding(); !slow.TimedOut || f.Rule != hands.RuleCommandTimeout {
		t.Errorf("slow: %+v", slow)
	}
}

func TestComplianceRunsProjectRulesWithAScore(t *testing.T) {
	root := project(t, map[string]string{
		".cairn/rules/r.yaml": "rules:\n  - id: no-delete\n    severity: error\n    globs: ['**/*.sql']\n    match: { pattern: '^DELETE' }\n  - id: readme\n    match: { require_file: README.md }\n",
		"db/a.sql":            "DELETE FROM t WHERE id = 1;\n",
		"db/b.sql":            "SELECT 1;\n",
		"db/c.sql":            "SELECT 2;\n",
	})
	h := hands.New(root)
	res, err := h.CI(context.Background(), hands.CIRequest{All: true})
	if err != nil {
		t.Fatal(err)
	}
	got := rules(res.Findings)
	if !slices.Contains(got, "db/a.sql project/no-delete") || !slices.Contains(got, " project/readme") || res.Rules != 2 {
		t.Errorf("findings %v, rules %d", got, res.Rules)
	}
	// 3 files checked + 1 project-wide finding = 4 units; a.sql and the
	// missing README fail: 50%.
	if res.Score.Units != 4 || res.Score.Failing != 2 || res.Score.Value != 50 {
		t.Errorf("score %+v", res.Score)
	}
	res, err = h.CI(context.Background(), hands.CIRequest{Paths: []string{"db/b.sql"}, All: true})
	if err != nil || res.Score.Value != 100 || len(res.Findings) != 0 {
		t.Errorf("a clean path: %v %+v %v", err, res.Score, rules(res.Findings))
	}
	e, err := h.Explain("no-delete")
	if err != nil || !e.Project || e.Source != ".cairn/rules/r.yaml:2" || e.Rule.ID != "project/no-delete" {
		t.Errorf("explain: %v %+v", err, e)
	}
	if e, err := h.Explain("sql/update-without-where"); err != nil || e.Checker != "sql" || e.Rule.Bad == "" {
		t.Errorf("explain a validator's rule: %v %+v", err, e)
	}
	if _, err := h.Explain("sql/nope"); !errors.As(err, new(*problem.FieldError)) {
		t.Errorf("unknown rule: %v", err)
	}
	// A malformed rule file refuses the run, naming file and line.
	if err := os.WriteFile(filepath.Join(root, ".cairn/rules/r.yaml"), []byte("rules:\n  - id: x\n    match: { max_lines: many }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = h.CI(context.Background(), hands.CIRequest{All: true})
	if pe, ok := errors.AsType[*problem.Error](err); !ok || pe.Kind != problem.Malformed || !strings.Contains(pe.Problem, ".cairn/rules/r.yaml:3:") {
		t.Errorf("malformed: %v", err)
	}
}
