package service

import "github.com/cairn-dev/cairn/internal/store"

// ScrubForTest exposes scrub to the external tests.
var ScrubForTest = scrub

// NewPlanFullReadsForTest returns a plan service whose Get reads a task's
// neighbours from the store, never from the board.
func NewPlanFullReadsForTest(st store.Store) *Plan {
	p := NewPlan(st)
	p.fullReads = true
	return p
}
