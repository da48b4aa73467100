package httpserver

import (
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/problemtest"
)

// TestErrorTables: every kind has its status, and a refusal is answered
// with it. The server's refusals name no action (what to do is their Fix).
func TestErrorTables(t *testing.T) {
	problemtest.Run(t, problemtest.Surface{
		Code: func(k problem.Kind) int { return httpStatus[k] },
		Answer: func(err error) (int, string) {
			e, _ := problem.As(err)
			a := answerFor("reason", e)
			return a.Status, a.Problem + "; " + a.Fix
		},
	})
}
