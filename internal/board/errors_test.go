package board

import (
	"errors"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/problemtest"
)

// TestErrorTables: every kind has its status, every action its words on
// the board, and a refusal is answered with them.
func TestErrorTables(t *testing.T) {
	problemtest.Run(t, problemtest.Surface{
		Code:  func(k problem.Kind) int { return boardStatus[k] },
		Words: boardHints,
		Answer: func(err error) (int, string) {
			msg, status, _ := refusal(err)
			return status, msg
		},
	})
	if msg, _, failed := refusal(errors.New("open /srv/x.db: boom")); msg != "" || !failed {
		t.Errorf("an internal error is shown as %q", msg)
	}
}
