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

// gitDir returns root's git directory: root/.git, or where a .git file
// (a linked worktree's, a submodule's) points; "" when root has neither.
func gitDir(root string) string {
	dir := filepath.Join(root, ".git")
	fi, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	if fi.IsDir() {
		return dir
	}
	b, err := os.ReadFile(dir)
	if err != nil {
		return ""
	}
	d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return ""
	}
	d = strings.TrimSpace(d)
	if !filepath.IsAbs(d) {
		d = filepath.Join(root, d)
	}
	return filepath.Clean(d)
}

// CommonGitDir returns the git directory every worktree of root's
// repository shares: a linked worktree's git directory names it in its
// commondir file; "" when root is not a git work tree.
func CommonGitDir(root string) string {
	dir := gitDir(root)
	if dir == "" {
		return ""
	}
	b, err := os.ReadFile(filepath.Join(dir, "commondir"))
	if err != nil {
		return dir // the main worktree, or a repository without worktrees
	}
	common := strings.TrimSpace(string(b))
	if !filepath.IsAbs(common) {
		common = filepath.Join(dir, common)
	}
	return filepath.Clean(common)
}

// StoreRoot returns the directory whose .cairn holds the store of the
// project at root. All worktrees of one git repository are one project: a
// linked worktree's store is its main worktree's (the directory holding the
// common git directory, when that is a ".git"), or, for a bare repository,
// inside the common git directory itself. Anything else is its own root.
func StoreRoot(root string) string {
	dir, common := gitDir(root), CommonGitDir(root)
	if dir == "" || common == "" || dir == common {
		return root
	}
	if fi, err := os.Stat(common); err != nil || !fi.IsDir() {
		return root // a worktree whose repository is gone: keep its data local
	}
	if filepath.Base(common) == ".git" {
		return filepath.Dir(common)
	}
	return common
}
