package perf

import (
	"errors"
	"go/scanner"
	"go/token"
)

// scannerPos is the position of the first error in a go/scanner list.
func scannerPos(err error) (token.Position, bool) {
	var l scanner.ErrorList
	if errors.As(err, &l) && len(l) > 0 {
		return l[0].Pos, true
	}
	return token.Position{}, false
}
