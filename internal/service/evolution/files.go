package evolution

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Snapshot is a file's state: whether it existed, its bytes and their
// hash. A change records the snapshot of what it replaced.
type Snapshot struct {
	Exists bool   `json:"exists"`
	SHA    string `json:"sha256,omitempty"`
	Data   []byte `json:"data,omitempty"` // base64 in JSON, so any byte survives
}

func hashOf(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func snap(exists bool, b []byte) Snapshot {
	if !exists {
		return Snapshot{}
	}
	return Snapshot{Exists: true, SHA: hashOf(b), Data: b}
}

// resolve turns a project-relative path into an absolute one inside root,
// refusing a path that leaves the project or crosses a symbolic link.
func resolve(root, rel string) (string, error) {
	bad := func(why string) error {
		return &problem.FieldError{Field: "path", Problem: problem.Quote(rel) + " " + why, Fix: "name a file inside the project, with no symbolic link on the way"}
	}
	if rel == "" || filepath.IsAbs(rel) || strings.Contains(rel, "\\") {
		return "", bad("is not a relative path")
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == "." || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", bad("leaves the project")
	}
	p := root
	for _, part := range strings.Split(clean, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return "", bad("goes through a symbolic link")
		}
	}
	return filepath.Join(root, clean), nil
}

// read snapshots the file at rel.
func read(root, rel string) (Snapshot, error) {
	p, err := resolve(root, rel)
	if err != nil {
		return Snapshot{}, err
	}
	fi, err := os.Lstat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Snapshot{}, nil
	}
	if err != nil {
		return Snapshot{}, err
	}
	if !fi.Mode().IsRegular() {
		return Snapshot{}, &problem.FieldError{Field: "path", Problem: problem.Quote(rel) + " is not a regular file", Fix: "name a regular file"}
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return Snapshot{}, err
	}
	return snap(true, b), nil
}

// write puts s at rel (removing the file when s does not exist),
// atomically, creating the folders it needs; it returns the folders it
// created, deepest last.
func write(root, rel string, s Snapshot) ([]string, error) {
	p, err := resolve(root, rel)
	if err != nil {
		return nil, err
	}
	if !s.Exists {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, nil
	}
	var made []string
	for d := filepath.Dir(p); d != root && strings.HasPrefix(d, root); d = filepath.Dir(d) {
		if _, err := os.Lstat(d); errors.Is(err, fs.ErrNotExist) {
			r, _ := filepath.Rel(root, d)
			made = append([]string{filepath.ToSlash(r)}, made...)
		} else {
			break
		}
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	mode := fs.FileMode(0o644)
	if fi, err := os.Stat(p); err == nil {
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".evolution-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(s.Data); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		return nil, err
	}
	return made, os.Rename(tmp.Name(), p)
}

// removeDirs removes the folders a change created (deepest first) when
// they are empty again.
func removeDirs(root string, dirs []string) {
	for i := len(dirs) - 1; i >= 0; i-- {
		if p, err := resolve(root, dirs[i]); err == nil {
			_ = os.Remove(p) // only succeeds when empty
		}
	}
}

// conflict is the refusal to write over a file a person changed since the
// snapshot a change was made from.
func conflict(rel, what string) error {
	return &problem.Error{Kind: problem.Transition, Problem: fmt.Sprintf("%s changed since %s", rel, what),
		Fix: "look at the file and the change, then redo the change by hand or create a new draft", Hint: problem.ReviewChange}
}

// diff is a line diff of a and b: the common head and tail kept as
// context (three lines), the middle as removed and added lines.
func diff(path string, a, b []byte) string {
	al, bl := lines(a), lines(b)
	head := 0
	for head < len(al) && head < len(bl) && al[head] == bl[head] {
		head++
	}
	tail := 0
	for tail < len(al)-head && tail < len(bl)-head && al[len(al)-1-tail] == bl[len(bl)-1-tail] {
		tail++
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", path, path)
	from := max(0, head-3)
	fmt.Fprintf(&sb, "@@ -%d +%d @@\n", from+1, from+1)
	for _, l := range al[from:head] {
		sb.WriteString(" " + l + "\n")
	}
	for _, l := range al[head : len(al)-tail] {
		sb.WriteString("-" + l + "\n")
	}
	for _, l := range bl[head : len(bl)-tail] {
		sb.WriteString("+" + l + "\n")
	}
	for _, l := range al[len(al)-tail : min(len(al), len(al)-tail+3)] {
		sb.WriteString(" " + l + "\n")
	}
	return sb.String()
}

func lines(b []byte) []string {
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
