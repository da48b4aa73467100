// Package rules reads a project's own rules, the ones a machine can check,
// and checks files against them. Rules live with the project's knowledge:
//
//	.cairn/rules/*.yaml, *.yml   a list of rules (rules: [...]), or one
//	rules/*.md, .cursor/rules/*.md(c), .claude/rules/*.md,
//	.github/instructions/*.md, .clinerules/*.md
//	                             an agent-instruction file whose YAML front
//	                             matter has an id and a match: a rule; one
//	                             without match is prose for the agent, and
//	                             is left alone
//
// A rule has an id, a severity (error, warning, info; default warning), a
// title, the files it applies to (globs, "**" crossing folders; exclude
// globs), a rationale, good and bad examples, a fix, and one matcher:
//
//	pattern: REGEXP              a line matching it (RE2) is a finding
//	forbid_import: [PATTERNS]    an import of a matching path (Go through
//	require_import: [PATTERNS]   go/parser; JS and TS through tdewolff's
//	                             lexer: import, export from, require(),
//	                             import(); Python: import and from-import).
//	                             A pattern is a path, a prefix ending in /...
//	                             or a glob (*, **)
//	require_file: PATH|GLOB      the project has such a file
//	require_section: HEADING     each file has a Markdown heading of this
//	                             text (case-insensitive) or regexp (/re/)
//	max_lines: N                 a file has at most N lines
//	max_function_lines: N        a function (Go, Python) has at most N lines
//	naming: {target, style|pattern}
//	                             file (its base name without extension),
//	                             function or type names (Go, Python) follow
//	                             snake_case, kebab-case, camelCase,
//	                             PascalCase, SCREAMING_SNAKE_CASE or a regexp
//
// A malformed rule file is refused as "file:line: problem". Finding rule
// ids are "project/<id>"; the checker's name is "project".
package rules

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Prefix is the prefix of every project rule's finding id.
const Prefix = "project/"

// Matcher kinds.
const (
	KindPattern       = "pattern"
	KindForbidImport  = "forbid_import"
	KindRequireImport = "require_import"
	KindRequireFile   = "require_file"
	KindRequireSect   = "require_section"
	KindMaxLines      = "max_lines"
	KindMaxFuncLines  = "max_function_lines"
	KindNaming        = "naming"
)

var kinds = []string{KindPattern, KindForbidImport, KindRequireImport, KindRequireFile, KindRequireSect, KindMaxLines, KindMaxFuncLines, KindNaming}

// styles are the naming styles, compiled on first use.
var styles = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"snake_case":           regexp.MustCompile(`^_?[a-z][a-z0-9]*(_[a-z0-9]+)*$`),
		"kebab-case":           regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`),
		"camelCase":            regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`),
		"PascalCase":           regexp.MustCompile(`^[A-Z][a-zA-Z0-9]*$`),
		"SCREAMING_SNAKE_CASE": regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$`),
	}
})

// Rule is one project rule.
type Rule struct {
	ID        string
	Severity  check.Severity
	Title     string
	Message   string // the finding's message; default from the title
	Rationale string
	Fix       string
	Bad, Good string
	Globs     []string // default: every file
	Exclude   []string
	Match     Matcher
	// Source and Line say where the rule is written.
	Source string
	Line   int
}

// Matcher is what a rule checks.
type Matcher struct {
	Kind    string
	Pattern *regexp.Regexp // pattern; naming's pattern; require_section's /re/
	Imports []string       // forbid_import, require_import
	Text    string         // require_file's path or glob, require_section's heading, naming's style
	Max     int            // max_lines, max_function_lines
	Target  string         // naming: file, function, type
}

// FindingID is the id the rule's findings carry.
func (r *Rule) FindingID() string { return Prefix + r.ID }

// Describe is the rule as the findings model describes rules.
func (r *Rule) Describe() check.Rule {
	return check.Rule{ID: r.FindingID(), Severity: r.Severity, Title: r.Title, Why: r.Rationale, Fix: r.Fix, Bad: r.Bad, Good: r.Good,
		Link: "cairn:rule/" + r.FindingID()}
}

// Applies reports whether the rule applies to the file at p (slash path
// relative to the root).
func (r *Rule) Applies(p string) bool {
	in := len(r.Globs) == 0
	for _, g := range r.Globs {
		if globMatch(g, p) {
			in = true
			break
		}
	}
	if !in {
		return false
	}
	return !slices.ContainsFunc(r.Exclude, func(g string) bool { return globMatch(g, p) })
}

// globMatch matches p against g; a glob without a slash matches the base
// name anywhere (as .gitignore does).
func globMatch(g, p string) bool {
	if !strings.Contains(g, "/") {
		ok, _ := doublestar.Match(g, path.Base(p))
		return ok
	}
	ok, _ := doublestar.Match(strings.TrimPrefix(g, "/"), p)
	return ok
}

// Set is a project's rules.
type Set struct {
	Rules []*Rule
	// Files are the rule files read, relative to the root.
	Files []string
}

// Find returns the rule whose id (with or without the project/ prefix)
// is id.
func (s *Set) Find(id string) *Rule {
	id = strings.TrimPrefix(id, Prefix)
	for _, r := range s.Rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// Dirs are the folders of Markdown rule files, relative to the root.
var Dirs = []string{"rules", ".cursor/rules", ".claude/rules", ".github/instructions", ".clinerules"}

// YAMLDir holds the YAML rule files.
const YAMLDir = ".cairn/rules"

// maxRuleFile caps a rule file read.
const maxRuleFile = 1 << 20

// Load reads the rules of the project at root. A malformed rule file is a
// Malformed refusal listing each problem as file:line: problem. Two rules
// with one id are refused too.
func Load(root string) (*Set, error) {
	set := &Set{}
	var probs []string
	addProb := func(file string, line int, msg string) {
		probs = append(probs, fmt.Sprintf("%s:%d: %s", file, max(line, 1), msg))
	}
	read := func(rel string) ([]byte, bool) {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		fi, err := os.Lstat(abs)
		if err != nil || !fi.Mode().IsRegular() {
			return nil, false
		}
		if fi.Size() > maxRuleFile {
			addProb(rel, 1, fmt.Sprintf("is %d bytes, over the 1 MiB cap", fi.Size()))
			return nil, false
		}
		b, err := os.ReadFile(abs)
		return b, err == nil
	}
	list := func(dir string, exts ...string) []string {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			return nil
		}
		var out []string
		for _, e := range entries {
			if e.Type().IsRegular() && slices.Contains(exts, path.Ext(e.Name())) {
				out = append(out, path.Join(dir, e.Name()))
			}
		}
		return out
	}
	for _, rel := range list(YAMLDir, ".yaml", ".yml") {
		b, ok := read(rel)
		if !ok {
			continue
		}
		set.Files = append(set.Files, rel)
		rs, ps := ParseYAML(rel, b)
		set.Rules = append(set.Rules, rs...)
		probs = append(probs, ps...)
	}
	for _, dir := range Dirs {
		for _, rel := range list(dir, ".md", ".mdc") {
			b, ok := read(rel)
			if !ok {
				continue
			}
			r, isRule, ps := ParseMarkdown(rel, b)
			probs = append(probs, ps...)
			if isRule {
				set.Files = append(set.Files, rel)
				if r != nil {
					set.Rules = append(set.Rules, r)
				}
			}
		}
	}
	seen := map[string]*Rule{}
	for _, r := range set.Rules {
		if first, dup := seen[r.ID]; dup {
			addProb(r.Source, r.Line, fmt.Sprintf("rule id %q is already used at %s:%d", r.ID, first.Source, first.Line))
			continue
		}
		seen[r.ID] = r
	}
	sortRules(set.Rules)
	if len(probs) > 0 {
		return nil, &problem.Error{Kind: problem.Malformed, Problem: "project rules: " + strings.Join(probs[:min(len(probs), 8)], "; ") + moreText(len(probs)-8),
			Fix: "fix the rule files (ids, severities, globs, one matcher each: " + strings.Join(kinds, ", ") + ")"}
	}
	return set, nil
}

func moreText(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf("; and %d more", n)
}

// ParseYAML reads a YAML rule file: a mapping with a rules list, a list
// of rules, or one rule. It returns the rules it could read and the
// problems, each "file:line: problem".
func ParseYAML(file string, b []byte) ([]*Rule, []string) {
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		line := 1
		if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
			line, _ = strconv.Atoi(m[1])
		}
		return nil, []string{fmt.Sprintf("%s:%d: not YAML: %s", file, line, yamlLine().ReplaceAllString(err.Error(), ""))}
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	top := doc.Content[0]
	var items []*yaml.Node
	switch {
	case top.Kind == yaml.SequenceNode:
		items = top.Content
	case top.Kind == yaml.MappingNode && mapValue(top, "rules") != nil:
		rs := mapValue(top, "rules")
		if rs.Kind != yaml.SequenceNode {
			return nil, []string{fmt.Sprintf("%s:%d: rules must be a list", file, rs.Line)}
		}
		for i := 0; i+1 < len(top.Content); i += 2 {
			if k := top.Content[i].Value; k != "rules" {
				return nil, []string{fmt.Sprintf("%s:%d: unknown key %q beside rules", file, top.Content[i].Line, k)}
			}
		}
		items = rs.Content
	case top.Kind == yaml.MappingNode:
		items = []*yaml.Node{top}
	default:
		return nil, []string{fmt.Sprintf("%s:%d: a rule file is a list of rules (rules: [...])", file, top.Line)}
	}
	var out []*Rule
	var probs []string
	for _, n := range items {
		r, ps := parseRule(file, n, 0)
		probs = append(probs, ps...)
		if r != nil {
			out = append(out, r)
		}
	}
	return out, probs
}

var yamlLine = check.LazyRegexp(`^yaml: line (\d+): `)

func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

var idShape = check.LazyRegexp(`^[a-z0-9][a-z0-9._-]{0,63}$`)

// parseRule reads one rule mapping; lineOffset is added to its lines (a
// Markdown file's front matter starts after the --- line).
func parseRule(file string, n *yaml.Node, lineOffset int) (*Rule, []string) {
	var probs []string
	bad := func(at *yaml.Node, format string, a ...any) {
		probs = append(probs, fmt.Sprintf("%s:%d: %s", file, at.Line+lineOffset, fmt.Sprintf(format, a...)))
	}
	if n.Kind != yaml.MappingNode {
		bad(n, "a rule is a mapping with id, severity, globs, match...")
		return nil, probs
	}
	r := &Rule{Source: file, Line: n.Line + lineOffset, Severity: check.Warning}
	var match *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		str := func() string {
			if v.Kind != yaml.ScalarNode {
				bad(v, "%s must be text", k.Value)
				return ""
			}
			return v.Value
		}
		switch k.Value {
		case "id":
			r.ID = strings.TrimSpace(str())
		case "severity":
			s, err := check.ParseSeverity(str())
			if err != nil {
				bad(v, "%v", err)
			}
			r.Severity = s
		case "title", "name":
			r.Title = str()
		case "message":
			r.Message = str()
		case "rationale", "why", "description":
			r.Rationale = strings.TrimSpace(str())
		case "fix":
			r.Fix = strings.TrimSpace(str())
		case "bad":
			r.Bad = strings.TrimRight(str(), "\n")
		case "good":
			r.Good = strings.TrimRight(str(), "\n")
		case "globs", "files", "applyTo":
			r.Globs = stringList(v, bad, k.Value)
		case "exclude":
			r.Exclude = stringList(v, bad, k.Value)
		case "match":
			match = v
		case "alwaysApply", "tags", "category", "maturity":
			// Front matter other tools read: not this rule's.
		default:
			bad(k, "unknown key %q (use id, severity, title, message, rationale, fix, bad, good, globs, exclude, match)", k.Value)
		}
	}
	for _, g := range append(slices.Clone(r.Globs), r.Exclude...) {
		if !doublestar.ValidatePattern(g) {
			bad(n, "glob %q is not valid", g)
		}
	}
	switch {
	case r.ID == "":
		bad(n, "the rule has no id")
	case !idShape().MatchString(r.ID):
		bad(n, "id %q: use lower case letters, digits, '.', '_' and '-' (at most 64)", r.ID)
	}
	if r.Title == "" {
		r.Title = r.ID
	}
	if match == nil {
		bad(n, "rule %q has no match (one of %s)", r.ID, strings.Join(kinds, ", "))
	} else {
		r.Match = parseMatch(match, bad)
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return r, nil
}

func stringList(v *yaml.Node, bad func(*yaml.Node, string, ...any), key string) []string {
	switch v.Kind {
	case yaml.ScalarNode:
		// Cursor writes globs as one comma-separated string.
		var out []string
		for p := range strings.SplitSeq(v.Value, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out
	case yaml.SequenceNode:
		var out []string
		for _, e := range v.Content {
			if e.Kind != yaml.ScalarNode {
				bad(e, "%s must be a list of text", key)
				continue
			}
			out = append(out, e.Value)
		}
		return out
	}
	bad(v, "%s must be a list of globs", key)
	return nil
}

func parseMatch(m *yaml.Node, bad func(*yaml.Node, string, ...any)) Matcher {
	var mt Matcher
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 {
		bad(m, "match must have exactly one of %s", strings.Join(kinds, ", "))
		return mt
	}
	k, v := m.Content[0], m.Content[1]
	mt.Kind = k.Value
	scalar := func() string {
		if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
			bad(v, "%s must be text", k.Value)
			return ""
		}
		return v.Value
	}
	posInt := func() int {
		n, err := strconv.Atoi(scalar())
		if err != nil || n <= 0 {
			bad(v, "%s must be a positive whole number", k.Value)
		}
		return n
	}
	compile := func(s string) *regexp.Regexp {
		re, err := regexp.Compile(s)
		if err != nil {
			bad(v, "%s %q is not a regular expression (RE2): %v", k.Value, s, errors.Unwrap(err))
		}
		return re
	}
	switch mt.Kind {
	case KindPattern:
		mt.Pattern = compile(scalar())
	case KindForbidImport, KindRequireImport:
		mt.Imports = stringList(v, bad, k.Value)
		if len(mt.Imports) == 0 {
			bad(v, "%s needs at least one import path", k.Value)
		}
	case KindRequireFile:
		mt.Text = scalar()
		if !doublestar.ValidatePattern(mt.Text) {
			bad(v, "require_file %q is not a valid path or glob", mt.Text)
		}
	case KindRequireSect:
		mt.Text = scalar()
		if len(mt.Text) > 2 && strings.HasPrefix(mt.Text, "/") && strings.HasSuffix(mt.Text, "/") {
			mt.Pattern = compile("(?i)" + mt.Text[1:len(mt.Text)-1])
		}
	case KindMaxLines, KindMaxFuncLines:
		mt.Max = posInt()
	case KindNaming:
		if v.Kind != yaml.MappingNode {
			bad(v, "naming is a mapping: {target: file|function|type, style: snake_case|... or pattern: REGEXP}")
			return mt
		}
		for i := 0; i+1 < len(v.Content); i += 2 {
			nk, nv := v.Content[i], v.Content[i+1]
			switch nk.Value {
			case "target":
				mt.Target = nv.Value
			case "style":
				mt.Text = nv.Value
				if styles()[mt.Text] == nil {
					bad(nv, "style %q: use snake_case, kebab-case, camelCase, PascalCase or SCREAMING_SNAKE_CASE", mt.Text)
				}
				mt.Pattern = styles()[mt.Text]
			case "pattern":
				mt.Text = nv.Value
				mt.Pattern = compile(nv.Value)
			default:
				bad(nk, "unknown key %q in naming (target, style, pattern)", nk.Value)
			}
		}
		if !slices.Contains([]string{"file", "function", "type"}, mt.Target) {
			bad(v, "naming target %q: use file, function or type", mt.Target)
		}
		if mt.Pattern == nil && mt.Text == "" {
			bad(v, "naming needs a style or a pattern")
		}
	default:
		bad(k, "unknown matcher %q (use one of %s)", k.Value, strings.Join(kinds, ", "))
	}
	return mt
}

// ParseMarkdown reads an agent-instruction Markdown file. isRule is true
// when its front matter declares a machine rule (has match); then r is
// the rule, or nil with the problems.
func ParseMarkdown(file string, b []byte) (r *Rule, isRule bool, probs []string) {
	s := strings.TrimPrefix(string(b), "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return nil, false, nil
	}
	end := strings.Index(s[4:], "\n---")
	if end < 0 {
		return nil, false, nil
	}
	front := s[4 : 4+end+1]
	body := strings.TrimLeft(s[4+end+4:], "\n")
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(front), &n); err != nil {
		if matchKey().MatchString(front) {
			return nil, true, []string{fmt.Sprintf("%s:2: front matter is not YAML: %v", file, err)}
		}
		return nil, false, nil // someone else's front matter
	}
	if len(n.Content) == 0 || n.Content[0].Kind != yaml.MappingNode || mapValue(n.Content[0], "match") == nil {
		return nil, false, nil
	}
	r, probs = parseRule(file, n.Content[0], 1)
	if r != nil && r.Rationale == "" {
		// The rule's prose is its rationale: the first paragraph.
		para, _, _ := strings.Cut(strings.TrimSpace(body), "\n\n")
		r.Rationale = strings.TrimSpace(strings.TrimLeft(para, "# "))
	}
	return r, true, probs
}

var matchKey = check.LazyRegexp(`(?m)^match\s*:`)

// sortRules orders rules by id.
func sortRules(rs []*Rule) {
	slices.SortFunc(rs, func(a, b *Rule) int { return cmp.Compare(a.ID, b.ID) })
}
