package mcpserver

import (
	"errors"
	"testing"

	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/problemtest"
)

// TestErrorTables: every kind has its code and reason, every action its
// tool words, and a refusal is answered with them.
func TestErrorTables(t *testing.T) {
	problemtest.Run(t, problemtest.Surface{
		Code:  func(k problem.Kind) int { return toolCodes[k].code },
		Words: tool.ActionWords,
		Answer: func(err error) (int, string) {
			te := classify(err)
			return te.Code, te.Message
		},
	})
	reasons := map[string]problem.Kind{}
	for k := range problem.Kind(problem.NumKinds) {
		r := toolCodes[k].reason
		if other, dup := reasons[r]; r == "" || dup {
			t.Errorf("kind %s has reason %q (also %s's)", k, r, other)
		}
		reasons[r] = k
	}
}

// TestErrorCodesAreStable: the codes and reasons the model has been told
// (README, Errors) do not move.
func TestErrorCodesAreStable(t *testing.T) {
	for k, want := range map[problem.Kind]toolCode{
		problem.NotFound:        {-32000, "not_found"},
		problem.Cycle:           {-32001, "cycle"},
		problem.NoProject:       {-32002, "no_project"},
		problem.Zen:             {-32003, "zen"},
		problem.OpenChildren:    {-32004, "open_children"},
		problem.Closed:          {-32005, "closed"},
		problem.Unavailable:     {-32006, "unavailable"},
		problem.Storage:         {-32006, "storage"},
		problem.Cancelled:       {-32006, "cancelled"},
		problem.Transition:      {-32007, "illegal_transition"},
		problem.OpenDeps:        {-32008, "open_dependencies"},
		problem.Claimed:         {-32009, "claimed"},
		problem.CriteriaMissing: {-32010, "criteria_missing"},
		problem.Invalid:         {-32602, "invalid_argument"},
		problem.Malformed:       {-32602, "invalid_definition"},
		problem.Internal:        {-32603, "internal"},
	} {
		if got := toolCodes[k]; got != want {
			t.Errorf("%s: %v, want %v", k, got, want)
		}
	}
	if te := classify(errors.New("open /srv/x.db: boom")); te.Message != "internal error (details are in the server log); retry once, and report it if it persists" {
		t.Errorf("an internal error is answered %q", te.Message)
	}
}
