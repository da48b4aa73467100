// Package knowledge is the project's own knowledge as the context tools
// read it: what the project is made of (detect_project), its agent
// instructions, and its knowledge base (query_tkb, get_tkb_entry, agents,
// the competency matrix, classify_task, the routing table, heuristics,
// tech_compatibility), from the files under its root.
package knowledge

import (
	"github.com/cairn-dev/cairn/internal/projectinfo"
	"github.com/cairn-dev/cairn/internal/service/memories"
)

// Service reads the knowledge of the project at Root.
type Service struct {
	root     string
	detector *projectinfo.Detector
	memory   *memories.Memory // what the project's memory says beside a heuristic
}

// New returns the knowledge of the project at root, read through detector
// (which caches what the root holds; nil makes one) and with what memory
// holds beside it.
func New(root string, detector *projectinfo.Detector, memory *memories.Memory) *Service {
	if detector == nil {
		detector = projectinfo.NewDetector()
	}
	return &Service{root: root, detector: detector, memory: memory}
}

// Root is the project's root directory.
func (c *Service) Root() string { return c.root }

// Project returns what the project is made of.
func (c *Service) Project() projectinfo.Info { return c.detector.Detect(c.root) }

// Instructions returns the digest of the project's agent instructions.
func (c *Service) Instructions() projectinfo.Digest { return c.detector.Instructions(c.root) }
