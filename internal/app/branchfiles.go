package app

import (
	"log/slog"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service/branchfiles"
	"github.com/cairn-dev/cairn/internal/service/brief"
	"github.com/cairn-dev/cairn/internal/store"
)

// withBranchFiles has every change of a branch context also written to
// .cairn/branches/<branch>.json (seed 004: branch context visible in git),
// unless the project's config says [branches] files = false.
func withBranchFiles(st store.Store, root string, logger *slog.Logger, rs []project.Resolved) (store.Store, []brief.Setting, error) {
	if root == "" {
		return st, nil, nil
	}
	r, _ := project.Lookup(rs, "branches.files")
	on, set := boolSetting(rs, "branches.files")
	src := r.Source
	if set && !on {
		return st, []brief.Setting{{Name: "branches.files", Value: "off: branch contexts stay in the store only", Source: src}}, nil
	}
	return branchfiles.NewStore(st, &branchfiles.Writer{Root: root, Logger: logger}),
		[]brief.Setting{{Name: "branches.files", Value: "on: each branch context written to " + branchfiles.Dir + "/<branch>.json when it changes", Source: src}}, nil
}
