package project

import (
	"os"
	"path/filepath"
	"strings"
)

// GitBranch returns the branch checked out in root's git repository, read
// from .git directly (no git binary): the branch name, or the first 12
// characters of the commit for a detached HEAD; "" when root is not in a
// git work tree. A .git file (a worktree or submodule) is followed.
func GitBranch(root string) string {
	gitDir := filepath.Join(root, ".git")
	fi, err := os.Stat(gitDir)
	if err != nil {
		return ""
	}
	if !fi.IsDir() {
		b, err := os.ReadFile(gitDir)
		if err != nil {
			return ""
		}
		line := strings.TrimSpace(string(b))
		dir, ok := strings.CutPrefix(line, "gitdir:")
		if !ok {
			return ""
		}
		gitDir = strings.TrimSpace(dir)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(root, gitDir)
		}
	}
	b, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return ""
	}
	head := strings.TrimSpace(string(b))
	if ref, ok := strings.CutPrefix(head, "ref:"); ok {
		ref = strings.TrimSpace(ref)
		return strings.TrimPrefix(ref, "refs/heads/")
	}
	if len(head) >= 12 {
		return head[:12]
	}
	return head
}
