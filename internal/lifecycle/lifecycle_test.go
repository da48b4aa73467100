package lifecycle

import (
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
)

var t0 = time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)

func def(t *testing.T, name string) Definition {
	t.Helper()
	for _, d := range Builtins() {
		if d.Name == name {
			return d
		}
	}
	t.Fatalf("no built-in %s", name)
	return Definition{}
}

func TestBuiltins(t *testing.T) {
	want := map[string]string{
		"asdd":  "SYNC STORY PLAN COMMIT_SPEC EXECUTE TEST VERIFY COMMIT_IMPL",
		"asdd6": "UNDERSTAND PLAN SPEC BUILD VERIFY SHIP",
	}
	for _, d := range Builtins() {
		if got := strings.Join(d.PhaseNames(), " "); got != want[d.Name] {
			t.Errorf("%s phases = %s; want %s", d.Name, got, want[d.Name])
		}
		for _, p := range d.Phases {
			if len(p.Exit) == 0 {
				t.Errorf("%s/%s has no exit criteria", d.Name, p.Name)
			}
		}
	}
}

func TestApply(t *testing.T) {
	d := def(t, "asdd")
	tests := []struct {
		name      string
		phase     string
		st        State
		step      Step
		wantPhase string
		wantErr   string // substring; "" for success
	}{
		{"advance with all evidence", "SYNC", State{},
			Step{Evidence: map[string]string{"context_loaded": "read memory", "branch_synced": "at abc123"}}, "STORY", ""},
		{"missing named", "SYNC", State{}, Step{}, "", "no evidence for context_loaded, branch_synced"},
		{"some evidence is kept, the phase stays", "SYNC", State{},
			Step{Evidence: map[string]string{"context_loaded": "read memory"}}, "SYNC", ""},
		{"evidence held earlier counts", "SYNC",
			State{Evidence: map[string]map[string]Evidence{"SYNC": {"branch_synced": {Text: "at abc"}}}},
			Step{Evidence: map[string]string{"context_loaded": "read"}}, "STORY", ""},
		{"gate needs a command", "TEST",
			State{Evidence: map[string]map[string]Evidence{"TEST": {"tests_written": {Text: "x_test.go"}, "tests_pass": {Text: "they pass"}}}},
			Step{}, "", "tests_pass (gate"},
		{"gate words stay short of it", "TEST", State{},
			Step{Evidence: map[string]string{"tests_written": "x_test.go", "tests_pass": "they pass"}}, "TEST", ""},
		{"gate failing command stays", "TEST", State{},
			Step{Evidence: map[string]string{"tests_written": "x_test.go"}, Checks: map[string]Check{"tests_pass": {"go test ./...", 1}}}, "TEST", ""},
		{"gate passing command", "TEST", State{},
			Step{Evidence: map[string]string{"tests_written": "x_test.go"}, Checks: map[string]Check{"tests_pass": {"go test ./...", 0}}}, "VERIFY", ""},
		{"loop back needs a reason", "TEST", State{}, Step{To: "PLAN"}, "", "reason is empty"},
		{"loop back", "TEST", State{}, Step{To: "PLAN", Reason: "spec diverges"}, "PLAN", ""},
		{"no skipping ahead", "SYNC", State{}, Step{To: "PLAN"}, "", "past the next phase"},
		{"unknown phase", "SYNC", State{}, Step{To: "NOPE"}, "", "not a phase of asdd"},
		{"unknown criterion", "SYNC", State{}, Step{Evidence: map[string]string{"nope": "x"}}, "", `names "nope", not an exit criterion of SYNC: use context_loaded, branch_synced`},
		{"empty evidence", "SYNC", State{}, Step{Evidence: map[string]string{"context_loaded": " "}}, "", "empty value"},
		{"hold records", "SYNC", State{}, Step{Evidence: map[string]string{"context_loaded": "x"}, Hold: true}, "SYNC", ""},
		{"last phase ends", "COMMIT_IMPL", State{}, Step{Evidence: map[string]string{"committed": "abc", "memory_updated": "m3"}}, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			phase, st, err := Apply(d, tc.phase, t0, tc.st, tc.step, t0.Add(time.Hour))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v; want one containing %q", err, tc.wantErr)
				}
				if k := problem.KindOf(err); k != problem.Invalid && k != problem.CriteriaMissing {
					t.Errorf("err is %v (%s); want an invalid argument or criteria missing", err, k)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if phase != tc.wantPhase {
				t.Errorf("phase = %q; want %q", phase, tc.wantPhase)
			}
			if tc.wantPhase == tc.phase && tc.step.To == "" { // held, asked or not
				if len(st.History) != 0 {
					t.Errorf("a step that stays in %s added history %+v", tc.phase, st.History)
				}
				for id := range tc.step.Evidence {
					if st.Evidence[tc.phase][id].Text == "" {
						t.Errorf("the evidence given for %s was not kept: %+v", id, st.Evidence[tc.phase])
					}
				}
				for id, c := range tc.step.Checks {
					if e := st.Evidence[tc.phase][id]; e.Command != c.Command || e.ExitCode == nil || *e.ExitCode != c.ExitCode {
						t.Errorf("the check given for %s was not kept: %+v", id, e)
					}
				}
			} else {
				last := st.History[len(st.History)-1]
				if last.From != tc.phase || last.To != tc.wantPhase || last.Spent != time.Hour || last.Back != (tc.step.To != "" && d.Index(tc.step.To) <= d.Index(tc.phase)) {
					t.Errorf("history entry = %+v", last)
				}
			}
		})
	}
}

func TestApplyLoopBackClearsLaterEvidence(t *testing.T) {
	d := def(t, "asdd")
	st := State{Evidence: map[string]map[string]Evidence{"PLAN": {"plan_written": {Text: "p"}}, "EXECUTE": {"implemented": {Text: "i"}}, "SYNC": {"context_loaded": {Text: "c"}}}}
	_, next, err := Apply(d, "TEST", t0, st, Step{To: "PLAN", Reason: "spec diverges"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := next.Evidence["PLAN"]; ok {
		t.Error("PLAN's evidence kept after looping back to it")
	}
	if _, ok := next.Evidence["SYNC"]; !ok {
		t.Error("SYNC's evidence dropped; only the phases from the target on are redone")
	}
	if _, ok := st.Evidence["PLAN"]; !ok {
		t.Error("Apply modified its input state")
	}
}

func TestParse(t *testing.T) {
	good := `name: review
description: Review flow
phases:
  - name: DRAFT
    exit:
      - id: draft_written
        text: The draft is written.
  - name: CHECK
    exit:
      - id: tests_pass
        text: The suite passes.
        gate: true
`
	d, err := Parse("review.yaml", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "review" || len(d.Phases) != 2 || !d.Phases[1].Exit[0].Gate || d.Source != "review.yaml" {
		t.Errorf("Parse = %+v", d)
	}
	bad := []struct{ name, yaml, want string }{
		{"syntax", "name: x\nphases: [\n", "bad.yaml:2: did not find expected node content"},
		{"unknown key", "name: x\nphases:\n  - name: A\n    exits: []\n", "bad.yaml:4: unknown key \"exits\""},
		{"no exit", "name: x\nphases:\n  - name: A\n", "bad.yaml:3: phase A has no exit criteria"},
		{"no phases", "name: x\n", "bad.yaml:1: has no phases"},
		{"bad name", "name: 'a b'\nphases: []\n", "bad.yaml:1: name is \"a b\""},
		{"duplicate phase", "name: x\nphases:\n  - name: A\n    exit: [{id: a, text: t}]\n  - name: A\n    exit: [{id: a, text: t}]\n", "bad.yaml:5: phase A appears twice"},
		{"empty text", "name: x\nphases:\n  - name: A\n    exit:\n      - id: a\n", "bad.yaml:5: phase A, criterion a: text is empty"},
		{"wrong type", "name: x\nphases:\n  - name: A\n    exit:\n      - id: a\n        text: t\n        gate: maybe\n", "bad.yaml:7:"},
		{"empty", "", "bad.yaml: is empty"},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.yaml", []byte(tc.yaml))
			fp, ok := FileProblemOf(err)
			if !ok || !problem.Is(err, problem.Malformed) || !strings.HasPrefix(fp.String(), tc.want) {
				t.Errorf("Parse error = %v; want one starting %q", err, tc.want)
			}
		})
	}
}
