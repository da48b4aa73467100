package cli

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/problemtest"
)

// TestErrorTables: every kind has its exit status, every action its
// command words, and a refusal is answered with them.
func TestErrorTables(t *testing.T) {
	problemtest.Run(t, problemtest.Surface{
		Code:   func(k problem.Kind) int { return exitStatus[k] },
		Words:  commandHints,
		Answer: func(err error) (int, string) { return ExitStatus(err), Message(err) },
	})
}

func TestMessageOfOtherErrors(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&fs.PathError{Op: "open", Path: "/x.json", Err: fs.ErrNotExist}, "cannot read /x.json: file does not exist; check the path"},
		{errors.New("unknown flag: --x"), "unknown flag: --x"},
	} {
		if got := Message(tc.err); got != tc.want {
			t.Errorf("Message(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
