package render

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/service/hands"
	"github.com/cairn-dev/cairn/internal/words"
)

// CheckView is the structured answer of the hands: the tools'
// structuredContent and `cairn check --json`.
type CheckView struct {
	// Checks are the checks that read at least one file.
	Checks     []string        `json:"checks"`
	Files      int             `json:"files"`
	Findings   []check.Finding `json:"findings"`
	Total      int             `json:"total"`
	Offset     int             `json:"offset,omitempty"`
	NextOffset int             `json:"next_offset,omitempty"`
	BySeverity map[string]int  `json:"by_severity"`
	ByRule     map[string]int  `json:"by_rule"`
	Skipped    []check.Skipped `json:"skipped,omitempty"`
	// Suppressed counts the findings suppressions removed; by rule in
	// SuppressedByRule.
	Suppressed       int            `json:"suppressed"`
	SuppressedByRule map[string]int `json:"suppressed_by_rule,omitempty"`
	Notes            []string       `json:"notes,omitempty"`
	// Inline is the file name inline content was checked as.
	Inline string `json:"inline,omitempty"`
}

// CheckViewOf is r's structured answer.
func CheckViewOf(r hands.Result) CheckView {
	v := CheckView{Checks: r.Checks, Files: r.Files, Findings: r.Findings, Total: r.Total, Offset: r.Offset, NextOffset: r.NextOffset,
		BySeverity: map[string]int{}, ByRule: r.ByRule, Skipped: r.Skipped, Suppressed: r.SuppressedTotal, Notes: r.Notes, Inline: r.Inline}
	if v.Checks == nil {
		v.Checks = []string{}
	}
	if v.Findings == nil {
		v.Findings = []check.Finding{}
	}
	if v.ByRule == nil {
		v.ByRule = map[string]int{}
	}
	for s, n := range r.BySeverity {
		v.BySeverity[string(s)] = n
	}
	if len(r.Suppressed) > 0 {
		v.SuppressedByRule = r.Suppressed
	}
	return v
}

// Check surfaces: how the next page is asked for, and what a page is.
type CheckSurface struct {
	// NextPage words how to ask for the page at offset n.
	NextPage func(n int) string
}

// The surfaces' words for the next page.
var (
	CheckTool = CheckSurface{NextPage: func(n int) string { return fmt.Sprintf("offset %d", n) }}
	CheckCLI  = CheckSurface{NextPage: func(n int) string { return fmt.Sprintf("--offset %d", n) }}
)

// What the text of an answer lists at most; the structured answer has all.
const (
	checkListCap = 5  // skipped files, notes
	checkRuleCap = 10 // rules counted
	checkFixCap  = 10 // distinct fixes
)

// CheckText is r in words: a summary line, the counts by rule, one line a
// finding (`path:line:col severity rule message`), with the fix of each
// rule once, the page, the files skipped and why, the notes, and what to
// do next.
func CheckText(r hands.Result, s CheckSurface) string {
	var b strings.Builder
	b.WriteString(checkSummary(r))
	if len(r.ByRule) > 0 {
		b.WriteString("\nBy rule: ")
		b.WriteString(countList(r.ByRule, checkRuleCap))
	}
	// Each fix once, with the rules of the page that share it.
	var fixes []string
	rulesOf := map[string][]string{}
	for _, f := range r.Findings {
		b.WriteString("\n")
		b.WriteString(findingLine(f))
		if f.Fix == "" {
			continue
		}
		rs, ok := rulesOf[f.Fix]
		if !ok {
			fixes = append(fixes, f.Fix)
		}
		if !slices.Contains(rs, f.Rule) {
			rulesOf[f.Fix] = append(rs, f.Rule)
		}
	}
	for i, fix := range fixes {
		if i == checkFixCap {
			fmt.Fprintf(&b, "\nFix: %d more fixes in the structured answer.", len(fixes)-i)
			break
		}
		fmt.Fprintf(&b, "\nFix %s: %s", strings.Join(rulesOf[fix], ", "), clip(fix, 300))
	}
	if len(r.Findings) < r.Total {
		fmt.Fprintf(&b, "\nFindings %d-%d of %d", r.Offset+1, r.Offset+len(r.Findings), r.Total)
		if r.NextOffset > 0 {
			b.WriteString("; next page: " + s.NextPage(r.NextOffset))
		}
		b.WriteString(".")
	}
	if len(r.Skipped) > 0 {
		fmt.Fprintf(&b, "\nSkipped %s:", words.Plural(len(r.Skipped), "file", "files"))
		for i, sk := range r.Skipped {
			if i == checkListCap {
				fmt.Fprintf(&b, " and %d more", len(r.Skipped)-i)
				break
			}
			if i > 0 {
				b.WriteString(";")
			}
			fmt.Fprintf(&b, " %s (%s)", sk.Path, sk.Reason)
		}
		b.WriteString(".")
	}
	for i, n := range r.Notes {
		if i == checkListCap {
			fmt.Fprintf(&b, "\nNote: %d more notes in the structured answer.", len(r.Notes)-i)
			break
		}
		b.WriteString("\nNote: " + clip(n, 240))
	}
	b.WriteString("\nNext: " + checkNext(r))
	return b.String()
}

// checkSummary is the first line: what ran over what, what it found.
func checkSummary(r hands.Result) string {
	var b strings.Builder
	switch {
	case r.Inline != "":
		fmt.Fprintf(&b, "Checked %s (inline, as %s): ", strings.Join(ran(r), ", "), r.Inline)
	case r.Files == 0:
		b.WriteString("No file checked: ")
	default:
		var parts []string
		for _, c := range r.Checks {
			parts = append(parts, fmt.Sprintf("%s %d", c, r.ByCheck[c]))
		}
		fmt.Fprintf(&b, "Checked %s (%s): ", words.Plural(r.Files, "file", "files"), strings.Join(parts, ", "))
	}
	if r.Total == 0 {
		b.WriteString("no findings")
	} else {
		b.WriteString(words.Plural(r.Total, "finding", "findings"))
		var sev []string
		for _, s := range check.Severities {
			if n := r.BySeverity[s]; n > 0 {
				sev = append(sev, words.Plural(n, string(s), string(s)+"s"))
			}
		}
		b.WriteString(" (" + strings.Join(sev, ", ") + ")")
	}
	if r.SuppressedTotal > 0 {
		fmt.Fprintf(&b, "; %d suppressed (%s)", r.SuppressedTotal, countList(r.Suppressed, checkRuleCap))
	} else {
		b.WriteString("; 0 suppressed")
	}
	b.WriteString(".")
	return b.String()
}

func ran(r hands.Result) []string {
	if len(r.Checks) > 0 {
		return r.Checks
	}
	return r.Asked
}

// findingLine is a finding without its fix: `path:line:col severity rule
// message`.
func findingLine(f check.Finding) string {
	f.Fix = ""
	return f.String()
}

// countList is "a 3, b 1": the most frequent first, then by name, at most
// max of them.
func countList(m map[string]int, max int) string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	var parts []string
	for i, k := range keys {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(keys)-i))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

// checkNext says what to do with the answer.
func checkNext(r hands.Result) string {
	switch {
	case r.Files == 0 && r.Inline == "":
		return "name a file or directory the checks read (path), or give content with a file name whose extension says its format."
	case r.Errors() > 0:
		return "fix the errors, then check again. A finding that is intended: `cairn:ignore RULE reason` on or above its line, or a checks.ignore entry (rule, path, reason) in " + project.ConfigFile + "."
	case r.Total > 0:
		return "no errors; the warnings and notes are worth a look before you commit."
	}
	return "nothing to fix."
}

func clip(s string, n int) string {
	s = flat(s)
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && (s[i]&0xC0) == 0x80 {
		i--
	}
	return s[:i] + "…"
}
