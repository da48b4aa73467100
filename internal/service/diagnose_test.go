package service_test

// The diagnose benchmark: a labelled set (internal/memory/testdata/
// diagnose.json: the memory of a fictional monorepo, 112 entries of which
// 59 are mistakes and 24 failed commands, recorded here as the hooks record
// them (RecordToolUse: a mistake candidate and a failure event of the
// session record each), and 145 errors as agents paste them, in Python, Go,
// TypeScript and Node, Rust, Java and shell, each with the entries a
// developer would want called similar, often none) run through the memory
// service on a real SQLite store. It reports the precision and recall of
// "similar" (over pairs of an error and a past entry) for what
// diagnose_error did before (the mistakes a full-text search of the error
// ranks first, every one called similar) and for Diagnose now, on three
// splits:
//
//   - dev (73 errors): the parser and the rule were developed and tuned on
//     them;
//   - seen (32): written afterwards as a report set, but read after its
//     first run (precision 0.80, recall 0.86) and fixed against (the React,
//     net/http and hydration messages read as types, tool names as generic
//     words, a name weighed by the past errors naming it), so no longer
//     unseen;
//   - heldout (40): written last, labelled before any run, and reported as
//     first measured; its bar below was set before that run.
//
//	go test -count=1 -run '^TestDiagnoseBenchmark$' -v ./internal/service/
//
// CAIRN_DIAGBENCH_SWEEP=1 also prints the grid of rules it was tuned over,
// by F1 on dev (a few minutes). The test fails when Diagnose falls below
// the bar on any split.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/service/page"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

type diagnoseSet struct {
	Entries []struct {
		Key, Type, Title, Content string
		RootCause                 string `json:"root_cause"`
		Fix                       string
		Files, Tags, Facts        []string
	} `json:"entries"`
	Queries []struct {
		Error, Split, Note string
		Relevant           []string
	} `json:"queries"`
}

// similarScores count the pairs (error, past entry) called similar.
type similarScores struct {
	tp, fp, fn       int
	none, noneRight  int // errors with no similar entry, and those answered with none
	queries          int
	misses, wrongOut []string
}

func (s similarScores) precision() float64 {
	if s.tp+s.fp == 0 {
		return 1
	}
	return float64(s.tp) / float64(s.tp+s.fp)
}

func (s similarScores) recall() float64 {
	if s.tp+s.fn == 0 {
		return 1
	}
	return float64(s.tp) / float64(s.tp+s.fn)
}

func (s similarScores) f1() float64 {
	p, r := s.precision(), s.recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func (s similarScores) String() string {
	return fmt.Sprintf("precision %.2f  recall %.2f  F1 %.2f  (%d right, %d wrong, %d missed; %d of %d errors with none answered none)",
		s.precision(), s.recall(), s.f1(), s.tp, s.fp, s.fn, s.noneRight, s.none)
}

func (s *similarScores) add(label string, got []string, relevant []string, why map[string]string) {
	s.queries++
	if len(relevant) == 0 {
		s.none++
		if len(got) == 0 {
			s.noneRight++
		}
	}
	for _, g := range got {
		if slices.Contains(relevant, g) {
			s.tp++
		} else {
			s.fp++
			s.wrongOut = append(s.wrongOut, label+" -> "+g+" ("+why[g]+")")
		}
	}
	for _, r := range relevant {
		if !slices.Contains(got, r) {
			s.fn++
			s.misses = append(s.misses, label+" misses "+r)
		}
	}
}

func loadDiagnoseSet(t *testing.T) (diagnoseSet, *memories.Memory, map[memory.ID]string) {
	t.Helper()
	ctx := context.Background()
	b, err := os.ReadFile(filepath.Join("..", "memory", "testdata", "diagnose.json"))
	if err != nil {
		t.Fatal(err)
	}
	var set diagnoseSet
	if err := json.Unmarshal(b, &set); err != nil {
		t.Fatal(err)
	}
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "cairn.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := memories.NewMemory(st, memories.MemoryOptions{})
	keys := map[memory.ID]string{}
	for _, e := range set.Entries {
		if cmd, ok := strings.CutPrefix(e.Title, "Failed: "); ok && e.Type == string(memory.ToolOutcome) {
			// A failed command, as the post-tool-use hook records it.
			r, err := m.RecordToolUse(ctx, memories.ToolUse{Agent: "bench", Tool: "Bash", Command: cmd, Failed: true, Error: e.Content})
			if err != nil || r.Candidate == 0 {
				t.Fatalf("%s: %v (candidate %v)", e.Key, err, r.Candidate)
			}
			if _, dup := keys[r.Candidate]; dup {
				t.Fatalf("%s: recorded on %s's candidate", e.Key, keys[r.Candidate])
			}
			keys[r.Candidate] = e.Key
			continue
		}
		r, err := m.Add(ctx, "", memory.Entry{Type: memory.Type(e.Type), Title: e.Title, Content: e.Content, RootCause: e.RootCause, Fix: e.Fix,
			Files: e.Files, Tags: e.Tags, Facts: e.Facts})
		if err != nil {
			t.Fatalf("%s: %v", e.Key, err)
		}
		if r.Counted {
			t.Fatalf("%s: counted as an occurrence of %s", e.Key, keys[r.Entry.ID])
		}
		keys[r.Entry.ID] = e.Key
	}
	return set, m, keys
}

// measureDiagnose runs every query of the set: before (a full-text search
// of mistakes, its first page called similar) or after (Diagnose), and
// scores each split.
func measureDiagnose(t *testing.T, set diagnoseSet, m *memories.Memory, keys map[memory.ID]string, before bool) map[string]*similarScores {
	t.Helper()
	ctx := context.Background()
	out := map[string]*similarScores{}
	for _, split := range splits {
		out[split] = &similarScores{}
	}
	for i, q := range set.Queries {
		var got []string
		why := map[string]string{}
		if before {
			res, err := m.Search(ctx, memories.SearchQuery{Text: q.Error, Types: []string{"mistake"}, Page: page.Page{Limit: page.Diagnose.Default}})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range res.Hits {
				got = append(got, keys[h.ID])
			}
		} else {
			d, err := m.Diagnose(ctx, memories.DiagnoseQuery{Error: q.Error})
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range d.Matches {
				got = append(got, keys[x.Entry.ID])
				why[keys[x.Entry.ID]] = x.Why()
			}
		}
		label := fmt.Sprintf("q%d %q", i, firstLineOf(q.Error))
		s, ok := out[q.Split]
		if !ok {
			t.Fatalf("q%d: split %q", i, q.Split)
		}
		s.add(label, got, q.Relevant, why)
	}
	return out
}

func firstLineOf(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "Traceback") {
			return l[:min(len(l), 60)]
		}
	}
	return ""
}

func TestDiagnoseBenchmark(t *testing.T) {
	if raceEnabled {
		t.Skip("slow under -race; scripts/test runs it without: go test -run TestDiagnoseBenchmark ./internal/service")
	}
	set, m, keys := loadDiagnoseSet(t)
	before := measureDiagnose(t, set, m, keys, true)
	after := measureDiagnose(t, set, m, keys, false)
	var b strings.Builder
	for _, split := range splits {
		fmt.Fprintf(&b, "%-6s (%d errors) before: %s\n", split, before[split].queries, before[split])
		fmt.Fprintf(&b, "%-6s (%d errors) after:  %s\n", split, after[split].queries, after[split])
	}
	t.Logf("diagnose_error's \"similar\" over %d entries:\n%s", len(set.Entries), b.String())
	for _, split := range splits {
		for _, s := range append(after[split].wrongOut, after[split].misses...) {
			t.Logf("after, %s: %s", split, s)
		}
	}
	if os.Getenv("CAIRN_DIAGBENCH_SWEEP") != "" {
		sweepDiagnose(t, set, m, keys)
	}
	for _, bar := range []struct {
		split             string
		precision, recall float64
		gain              float64 // F1 above before's
	}{{"dev", 0.95, 0.9, 0.4}, {"seen", 0.8, 0.85, 0.4}, {"heldout", 0.75, 0.75, 0.3}} {
		s := after[bar.split]
		if s.precision() < bar.precision || s.recall() < bar.recall {
			t.Errorf("%s: precision %.2f, recall %.2f; want at least %.2f and %.2f", bar.split, s.precision(), s.recall(), bar.precision, bar.recall)
		}
		if s.f1() < before[bar.split].f1()+bar.gain {
			t.Errorf("%s: F1 %.2f, before %.2f; want it at least %.2f higher", bar.split, s.f1(), before[bar.split].f1(), bar.gain)
		}
	}
}

// splits are the diagnose set's parts (see the top of the file).
var splits = []string{"dev", "seen", "heldout"}

// sweepDiagnose prints the rules of a grid by their F1 on dev (and, for
// reference only, on the seen split; never on heldout).
func sweepDiagnose(t *testing.T, set diagnoseSet, m *memories.Memory, keys map[memory.ID]string) {
	saved := memories.Similar
	defer func() { memories.Similar = saved }()
	type result struct {
		rule      memories.SimilarRule
		dev, seen *similarScores
	}
	var rs []result
	for _, share := range []float64{0.02, 0.05, 0.1, 0.2, 1} {
		for _, minCommon := range []int{2, 4, 8, 16} {
			for _, typed := range []int{1, 2} {
				for _, untyped := range []int{1, 2, 3} {
					for _, cover := range []float64{0.3, 0.5} {
						memories.Similar = memories.SimilarRule{CommonShare: share, CommonMin: minCommon, TypedMin: typed, UntypedMin: untyped,
							UntypedCover: cover, Depth: saved.Depth, Events: saved.Events}
						s := measureDiagnose(t, set, m, keys, false)
						rs = append(rs, result{memories.Similar, s["dev"], s["seen"]})
					}
				}
			}
		}
	}
	slices.SortStableFunc(rs, func(a, b result) int {
		if a.dev.f1() != b.dev.f1() {
			if a.dev.f1() > b.dev.f1() {
				return -1
			}
			return 1
		}
		return 0
	})
	for _, r := range rs[:min(len(rs), 25)] {
		t.Logf("%+v\n  dev    %s\n  seen   %s", r.rule, r.dev, r.seen)
	}
}

// TestDiagnoseFailureEvents: each distinct failure of a command is a
// failure event of the session record, while its mistake candidate keeps
// the last error text; diagnose_error finds an earlier failure through its
// event, says which failure matched, and that a later run passed.
func TestDiagnoseFailureEvents(t *testing.T) {
	ctx := context.Background()
	m := memories.NewMemory(openStore(t), memories.MemoryOptions{})
	const cmd = "python analytics/analyze.py --week 12"
	first := "Traceback (most recent call last):\n  File \"/home/dev/p/analytics/analyze.py\", line 31, in <module>\n" +
		"    events = pd.read_csv(\"data/sample2.csv\")\nFileNotFoundError: [Errno 2] No such file or directory: 'data/sample2.csv'\nExit code 1"
	second := "Traceback (most recent call last):\n  File \"/home/dev/p/analytics/analyze.py\", line 44, in <module>\n" +
		"    week = events[events.week == args.week]\nAttributeError: 'DataFrame' object has no attribute 'week'\nExit code 1"
	var cand memory.ID
	for _, e := range []string{first, second} {
		r, err := m.RecordToolUse(ctx, memories.ToolUse{Agent: "a", Tool: "Bash", Command: cmd, Failed: true, Error: e})
		if err != nil {
			t.Fatal(err)
		}
		cand = r.Candidate
	}
	es, _, err := m.Get(ctx, []string{cand.String()})
	if err != nil || !strings.Contains(es[0].Content, "AttributeError") || strings.Contains(es[0].Content, "sample2") {
		t.Fatalf("the candidate should hold the last failure alone: %v %+v", err, es)
	}
	diagnose := func() memories.Diagnosis {
		t.Helper()
		d, err := m.Diagnose(ctx, memories.DiagnoseQuery{Error: "FileNotFoundError: [Errno 2] No such file or directory: 'data/sample2.csv'"})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := diagnose()
	if len(d.Matches) != 1 || d.Matches[0].Entry.ID != cand || !d.Matches[0].Failure || d.Matches[0].Event == nil ||
		!strings.Contains(d.Matches[0].Event.Detail, "sample2.csv") || !d.Matches[0].Resolved.IsZero() {
		t.Fatalf("the first failure, through its event: %+v", d.Matches)
	}
	if !strings.Contains(d.Matches[0].Why(), "sample2.csv") {
		t.Errorf("why: %q", d.Matches[0].Why())
	}
	// A later run of the command passed: both failures are resolved.
	if _, err := m.RecordToolUse(ctx, memories.ToolUse{Agent: "a", Tool: "Bash", Command: cmd}); err != nil {
		t.Fatal(err)
	}
	if d := diagnose(); len(d.Matches) != 1 || d.Matches[0].Resolved.IsZero() {
		t.Errorf("resolved: %+v", d.Matches)
	}
	// With the events left out, the earlier failure is not found.
	saved := memories.Similar
	defer func() { memories.Similar = saved }()
	memories.Similar.Events = 0
	if d := diagnose(); len(d.Matches) != 0 {
		t.Errorf("without events: %+v", d.Matches)
	}
}
