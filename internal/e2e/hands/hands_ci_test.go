package hands

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// `cairn ci`, `cairn commit-msg` and the CI tools end to end, on a git
// repository made here: main, then a feature branch with a commit, a
// staged change and an untracked file; main moves on after the branch.

func ciRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := cairntest.Project(t)
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write(".gitignore", ".cairn/*.db*\n.cairn/cairn.db*\n")
	write("go.mod", "module example.com/shop\n\ngo 1.26\n")
	write("db/a.sql", "SELECT 1;\nUPDATE t SET x = 1;\n")
	write("db/old.sql", "DELETE FROM old;\n")
	write("api/api.go", "package api\n\n// Open opens.\nfunc Open(name string) error { return nil }\n\n// Close closes.\nfunc Close() {}\n")
	write("test.sh", "#!/bin/sh\necho '3 passed in 0.01s'\n")
	write(".cairn/rules/sql.yaml", "rules:\n  - id: no-purge\n    globs: ['db/**']\n    match: { pattern: '^DELETE FROM [a-z]+;' }\n")
	write(".cairn/config.toml", "[[ci.commands]]\nname = \"tests\"\nrun = \"sh test.sh\"\ntimeout = \"1m\"\n\n[[ci.commands]]\nname = \"lint\"\nrun = \"echo 'lint: 2 problems' >&2; exit 4\"\n")
	git("init", "-q", "-b", "main")
	git("add", "-A")
	git("commit", "-qm", "feat: start")
	git("checkout", "-qb", "feature")
	write("db/a.sql", "SELECT 1;\nUPDATE t SET x = 1;\nDELETE FROM t;\n")
	git("commit", "-qam", "feat: purge")
	git("checkout", "-q", "main")
	write("db/old.sql", "DELETE FROM old;\nDELETE FROM older;\n")
	git("commit", "-qam", "chore: more")
	git("checkout", "-q", "feature")
	write("api/api.go", "package api\n\n// Open opens.\nfunc Open(name string, mode int) error { return nil }\n")
	git("add", "api/api.go")
	write("db/new.sql", "UPDATE u SET y = 2;\n")
	return dir
}

func TestCICommand(t *testing.T) {
	dir := ciRepo(t)

	// The change since main: exactly the branch's files, main's own
	// change to old.sql left out; with --lines, a.sql's line 2 too.
	out, errOut, code := runCheck(t, dir, "ci", "--diff", "main", "--lines", "--format", "github", "--no-commands")
	if code != 0 {
		t.Errorf("warnings only: exit %d, want 0\n%s%s", code, out, errOut)
	}
	annot := regexp.MustCompile(`^::(error|warning|notice) file=[^,]+,line=\d+(,endLine=\d+)?(,col=\d+)?(,endColumn=\d+)?,title=[^:]+::.+$`)
	var files []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if !annot.MatchString(l) {
			t.Errorf("not a GitHub workflow command: %q", l)
		}
		files = append(files, l[strings.Index(l, "file=")+5:strings.Index(l, ",line=")]+":"+strings.Split(strings.Split(l, ",line=")[1], ",")[0])
	}
	if got := strings.Join(files, " "); got != "db/a.sql:3 db/a.sql:3 db/new.sql:1" {
		t.Errorf("annotations on %s, want db/a.sql:3 (the check and the project rule) db/new.sql:1\n%s", got, out)
	}
	if _, _, code := runCheck(t, dir, "ci", "--diff", "main", "--no-commands", "--fail-on", "warning"); code != 1 {
		t.Errorf("--fail-on warning: exit %d, want 1", code)
	}

	// The whole tree with the commands: the lint command fails (exit 1),
	// and both results are recorded for the gates.
	out, errOut, code = runCheck(t, dir, "ci", "--format", "json")
	if code != 1 {
		t.Fatalf("a failing command: exit %d, want 1\n%s%s", code, out, errOut)
	}
	var v struct {
		Scope    string           `json:"scope"`
		Findings []map[string]any `json:"findings"`
		Commands []map[string]any `json:"commands"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rules []string
	for _, f := range v.Findings {
		rules = append(rules, f["file"].(string)+" "+f["rule"].(string))
	}
	got := strings.Join(rules, "\n")
	for _, want := range []string{"db/old.sql sql/delete-without-where", "db/a.sql sql/update-without-where", ".cairn/config.toml ci/command-failed", "db/old.sql project/no-purge"} {
		if !strings.Contains(got, want) {
			t.Errorf("cairn ci lacks %s:\n%s", want, got)
		}
	}
	if v.Scope != "the whole tree" || len(v.Commands) != 2 || v.Commands[1]["exit_code"] != float64(4) {
		t.Errorf("scope %q, commands %v", v.Scope, v.Commands)
	}
	if !strings.Contains(errOut, "lint: 2 problems") {
		t.Errorf("the commands' output is not shown on stderr:\n%s", errOut)
	}
	sessions, _, _ := runCheck(t, dir, "sessions", "--json")
	if !strings.Contains(sessions, `"ci"`) {
		t.Errorf("no session of agent ci recorded:\n%s", sessions)
	}

	// The recorded test run is the tests_pass gate's evidence; the failed
	// lint command is an unresolved failure.
	srv := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "hands", "--read-only"}})
	gates := srv.OK("check_quality_gates", args{}).Text
	for _, want := range []string{"PASS tests_pass [TEST]: sh test.sh", "FAIL no_unresolved_failures", "UNKNOWN coverage"} {
		if !strings.Contains(gates, want) {
			t.Errorf("check_quality_gates lacks %q:\n%s", want, gates)
		}
	}

	// SARIF 2.1.0 to a file.
	sarif := filepath.Join(t.TempDir(), "out.sarif")
	if _, _, code := runCheck(t, dir, "ci", "--no-commands", "--format", "sarif", "--output", sarif); code != 0 {
		t.Errorf("sarif: exit %d", code)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool    struct{ Driver struct{ Name string } } `json:"tool"`
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	b, _ := os.ReadFile(sarif)
	if err := json.Unmarshal(b, &log); err != nil || log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Errorf("sarif: %v %+v", err, log)
	}

	// Could not run: exit 2.
	for _, a := range [][]string{{"ci", "--diff", "nosuch"}, {"ci", "--format", "xml"}, {"ci", "--lines"}} {
		if _, errOut, code := runCheck(t, dir, a...); code != 2 || errOut == "" {
			t.Errorf("cairn %v: exit %d %q, want 2", a, code, errOut)
		}
	}
}

func TestCommitMsgCommandAndTools(t *testing.T) {
	dir := ciRepo(t)
	out, _, code := runCheck(t, dir, "commit-msg")
	if code != 0 || !strings.Contains(out, "BREAKING CHANGE:") || !strings.HasPrefix(out, "feat") && !strings.Contains(strings.SplitN(out, "\n", 2)[0], "!:") {
		t.Errorf("cairn commit-msg: exit %d\n%s", code, out)
	}
	msg := filepath.Join(t.TempDir(), "COMMIT_EDITMSG")
	os.WriteFile(msg, []byte("Fixed the parser.\n"), 0o644)
	if out, _, code := runCheck(t, dir, "commit-msg", "--check", msg); code != 1 || !strings.Contains(out, "commitmsg/header-format") {
		t.Errorf("a bad message: exit %d\n%s", code, out)
	}
	os.WriteFile(msg, []byte("fix(parser): accept empty input\n"), 0o644)
	if out, _, code := runCheck(t, dir, "commit-msg", "--check", msg); code != 0 {
		t.Errorf("a good message: exit %d\n%s", code, out)
	}

	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "hands", "--read-only"}})
	r := s.OK("generate_commit_message", args{})
	if !strings.Contains(r.Text, "From staged changes") || r.Structured["breaking"] != true {
		t.Errorf("generate_commit_message:\n%s", r.Text)
	}
	r = s.OK("ci_diff_check", args{"base": "main"})
	if !strings.Contains(r.Text, "db/a.sql:3:1 warning sql/delete-without-where") || strings.Contains(r.Text, "db/old.sql") || strings.Contains(r.Text, "db/a.sql:2") {
		t.Errorf("ci_diff_check:\n%s", r.Text)
	}
	if len(r.Text) > 2048 {
		t.Errorf("ci_diff_check answers %d bytes", len(r.Text))
	}
	r = s.OK("check_compliance", args{"base": "main"})
	if !strings.Contains(r.Text, "Compliance ") || !strings.Contains(r.Text, "project/no-purge") {
		t.Errorf("check_compliance:\n%s", r.Text)
	}
	r = s.OK("explain_violation", args{"rule": "no-purge"})
	if !strings.Contains(r.Text, ".cairn/rules/sql.yaml:2") {
		t.Errorf("explain_violation:\n%s", r.Text)
	}
	r = s.OK("verify_version", args{"name": "example.com/none"})
	if !strings.Contains(r.Text, "not found") {
		t.Errorf("verify_version:\n%s", r.Text)
	}
}
