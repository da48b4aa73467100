// Package checktest measures a checker against a corpus, the way every
// validator of the hands is judged: valid files (from real projects, or the
// format's own examples) must give no finding of severity error, and each
// seeded defect must be found at its line.
//
// A corpus is a directory with two parts:
//
//	valid/...            files that must give no error
//	defects/...          files with seeded defects
//	defects/want.txt     one line a defect: "FILE:LINE RULE" (FILE relative
//	                     to defects/; LINE 0 when the finding has none)
//
// Lines of want.txt that are blank or start with # are ignored.
package checktest

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
)

// Tally is what a corpus run measured, for the closing notes of the hands.
type Tally struct {
	Check       string
	ValidFiles  int
	FalseErrors int // findings of severity error on valid files (goal 0)
	DefectFiles int
	Seeded      int // defects listed in want.txt
	Caught      int // found at the right file, line and rule (goal Seeded)
	Findings    int // every finding on the defect files
}

func (t Tally) String() string {
	return fmt.Sprintf("%s: valid %d files, %d false errors; defects %d files, %d/%d seeded caught, %d findings",
		t.Check, t.ValidFiles, t.FalseErrors, t.DefectFiles, t.Caught, t.Seeded, t.Findings)
}

// Want is one seeded defect.
type Want struct {
	File string
	Line int
	Rule string
}

// Corpus runs c over dir's corpus, fails t for each error on a valid file
// and each seeded defect not found, and returns the tally. params are the
// checker's options.
func Corpus(t *testing.T, c check.Checker, dir string, params map[string]string) Tally {
	t.Helper()
	tally := Tally{Check: c.Name()}
	if _, err := os.Stat(filepath.Join(dir, "valid")); err == nil {
		rep := run(t, c, filepath.Join(dir, "valid"), params)
		tally.ValidFiles = rep.ByChecker[c.Name()]
		for _, f := range rep.Findings {
			if f.Severity == check.Error {
				tally.FalseErrors++
				t.Errorf("valid file: %s", f)
			}
		}
		for _, s := range rep.Skipped {
			t.Errorf("valid file skipped: %s: %s", s.Path, s.Reason)
		}
	}
	ddir := filepath.Join(dir, "defects")
	if _, err := os.Stat(ddir); err != nil {
		return tally
	}
	wants, err := ReadWants(filepath.Join(ddir, "want.txt"))
	if err != nil {
		t.Fatal(err)
	}
	rep := run(t, c, ddir, params)
	tally.DefectFiles, tally.Seeded, tally.Findings = rep.ByChecker[c.Name()], len(wants), len(rep.Findings)
	for _, w := range wants {
		if slices.ContainsFunc(rep.Findings, func(f check.Finding) bool {
			return f.File == w.File && f.Line == w.Line && f.Rule == w.Rule
		}) {
			tally.Caught++
			continue
		}
		var near []string
		for _, f := range rep.Findings {
			if f.File == w.File {
				near = append(near, f.String())
			}
		}
		t.Errorf("seeded defect not found: %s:%d %s; found in that file:\n\t%s", w.File, w.Line, w.Rule, strings.Join(near, "\n\t"))
	}
	return tally
}

func run(t *testing.T, c check.Checker, root string, params map[string]string) *check.Report {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{c}, check.Request{
		Root: root, Params: map[string]map[string]string{c.Name(): params}})
	if err != nil {
		t.Fatalf("run %s over %s: %v", c.Name(), root, err)
	}
	Declared(t, c, rep.Findings)
	return rep
}

// Declared fails t for a finding whose rule c does not declare, or which
// has no message.
func Declared(t *testing.T, c check.Checker, fs []check.Finding) {
	t.Helper()
	rules := c.Rules()
	for _, f := range fs {
		if f.Rule == check.RuleSuppressionReason {
			continue
		}
		if !slices.ContainsFunc(rules, func(r check.Rule) bool { return r.ID == f.Rule }) {
			t.Errorf("%s: rule %q is not among %s's Rules()", f, f.Rule, c.Name())
		}
		if f.Message == "" || f.Severity == "" {
			t.Errorf("%s: a finding needs a message and a severity", f)
		}
	}
}

// Rules fails t for a rule that is not fully described or not named
// under its checker.
func Rules(t *testing.T, c check.Checker) {
	t.Helper()
	seen := map[string]bool{}
	for _, r := range c.Rules() {
		if !strings.HasPrefix(r.ID, c.Name()+"/") {
			t.Errorf("rule %q: ids start with %q", r.ID, c.Name()+"/")
		}
		if seen[r.ID] {
			t.Errorf("rule %q is declared twice", r.ID)
		}
		seen[r.ID] = true
		if r.Title == "" || r.Why == "" || r.Fix == "" || r.Severity == "" {
			t.Errorf("rule %q: Title, Why, Fix and Severity are required", r.ID)
		}
	}
}

// ReadWants reads a want.txt.
func ReadWants(file string) ([]Want, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Want
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		loc, rule, ok := strings.Cut(line, " ")
		i := strings.LastIndex(loc, ":")
		if !ok || i < 0 {
			return nil, fmt.Errorf("%s:%d: want FILE:LINE RULE", file, n)
		}
		ln, err := strconv.Atoi(loc[i+1:])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: line %q: %v", file, n, loc[i+1:], err)
		}
		out = append(out, Want{File: loc[:i], Line: ln, Rule: strings.TrimSpace(rule)})
	}
	return out, sc.Err()
}

// External returns the directory of npm package pkg in the corpus of real
// files that scripts/corpus.sh installs (listed in the check's
// testdata/corpus.txt). Without the corpus the test is skipped, except
// under CI=true, where it fails: CI always has it.
func External(t *testing.T, pkg string) string {
	t.Helper()
	dir := os.Getenv("CAIRN_CORPUS_DIR")
	if dir != "" {
		p := filepath.Join(dir, "node_modules", filepath.FromSlash(pkg))
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	msg := fmt.Sprintf("npm package %s is not in the corpus: run eval \"$(bash scripts/corpus.sh)\" (CAIRN_CORPUS_DIR=%q)", pkg, dir)
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}
