package check

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// Suppression is one of the project's suppressions (its config): findings
// of Rule in files matching Path are not reported, but counted.
type Suppression struct {
	// Rule is a rule id, or a pattern over them ("sql/*", "*").
	Rule string
	// Path is a glob over slash paths relative to the root ("**" crosses
	// directories); empty: every file.
	Path   string
	Reason string
}

// IgnoreMarker starts an inline suppression in a comment of the checked
// file: `cairn:ignore RULE[,RULE…] reason` suppresses those rules on its own
// line and on the next line that is not blank or a comment;
// `cairn:ignore-file RULE[,RULE…] reason` in the whole file.
const IgnoreMarker = "cairn:ignore"

// RuleSuppressionReason is the rule of the finding a suppression without a
// reason gets: it still suppresses, and says a person will want to know why.
const RuleSuppressionReason = "cairn/suppression-reason"

// inline is a file's inline suppressions: rules by line, and for the file.
type inline struct {
	lines map[int][]string
	file  []string
	bare  []Finding // suppressions without a reason
}

// parseInline reads the inline suppressions of a file.
func parseInline(f File) inline {
	in := inline{lines: map[int][]string{}}
	if !strings.Contains(string(f.Content), IgnoreMarker) {
		return in
	}
	lines := strings.Split(string(f.Content), "\n")
	for i, line := range lines {
		j := strings.Index(line, IgnoreMarker)
		if j < 0 {
			continue
		}
		rest := line[j+len(IgnoreMarker):]
		whole := strings.HasPrefix(rest, "-file")
		rest = strings.TrimPrefix(rest, "-file")
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		fields := strings.Fields(trimCommentEnd(rest))
		if len(fields) == 0 {
			continue
		}
		rules := strings.Split(fields[0], ",")
		if len(fields) == 1 {
			in.bare = append(in.bare, Finding{Rule: RuleSuppressionReason, Severity: Info, File: f.Path, Line: i + 1, Col: j + 1,
				Message: "this suppression of " + fields[0] + " gives no reason",
				Fix:     "add why after the rule: cairn:ignore " + fields[0] + " <reason>"})
		}
		if whole {
			in.file = append(in.file, rules...)
			continue
		}
		in.lines[i+1] = append(in.lines[i+1], rules...)
		if next := nextCodeLine(lines, i+1); next > 0 {
			in.lines[next] = append(in.lines[next], rules...)
		}
	}
	return in
}

// trimCommentEnd drops what closes a comment: */, -->, and so on.
func trimCommentEnd(s string) string {
	for _, end := range []string{"*/", "-->", "--}}", "#}", "%>"} {
		if i := strings.Index(s, end); i >= 0 {
			s = s[:i]
		}
	}
	return s
}

// nextCodeLine returns the 1-based number of the first line from index i
// that is neither blank nor only a comment; 0 if none.
func nextCodeLine(lines []string, i int) int {
	for ; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" || isCommentLine(t) {
			continue
		}
		return i + 1
	}
	return 0
}

func isCommentLine(t string) bool {
	for _, p := range []string{"//", "#", "--", "/*", "*", "<!--", "%", ";"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// matchRule reports whether a suppression's rule pattern names id.
func matchRule(pattern, id string) bool {
	if pattern == id || pattern == "*" {
		return true
	}
	ok, err := path.Match(pattern, id)
	return err == nil && ok
}

func anyRule(patterns []string, id string) bool {
	for _, p := range patterns {
		if matchRule(p, id) {
			return true
		}
	}
	return false
}

// suppress drops the findings the inline and project suppressions name,
// counting them in rep, and adds a finding for each inline suppression
// without a reason.
func suppress(rep *Report, inputs map[string]*Input, project []Suppression) []Finding {
	files := map[string]inline{}
	for _, in := range inputs {
		for _, f := range in.Files {
			if _, ok := files[f.Path]; !ok {
				files[f.Path] = parseInline(f)
			}
		}
	}
	out := rep.Findings[:0]
	for _, f := range rep.Findings {
		if suppressedBy(f, files[f.File], project) {
			rep.Suppressed[f.Rule]++
			continue
		}
		out = append(out, f)
	}
	for _, in := range files {
		out = append(out, in.bare...)
	}
	return out
}

func suppressedBy(f Finding, in inline, project []Suppression) bool {
	if anyRule(in.file, f.Rule) || (f.Line > 0 && anyRule(in.lines[f.Line], f.Rule)) {
		return true
	}
	for _, s := range project {
		if !matchRule(s.Rule, f.Rule) {
			continue
		}
		if s.Path == "" {
			return true
		}
		if ok, err := doublestar.Match(s.Path, f.File); err == nil && ok {
			return true
		}
	}
	return false
}
