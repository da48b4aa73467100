// Package gates evaluates the quality gates of the lifecycle phases (the
// gate criteria of a lifecycle's definition, ASDD's tests_pass and
// quality_gates by default) and the gates every change has (the checks
// clean, coverage over its threshold, no failure left unresolved) from the
// evidence Cairn holds or can read: the lifecycle's evidence, the test
// runs the hooks and `cairn ci` recorded, the findings of the checks, a
// coverage report. It runs no command: a gate without evidence says which
// command would give it.
package gates

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/internal/check"
	testcheck "github.com/cairn-dev/cairn/internal/check/tests"
	"github.com/cairn-dev/cairn/internal/lifecycle"
	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/service/lifecycles"
	"github.com/cairn-dev/cairn/internal/service/memories"
)

// CIAgent is the agent `cairn ci` records its command results as.
const CIAgent = "ci"

// Statuses of a gate.
const (
	Pass    = "pass"
	Fail    = "fail"
	Unknown = "unknown" // no evidence: Needs says how to get it
)

// Gate is one gate and its verdict.
type Gate struct {
	ID    string
	Title string
	// Phase is the lifecycle phase whose exit it guards ("" for a gate of
	// every change).
	Phase    string
	Status   string
	Evidence string
	Source   string // lifecycle, hook, cairn ci, checks, coverage report
	At       time.Time
	Needs    string // the command that would give evidence
}

// Service evaluates gates over the other services.
type Service struct {
	hands *hands.Service
	mem   *memories.Memory
	lc    *lifecycles.Lifecycles
}

// New returns the gates over the services (mem and lc may be nil: their
// evidence is then not read).
func New(h *hands.Service, mem *memories.Memory, lc *lifecycles.Lifecycles) *Service {
	return &Service{hands: h, mem: mem, lc: lc}
}

// Request says whose gates to evaluate.
type Request struct {
	Agent string
	// Lifecycle is a lifecycle id ("3"): its definition's gates, with its
	// evidence. "": the default definition's gates.
	Lifecycle string
	// Coverage is the coverage report's path ("" : the usual places);
	// Threshold the minimum percentage (0: the project's tests.threshold
	// param, else 80).
	Coverage  string
	Threshold float64
}

// Result is every gate's verdict.
type Result struct {
	Gates     []Gate
	Lifecycle string // "3 (asdd, phase TEST)" when one was given
	Pass      int
	Fail      int
	Unknown   int
}

// Evaluate evaluates the gates.
func (s *Service) Evaluate(ctx context.Context, req Request) (Result, error) {
	if req.Threshold < 0 || req.Threshold > 100 {
		return Result{}, &problem.FieldError{Field: "threshold", Problem: fmt.Sprintf("is %g", req.Threshold), Fix: "give a percentage from 0 to 100"}
	}
	var res Result
	// The lifecycle's gate criteria, with its evidence for the current
	// phase.
	def := lifecycle.Builtins()[0]
	phase := ""
	met := map[string]lifecycle.Evidence{}
	short := map[string]*lifecycle.Evidence{}
	if req.Lifecycle != "" {
		if s.lc == nil {
			return Result{}, &problem.FieldError{Field: "lifecycle", Problem: "cannot be read without a store", Fix: "leave it out"}
		}
		v, err := s.lc.Status(ctx, req.Lifecycle)
		if err != nil {
			return Result{}, err
		}
		if d, err := s.lc.Definition(v.Definition); err == nil {
			def = d
		}
		phase = v.Phase
		for _, m := range v.Met {
			met[m.ID] = m.Evidence
		}
		for _, m := range v.Missing {
			short[m.ID] = m.Short
		}
		res.Lifecycle = fmt.Sprintf("%d (%s, phase %s)", v.ID, v.Definition, cmp.Or(v.Phase, "done"))
	}
	test := s.lastTest(ctx, req.Agent)
	unresolved := s.unresolved(ctx, req.Agent)
	ci, err := s.hands.CI(ctx, hands.CIRequest{All: true})
	if err != nil {
		return Result{}, err
	}
	checks := checksGate(ci)
	failures := failuresGate(unresolved)
	for _, p := range def.Phases {
		for _, c := range p.Exit {
			if !c.Gate {
				continue
			}
			g := Gate{ID: c.ID, Title: c.Text, Phase: p.Name}
			if e, ok := met[c.ID]; ok && p.Name == phase {
				g.Status, g.Source, g.At = Pass, "lifecycle", e.At
				g.Evidence = fmt.Sprintf("%s exited 0", e.Command)
			} else if e := short[c.ID]; e != nil && p.Name == phase && e.Command != "" && e.ExitCode != nil {
				g.Status, g.Source, g.At = Fail, "lifecycle", e.At
				g.Evidence = fmt.Sprintf("%s exited %d", e.Command, *e.ExitCode)
			} else {
				derive(&g, test, checks, failures)
			}
			res.Gates = append(res.Gates, g)
		}
	}
	res.Gates = append(res.Gates, checks, failures, s.coverageGate(ctx, req))
	for _, g := range res.Gates {
		switch g.Status {
		case Pass:
			res.Pass++
		case Fail:
			res.Fail++
		default:
			res.Unknown++
		}
	}
	return res, nil
}

// derive gives a lifecycle gate without lifecycle evidence a verdict from
// what Cairn recorded: tests_pass from the last test run, quality_gates
// (and a project's other gates) from the checks and the failures left.
func derive(g *Gate, test *memory.Event, checks, failures Gate) {
	if strings.Contains(g.ID, "test") {
		if test == nil || test.Test == nil {
			g.Status, g.Needs = Unknown, "run the test suite (cairn ci runs the project's [[ci.commands]] and records the result; a hooked agent's test run is recorded too)"
			return
		}
		t := test.Test
		g.Source, g.At = "recorded test run", test.At
		g.Evidence = fmt.Sprintf("%s: %s", test.Subject, cmp.Or(t.Summary, map[bool]string{true: "passed", false: "failed"}[t.OK]))
		switch {
		case t.None:
			g.Status, g.Evidence = Fail, g.Evidence+" (no test ran)"
		case t.OK:
			g.Status = Pass
		default:
			g.Status = Fail
		}
		return
	}
	g.Source = "checks and recorded failures"
	switch {
	case checks.Status == Fail || failures.Status == Fail:
		g.Status = Fail
		g.Evidence = strings.TrimSpace(failText(checks) + " " + failText(failures))
	default:
		g.Status = Pass
		g.Evidence = "checks without errors and no unresolved failure; a linter of the project's own needs its command run (cairn ci)"
	}
}

func failText(g Gate) string {
	if g.Status == Fail {
		return g.Evidence + "."
	}
	return ""
}

func checksGate(ci hands.CIResult) Gate {
	g := Gate{ID: "checks_clean", Title: "The hands' checks and the project's rules find no error.", Source: "checks"}
	errs := ci.BySeverity[check.Error]
	if errs == 0 {
		g.Status = Pass
		g.Evidence = fmt.Sprintf("%d files checked, %d warnings, compliance %.1f%%", ci.Files, ci.BySeverity[check.Warning], ci.Score.Value)
		return g
	}
	rules := map[string]int{}
	for _, f := range ci.Findings {
		if f.Severity == check.Error {
			rules[f.Rule]++
		}
	}
	var top []string
	for _, r := range slices.Sorted(func(yield func(string) bool) {
		for k := range rules {
			if !yield(k) {
				return
			}
		}
	}) {
		top = append(top, fmt.Sprintf("%s %d", r, rules[r]))
	}
	g.Status = Fail
	g.Evidence = fmt.Sprintf("%d errors over %d files (%s)", errs, ci.Files, strings.Join(top[:min(len(top), 4)], ", "))
	g.Needs = "fix them: check_compliance lists them"
	return g
}

func failuresGate(evs []memory.Event) Gate {
	g := Gate{ID: "no_unresolved_failures", Title: "No failed command left unresolved (a later run of it passing resolves it).", Source: "recorded failures"}
	if len(evs) == 0 {
		g.Status, g.Evidence = Pass, "none recorded"
		return g
	}
	g.Status = Fail
	var cmds []string
	for _, e := range evs[:min(len(evs), 3)] {
		cmds = append(cmds, fmt.Sprintf("%s (%s)", e.Subject, e.Detail))
	}
	g.At = evs[0].At
	g.Evidence = fmt.Sprintf("%d unresolved: %s", len(evs), strings.Join(cmds, "; "))
	g.Needs = "fix and run the command again"
	return g
}

// lastTest is the newest test run recorded for the agent or by cairn ci.
func (s *Service) lastTest(ctx context.Context, agent string) *memory.Event {
	if s.mem == nil {
		return nil
	}
	var best *memory.Event
	for _, a := range []string{agent, CIAgent} {
		if a == "" {
			continue
		}
		sess, ok, err := s.mem.OpenSession(ctx, a, memory.Client{})
		if err != nil || !ok {
			continue
		}
		for _, e := range sess.Record.Of(memory.EventTest) {
			if e.Test != nil && (best == nil || e.At.After(best.At)) {
				best = &e
			}
		}
	}
	return best
}

func (s *Service) unresolved(ctx context.Context, agent string) []memory.Event {
	if s.mem == nil {
		return nil
	}
	var out []memory.Event
	for _, a := range []string{agent, CIAgent} {
		if a == "" || a == CIAgent && agent == CIAgent {
			continue
		}
		evs, err := s.mem.Unresolved(ctx, a, 10)
		if err == nil {
			out = append(out, evs...)
		}
	}
	slices.SortFunc(out, func(a, b memory.Event) int { return b.At.Compare(a.At) })
	return out
}

var coverageNote = regexp.MustCompile(`^coverage ([0-9.]+)% of \d+ (\w+) \(\d+ covered\), from (\S+)`)

// coverageGate reads the coverage report through the tests check.
func (s *Service) coverageGate(ctx context.Context, req Request) Gate {
	g := Gate{ID: "coverage", Title: "Test coverage at or over the threshold.", Source: "coverage report"}
	params := map[string]string{}
	threshold := req.Threshold
	if threshold == 0 {
		threshold = 80
		if t, ok := s.projectThreshold(); ok {
			threshold = t
		}
	}
	params["threshold"] = strconv.FormatFloat(threshold, 'f', -1, 64)
	report := req.Coverage
	if report == "" {
		for _, loc := range testcheck.CoverageLocations() {
			if s.hands.IsFile(loc) {
				report = loc
				break
			}
		}
	}
	if report == "" {
		g.Status = Unknown
		g.Needs = "write a coverage report (go test -coverprofile=coverage.out ./..., vitest --coverage, pytest --cov --cov-report=xml), or name it as coverage"
		return g
	}
	params["coverage"] = report
	r, err := s.hands.Check(ctx, hands.Request{Checks: []string{"tests"}, Paths: []string{report}, Params: map[string]map[string]string{"tests": params}, All: true})
	if err != nil {
		g.Status, g.Evidence = Unknown, err.Error()
		g.Needs = "name a coverage report of the project as coverage"
		return g
	}
	for _, n := range r.Notes {
		if m := coverageNote.FindStringSubmatch(strings.TrimPrefix(n, "tests: ")); m != nil {
			pct, _ := strconv.ParseFloat(m[1], 64)
			g.Evidence = fmt.Sprintf("%s%% of %s from %s, threshold %g%%", m[1], m[2], m[3], threshold)
			g.Status = Pass
			if pct < threshold {
				g.Status = Fail
				g.Needs = "test the uncovered lines (validate_tests with coverage lists them)"
			}
			return g
		}
	}
	g.Status, g.Evidence = Unknown, report+" gave no coverage total: "+strings.Join(r.Notes, "; ")
	g.Needs = "regenerate the coverage report with the test runner"
	return g
}

// projectThreshold is the tests.threshold param of .cairn/config.toml.
func (s *Service) projectThreshold() (float64, bool) {
	r, err := s.hands.ProjectParam("tests", "threshold")
	if err != nil || r == "" {
		return 0, false
	}
	f, err := strconv.ParseFloat(r, 64)
	return f, err == nil
}
