package hands

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// cairn init --git-hooks in a real repository: git then runs the hooks.
func TestInitGitHooks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	bin := cairntest.Binary(t)
	dir := t.TempDir()
	git := func(args ...string) (string, error) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	must := func(args ...string) {
		t.Helper()
		if out, err := git(args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	must("init", "-q")
	os.MkdirAll(filepath.Join(dir, ".git", "hooks"), 0o755)
	mine := "#!/bin/sh\necho mine\n"
	os.WriteFile(filepath.Join(dir, ".git", "hooks", "post-commit"), []byte(mine), 0o755)

	out, _, code := runCheck(t, dir, "init", "--git-hooks", "--command", bin)
	if code != 0 || !strings.Contains(out, "created") {
		t.Fatalf("init --git-hooks: exit %d\n%s", code, out)
	}
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("hello\n"), 0o644)
	must("add", "a.txt")
	if out, err := git("commit", "-qm", "Added a file."); err == nil || !strings.Contains(out, "commitmsg/header-format") {
		t.Errorf("a bad message was committed: %v\n%s", err, out)
	}
	must("commit", "-qm", "feat: add a file")
	// A staged secret stops the commit; the hook scans only staged files.
	os.WriteFile(filepath.Join(dir, "app.env"), []byte("GITHUB_TOKEN="+handsToken+"\n"), 0o644)
	must("add", "app.env")
	if out, err := git("commit", "-qm", "chore: add env"); err == nil || !strings.Contains(out, "secrets/github-token") {
		t.Errorf("a staged token was committed: %v\n%s", err, out)
	}
	// A second run changes nothing; a person's hook is kept, and the
	// hook managers are left to themselves.
	out, _, _ = runCheck(t, dir, "init", "--git-hooks", "--command", bin)
	if strings.Count(out, "unchanged") != 2 {
		t.Errorf("second run:\n%s", out)
	}
	os.WriteFile(filepath.Join(dir, ".git", "hooks", "pre-commit"), []byte(mine), 0o755)
	out, _, _ = runCheck(t, dir, "init", "--git-hooks", "--command", bin)
	if b, _ := os.ReadFile(filepath.Join(dir, ".git", "hooks", "pre-commit")); string(b) != mine || !strings.Contains(out, "kept") {
		t.Errorf("a person's pre-commit hook was touched:\n%s", out)
	}
	os.WriteFile(filepath.Join(dir, "lefthook.yml"), []byte("pre-commit:\n"), 0o644)
	out, _, _ = runCheck(t, dir, "init", "--git-hooks", "--command", bin)
	if !strings.Contains(out, "lefthook: nothing was written") || !strings.Contains(out, "{staged_files}") {
		t.Errorf("lefthook:\n%s", out)
	}
}
