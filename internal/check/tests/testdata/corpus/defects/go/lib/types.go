package lib

// Kind is a type-only file: no test expected.
type Kind int

const (
	Plain Kind = iota
	Rich
)
