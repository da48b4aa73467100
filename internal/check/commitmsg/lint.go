// Package commitmsg reads, checks and writes Conventional Commits messages.
//
// Lint checks a message the way commitlint's config-conventional does:
// the header "type(scope)!: subject" with type from the conventional list,
// a lower-case scope, a subject that is not empty, does not end with a
// period and does not start in upper case; a header of at most 72
// characters (Git's display width; config-conventional allows 100, set
// Options.HeaderMax for that); a blank line before the body and before the
// footers; body and footer lines of at most 100 characters; and a breaking
// change spelled as the specification reads it ("BREAKING CHANGE:" or
// "BREAKING-CHANGE:" footer, or "!" before the colon). Git's comment lines
// ("# ...") and the scissors line are dropped first, as git commit does;
// merge, revert, fixup! and squash! messages are not checked, as
// commitlint's default ignores.
//
// Generate writes a message from a unified diff (git diff --cached): it
// infers the type and scope from what changed and says how, writes a
// subject of at most 72 characters and a body of the main changes, and
// marks a breaking change when exported Go declarations were removed or
// changed incompatibly (go/parser over the old and new file), or, the
// obvious cases, when a JS/TS export or a public top-level Python def or
// class disappeared. It does not run git: the caller gives a way to read
// the old contents (git show BASE:path) and, optionally, the new ones.
package commitmsg

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/check"
)

// Types is config-conventional's type enum.
var Types = []string{"build", "chore", "ci", "docs", "feat", "fix", "perf", "refactor", "revert", "style", "test"}

// Message is a parsed commit message.
type Message struct {
	Header   string
	Type     string
	Scope    string
	Bang     bool // "!" before the colon
	Subject  string
	Body     string
	Footers  []Footer
	Breaking string // the BREAKING CHANGE footer's text, or the subject when only "!" says it
	// lines are the message's lines after comments were dropped, with
	// their 1-based line numbers in the original.
	lines []numbered
	// bodyStart and footerStart index lines (-1 when absent).
	bodyStart, footerStart int
	// footerNoBlank is the line of trailers written under the body with
	// no blank line between (0 when none).
	footerNoBlank int
}

// Footer is one "Token: value" or "Token #value" trailer.
type Footer struct {
	Token, Value string
	Line         int
}

type numbered struct {
	n    int
	text string
}

// headerRE is the header of a conventional commit: type, (scope), !, ": ".
var headerRE = check.LazyRegexp(`^(\w[\w-]*)(?:\(([^()\r\n]*)\))?(!)?: (.*)$`)

// footerRE is a trailer token: a word with hyphens, or BREAKING CHANGE.
var footerRE = check.LazyRegexp(`^(BREAKING CHANGE|[\w-]+)(: | #)(.*)$`)

// Parse reads a message. It never fails: a header that is not
// conventional leaves Type empty.
func Parse(msg string) *Message {
	m := &Message{bodyStart: -1, footerStart: -1}
	raw := strings.Split(strings.ReplaceAll(msg, "\r\n", "\n"), "\n")
	for i, l := range raw {
		if strings.HasPrefix(l, "# ------------------------ >8 ------------------------") {
			break // git's scissors: everything below is the diff
		}
		if strings.HasPrefix(l, "#") {
			continue
		}
		m.lines = append(m.lines, numbered{i + 1, strings.TrimRight(l, " \t")})
	}
	// Trim leading and trailing blank lines.
	for len(m.lines) > 0 && m.lines[0].text == "" {
		m.lines = m.lines[1:]
	}
	for len(m.lines) > 0 && m.lines[len(m.lines)-1].text == "" {
		m.lines = m.lines[:len(m.lines)-1]
	}
	if len(m.lines) == 0 {
		return m
	}
	m.Header = m.lines[0].text
	if g := headerRE().FindStringSubmatch(m.Header); g != nil {
		m.Type, m.Scope, m.Bang, m.Subject = g[1], g[2], g[3] == "!", g[4]
	}
	// Footers: the last paragraph, when every line of it is a trailer (or
	// continues one).
	last := len(m.lines) - 1
	start := last
	for start > 0 && m.lines[start-1].text != "" {
		start--
	}
	if start > 0 {
		isFooter := footerRE().MatchString(m.lines[start].text)
		if !isFooter {
			// Trailers glued to the body: a trailing run of well-known
			// tokens inside the last paragraph.
			k := len(m.lines)
			for k-1 > start && trailerToken(m.lines[k-1].text) {
				k--
			}
			if k < len(m.lines) && k > start {
				m.footerNoBlank = m.lines[k].n
			}
		}
		if isFooter {
			m.footerStart = start
			for _, l := range m.lines[start:] {
				if g := footerRE().FindStringSubmatch(l.text); g != nil {
					m.Footers = append(m.Footers, Footer{Token: g[1], Value: g[3], Line: l.n})
				} else if len(m.Footers) > 0 {
					m.Footers[len(m.Footers)-1].Value += "\n" + l.text
				}
			}
		}
	}
	// The body: from line 1 (or the first non-blank after the header) up to
	// the footers.
	end := len(m.lines)
	if m.footerStart > 0 {
		end = m.footerStart
	}
	if len(m.lines) > 1 && end > 1 {
		bs := 1
		if m.lines[1].text == "" {
			bs = 2
		}
		if bs < end {
			m.bodyStart = bs
			var b []string
			for _, l := range m.lines[bs:end] {
				b = append(b, l.text)
			}
			m.Body = strings.TrimSpace(strings.Join(b, "\n"))
		}
	}
	for _, f := range m.Footers {
		if f.Token == "BREAKING CHANGE" || f.Token == "BREAKING-CHANGE" {
			m.Breaking = f.Value
		}
	}
	if m.Breaking == "" && m.Bang {
		m.Breaking = m.Subject
	}
	return m
}

// Options tune Lint.
type Options struct {
	// HeaderMax caps the header's length in characters (0: 72).
	HeaderMax int
	// LineMax caps body and footer lines (0: 100, config-conventional's).
	LineMax int
	// Types replaces the type enum (nil: Types).
	Types []string
}

// ignored are the messages commitlint skips by default.
var ignored = check.LazyRegexp(`^((Merge (pull request|branch|remote-tracking branch|tag) .*)|(Merge .* into .*)|(Revert ".*")|(fixup! .*)|(squash! .*)|(amend! .*)|(Automatic merge.*)|(Auto-merged .* into .*))`)

// Lint checks msg and returns its findings (File empty, Line and Col in
// the message as given, comment lines counted).
func Lint(msg string, opt Options) []check.Finding {
	max := opt.HeaderMax
	if max <= 0 {
		max = 72
	}
	lineMax := opt.LineMax
	if lineMax <= 0 {
		lineMax = 100
	}
	types := opt.Types
	if types == nil {
		types = Types
	}
	m := Parse(msg)
	var out []check.Finding
	add := func(rule string, line, col int, msg, fix string) {
		r := ruleByID(rule)
		out = append(out, check.Finding{Rule: rule, Severity: r.Severity, Line: line, Col: col, Message: msg, Fix: fix, Link: check.RuleLink(r)})
	}
	if len(m.lines) == 0 {
		add(RuleEmpty, 1, 1, "The commit message is empty.", "Write a header such as \"fix(parser): handle empty input\".")
		return out
	}
	hl := m.lines[0].n
	if ignored().MatchString(m.Header) {
		return nil
	}
	if n := utf8.RuneCountInString(m.Header); n > max {
		add(RuleHeaderMax, hl, max+1, fmt.Sprintf("The header is %d characters, over %d.", n, max), "Shorten the subject; move detail to the body.")
	}
	if m.Type == "" {
		add(RuleHeaderFormat, hl, 1, fmt.Sprintf("The header %q is not \"type(scope): subject\".", clip(m.Header, 60)),
			"Start with a type and a colon and a space: \"feat: ...\", \"fix(parser): ...\".")
	} else {
		if m.Type != strings.ToLower(m.Type) {
			add(RuleTypeCase, hl, 1, fmt.Sprintf("The type %q is not lower case.", m.Type), "Write the type in lower case: "+strings.ToLower(m.Type)+".")
		}
		if !slices.Contains(types, strings.ToLower(m.Type)) {
			add(RuleTypeEnum, hl, 1, fmt.Sprintf("The type %q is not one of %s.", m.Type, strings.Join(types, ", ")), "Pick the type that says what the change is: "+suggestType(m.Type, types)+".")
		}
		scopeCol := len(m.Type) + 2
		if m.Scope != "" {
			if m.Scope != strings.ToLower(m.Scope) {
				add(RuleScopeCase, hl, scopeCol, fmt.Sprintf("The scope %q is not lower case.", m.Scope), "Write the scope in lower case: "+strings.ToLower(m.Scope)+".")
			}
			if strings.TrimSpace(m.Scope) != m.Scope || strings.ContainsAny(m.Scope, " \t") && !strings.Contains(m.Scope, ",") {
				add(RuleScopeCase, hl, scopeCol, fmt.Sprintf("The scope %q has spaces.", m.Scope), "Use one word or kebab-case (several scopes separated by commas).")
			}
		} else if strings.Contains(m.Header, "()") {
			add(RuleScopeEmpty, hl, scopeCol, "The scope parentheses are empty.", "Remove \"()\" or name the scope.")
		}
		subjCol := len(m.Header) - len(m.Subject) + 1
		subj := m.Subject
		switch {
		case strings.TrimSpace(subj) == "":
			add(RuleSubjectEmpty, hl, subjCol, "The subject is empty.", "Say what the commit does after the colon.")
		default:
			if strings.HasSuffix(subj, ".") && !strings.HasSuffix(subj, "..") {
				add(RuleSubjectFullStop, hl, len(m.Header), "The subject ends with a period.", "Drop the trailing period.")
			}
			if strings.HasPrefix(subj, " ") {
				add(RuleHeaderFormat, hl, subjCol, "The subject starts with more than one space after the colon.", "Write one space after the colon.")
			}
			if c := subjectCase(subj); c != "" {
				add(RuleSubjectCase, hl, subjCol, fmt.Sprintf("The subject is in %s (%q).", c, clip(subj, 40)),
					"Start the subject in lower case, in the imperative: \"add ...\", \"fix ...\".")
			}
		}
	}
	// Blank lines.
	if len(m.lines) > 1 && m.lines[1].text != "" {
		add(RuleBodyLeadingBlank, m.lines[1].n, 1, "The body starts right under the header, without a blank line.", "Leave line 2 empty.")
	}
	if m.footerNoBlank > 0 {
		add(RuleFooterLeadingBlank, m.footerNoBlank, 1, "The footer starts right under the body, without a blank line.", "Leave a blank line before the footers.")
	}
	for i, l := range m.lines[1:] {
		if n := utf8.RuneCountInString(l.text); n > lineMax && !strings.Contains(l.text, "://") {
			rule := RuleBodyLineMax
			if m.footerStart > 0 && i+1 >= m.footerStart {
				rule = RuleFooterLineMax
			}
			add(rule, l.n, lineMax+1, fmt.Sprintf("Line %d is %d characters, over %d.", l.n, n, lineMax), "Wrap the text at 72 characters.")
		}
	}
	// Breaking change spellings the specification does not read.
	for _, l := range m.lines[1:] {
		t := l.text
		up := strings.ToUpper(t)
		for _, bad := range []string{"BREAKING CHANGES:", "BREAKING-CHANGES:", "BREAKING CHANGE :", "BREAKING:", "BREAKING_CHANGE:"} {
			if strings.HasPrefix(up, bad) {
				add(RuleBreakingFooter, l.n, 1, fmt.Sprintf("%q is not read as a breaking change by Conventional Commits tools.", clip(t, 30)),
					"Write the footer as \"BREAKING CHANGE: <what breaks and how to migrate>\".")
				break
			}
		}
		if strings.HasPrefix(up, "BREAKING CHANGE:") && !strings.HasPrefix(t, "BREAKING CHANGE:") {
			add(RuleBreakingFooter, l.n, 1, "The BREAKING CHANGE token must be upper case.", "Write \"BREAKING CHANGE:\" in capitals.")
		}
	}
	for _, f := range m.Footers {
		if (f.Token == "BREAKING CHANGE" || f.Token == "BREAKING-CHANGE") && strings.TrimSpace(f.Value) == "" {
			add(RuleBreakingFooter, f.Line, 1, "The BREAKING CHANGE footer says nothing.", "Say what breaks and how to migrate.")
		}
	}
	return out
}

// trailerToken reports whether a line is a trailer with a well-known
// token (prose such as "Note: ..." is not taken for one).
func trailerToken(l string) bool {
	g := footerRE().FindStringSubmatch(l)
	if g == nil {
		return false
	}
	t := strings.ToLower(g[1])
	return strings.Contains(t, "-") || t == "breaking change" || slices.Contains([]string{"refs", "closes", "fixes", "resolves", "see", "ref", "close", "fix", "resolve"}, t)
}

// subjectCase names the case commitlint refuses: sentence-case,
// start-case, pascal-case or upper-case ("" when the subject is fine).
func subjectCase(s string) string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return ""
	}
	first, _ := utf8.DecodeRuneInString(words[0])
	if !unicode.IsUpper(first) {
		return ""
	}
	// An identifier or acronym first ("README", "HTTPClient", "ParseRange")
	// is not sentence case: commitlint's sentence-case check would refuse
	// "Add", not "README"; be as lenient for names as people are.
	if len(words[0]) > 1 && hasInnerUpper(words[0]) {
		if strings.ToUpper(s) == s && len(words) > 1 {
			return "upper case"
		}
		return ""
	}
	if strings.ToUpper(s) == s && len(words) > 1 {
		return "upper case"
	}
	return "sentence case"
}

func hasInnerUpper(w string) bool {
	for i, r := range w {
		if i > 0 && (unicode.IsUpper(r) || r == '.' || r == '_' || unicode.IsDigit(r)) {
			return true
		}
	}
	return false
}

// suggestType maps common non-types to a conventional one.
func suggestType(t string, types []string) string {
	alias := map[string]string{"feature": "feat", "features": "feat", "bugfix": "fix", "hotfix": "fix", "bug": "fix", "doc": "docs",
		"tests": "test", "testing": "test", "deps": "build", "dep": "build", "refacto": "refactor", "cleanup": "refactor", "performance": "perf", "release": "chore", "wip": "chore"}
	if a, ok := alias[strings.ToLower(t)]; ok && slices.Contains(types, a) {
		return a
	}
	return strings.Join(types, ", ")
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
