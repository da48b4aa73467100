package loops

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/loop"
	"github.com/cairn-dev/cairn/internal/mcpserver/tool"
	"github.com/cairn-dev/cairn/internal/service/loops"
	"github.com/cairn-dev/cairn/internal/testing/tooltest"
)

func TestTable(t *testing.T) {
	tooltest.Table(t, "loops", Tools())
}

// TestEveryLegalStepIsATool: whatever a loop's state, each next step its
// view offers names a tool this toolset declares.
func TestEveryLegalStepIsATool(t *testing.T) {
	tools := Tools()
	for _, s := range loop.Statuses {
		for _, recoverable := range []bool{false, true} {
			st := loop.State{Status: s, Iteration: 1, MaxIterations: 3}
			if s == loop.Failed {
				st.Error = &loop.Error{Message: "boom", Recoverable: recoverable}
			}
			v := LoopViewOf(loops.Loop{ID: 7, State: st}, false)
			if v.LegalNext == nil {
				t.Errorf("%s: legal_next is null, want a list", s)
			}
			for _, name := range v.LegalNext {
				if !slices.ContainsFunc(tools, func(d tool.Tool) bool { return d.Def.Name == name }) {
					t.Errorf("%s loop offers %q, which is no loop tool", s, name)
				}
			}
		}
	}
	running := LoopViewOf(loops.Loop{ID: 7, State: loop.State{Status: loop.Running, Iteration: 1, MaxIterations: 3}}, false)
	if !slices.Contains(running.LegalNext, "loop_record") {
		t.Errorf("a running loop offers %v, want loop_record among them", running.LegalNext)
	}
}

// TestLoopView: a finished loop offers no next step; next steps given at an
// earlier iteration say so; the short view clips the last action and
// leaves out what only the full view shows.
func TestLoopView(t *testing.T) {
	long := strings.Repeat("word ", 100)
	st := loop.State{Status: loop.Running, Iteration: 4, MaxIterations: 9, NextSteps: []string{"test it"}, NextStepsFrom: 2,
		LastAction: long, CompletionCriteria: "tests pass", Metadata: loop.Metadata{Priority: "high"}}
	short := LoopViewOf(loops.Loop{ID: 3, State: st}, false)
	if short.NextStepsFrom != 2 || !slices.Equal(short.NextSteps, []string{"test it"}) {
		t.Errorf("next steps %v from %d, want [test it] from 2", short.NextSteps, short.NextStepsFrom)
	}
	if len(short.LastAction) >= len(long) || short.CompletionCriteria != "" || short.Metadata != nil {
		t.Errorf("short view: last action of %d bytes, criteria %q, metadata %v", len(short.LastAction), short.CompletionCriteria, short.Metadata)
	}
	if short.URI != "cairn://loops/3" {
		t.Errorf("uri %q", short.URI)
	}
	full := LoopViewOf(loops.Loop{ID: 3, State: st}, true)
	if full.LastAction != long || full.CompletionCriteria != "tests pass" || full.Metadata == nil || full.Metadata.Priority != "high" {
		t.Errorf("full view: %+v", full)
	}

	st.NextStepsFrom = 4 // given at this iteration: nothing to say
	if v := LoopViewOf(loops.Loop{ID: 3, State: st}, false); v.NextStepsFrom != 0 {
		t.Errorf("next_steps_from %d for steps of the current iteration", v.NextStepsFrom)
	}
	st.Status = loop.Completed
	done := LoopViewOf(loops.Loop{ID: 3, State: st}, false)
	if done.NextSteps != nil || len(done.LegalNext) != 0 {
		t.Errorf("a completed loop offers %v and next steps %v", done.LegalNext, done.NextSteps)
	}
	if b, _ := json.Marshal(done); !strings.Contains(string(b), `"legal_next":[]`) {
		t.Errorf("a finished loop's legal_next is not an empty list: %s", b)
	}
}

// TestShapes runs every loop tool over a loop it started, so that a bound
// the service enforces is reached.
func TestShapes(t *testing.T) {
	set, _ := tooltest.Services(t)
	tools := Tools()
	c := tooltest.Call(set, tools)
	_, out, err := tooltest.Run(t, c, tooltest.Find(t, tools, "loop_start"), map[string]any{"objective": "make the tests pass", "completion_criteria": "go test passes"})
	if err != nil {
		t.Fatal(err)
	}
	var started struct{ ID string }
	if err := json.Unmarshal([]byte(tooltest.Text(out)), &started); err != nil || started.ID == "" {
		t.Fatalf("loop_start answered %s", tooltest.Text(out))
	}
	base := map[string]map[string]any{}
	for _, d := range tools {
		if s := d.Schema(); s.Properties["id"] != nil {
			base[d.Def.Name] = map[string]any{"id": started.ID}
		}
	}
	tooltest.Shapes(t, c, tools, base)
}
