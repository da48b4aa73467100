package memories

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
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
// (through "..", an absolute path or a symlink). A name with a ":line"
// suffix means the file.
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
		if i := strings.LastIndexByte(p, ':'); i > len(root) {
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

// hashFiles returns the content hash of each named file that is in the
// project now, by the name the entry gives it.
func (m *Memory) hashFiles(names []string) map[string]string {
	var out map[string]string
	for _, n := range names {
		p := m.resolve(n)
		if p == "" {
			continue
		}
		if h := m.hash(p); h != "" {
			if out == nil {
				out = map[string]string{}
			}
			out[n] = h
		}
	}
	return out
}

// Stale returns the files of e that changed or are gone since e was
// recorded, sorted.
func (m *Memory) Stale(e memory.Entry) []string {
	var out []string
	for n, h := range e.FileHashes {
		p := m.resolve(n)
		if p == "" {
			continue
		}
		if m.hash(p) != h {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}
