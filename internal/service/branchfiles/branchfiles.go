// Package branchfiles keeps each branch's context visible in git, as seed
// 004 keeps it: .cairn/branches/<branch>.json, written whenever the context
// changes in the store. It is written one way: nothing reads it back, and
// the store stays the truth (an edit of the file changes nothing and is
// overwritten at the next change).
package branchfiles

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

// Dir is where the files are, relative to the project root.
const Dir = ".cairn/branches"

// maxName bounds a file's name in bytes (file systems allow 255).
const maxName = 200

// Writer writes branch contexts under a project root.
type Writer struct {
	Root   string
	Logger *slog.Logger
}

// FileName is the file a branch's context is written to: the branch name
// with every byte but letters, digits, '-', '_' and '.' written as %XX (so
// "feature/login" is "feature%2Flogin.json" and no two branches share a
// file), a leading '.' too (no hidden file, no ".."), and a name too long
// for a file system cut and told apart by a hash of the whole.
func FileName(branch string) string {
	var b strings.Builder
	for i := 0; i < len(branch); i++ {
		c := branch[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.' && i > 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	name := b.String()
	// Names Windows reserves (con, nul, com1, ...) keep their meaning
	// there even with an extension.
	base := strings.ToLower(strings.SplitN(name, ".", 2)[0])
	switch base {
	case "con", "prn", "aux", "nul", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
		"lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9":
		name = fmt.Sprintf("%%%02X", name[0]) + name[1:]
	}
	if len(name) > maxName {
		sum := sha256.Sum256([]byte(branch))
		cut := maxName - 17
		for cut > 0 && name[cut-1] == '%' || cut > 1 && name[cut-2] == '%' {
			cut-- // never split a %XX
		}
		name = name[:cut] + "~" + hex.EncodeToString(sum[:8])
	}
	return name + ".json"
}

// file is what a branch's file holds: a line saying what it is, then the
// context as the store has it.
type file struct {
	Note string `json:"_note"`
	memory.BranchContext
}

const note = "Written by Cairn when this branch's context changes; the store is the truth and this file is never read back (edits here are overwritten)."

// Write writes a branch's context to its file, through a temporary file
// renamed over it, inside the project only: a .cairn, .cairn/branches or
// file that is a symbolic link is refused. A file already holding the
// same content is left alone.
func (w *Writer) Write(b memory.BranchContext) error {
	if w == nil || w.Root == "" || strings.TrimSpace(b.Branch) == "" {
		return nil
	}
	dir := filepath.Join(w.Root, filepath.FromSlash(Dir))
	if err := noLinks(w.Root, Dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := noLinks(w.Root, Dir); err != nil { // made by another process meanwhile
		return err
	}
	body, err := json.MarshalIndent(file{Note: note, BranchContext: b}, "", "  ")
	if err != nil {
		return err
	}
	body = append(body, '\n')
	p := filepath.Join(dir, FileName(b.Branch))
	switch fi, err := os.Lstat(p); {
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file (a symbolic link?): Cairn writes only inside the project; remove it", filepath.ToSlash(filepath.Join(Dir, FileName(b.Branch))))
	case err == nil:
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, body) {
			return nil
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	f, err := os.CreateTemp(dir, ".branch-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(body)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, p)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// noLinks refuses a symbolic link at any directory from root down to rel.
func noLinks(root, rel string) error {
	p := root
	for _, c := range strings.Split(rel, "/") {
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: Cairn writes branch files only inside the project; replace it with a directory", filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator))))
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory", filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator))))
		}
	}
	return nil
}

// NewStore returns s with every committed change of a branch context also
// written by w. A write that fails is logged, never fails the change: the
// store has it, and the next change writes the file again.
func NewStore(s store.Store, w *Writer) store.Store {
	if w == nil || w.Root == "" {
		return s
	}
	return &mirrored{Store: s, w: w}
}

type mirrored struct {
	store.Store
	w *Writer
}

func (m *mirrored) Update(ctx context.Context, fn func(store.Tx) error) error {
	var changed []memory.BranchContext
	err := m.Store.Update(ctx, func(tx store.Tx) error {
		changed = changed[:0] // a retried transaction starts over
		return fn(&mirroredTx{Tx: tx, changed: &changed})
	})
	if err != nil {
		return err
	}
	for _, b := range changed {
		if werr := m.w.Write(b); werr != nil && m.w.Logger != nil {
			m.w.Logger.Warn("branch context not written to "+Dir, "branch", b.Branch, "err", werr)
		}
	}
	return nil
}

type mirroredTx struct {
	store.Tx
	changed *[]memory.BranchContext
}

func (t *mirroredTx) SetBranchContext(ctx context.Context, b memory.BranchContext) error {
	if err := t.Tx.SetBranchContext(ctx, b); err != nil {
		return err
	}
	for i, x := range *t.changed {
		if x.Branch == b.Branch {
			(*t.changed)[i] = b // the last write of a branch wins
			return nil
		}
	}
	*t.changed = append(*t.changed, b)
	return nil
}
