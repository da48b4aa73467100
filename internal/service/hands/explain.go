package hands

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/rules"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Explanation is what explain_violation says of one rule.
type Explanation struct {
	Rule check.Rule
	// Project is true for a project rule; Source is then its file:line,
	// Globs the files it applies to and Matcher what it checks.
	Project bool
	Source  string
	Globs   []string
	Matcher string
	// Checker is the check that owns a validator's rule.
	Checker string
	// Words are what to search the project's memory for: the rule id and
	// its title's words.
	Words string
}

// Explain finds rule id among the project's rules (with or without the
// project/ prefix) and every check's rules.
func (s *Service) Explain(id string) (Explanation, error) {
	id = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(id), "cairn:rule/"))
	if id == "" || len(id) > 200 {
		return Explanation{}, &problem.FieldError{Field: "rule", Problem: "is empty or too long", Fix: "give a rule id as a finding names it: sql/update-without-where, project/no-println"}
	}
	if s.root != "" {
		set, err := rules.Load(s.root)
		if err != nil {
			return Explanation{}, err
		}
		if r := set.Find(id); r != nil && (strings.HasPrefix(id, rules.Prefix) || !strings.Contains(id, "/")) {
			return Explanation{Rule: r.Describe(), Project: true, Source: r.Source + ":" + itoa(r.Line), Globs: r.Globs,
				Matcher: matcherText(r.Match), Checker: rules.Name, Words: words(r.ID, r.Title)}, nil
		}
	}
	all := s.Rules()
	if i := slices.IndexFunc(all, func(r check.Rule) bool { return r.ID == id }); i >= 0 {
		r := all[i]
		checker, _, _ := strings.Cut(r.ID, "/")
		return Explanation{Rule: r, Checker: checker, Words: words(r.ID, r.Title)}, nil
	}
	// Say the nearest ids: those sharing the prefix or a word.
	var near []string
	pre, rest, _ := strings.Cut(id, "/")
	for _, r := range all {
		if strings.HasPrefix(r.ID, pre+"/") && (rest == "" || strings.Contains(r.ID, rest) || sharesWord(r.ID, rest)) || sharesWord(r.ID, id) {
			near = append(near, r.ID)
		}
	}
	fix := "give a rule id as a finding names it (the rule field of check findings)"
	if len(near) > 0 {
		fix = "did you mean " + strings.Join(near[:min(len(near), 5)], ", ") + "?"
	}
	return Explanation{}, &problem.FieldError{Field: "rule", Problem: problem.Quote(id) + " is not a rule of any check or of the project", Fix: fix}
}

func sharesWord(a, b string) bool {
	split := func(s string) []string {
		return strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '-' || r == '_' || r == '.' })
	}
	bw := split(b)
	for _, w := range split(a) {
		if len(w) > 3 && slices.Contains(bw, w) {
			return true
		}
	}
	return false
}

func words(id, title string) string {
	return strings.NewReplacer("/", " ", "-", " ", "_", " ").Replace(id) + " " + title
}

func itoa(n int) string { return strconv.Itoa(n) }

func fmtInt(n int) string { return strconv.Itoa(n) }

// matcherText says what a project rule's matcher checks.
func matcherText(m rules.Matcher) string {
	switch m.Kind {
	case rules.KindPattern:
		return "lines matching " + m.Pattern.String()
	case rules.KindForbidImport:
		return "imports of " + strings.Join(m.Imports, ", ") + " (forbidden)"
	case rules.KindRequireImport:
		return "an import of " + strings.Join(m.Imports, " or ") + " (required)"
	case rules.KindRequireFile:
		return "a file " + m.Text + " (required)"
	case rules.KindRequireSect:
		return "a section " + m.Text + " (required)"
	case rules.KindMaxLines:
		return "at most " + fmtInt(m.Max) + " lines a file"
	case rules.KindMaxFuncLines:
		return "at most " + fmtInt(m.Max) + " lines a function"
	case rules.KindNaming:
		return m.Target + " names: " + cmp.Or(m.Text, m.Pattern.String())
	}
	return m.Kind
}
