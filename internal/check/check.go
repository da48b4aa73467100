// Package check is the findings model of Cairn's hands: the validators
// that check an agent's work (OpenAPI, SQL, Dockerfiles, Mermaid, tests,
// locale files, design tokens, markup, secrets) each return findings of
// one shape, and Run gives them the project's files: inside the root, with
// .gitignore respected, size-capped, binary and undecodable files skipped
// with the reason, suppressions applied and counted.
//
// Each validator is a subpackage implementing Checker. None of them knows
// MCP, the CLI or the store: the hands service, `cairn check` and `cairn
// ci` share them.
package check

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
)

// Severity says how much a finding matters.
type Severity string

// The severities, most serious first.
const (
	Error   Severity = "error"   // the file is wrong: it will fail, or is unsafe
	Warning Severity = "warning" // probably wrong, or a known cost
	Info    Severity = "info"    // worth knowing; nothing to fix necessarily
)

// Severities lists the severities, most serious first.
var Severities = []Severity{Error, Warning, Info}

// Above says whether s is more serious than t.
func (s Severity) Above(t Severity) bool { return s.rank() < t.rank() }

// rank orders severities: 0 for Error, 2 for Info, 3 for an unknown one.
func (s Severity) rank() int {
	if i := slices.Index(Severities, s); i >= 0 {
		return i
	}
	return len(Severities)
}

// AtLeast reports whether s is as serious as min or more.
func (s Severity) AtLeast(min Severity) bool { return s.rank() <= min.rank() }

// ParseSeverity reads a severity as a person spells it.
func ParseSeverity(s string) (Severity, error) {
	v := Severity(strings.ToLower(strings.TrimSpace(s)))
	if v.rank() < len(Severities) {
		return v, nil
	}
	return "", fmt.Errorf("severity %q: use error, warning or info", s)
}

// Rule is one check a validator makes, as explain_violation tells it.
type Rule struct {
	// ID is stable and namespaced by its checker: "sql/update-without-where".
	ID       string
	Severity Severity // the severity its findings take unless they say otherwise
	Title    string   // a few words: "UPDATE without WHERE"
	Why      string   // why the rule exists, a sentence or two
	Fix      string   // how to fix a finding, in general
	Bad      string   // an example that breaks it
	Good     string   // the same example, fixed
	Link     string   // the upstream explanation, when there is one
}

// Finding is one thing a check found.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	// File is the path, slash-separated and relative to the project root
	// ("" for inline content).
	File string `json:"file,omitempty"`
	// Line and Col are 1-based (Col counts bytes); 0 when unknown. EndLine
	// and EndCol, when known, end the span (inclusive).
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	EndLine int    `json:"end_line,omitempty"`
	EndCol  int    `json:"end_col,omitempty"`
	Message string `json:"message"` // one sentence: what is wrong here
	Fix     string `json:"fix,omitempty"`
	// Link explains the rule: its upstream page, else "cairn:rule/<id>",
	// which explain_violation reads.
	Link string `json:"link,omitempty"`
}

// String is the finding as one line, `path:line:col severity rule message`,
// the form every surface prints.
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(cmp.Or(f.File, "<inline>"))
	if f.Line > 0 {
		fmt.Fprintf(&b, ":%d", f.Line)
		if f.Col > 0 {
			fmt.Fprintf(&b, ":%d", f.Col)
		}
	}
	fmt.Fprintf(&b, " %s %s %s", f.Severity, f.Rule, f.Message)
	if f.Fix != "" {
		b.WriteString(" Fix: ")
		b.WriteString(f.Fix)
	}
	return b.String()
}

// File is one file given to a checker.
type File struct {
	// Path is slash-separated and relative to the project root; for inline
	// content, a name whose extension says the format ("inline.yaml").
	Path    string
	Content []byte
}

// Source reads the project's files beside the ones being checked ($refs in
// another file, a base locale, a source file's tests). It enforces what Run
// does: inside the root, no symlink out, the size cap.
type Source interface {
	// ReadFile returns a file by its slash path relative to the root.
	ReadFile(path string) ([]byte, error)
	// Exists reports whether a regular file is at path.
	Exists(path string) bool
	// Files lists the project's files (gitignore respected) under dir ("":
	// all), slash paths relative to the root, sorted.
	Files(dir string) ([]string, error)
}

// Input is what a checker is asked to check.
type Input struct {
	Files []File
	// Source reads the rest of the project; nil when the content was given
	// inline, so nothing else can be read.
	Source Source
	// Params are the checker's own options by name (a SQL dialect, a
	// coverage threshold), as its documentation lists them.
	Params map[string]string
}

// Result is what a checker found.
type Result struct {
	Findings []Finding
	// Skipped are files the checker was given but could not check, with
	// the reason (a format version it does not read, say).
	Skipped []Skipped
	// Notes say what was checked and how, when that is not obvious ("SQL
	// dialect postgres, guessed from go.mod's pgx").
	Notes []string
}

// Skipped is a file left unchecked, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Checker is one validator.
type Checker interface {
	// Name is its short name: "openapi", "sql"; the prefix of its rule ids.
	Name() string
	// Rules lists every rule its findings may name.
	Rules() []Rule
	// Wants reports whether a file found by walking the project is one
	// this checker reads, from its path and first bytes (up to 512).
	Wants(path string, head []byte) bool
	// Check checks in's files. Findings outside a file (a missing base
	// locale) may leave Line zero. An error is a failure of the checker
	// itself, never a finding: a file that does not parse is a finding.
	Check(ctx context.Context, in *Input) (Result, error)
}

// RuleLink is the link a finding of rule r carries.
func RuleLink(r Rule) string {
	return cmp.Or(r.Link, "cairn:rule/"+r.ID)
}
