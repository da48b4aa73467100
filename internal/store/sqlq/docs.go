package sqlq

import (
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

// ScanSessions reads the rows of a session list (id, doc).
func ScanSessions[R Rows](rows R) ([]memory.Session, error) {
	return Collect(rows, func(r R) (memory.Session, error) {
		var (
			id  int64
			doc string
		)
		if err := r.Scan(&id, &doc); err != nil {
			return memory.Session{}, err
		}
		return store.DecodeSessionRow(memory.SessionID(id), doc)
	})
}

// ScanBranches reads the rows of branch contexts (doc).
func ScanBranches[R Rows](rows R) ([]memory.BranchContext, error) {
	return Collect(rows, func(r R) (memory.BranchContext, error) {
		var doc string
		if err := r.Scan(&doc); err != nil {
			return memory.BranchContext{}, err
		}
		return store.DecodeBranch([]byte(doc))
	})
}
