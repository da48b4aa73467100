package projectinfo

import (
	"os"
	"path/filepath"
	"sync"
)

// Detector detects projects and caches what it found until a file or a
// directory it read changes (by modification time), so repeated calls cost
// a few stats. It is safe for concurrent use.
type Detector struct {
	mu    sync.Mutex
	cache map[string]*entry
}

type entry struct {
	info   Info
	digest Digest
	stamps map[string]int64
}

// NewDetector returns an empty Detector.
func NewDetector() *Detector { return &Detector{cache: make(map[string]*entry)} }

// Detect returns what the project at root is made of.
func (d *Detector) Detect(root string) Info { return d.get(root).info }

// Instructions returns the digest of root's agent instruction files.
func (d *Detector) Instructions(root string) Digest { return d.get(root).digest }

func (d *Detector) get(root string) *entry {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e := d.cache[root]; e != nil && fresh(root, e.stamps) {
		return e
	}
	info, stamps := detect(root)
	w := &walked{root: root, stamps: stamps}
	e := &entry{info: info, digest: digest(w, info.Instructions), stamps: w.stamps}
	d.cache[root] = e
	return e
}

// fresh reports whether every file and directory read is as it was.
func fresh(root string, stamps map[string]int64) bool {
	for rel, mt := range stamps {
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || fi.ModTime().UnixNano() != mt {
			return false
		}
	}
	return true
}

// Detect detects the project at root without caching.
func Detect(root string) Info {
	info, _ := detect(root)
	return info
}
