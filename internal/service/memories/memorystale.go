package memories

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
)

// maxHashedFile bounds the files whose content is hashed: an entry names
// source files, not data sets.
const maxHashedFile = 16 << 20

// fileHashCache remembers each file's hash by its size and modification
// time, so telling whether a hit's files changed costs a stat when they did
// not.
type fileHashCache struct {
	mu sync.Mutex
	m  map[string]cachedHash
}

type cachedHash struct {
	size int64
	mod  time.Time
	hash string
}

// resolve returns the file an entry's name for it means, inside the
// project root: "" when there is no root, or the name leads outside it
// (through "..", an absolute path or a symlink). A name with a suffix
// saying what in the file it points at (":12-30", "#L12", "#Parse") means
// the file.
func (m *Memory) resolve(name string) string {
	root := m.opts.Root
	if root == "" {
		return ""
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	if _, err := os.Lstat(p); err != nil {
		if file, _, _, _ := memory.SplitName(name); file != name {
			p = file
			if !filepath.IsAbs(p) {
				p = filepath.Join(root, p)
			}
		} else if i := strings.LastIndexByte(p, ':'); i > len(root) {
			p = p[:i]
		}
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		real = filepath.Clean(p) // gone: where it would be
		if rel, err := filepath.Rel(root, real); err != nil || !filepath.IsLocal(rel) {
			return ""
		}
		return real
	}
	if rel, err := filepath.Rel(realRoot, real); err != nil || !filepath.IsLocal(rel) {
		return ""
	}
	return real
}

// hash returns a file's content hash, "" when it is gone, not a regular
// file or too large.
func (m *Memory) hash(path string) string {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxHashedFile {
		return ""
	}
	m.hashes.mu.Lock()
	c, ok := m.hashes.m[path]
	m.hashes.mu.Unlock()
	if ok && c.size == fi.Size() && c.mod.Equal(fi.ModTime()) {
		return c.hash
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxHashedFile)); err != nil {
		return ""
	}
	sum := hex.EncodeToString(h.Sum(nil))[:16]
	m.hashes.mu.Lock()
	if m.hashes.m == nil || len(m.hashes.m) > 4096 {
		m.hashes.m = map[string]cachedHash{}
	}
	m.hashes.m[path] = cachedHash{size: fi.Size(), mod: fi.ModTime(), hash: sum}
	m.hashes.mu.Unlock()
	return sum
}

// markFiles returns the mark (see memory.Mark) of each named file that is
// in the project now, by the name the entry gives it: its content hash,
// and the hashes of the lines and symbols the entry points at in it.
func (m *Memory) markFiles(e memory.Entry) map[string]string {
	var (
		out      map[string]string
		mentions []string
	)
	if len(e.Files) > 0 {
		text := e
		text.Files = nil // their names are not symbols
		mentions = memory.Mentions(e.Title + "\n" + text.SearchText())
	}
	for _, n := range e.Files {
		p := m.resolve(n)
		if p == "" {
			continue
		}
		h := m.hash(p)
		if h == "" {
			continue
		}
		mark := memory.Mark{File: h}
		if _, first, _, symbol := memory.SplitName(n); first > 0 || symbol != "" || len(mentions) > 0 {
			if b, err := readSmall(p); err == nil && memory.ContentHash(b) == h {
				mark.Parts = memory.Parts(n, p, b, mentions)
			}
		}
		if out == nil {
			out = map[string]string{}
		}
		out[n] = mark.String()
	}
	return out
}

// readSmall reads a file of at most maxHashedFile bytes.
func readSmall(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxHashedFile))
}

// Changes returns what became of e's files since e was recorded, by file
// name: gone, a part it points at changed or gone (stale), parts moved, or
// only known to have changed (the entry names the whole file, or was
// recorded before parts were remembered). Files that did not change, or
// whose parts are all where they were, are left out.
func (m *Memory) Changes(e memory.Entry) []memory.FileChange {
	names := make([]string, 0, len(e.FileHashes))
	for n := range e.FileHashes {
		names = append(names, n)
	}
	slices.Sort(names)
	var out []memory.FileChange
	for _, n := range names {
		p := m.resolve(n)
		if p == "" {
			continue
		}
		mark := memory.ParseMark(e.FileHashes[n])
		h := m.hash(p)
		switch {
		case h == mark.File:
			continue
		case h == "":
			if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
				out = append(out, memory.FileChange{File: n, Gone: true})
			}
			continue
		case len(mark.Parts) == 0:
			out = append(out, memory.FileChange{File: n, WholeFile: true})
			continue
		}
		if c, ok := m.checkParts(n, p, h, mark); ok {
			out = append(out, c)
		}
	}
	return out
}

// checkParts checks a changed file's parts, once for each content of the
// file and mark.
func (m *Memory) checkParts(name, p, h string, mark memory.Mark) (memory.FileChange, bool) {
	key := p + "\x00" + h + "\x00" + mark.String()
	m.checks.mu.Lock()
	c, ok := m.checks.m[key]
	m.checks.mu.Unlock()
	if ok {
		c.File = name
		return c, c.Stale() || len(c.Moved) > 0
	}
	b, err := readSmall(p)
	if err != nil {
		return memory.FileChange{}, false
	}
	c = memory.FileChange{File: name}
	for _, part := range mark.Parts {
		switch st, where := part.Check(p, b); st {
		case memory.PartMoved:
			c.Moved = append(c.Moved, part.Label+" now "+where)
		case memory.PartChanged:
			c.Parts = append(c.Parts, part.Label+" changed")
		case memory.PartGone:
			c.Parts = append(c.Parts, part.Label+" gone")
		}
	}
	m.checks.mu.Lock()
	if m.checks.m == nil || len(m.checks.m) > 4096 {
		m.checks.m = map[string]memory.FileChange{}
	}
	m.checks.m[key] = c
	m.checks.mu.Unlock()
	return c, c.Stale() || len(c.Moved) > 0
}

// partChecks remembers what a file's parts check gave, by the file's path,
// content hash and mark.
type partChecks struct {
	mu sync.Mutex
	m  map[string]memory.FileChange
}
