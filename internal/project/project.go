// Package project finds the project a Cairn process serves: its root
// directory and the .cairn directory inside it.
package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cairn-dev/cairn/internal/problem"
)

// NoRoot refuses to serve without a project root: why says where none
// was found and how to give one.
func NoRoot(why string) error {
	return &problem.Error{Kind: problem.NoProject, Problem: "no project root: " + why}
}

// EnvRoot names the environment variable that sets the project root.
const EnvRoot = "CAIRN_PROJECT_ROOT"

// DirName is the per-project directory that holds Cairn's data.
const DirName = ".cairn"

// FindRoot returns the project root: $CAIRN_PROJECT_ROOT if set, else the
// first directory from dir upward that holds a .cairn or a .git entry.
func FindRoot(dir string) (string, error) {
	if env := os.Getenv(EnvRoot); env != "" {
		abs, err := filepath.Abs(env)
		if err != nil {
			return "", NoRoot(fmt.Sprintf("%s=%q: %v", EnvRoot, env, err))
		}
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			return "", NoRoot(fmt.Sprintf("%s=%q is not a directory; point it at your project's directory", EnvRoot, env))
		}
		return abs, nil
	}
	start, err := filepath.Abs(dir)
	if err != nil {
		return "", NoRoot(err.Error())
	}
	for d := start; ; {
		for _, marker := range []string{DirName, ".git"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d, nil
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	// The directory is for the logs, not the words: a server over HTTP
	// would show its own paths to every client (issue 34, attack 18).
	return "", &problem.Error{Kind: problem.NoProject,
		Problem: fmt.Sprintf("no project root: no .cairn or .git directory in the working directory or above; run `cairn init` in your project's directory, "+
			"or set %s to it (in your MCP client's config, the server's env)", EnvRoot),
		Err: fmt.Errorf("looked in %s and above", start)}
}

// DBPath returns where the embedded database of the project at root lives.
func DBPath(root string) string { return filepath.Join(root, DirName, "cairn.db") }

// Init creates root/.cairn (if missing) with a .gitignore that keeps the
// database out of version control. It returns the directory's path.
//
// A symbolic link in the store's place is refused, dangling or not: a
// .cairn that is a link, or a cairn.db (or its -wal, -shm, -journal) that
// is one, would put the project's store wherever the link points, outside
// the project, where a committed link can aim it.
func Init(root string) (string, error) {
	dir := filepath.Join(root, DirName)
	if err := notLink(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := notLink(DBPath(root) + suffix); err != nil {
			return "", err
		}
	}
	gi := filepath.Join(dir, ".gitignore")
	if _, err := os.Stat(gi); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(gi, []byte("# Cairn's database is local state; exported memory is meant to be committed.\n*.db\n*.db-wal\n*.db-shm\n"), 0o644); err != nil {
			return "", fmt.Errorf("write %s: %w", gi, err)
		}
	}
	return dir, nil
}

// notLink refuses a path that is a symbolic link; a missing path passes.
func notLink(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		return nil
	}
	return &problem.Error{Kind: problem.Storage,
		Problem: fmt.Sprintf("%s is a symbolic link: Cairn keeps a project's store inside the project, not where a link points", filepath.Join(filepath.Base(filepath.Dir(path)), filepath.Base(path))),
		Fix:     "replace the link with a directory or file of its own (move what it points to into its place if that is the store you want)"}
}
