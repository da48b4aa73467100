package project

import (
	"os"
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
