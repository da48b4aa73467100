package project

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestGitBranch(t *testing.T) {
	write := func(path, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	repo := t.TempDir()
	write(filepath.Join(repo, ".git", "HEAD"), "ref: refs/heads/feat/memory\n")
	detached := t.TempDir()
	write(filepath.Join(detached, ".git", "HEAD"), "0123456789abcdef0123456789abcdef01234567\n")
	worktree := t.TempDir()
	write(filepath.Join(worktree, ".git"), "gitdir: ../wt-meta\n")
	write(filepath.Join(filepath.Dir(worktree), "wt-meta", "HEAD"), "ref: refs/heads/wt\n")
	for _, tc := range []struct{ root, want string }{
		{repo, "feat/memory"},
		{detached, "0123456789ab"},
		{worktree, "wt"},
		{t.TempDir(), ""},
	} {
		if got := GitBranch(tc.root); got != tc.want {
			t.Errorf("GitBranch(%s) = %q, want %q", tc.root, got, tc.want)
		}
	}
}

// TestStoreRootWorktrees: every worktree of one repository, made by the
// real git, finds the main worktree's store; a plain directory and the main
// worktree are their own.
func TestStoreRootWorktrees(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git binary")
	}
	base := t.TempDir()
	main := filepath.Join(base, "repo")
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if err := os.MkdirAll(main, 0o755); err != nil {
		t.Fatal(err)
	}
	run(main, "init", "-q", "-b", "main")
	run(main, "commit", "-q", "--allow-empty", "-m", "first")
	wt := filepath.Join(base, "wt-feature")
	run(main, "worktree", "add", "-q", "-b", "feature", wt)
	nested := filepath.Join(base, "deeper", "wt2")
	run(main, "worktree", "add", "-q", "-b", "other", nested)
	bare := filepath.Join(base, "bare.git")
	run(base, "clone", "-q", "--bare", main, bare)
	wtBare := filepath.Join(base, "from-bare")
	run(bare, "worktree", "add", "-q", "-b", "b2", wtBare)

	for _, tc := range []struct{ root, want string }{
		{main, main},
		{wt, main},
		{nested, main},
		{wtBare, bare},
		{base, base},
	} {
		got, _ := filepath.EvalSymlinks(StoreRoot(tc.root))
		want, _ := filepath.EvalSymlinks(tc.want)
		if got != want {
			t.Errorf("StoreRoot(%s) = %s, want %s", tc.root, got, want)
		}
	}
	if got := GitBranch(wt); got != "feature" {
		t.Errorf("GitBranch(worktree) = %q, want feature", got)
	}
}
