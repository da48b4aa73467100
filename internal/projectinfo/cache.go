package projectinfo

import (
	"os"
	"path"
	"path/filepath"
	"sync"
)

// Detector detects projects and caches what it found until a file or a
// directory it read changes (by modification time), so repeated calls cost
// a few stats. It is safe for concurrent use.
type Detector struct {
	// Paths are the knowledge folders; zero is KnowledgePaths. Set it
	// before the first use.
	Paths     Paths
	mu        sync.Mutex
	cache     map[string]*entry
	knowledge map[string]*knowledgeEntry
}

type entry struct {
	info   Info
	digest Digest
	stamps map[string]int64
}

type knowledgeEntry struct {
	k      Knowledge
	stamps map[string]int64
}

// NewDetector returns an empty Detector.
func NewDetector() *Detector {
	return &Detector{cache: make(map[string]*entry), knowledge: make(map[string]*knowledgeEntry)}
}

// Knowledge returns root's knowledge documents, read again only when a
// file or folder of them changed.
func (d *Detector) Knowledge(root string) Knowledge {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e := d.knowledge[root]; e != nil && fresh(root, e.stamps) {
		return e.k
	}
	w := &walked{root: root, stamps: make(map[string]int64)}
	// The root and the folders' parents tell when a folder appears.
	paths := d.Paths
	if paths.Knowledge == "" {
		paths = KnowledgePaths
	}
	for _, dir := range []string{".", ".claude", "templates", "docs", path.Dir(paths.Knowledge), path.Dir(paths.Skills), path.Dir(paths.Agents), path.Dir(paths.Workflows), path.Dir(paths.Templates)} {
		if fi, err := os.Lstat(filepath.Join(root, dir)); err == nil {
			w.stamp(dir, fi)
		}
	}
	e := &knowledgeEntry{k: readKnowledge(w, paths), stamps: w.stamps}
	d.knowledge[root] = e
	return e.k
}

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

// ReadFile reads a small text file under root (at most 256 KiB, no
// symlinks); "" if it is not there.
func (d *Detector) ReadFile(root, rel string) string {
	w := &walked{root: root, stamps: map[string]int64{}}
	return w.read(rel)
}
