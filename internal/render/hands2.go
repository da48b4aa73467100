package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/commitmsg"
	"github.com/cairn-dev/cairn/internal/check/versions"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/words"
)

// The answers of verify_version, generate_commit_message, ci_report and
// ci_diff_check, and of `cairn commit-msg` and `cairn ci`.

// versionEvidenceCap is how many evidence lines the text lists.
const versionEvidenceCap = 12

// VersionText is a verify_version report in words: the verdict, each
// place a version was read, the disagreements with their fix.
func VersionText(r *versions.Report) string {
	var b strings.Builder
	switch {
	case len(r.Evidence) == 0:
		fmt.Fprintf(&b, "%s: not found in the project.", r.Name)
	case r.Agree:
		fmt.Fprintf(&b, "%s: manifest, lock and installed copy agree", r.Name)
	default:
		fmt.Fprintf(&b, "%s: the versions disagree", r.Name)
	}
	if len(r.Resolved) > 0 {
		var parts []string
		for _, eco := range slices.Sorted(maps.Keys(r.Resolved)) {
			parts = append(parts, eco+" "+r.Resolved[eco])
		}
		fmt.Fprintf(&b, "; resolved %s.", strings.Join(parts, ", "))
	} else if len(r.Evidence) > 0 {
		b.WriteString("; no exact version resolved.")
	}
	if r.BeliefMatches != nil {
		if *r.BeliefMatches {
			fmt.Fprintf(&b, "\nYour belief %s matches.", r.Believed)
		} else {
			fmt.Fprintf(&b, "\nYour belief %s does NOT match.", r.Believed)
		}
	}
	for i, e := range r.Evidence {
		if i == versionEvidenceCap {
			fmt.Fprintf(&b, "\n%d more in the structured answer.", len(r.Evidence)-i)
			break
		}
		loc := e.File
		if e.Line > 0 {
			loc += fmt.Sprintf(":%d", e.Line)
		}
		what := e.Version
		if e.Constraint != "" {
			what = strings.TrimSpace(e.Constraint + " " + e.Version)
		}
		fmt.Fprintf(&b, "\n%s %s %s: %s", e.Kind, e.Ecosystem, loc, cmpStr(what, "(no version)"))
		if e.Scope != "" {
			b.WriteString(" [" + e.Scope + "]")
		}
		if e.Note != "" {
			b.WriteString(" (" + clip(e.Note, 120) + ")")
		}
	}
	for _, f := range r.Findings {
		b.WriteString("\n" + clip(f.String(), 400))
	}
	for i, n := range r.Notes {
		if i == checkListCap {
			break
		}
		b.WriteString("\nNote: " + clip(n, 200))
	}
	b.WriteString("\nNo registry is asked: the latest version is not known here.")
	return b.String()
}

func cmpStr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// CommitView is generate_commit_message's structured answer.
type CommitView struct {
	Source     string            `json:"source,omitempty"`
	Message    string            `json:"message,omitempty"`
	Type       string            `json:"type,omitempty"`
	Scope      string            `json:"scope,omitempty"`
	Breaking   bool              `json:"breaking,omitempty"`
	Reasons    []string          `json:"reasons,omitempty"`
	APIChanges []CommitAPIChange `json:"api_changes,omitempty"`
	Checked    string            `json:"checked,omitempty"`
	Valid      *bool             `json:"valid,omitempty"`
	Findings   []check.Finding   `json:"findings,omitempty"`
	Notes      []string          `json:"notes,omitempty"`
}

// CommitAPIChange is one exported declaration that changed.
type CommitAPIChange struct {
	File   string `json:"file"`
	Change string `json:"change"`
	Decl   string `json:"decl"`
}

// commitAPICap is how many API changes the answer lists.
const commitAPICap = 20

// CommitViewOf is r's structured answer.
func CommitViewOf(r hands.CommitResult) CommitView {
	v := CommitView{Source: r.Source, Notes: r.Notes}
	if r.Suggestion != nil {
		s := r.Suggestion
		v.Message, v.Type, v.Scope, v.Breaking, v.Reasons = s.Message, s.Type, s.Scope, s.Breaking, s.Reasons
		for i, c := range s.APIChanges {
			if i == commitAPICap {
				v.Notes = append(v.Notes, fmt.Sprintf("%d more exported API changes not listed", len(s.APIChanges)-i))
				break
			}
			v.APIChanges = append(v.APIChanges, CommitAPIChange{File: c.File, Change: c.Change, Decl: c.Decl})
		}
		return v
	}
	valid := r.Valid()
	v.Checked, v.Valid, v.Findings = r.Checked, &valid, r.Findings
	if v.Findings == nil {
		v.Findings = []check.Finding{}
	}
	return v
}

// CommitText is r in words: the message to use and how it was inferred,
// or the checked message's verdict and findings.
func CommitText(r hands.CommitResult) string {
	var b strings.Builder
	if s := r.Suggestion; s != nil {
		fmt.Fprintf(&b, "From %s:\n\n%s\n", r.Source, strings.TrimRight(s.Message, "\n"))
		b.WriteString("\nHow: " + clip(strings.Join(s.Reasons, "; "), 600))
		if s.Breaking {
			fmt.Fprintf(&b, "\nBreaking: %s.", words.Plural(countChange(s.APIChanges), "exported declaration removed or changed", "exported declarations removed or changed"))
		}
		for _, n := range r.Notes {
			b.WriteString("\nNote: " + clip(n, 200))
		}
		b.WriteString("\nNext: review the message, then commit with it (git commit -F -); check an edited one with message.")
		return b.String()
	}
	if r.Valid() {
		fmt.Fprintf(&b, "The message follows Conventional Commits (%s).", words.Plural(len(r.Findings), "finding", "findings"))
	} else {
		fmt.Fprintf(&b, "The message breaks Conventional Commits: %s.", words.Plural(len(r.Findings), "finding", "findings"))
	}
	for _, f := range r.Findings {
		b.WriteString("\nmessage" + clip(strings.TrimPrefix(f.String(), "<inline>"), 300))
	}
	if !r.Valid() {
		b.WriteString("\nNext: fix the header as type(scope): subject, then check again.")
	}
	return b.String()
}

func countChange(cs []commitmsg.APIChange) int {
	n := 0
	for _, c := range cs {
		if c.Change != "added" {
			n++
		}
	}
	return n
}

// CIView is the structured answer of ci_report and ci_diff_check, and
// `cairn ci --format json`.
type CIView struct {
	CheckView
	Scope     string          `json:"scope"`
	MergeBase string          `json:"merge_base,omitempty"`
	Changed   []hands.Changed `json:"changed,omitempty"`
	// ChangedTotal counts the changed files (Changed lists at most a page).
	ChangedTotal int  `json:"changed_total,omitempty"`
	OffLines     int  `json:"off_lines,omitempty"`
	Drift        bool `json:"drift_checked"`
}

// ciChangedCap is how many changed files the answer lists.
const ciChangedCap = 30

// CIViewOf is r's structured answer.
func CIViewOf(r hands.CIResult) CIView {
	v := CIView{CheckView: CheckViewOf(r.Result), Scope: r.Scope, MergeBase: r.MergeBase, OffLines: r.OffLines, Drift: r.Drift, ChangedTotal: len(r.Changed)}
	v.Changed = r.Changed[:min(len(r.Changed), ciChangedCap)]
	return v
}

// CIText is r in words: what was checked, the changed files (at most a
// few), then the findings as CheckText says them.
func CIText(r hands.CIResult, s CheckSurface) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Scope: %s", r.Scope)
	if r.MergeBase != "" || len(r.Changed) > 0 {
		lines := 0
		for _, c := range r.Changed {
			for _, l := range c.Lines {
				lines += l[1] - l[0] + 1
			}
		}
		fmt.Fprintf(&b, "; %s changed, %s added or changed", words.Plural(len(r.Changed), "file", "files"), words.Plural(lines, "line", "lines"))
	}
	if r.Drift {
		b.WriteString("; dependency versions compared")
	}
	b.WriteString(".")
	for i, c := range r.Changed {
		if i == checkListCap {
			fmt.Fprintf(&b, "\n%d more changed files in the structured answer.", len(r.Changed)-i)
			break
		}
		fmt.Fprintf(&b, "\n%s %s%s", c.Status, c.Path, rangesText(c.Lines))
	}
	if r.OffLines > 0 {
		fmt.Fprintf(&b, "\n%s not on a changed line left out.", words.Plural(r.OffLines, "finding", "findings"))
	}
	b.WriteString("\n")
	b.WriteString(CheckText(r.Result, s))
	return b.String()
}

// rangesText is " lines 3-5, 9" (at most a few ranges).
func rangesText(rs [][2]int) string {
	if len(rs) == 0 {
		return ""
	}
	var parts []string
	for i, r := range rs {
		if i == 4 {
			parts = append(parts, fmt.Sprintf("+%d more", len(rs)-i))
			break
		}
		if r[0] == r[1] {
			parts = append(parts, fmt.Sprint(r[0]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r[0], r[1]))
		}
	}
	return " lines " + strings.Join(parts, ", ")
}
