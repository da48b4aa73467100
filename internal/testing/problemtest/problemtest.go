// Package problemtest runs every kind and every action of the problem
// taxonomy through a surface's tables and its answer to an error, so that a
// kind or an action a surface does not know fails its tests instead of
// being answered by a fallback.
package problemtest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Surface is what a surface makes of the taxonomy.
type Surface struct {
	// Code is the surface's table from kind to its code, status or exit
	// status.
	Code func(problem.Kind) int
	// Words is its table from action to its words; nil for a surface that
	// words no action (what to do is all in Fix).
	Words func(problem.Action) string
	// Answer is what the surface answers err with: its code and the
	// message a user reads.
	Answer func(err error) (code int, msg string)
}

// Run checks that s has a code for every kind and words for every
// action, and answers refusals with them: the code of the refusal's kind,
// the refusal's own words (not the wrapping around it) and its actions in
// the surface's words.
func Run(t *testing.T, s Surface) {
	t.Helper()
	for k := range problem.Kind(problem.NumKinds) {
		t.Run(k.String(), func(t *testing.T) {
			want := s.Code(k)
			if want == 0 {
				t.Fatalf("kind %s has no code", k)
			}
			err := fmt.Errorf("the service's wrapping: %w", &problem.Error{Kind: k, Problem: "what is wrong", Fix: "what to do"})
			code, msg := s.Answer(err)
			if code != want {
				t.Errorf("answered %d, want %d from the table", code, want)
			}
			if k == problem.Internal {
				return // its text is the operator's: each surface says what it shows
			}
			if msg != "what is wrong; what to do" {
				t.Errorf("message %q; want the refusal's own words", msg)
			}
		})
	}
	if s.Words == nil {
		return
	}
	seen := map[string]problem.Action{}
	for a := problem.NoAction + 1; a < problem.NumActions; a++ {
		t.Run(a.String(), func(t *testing.T) {
			w := s.Words(a)
			if w == "" || w != strings.TrimSpace(w) {
				t.Fatalf("action %q is worded %q", a, w)
			}
			if b, dup := seen[w]; dup {
				t.Errorf("actions %q and %q are both worded %q", a, b, w)
			}
			seen[w] = a
			if _, msg := s.Answer(&problem.Error{Kind: problem.NotFound, Problem: "gone", Hint: a}); msg != "gone; "+w {
				t.Errorf("hint: message %q, want %q", msg, "gone; "+w)
			}
			if _, msg := s.Answer(&problem.Error{Kind: problem.Transition, Problem: "no", Next: []problem.Action{a}}); msg != "no; legal next: "+w {
				t.Errorf("legal next: message %q, want %q", msg, "no; legal next: "+w)
			}
		})
	}
}
