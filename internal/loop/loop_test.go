package loop

import (
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// in returns a loop in the given status.
func in(s Status) State {
	st := New("obj", "crit", 5, Metadata{}, t0)
	switch s {
	case Running:
		st.Record(Iteration{LastAction: "a"}, t0)
	case Paused:
		st.Pause(t0)
	case Completed:
		st.Complete("done", t0)
	case Failed:
		st.Fail(Error{Message: "boom", Recoverable: true}, t0)
	case Cancelled:
		st.Cancel(t0)
	}
	return st
}

func TestTransitions(t *testing.T) {
	ops := map[Op]func(*State) error{
		OpRecord:     func(s *State) error { return s.Record(Iteration{LastAction: "x"}, t0) },
		OpCheckpoint: func(s *State) error { return s.Checkpoint(t0) },
		OpPause:      func(s *State) error { return s.Pause(t0) },
		OpResume:     func(s *State) error { return s.Resume(nil, 0, t0) },
		OpCancel:     func(s *State) error { return s.Cancel(t0) },
		OpComplete:   func(s *State) error { return s.Complete("ev", t0) },
		OpFail:       func(s *State) error { return s.Fail(Error{Message: "m"}, t0) },
	}
	legal := map[Status][]Op{
		Pending:   {OpRecord, OpCheckpoint, OpPause, OpCancel, OpComplete, OpFail},
		Running:   {OpRecord, OpCheckpoint, OpPause, OpCancel, OpComplete, OpFail},
		Paused:    {OpCheckpoint, OpResume, OpCancel, OpComplete, OpFail},
		Failed:    {OpCheckpoint, OpResume, OpCancel}, // recoverable
		Completed: nil,
		Cancelled: nil,
	}
	for status, ok := range legal {
		for op, do := range ops {
			st := in(status)
			err := do(&st)
			want := false
			for _, o := range ok {
				want = want || o == op
			}
			if want && err != nil {
				t.Errorf("%s on %s: unexpected %v", op, status, err)
			}
			if !want {
				if !problem.Is(err, problem.Transition) {
					t.Errorf("%s on %s: want an illegal transition, got %v", op, status, err)
					continue
				}
				if !strings.Contains(err.Error(), string(status)) {
					t.Errorf("%s on %s: message lacks the status: %v", op, status, err)
				}
				if len(ok) > 0 && !strings.Contains(err.Error(), "legal next: ") {
					t.Errorf("%s on %s: message lacks the legal steps: %v", op, status, err)
				}
			}
		}
	}
}

func TestUnrecoverableFailureIsFinal(t *testing.T) {
	st := New("o", "c", 0, Metadata{}, t0)
	if st.MaxIterations != DefaultMaxIterations || st.Metadata.Priority != "medium" || st.Metadata.ExecutionMode != "default" {
		t.Fatalf("defaults: %+v", st)
	}
	st.Fail(Error{Message: "disk gone", Recoverable: false}, t0)
	if !st.Finished() || st.Resume(nil, 0, t0) == nil || st.Cancel(t0) == nil {
		t.Fatalf("an unrecoverable failure must be final: %+v", st)
	}
}

func TestMaxIterationsStopsTheLoop(t *testing.T) {
	st := New("o", "c", 3, Metadata{}, t0)
	for i := range 3 {
		if err := st.Record(Iteration{LastAction: "step"}, t0); err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
	}
	if st.Status != Failed || st.Error == nil || st.Error.Code != CodeMaxIterations || !st.Error.Recoverable {
		t.Fatalf("after the budget: %+v", st)
	}
	if err := st.Record(Iteration{}, t0); err == nil {
		t.Fatal("recorded past the budget")
	}
	if err := st.Resume(nil, 0, t0); err == nil || !strings.Contains(err.Error(), "higher max_iterations") {
		t.Fatalf("resume without a higher budget: %v", err)
	}
	if err := st.Resume(nil, 5, t0); err != nil || st.Status != Running || st.Error != nil {
		t.Fatalf("resume with a higher budget: %v %+v", err, st)
	}
}

func TestResumeFromCheckpoint(t *testing.T) {
	st := New("o", "c", 10, Metadata{}, t0)
	st.Record(Iteration{LastAction: "one", NextSteps: []string{"two"}, Progress: &Progress{Percentage: 10}}, t0)
	st.Checkpoint(t0)
	snap := st
	snap.NextSteps = append([]string(nil), st.NextSteps...)
	st.Record(Iteration{LastAction: "two", NextSteps: []string{"three"}, Progress: &Progress{Percentage: 20}}, t0)
	st.Record(Iteration{LastAction: "three", Progress: &Progress{Percentage: 30, ArtifactsCreated: 2}}, t0)
	st.Pause(t0)
	if err := st.Resume(&snap, 0, t0); err != nil {
		t.Fatal(err)
	}
	if st.Iteration != 1 || st.LastAction != "one" || st.NextSteps[0] != "two" || st.Progress.Percentage != 10 || st.Progress.Checkpoints != 1 {
		t.Fatalf("restored: %+v", st)
	}
}

func TestCompleteSetsEvidence(t *testing.T) {
	st := in(Running)
	if err := st.Complete("tests pass: 0 failures", t0); err != nil || st.Evidence == "" || st.Progress.Percentage != 100 {
		t.Fatalf("complete: %v %+v", err, st)
	}
}

func TestProgressMessageIsPerIteration(t *testing.T) {
	st := New("obj", "crit", 5, Metadata{}, t0)
	st.Record(Iteration{LastAction: "a", Progress: &Progress{Percentage: 40, Message: "parser done"}}, t0)
	st.Record(Iteration{LastAction: "b"}, t0)
	if st.Progress.Message != "" || st.Progress.Percentage != 40 {
		t.Errorf("after an iteration that reported no progress: %+v; want the percentage kept and the message gone", st.Progress)
	}
}

// TestNextStepsSayWhoseTheyAre: an iteration reported without next steps
// keeps the earlier ones and names the iteration that gave them; an empty
// list clears them; a loop that is over has none, whatever ended it.
func TestNextStepsSayWhoseTheyAre(t *testing.T) {
	st := New("obj", "crit", 10, Metadata{}, t0)
	st.Record(Iteration{LastAction: "a", NextSteps: []string{"fix the lexer"}}, t0)
	if st.NextStepsFrom != 1 {
		t.Errorf("next steps given at iteration 1 say %d", st.NextStepsFrom)
	}
	st.Record(Iteration{LastAction: "fixed the lexer"}, t0)
	if len(st.NextSteps) != 1 || st.NextStepsFrom != 1 || st.Iteration != 2 {
		t.Errorf("after an iteration without next steps: %q from %d at %d; want the earlier ones, from 1", st.NextSteps, st.NextStepsFrom, st.Iteration)
	}
	st.Record(Iteration{LastAction: "c", NextSteps: []string{}}, t0)
	if st.NextSteps != nil || st.NextStepsFrom != 0 {
		t.Errorf("an empty list kept %q from %d", st.NextSteps, st.NextStepsFrom)
	}
	for name, end := range map[string]func(*State) error{
		"complete":              func(s *State) error { return s.Complete("green", t0) },
		"cancel":                func(s *State) error { return s.Cancel(t0) },
		"unrecoverable failure": func(s *State) error { return s.Fail(Error{Message: "gone"}, t0) },
	} {
		s := New("obj", "crit", 10, Metadata{}, t0)
		s.Record(Iteration{LastAction: "a", NextSteps: []string{"b"}}, t0)
		if err := end(&s); err != nil {
			t.Fatal(err)
		}
		if s.NextSteps != nil || s.NextStepsFrom != 0 {
			t.Errorf("after %s the loop still has next steps %q", name, s.NextSteps)
		}
	}
	// A recoverable failure is resumed from where it stood: its steps stay.
	s := New("obj", "crit", 10, Metadata{}, t0)
	s.Record(Iteration{LastAction: "a", NextSteps: []string{"b"}}, t0)
	s.Fail(Error{Message: "flaky", Recoverable: true}, t0)
	if len(s.NextSteps) != 1 {
		t.Errorf("a recoverable failure dropped the next steps")
	}
}
