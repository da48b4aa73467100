package report

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

// MarkdownOptions shape a Markdown report.
type MarkdownOptions struct {
	Title string // the heading ("" for "Cairn checks")
	// Max caps the rows of the table (0: 100); the rest are counted.
	Max int
	// FileURL, when set, links each location: it gets the path and line
	// ("https://github.com/o/r/blob/SHA/%s#L%d").
	FileURL string
}

// Markdown writes findings as a Markdown summary and table, most serious
// first, for a pull request comment.
func Markdown(w io.Writer, findings []check.Finding, opt MarkdownOptions) error {
	title := opt.Title
	if title == "" {
		title = "Cairn checks"
	}
	max := opt.Max
	if max <= 0 {
		max = 100
	}
	count := map[check.Severity]int{}
	for _, f := range findings {
		count[f.Severity]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", escapeMD(title))
	if len(findings) == 0 {
		b.WriteString("No findings.\n")
		_, err := io.WriteString(w, b.String())
		return err
	}
	var parts []string
	for _, s := range check.Severities {
		if n := count[s]; n > 0 {
			word := string(s)
			if n > 1 {
				word += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, word))
		}
	}
	fmt.Fprintf(&b, "%s.\n\n", strings.Join(parts, ", "))
	b.WriteString("| Severity | Location | Rule | Message |\n|---|---|---|---|\n")
	sorted := sortedFindings(findings)
	for i, f := range sorted {
		if i == max {
			fmt.Fprintf(&b, "\n…and %d more.\n", len(sorted)-max)
			break
		}
		loc := f.File
		if loc == "" {
			loc = "(inline)"
		}
		if f.Line > 0 {
			loc += fmt.Sprintf(":%d", f.Line)
		}
		locCell := "`" + strings.ReplaceAll(loc, "`", "'") + "`"
		if opt.FileURL != "" && f.File != "" {
			locCell = fmt.Sprintf("[%s](%s)", escapeMD(loc), fmt.Sprintf(opt.FileURL, linkPath(f.File), max1(f.Line)))
		}
		rule := "`" + f.Rule + "`"
		if strings.HasPrefix(f.Link, "http") {
			rule = fmt.Sprintf("[`%s`](%s)", f.Rule, f.Link)
		}
		msg := f.Message
		if f.Fix != "" {
			msg += " **Fix:** " + f.Fix
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", severityIcon(f.Severity), locCell, rule, escapeCell(msg))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func max1(n int) int { return max(n, 1) }

// linkPath is a path as a Markdown link target holds it: a URI path with
// parentheses encoded, so they cannot close the link.
func linkPath(p string) string {
	return strings.NewReplacer("(", "%28", ")", "%29").Replace(uriPath(p))
}

func severityIcon(s check.Severity) string {
	switch s {
	case check.Error:
		return "error"
	case check.Warning:
		return "warning"
	}
	return "info"
}

// escapeCell keeps a message inside its table cell: pipes escaped, line
// breaks as <br>, HTML angle brackets neutralized.
func escapeCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r\n", "<br>", "\n", "<br>", "<", "&lt;", ">", "&gt;").Replace(s)
}

func escapeMD(s string) string {
	return strings.NewReplacer("|", `\|`, "[", `\[`, "]", `\]`, "<", "&lt;", ">", "&gt;", "\n", " ").Replace(s)
}

func sortedFindings(fs []check.Finding) []check.Finding {
	out := slices.Clone(fs)
	rank := func(s check.Severity) int {
		if i := slices.Index(check.Severities, s); i >= 0 {
			return i
		}
		return len(check.Severities)
	}
	slices.SortStableFunc(out, func(a, b check.Finding) int {
		return cmp.Or(cmp.Compare(rank(a.Severity), rank(b.Severity)), cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return out
}
