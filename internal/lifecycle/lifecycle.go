// Package lifecycle holds the phases a task (a story) walks from idea to
// commit, each ending only when every exit criterion has evidence, and the
// pure rules for moving between them: advance one phase at a time, loop back
// to an earlier phase with a reason, and gates that only a passing command
// result satisfies. It does no I/O; definitions come built in or from YAML
// the caller reads.
package lifecycle

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
)

// Criterion is one exit criterion of a phase.
type Criterion struct {
	ID   string `json:"id"`   // the key evidence is given under
	Text string `json:"text"` // what must be true
	// Gate marks a criterion only a command result with exit code 0
	// satisfies (tests pass, linters clean), not a sentence.
	Gate bool `json:"gate,omitempty"`
}

// Phase is one step of a lifecycle.
type Phase struct {
	Name  string      `json:"name"`
	Goal  string      `json:"goal,omitempty"`
	Entry []string    `json:"entry,omitempty"` // what holds on entering, besides the previous phase's exit
	Exit  []Criterion `json:"exit"`
}

// Definition is a named sequence of phases.
type Definition struct {
	Name        string  `json:"name"`
	Description string  `json:"description,omitempty"`
	Source      string  `json:"source,omitempty"` // "built-in" or the file it came from
	Phases      []Phase `json:"phases"`
}

// Index returns the position of the named phase, -1 if there is none.
func (d Definition) Index(phase string) int {
	return slices.IndexFunc(d.Phases, func(p Phase) bool { return p.Name == phase })
}

// PhaseNames lists the phases in order.
func (d Definition) PhaseNames() []string {
	out := make([]string, len(d.Phases))
	for i, p := range d.Phases {
		out[i] = p.Name
	}
	return out
}

// Evidence is what was given for one criterion.
type Evidence struct {
	Text     string    `json:"text,omitempty"`
	Command  string    `json:"command,omitempty"`
	ExitCode *int      `json:"exit_code,omitempty"`
	At       time.Time `json:"at"`
}

// Met reports whether e satisfies c: any text for a plain criterion, a
// command that exited 0 for a gate.
func (e Evidence) Met(c Criterion) bool {
	if c.Gate {
		return e.Command != "" && e.ExitCode != nil && *e.ExitCode == 0
	}
	return strings.TrimSpace(e.Text) != "" || (e.Command != "" && e.ExitCode != nil && *e.ExitCode == 0)
}

// Transition is one phase change.
type Transition struct {
	From   string        `json:"from"`
	To     string        `json:"to"` // "" when the last phase ended the lifecycle
	At     time.Time     `json:"at"`
	Spent  time.Duration `json:"spent"` // time in From
	Back   bool          `json:"back,omitempty"`
	Reason string        `json:"reason,omitempty"`
}

// State is a lifecycle's evidence, by phase and criterion, and its history.
type State struct {
	Evidence map[string]map[string]Evidence `json:"evidence,omitempty"`
	History  []Transition                   `json:"history,omitempty"`
}

// Check is a command result the agent reports for a criterion.
type Check struct {
	Command  string
	ExitCode int
}

// Step is one lifecycle_advance: evidence and checks for the current
// phase's criteria, and where to go.
type Step struct {
	Evidence map[string]string
	Checks   map[string]Check
	// To names the phase to move to: empty or the next phase advances;
	// an earlier phase loops back (Reason required).
	To     string
	Reason string
	// Hold records the evidence and stays in the phase. An advance that
	// carries evidence but leaves a criterion without any holds too: what
	// was given is kept, not thrown away with the refusal.
	Hold bool
}

// unmet refuses an advance that carried no evidence: the criteria of phase
// without (passing) evidence.
func unmet(phase string, missing []Criterion) error {
	parts := make([]string, len(missing))
	for i, c := range missing {
		parts[i] = c.ID
		if c.Gate {
			parts[i] += " (gate: report a command that exits 0)"
		}
	}
	return &problem.Error{Kind: problem.CriteriaMissing,
		Problem: fmt.Sprintf("phase %s cannot end: no evidence for %s", phase, strings.Join(parts, ", ")),
		Fix:     "nothing changed: give evidence (checks for gates) for them and advance again; hold: true records evidence for some without advancing"}
}

// Missing returns the criteria of phase without satisfying evidence in ev.
func Missing(p Phase, ev map[string]Evidence) []Criterion {
	var out []Criterion
	for _, c := range p.Exit {
		if e, ok := ev[c.ID]; !ok || !e.Met(c) {
			out = append(out, c)
		}
	}
	return out
}

// Apply validates s against d for a lifecycle in phase since phaseSince
// with state st, and returns the new phase ("" when the last phase ended)
// and state. st is not modified. Nothing is returned but an error when the
// step is refused: an Invalid problem.Error for bad arguments, a
// CriteriaMissing one for missing evidence when the step carried none. A
// step that carries evidence and still leaves criteria unmet stays in the
// phase with that evidence recorded (Missing says what is left).
func Apply(d Definition, phase string, phaseSince time.Time, st State, s Step, now time.Time) (string, State, error) {
	cur := d.Index(phase)
	if cur < 0 {
		return "", State{}, fmt.Errorf("lifecycle is in phase %q, which definition %s no longer has", phase, d.Name)
	}
	p := d.Phases[cur]
	known := func(field, id string) error {
		if slices.ContainsFunc(p.Exit, func(c Criterion) bool { return c.ID == id }) {
			return nil
		}
		ids := make([]string, len(p.Exit))
		for i, c := range p.Exit {
			ids[i] = c.ID
		}
		return &problem.FieldError{Field: field, Problem: fmt.Sprintf("names %q, not an exit criterion of %s", problem.Clip(id, 40), p.Name),
			Fix: "use " + strings.Join(ids, ", ")}
	}
	ev := map[string]Evidence{}
	for k, v := range st.Evidence[p.Name] {
		ev[k] = v
	}
	for _, id := range sortedKeys(s.Evidence) {
		if err := known("evidence", id); err != nil {
			return "", State{}, err
		}
		text := strings.TrimSpace(s.Evidence[id])
		if text == "" {
			return "", State{}, &problem.FieldError{Field: "evidence", Problem: fmt.Sprintf("gives %s an empty value", id), Fix: "give what shows it: a link, commit id, file or result"}
		}
		if len(text) > MaxEvidenceLen {
			return "", State{}, &problem.FieldError{Field: "evidence", Problem: fmt.Sprintf("gives %s %d bytes, over %d", id, len(text), MaxEvidenceLen), Fix: "shorten it to a summary and a link to the detail"}
		}
		e := ev[id]
		e.Text, e.At = text, now
		ev[id] = e
	}
	for _, id := range sortedKeys(s.Checks) {
		if err := known("checks", id); err != nil {
			return "", State{}, err
		}
		c := s.Checks[id]
		cmd := strings.TrimSpace(c.Command)
		if cmd == "" || len(cmd) > MaxEvidenceLen {
			return "", State{}, &problem.FieldError{Field: "checks", Problem: fmt.Sprintf("gives %s no command (or one over %d bytes)", id, MaxEvidenceLen), Fix: "pass the command that was run, e.g. \"go test ./...\""}
		}
		code := c.ExitCode
		e := ev[id]
		e.Command, e.ExitCode, e.At = cmd, &code, now
		ev[id] = e
	}
	next := State{Evidence: map[string]map[string]Evidence{}, History: slices.Clone(st.History)}
	for k, v := range st.Evidence {
		next.Evidence[k] = v
	}
	next.Evidence[p.Name] = ev
	to := cur + 1
	if s.To != "" {
		to = d.Index(s.To)
		if to < 0 {
			return "", State{}, &problem.FieldError{Field: "to", Problem: fmt.Sprintf("is %q, not a phase of %s", problem.Clip(s.To, 40), d.Name),
				Fix: "use one of " + strings.Join(d.PhaseNames(), ", ")}
		}
	}
	if s.Hold {
		if s.To != "" {
			return "", State{}, &problem.FieldError{Field: "to", Problem: "is set with hold", Fix: "pass hold to record evidence and stay, or to to move; not both"}
		}
		return p.Name, next, nil
	}
	switch {
	case to <= cur:
		if strings.TrimSpace(s.Reason) == "" {
			return "", State{}, &problem.FieldError{Field: "reason", Problem: fmt.Sprintf("is empty for a loop back from %s to %s", p.Name, d.Phases[to].Name),
				Fix: "give what was found that sends the work back"}
		}
		if len(s.Reason) > MaxEvidenceLen {
			return "", State{}, &problem.FieldError{Field: "reason", Problem: fmt.Sprintf("is %d bytes, over %d", len(s.Reason), MaxEvidenceLen), Fix: "shorten it"}
		}
		// The phases from the target on are done again: their evidence goes.
		for _, q := range d.Phases[to:] {
			delete(next.Evidence, q.Name)
		}
		next.History = append(next.History, Transition{From: p.Name, To: d.Phases[to].Name, At: now, Spent: now.Sub(phaseSince),
			Back: true, Reason: strings.TrimSpace(s.Reason)})
		return d.Phases[to].Name, next, nil
	case to > cur+1:
		return "", State{}, &problem.FieldError{Field: "to", Problem: fmt.Sprintf("is %s, past the next phase", d.Phases[to].Name),
			Fix: fmt.Sprintf("phases advance one at a time: pass no to, to go on to %s", d.Phases[cur+1].Name)}
	}
	if m := Missing(p, ev); len(m) > 0 {
		if len(s.Evidence) == 0 && len(s.Checks) == 0 {
			return "", State{}, unmet(p.Name, m)
		}
		return p.Name, next, nil
	}
	t := Transition{From: p.Name, At: now, Spent: now.Sub(phaseSince), Reason: strings.TrimSpace(s.Reason)}
	if to < len(d.Phases) {
		t.To = d.Phases[to].Name
	}
	next.History = append(next.History, t)
	return t.To, next, nil
}

// MaxEvidenceLen bounds one piece of evidence, a command or a reason.
const MaxEvidenceLen = 4096

// Durations sums the time spent in each phase over the history.
func Durations(h []Transition) map[string]time.Duration {
	out := map[string]time.Duration{}
	for _, t := range h {
		out[t.From] += t.Spent
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// NotFound refuses id: no lifecycle has it.
func NotFound(id int64) error {
	return &problem.Error{Kind: problem.NotFound, Problem: fmt.Sprintf("lifecycle %d not found", id), Hint: problem.ListLifecycles}
}
