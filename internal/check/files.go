package check

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/cairn-dev/cairn/internal/problem"
)

// DefaultMaxFileSize is the largest file Run reads unless the request says
// otherwise: checked files and the files a checker reads beside them.
const DefaultMaxFileSize = 1 << 20

// DefaultMaxFiles is how many files a walk lists before it stops and says so.
const DefaultMaxFiles = 20000

// skipDirs are never walked: git's own, Cairn's store, and installed
// packages (which a .gitignore names in nearly every project that has them).
var skipDirs = []string{".git", ".cairn", "node_modules", ".hg", ".svn"}

// ErrOutside refuses a path that leaves the project: by "..", by an absolute
// path elsewhere, or through a symbolic link.
var ErrOutside = errors.New("outside the project")

// ErrTooLarge refuses a file over the size cap.
var ErrTooLarge = errors.New("over the size cap")

// SizeError is a file over the size cap.
type SizeError struct {
	Path      string
	Size, Max int64
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("%s is %d bytes, over the %d-byte cap", e.Path, e.Size, e.Max)
}

// Unwrap makes every SizeError an ErrTooLarge.
func (e *SizeError) Unwrap() error { return ErrTooLarge }

// tree is the project as the checkers see it: a root, the gitignore rules
// read from it, and the file list, walked once on first use.
type tree struct {
	root    string // absolute, symlinks resolved
	maxSize int64
	max     int

	once      sync.Once
	files     []string // slash paths relative to root, sorted
	truncated bool
	err       error
}

func newTree(root string, maxSize int64, max int) (*tree, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("project root %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("project root %s: %w", root, err)
	}
	return &tree{root: real, maxSize: maxSize, max: max}, nil
}

// rel resolves p (relative to the root, or absolute inside it) to a slash
// path relative to the root, refusing any path that leaves it, a symbolic
// link on the way included. The path need not exist; the part that does is
// resolved.
func (t *tree) rel(p string) (string, error) {
	if p == "" || p == "." {
		return "", nil
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(t.root, filepath.FromSlash(p))
	}
	abs = filepath.Clean(abs)
	real, err := evalExisting(abs)
	if err != nil {
		return "", err
	}
	r, err := filepath.Rel(t.root, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", ErrOutside
	}
	if r == "." {
		return "", nil
	}
	return filepath.ToSlash(r), nil
}

// evalExisting resolves the symbolic links of the longest part of p that
// exists, and appends the rest.
func evalExisting(p string) (string, error) {
	rest := ""
	for {
		real, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(real, rest), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return p, nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

func (t *tree) abs(rel string) string { return filepath.Join(t.root, filepath.FromSlash(rel)) }

// ReadFile reads a file of the project by its slash path relative to the root.
func (t *tree) ReadFile(p string) ([]byte, error) {
	rel, err := t.rel(p)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	b, _, err := t.read(rel, t.maxSize)
	return b, err
}

// read reads rel, up to max bytes; over it, ErrTooLarge with the size.
func (t *tree) read(rel string, max int64) ([]byte, int64, error) {
	f, err := os.Open(t.abs(rel))
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fmt.Errorf("read %s: not a regular file", rel)
	}
	if fi.Size() > max {
		return nil, fi.Size(), &SizeError{Path: rel, Size: fi.Size(), Max: max}
	}
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, 0, err
	}
	if int64(len(b)) > max {
		return nil, int64(len(b)), &SizeError{Path: rel, Size: int64(len(b)), Max: max}
	}
	return b, int64(len(b)), nil
}

// Exists reports whether a regular file of the project is at p.
func (t *tree) Exists(p string) bool {
	rel, err := t.rel(p)
	if err != nil {
		return false
	}
	fi, err := os.Stat(t.abs(rel))
	return err == nil && fi.Mode().IsRegular()
}

// Files lists the project's files under dir, gitignore respected.
func (t *tree) Files(dir string) ([]string, error) {
	t.once.Do(t.walk)
	if t.err != nil {
		return nil, t.err
	}
	rel, err := t.rel(dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	if rel == "" {
		return t.files, nil
	}
	lo, _ := slices.BinarySearch(t.files, rel+"/")
	hi := lo
	for hi < len(t.files) && strings.HasPrefix(t.files[hi], rel+"/") {
		hi++
	}
	return t.files[lo:hi], nil
}

// walk lists every file of the project that git would not ignore: the
// .gitignore files of each directory and .git/info/exclude, as git reads
// them. Symbolic links to directories are not followed; links to files are
// listed (reading one that leads out of the project is refused).
func (t *tree) walk() {
	var patterns []gitignore.Pattern
	patterns = append(patterns, readIgnore(filepath.Join(t.root, ".git", "info", "exclude"), nil)...)
	var visit func(dir string, domain []string) error
	visit = func(dir string, domain []string) error {
		patterns = append(patterns, readIgnore(filepath.Join(dir, ".gitignore"), domain)...)
		m := gitignore.NewMatcher(patterns)
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if len(t.files) >= t.max {
				t.truncated = true
				return nil
			}
			name := e.Name()
			p := append(slices.Clip(domain), name)
			isDir := e.IsDir()
			if isDir && slices.Contains(skipDirs, name) {
				continue
			}
			if m.Match(p, isDir) {
				continue
			}
			switch {
			case isDir:
				n := len(patterns)
				if err := visit(filepath.Join(dir, name), p); err != nil && !errors.Is(err, fs.ErrPermission) {
					return err
				}
				patterns = patterns[:n] // a directory's rules end with it
			case e.Type().IsRegular():
				t.files = append(t.files, path.Join(domain...)+"/"+name)
			case e.Type()&fs.ModeSymlink != 0:
				if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
					t.files = append(t.files, path.Join(domain...)+"/"+name)
				}
			}
		}
		return nil
	}
	t.err = visit(t.root, nil)
	for i, f := range t.files {
		t.files[i] = strings.TrimPrefix(f, "/")
	}
	slices.Sort(t.files)
}

// readIgnore reads one ignore file's patterns for the directory domain.
func readIgnore(file string, domain []string) []gitignore.Pattern {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var out []gitignore.Pattern
	for line := range strings.SplitSeq(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, gitignore.ParsePattern(line, domain))
	}
	return out
}

// pathError is the refusal of a path argument.
func pathError(field, p string, err error) error {
	switch {
	case errors.Is(err, ErrOutside):
		return &problem.FieldError{Field: field, Problem: problem.Quote(p) + " is outside the project",
			Fix: "give a path inside the project root (symbolic links out of it are refused)"}
	case errors.Is(err, fs.ErrNotExist):
		return &problem.FieldError{Field: field, Problem: problem.Quote(p) + " does not exist",
			Fix: "give a file or directory relative to the project root"}
	}
	return fmt.Errorf("%s %s: %w", field, p, err)
}
