package memories

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
)

// Exported is what an export wrote.
type Exported struct {
	Written   int      // files created or changed
	Unchanged int      // files already up to date
	Orphans   []string // files under dir whose entry is no longer in memory
}

// Export writes every decision, convention and mistake to dir (usually
// .cairn/memory) as one Markdown file each, for review in pull requests.
// Files are rewritten only when their content changed, atomically.
func (m *Memory) Export(ctx context.Context, dir string) (Exported, error) {
	var (
		es  []memory.Entry
		uid = map[memory.ID]string{} // the uids of the entries that replaced exported ones
	)
	err := m.store.View(ctx, func(tx store.Tx) (err error) {
		if es, _, err = tx.SelectMemories(ctx, store.MemorySelector{Types: memory.Exported}); err != nil {
			return err
		}
		var by []memory.ID
		for _, e := range es {
			if e.SupersededBy != 0 {
				by = append(by, e.SupersededBy)
			}
		}
		if len(by) == 0 {
			return nil
		}
		bs, err := store.Memories(ctx, tx, by, 0)
		for _, b := range bs {
			uid[b.ID] = b.UID
		}
		return err
	})
	if err != nil {
		return Exported{}, fmt.Errorf("export memory: %w", err)
	}
	var out Exported
	if err := noSymlinks(dir, ""); err != nil {
		return out, fmt.Errorf("export memory: %w", err)
	}
	keep := make(map[string]bool, len(es))
	for _, e := range es {
		b, err := memory.MarshalFile(memory.File{Entry: e, SupersededBy: uid[e.SupersededBy]})
		if err != nil {
			return out, fmt.Errorf("export %s: %w", e.ID, err)
		}
		rel := memory.FileName(e)
		keep[rel] = true
		if err := noSymlinks(dir, rel); err != nil {
			return out, fmt.Errorf("export memory: %w", err)
		}
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
			return out, fmt.Errorf("export memory: %s is not a regular file; remove it and export again", filepath.ToSlash(filepath.Join(filepath.Base(dir), rel)))
		}
		if old, err := readCapped(path, maxMemoryFile); err == nil && bytes.Equal(old, b) {
			out.Unchanged++
			continue
		}
		if err := writeAtomic(path, b); err != nil {
			return out, err
		}
		out.Written++
	}
	for _, t := range memory.Exported {
		files, _ := filepath.Glob(filepath.Join(dir, string(t)+"s", "*.md"))
		for _, f := range files {
			rel, _ := filepath.Rel(dir, f)
			if !keep[filepath.ToSlash(rel)] {
				out.Orphans = append(out.Orphans, filepath.ToSlash(rel))
			}
		}
	}
	sort.Strings(out.Orphans)
	return out, nil
}

// ErrSymlink is wrapped by the error of an export or import that meets a
// symbolic link where it reads or writes memory files.
var ErrSymlink = errors.New("symbolic link")

// noSymlinks refuses a symbolic link at dir, its parent (.cairn) or any
// component of rel below dir: a repository can commit a link such as
// .cairn/memory/conventions -> ~/.config/editor/commands, and export names
// its files after uids that import accepts, so following one would write
// outside the project. Components that do not exist yet pass (they are
// created as directories).
func noSymlinks(dir, rel string) error {
	paths := []string{filepath.Dir(filepath.Clean(dir)), dir}
	p := dir
	for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
		if c != "" {
			p = filepath.Join(p, c)
			paths = append(paths, p)
		}
	}
	for _, p := range paths {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a %w; memory files are read and written only inside the project: replace it with a directory or a file", p, ErrSymlink)
		}
	}
	return nil
}

func writeAtomic(path string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Imported is what an import did.
type Imported struct {
	Added, Updated, Unchanged int
	Superseded                int // entries marked replaced, as their files say
	Redacted                  int
	Problems                  []string // files skipped, with why
	Notes                     []string // files imported, but a supersession they name was not applied, with why
}

// Import merges the exported files under dir into memory by uid: a new uid
// is added, a known one updated when the file is newer, a mistake already
// known under another uid counted rather than duplicated. A file's
// superseded_by marks its entry replaced by the entry with that uid (in
// memory or among the files); supersession only travels forward: a file
// without one never brings back an entry replaced here. Everything is one
// transaction: a failure changes nothing. Unreadable files are skipped and
// reported.
func (m *Memory) Import(ctx context.Context, dir string) (Imported, error) {
	type file struct {
		rel string
		memory.File
	}
	var (
		out   Imported
		files []file
	)
	if err := noSymlinks(dir, ""); err != nil {
		return out, fmt.Errorf("import memory: %w", err)
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.Type()&fs.ModeSymlink != 0 {
			// WalkDir does not follow links to directories; a linked file
			// would be read from wherever it points.
			out.Problems = append(out.Problems, rel+": a symbolic link, skipped (only regular files inside the memory directory are imported)")
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(path, ".md") {
			return nil
		}
		if !d.Type().IsRegular() {
			// A FIFO would block the read for ever; a device, a socket
			// hold no memory file.
			out.Problems = append(out.Problems, rel+": not a regular file, skipped")
			return nil
		}
		b, err := readCapped(path, maxMemoryFile)
		if err != nil {
			out.Problems = append(out.Problems, rel+": "+err.Error())
			return nil
		}
		f, err := memory.ParseFile(b)
		if err != nil {
			out.Problems = append(out.Problems, rel+": "+err.Error())
			return nil
		}
		out.Redacted += redactEntry(&f.Entry)
		files = append(files, file{rel: filepath.ToSlash(rel), File: f})
		return nil
	})
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return out, problem.New(problem.NotFound, dir+" does not exist", problem.ExportMemory)
		}
		return out, fmt.Errorf("import memory: %w", err)
	}
	var added []memory.Entry
	err = m.store.Update(ctx, func(tx store.Tx) error {
		added, out.Notes = nil, nil // a retried transaction starts over
		out.Added, out.Updated, out.Unchanged, out.Superseded = 0, 0, 0, 0
		merged := map[string]string{} // a file's uid -> the uid its mistake was counted on
		for _, f := range files {
			e := f.Entry
			old, ok, err := store.MemoryByUID(ctx, tx, e.UID)
			if err != nil {
				return err
			}
			if !ok && e.Type == memory.Mistake {
				if old, ok, err = store.MistakeByFingerprint(ctx, tx, memory.Fingerprint(e.Title)); err != nil {
					return err
				}
				if ok {
					merged[e.UID] = old.UID
					e.UID = old.UID
				}
			}
			switch {
			case !ok:
				e.ID = 0 // a new entry
				a, err := tx.PutMemory(ctx, e)
				if err != nil {
					return fmt.Errorf("%s: %w", e.UID, err)
				}
				added = append(added, a)
				out.Added++
			case sameEntry(old, e) || e.UpdatedAt.Before(old.UpdatedAt):
				out.Unchanged++
			default:
				e.ID, e.SessionID, e.CreatedAt = old.ID, old.SessionID, old.CreatedAt
				e.Occurrences = max(e.Occurrences, old.Occurrences)
				if _, err := tx.PutMemory(ctx, e); err != nil {
					return fmt.Errorf("%s: %w", e.UID, err)
				}
				out.Updated++
			}
		}
		for _, f := range files {
			if f.SupersededBy == "" {
				continue
			}
			applied, note, err := linkImported(ctx, tx, cmp.Or(merged[f.Entry.UID], f.Entry.UID), cmp.Or(merged[f.SupersededBy], f.SupersededBy))
			if err != nil {
				return err
			}
			if note != "" {
				out.Notes = append(out.Notes, f.rel+": "+note)
			}
			if applied {
				out.Superseded++
			}
		}
		return nil
	})
	if err != nil {
		return Imported{}, fmt.Errorf("import memory: %w", err)
	}
	m.embedEntries(ctx, added...)
	return out, nil
}

// linkImported marks the entry with uid old replaced by the entry with uid
// by, as an imported file says, and reports whether it did so now. A note
// says why it did not (the entry is imported all the same).
func linkImported(ctx context.Context, tx store.Tx, old, by string) (applied bool, note string, err error) {
	o, _, err := store.MemoryByUID(ctx, tx, old)
	if err != nil {
		return false, "", err
	}
	b, ok, err := store.MemoryByUID(ctx, tx, by)
	if err != nil {
		return false, "", err
	}
	switch {
	case !ok:
		return false, fmt.Sprintf("superseded_by %s names no entry in memory or in the files; imported as current", by), nil
	case o.SupersededBy == b.ID:
		return false, "", nil
	case o.SupersededBy != 0:
		return false, fmt.Sprintf("superseded_by %s not applied: %s was already replaced here by %s", by, o.ID, o.SupersededBy), nil
	}
	if err := supersede(ctx, tx, b, o.ID); err != nil {
		var fe *problem.FieldError
		if errors.As(err, &fe) {
			return false, fmt.Sprintf("superseded_by %s not applied: %s", by, fe.Problem), nil
		}
		return false, "", err
	}
	return true, "", nil
}

// sameEntry reports whether a file says nothing new about an entry.
func sameEntry(a, b memory.Entry) bool {
	fa, _ := memory.MarshalFile(memory.File{Entry: a})
	b.UpdatedAt, b.CreatedAt = a.UpdatedAt, a.CreatedAt
	fb, _ := memory.MarshalFile(memory.File{Entry: b})
	return bytes.Equal(fa, fb)
}

// maxMemoryFile is the largest memory file import reads (an entry's
// content is capped far below it).
const maxMemoryFile = 1 << 20

// readCapped reads the regular file at path, refusing one over max bytes
// without reading it whole.
func readCapped(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("over %d KiB, skipped (a memory file is a few KiB)", max>>10)
	}
	return b, nil
}
