// Package tkb is the hands' check of knowledge base entries (tool
// validate_tkb_entry): the Markdown files under knowledge/ that the
// context toolset's query_tkb and get_tkb_entry read.
//
// It checks exactly what those tools use, seeing each entry through
// projectinfo.ParseDoc, the parser they use (front matter as YAML with
// go.yaml.in/yaml/v3, the first 256 KiB of the file):
//   - front matter that does not parse, is not a mapping, repeats a key or
//     is not closed: the tools then read none of it;
//   - the fields they show and filter on (title, else the first heading;
//     description or summary; category; maturity or status; use_cases)
//     missing, or of a kind they drop (a number for maturity, a list for
//     category, a mapping for use_cases); synonyms that hide each other
//     (name/id, description/summary, maturity/status);
//   - category and maturity against the project's vocabulary (params
//     categories and maturities) or, without one, against the spellings
//     the other entries use: the code has no fixed vocabulary, and
//     query_tkb compares exactly, ignoring case;
//   - names (name or id, else the file name) that two entries share:
//     get_tkb_entry returns the first;
//   - links that do not resolve: Markdown links and images to files
//     (through Input.Source), wiki links [[name]], and the front matter's
//     related, see_also, depends_on, requires, supersedes, superseded_by
//     and replaces, which may name an entry (by path or name, as
//     get_tkb_entry finds them) or a file;
//   - entries longer than the 256 KiB the tools read, or where they do not
//     look (outside knowledge/, more than six folders deep, empty).
//
// Params: "required" (a comma-separated list of the fields an entry must
// have; default title, description, category, maturity, with use_cases
// noted when missing), "categories" and "maturities" (comma-separated
// vocabularies; a value outside them is an error).
//
// Not checked: skills, agents, workflows and templates (their own
// documents); the truth of an entry's content; links to URLs.
package tkb

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/findcap"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/projectinfo"
)

// Checker checks knowledge base entries.
type Checker struct{}

// New returns the knowledge base checker.
func New() *Checker { return &Checker{} }

// Name is "tkb".
func (*Checker) Name() string { return "tkb" }

// Rules lists the rules of the knowledge base check.
func (*Checker) Rules() []check.Rule { return slices.Clone(rules) }

// folder is where the knowledge tools read entries.
var folder = projectinfo.KnowledgePaths.Knowledge + "/"

// Wants picks the Markdown files under knowledge/.
func (*Checker) Wants(p string, _ []byte) bool {
	return strings.HasPrefix(p, folder) && strings.HasSuffix(p, ".md")
}

// indexed reports whether the knowledge tools read a file at p.
func indexed(p string) bool {
	if !strings.HasPrefix(p, folder) || !strings.HasSuffix(p, ".md") {
		return false
	}
	return strings.Count(strings.TrimPrefix(p, projectinfo.KnowledgePaths.Knowledge), "/") <= projectinfo.KnowledgeMaxDepth+1
}

// Fields the tools read, by the name an author writes them with.
var (
	stringFields = []string{"name", "id", "title", "description", "summary", "category", "maturity", "status"}
	listFields   = []string{"use_cases", "use-cases", "useCases", "use cases", "tags", "expertise", "skills", "competencies", "triggers", "when", "keywords"}
	refFields    = []string{"related", "see_also", "see-also", "seeAlso", "links", "depends_on", "depends-on", "dependsOn", "requires", "supersedes", "superseded_by", "supersededBy", "replaces", "prerequisites"}
	// synonyms: the tools read the first that is a string.
	synonyms = [][2]string{{"name", "id"}, {"description", "summary"}, {"maturity", "status"}}
	// knownFields are the fields "required" may name.
	knownFields = []string{"title", "name", "description", "category", "maturity", "use_cases", "tags"}
)

type options struct {
	required   []string
	explicit   bool // required came from the param
	categories []string
	maturities []string
}

func splitList(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

func readParams(params map[string]string) (options, error) {
	o := options{required: []string{"title", "description", "category", "maturity"}}
	for k, v := range params {
		switch k {
		case "required":
			o.required, o.explicit = splitList(v), true
			for _, f := range o.required {
				if !slices.Contains(knownFields, f) {
					return o, &problem.FieldError{Field: "params.required", Problem: problem.Quote(f) + " is not a field the knowledge tools read",
						Fix: "name fields among " + strings.Join(knownFields, ", ")}
				}
			}
		case "categories":
			o.categories = splitList(v)
		case "maturities":
			o.maturities = splitList(v)
		default:
			return o, &problem.FieldError{Field: "params." + k, Problem: "is not a param of the tkb check", Fix: "use required, categories or maturities"}
		}
	}
	return o, nil
}

// entry is one knowledge document.
type entry struct {
	path  string
	given bool
	text  string
	doc   projectinfo.Doc
	fm    *frontMatter
}

// frontMatter is an entry's front matter as YAML nodes.
type frontMatter struct {
	first int // the file line of its first YAML line
	root  *yaml.Node
	keys  map[string]*yaml.Node // value nodes by key
	lines map[string]int        // key lines (file lines)
	ok    bool                  // the tools read it
}

type run struct {
	in      *check.Input
	opt     options
	entries []*entry
	res     check.Result
	seen    map[string]bool // exists, by path
	byName  map[string]bool // entries' paths and names, lower case
}

// maxEntries bounds the entries read, as the tools do.
const maxEntries = 2000

// Check checks the given entries against what the knowledge tools read,
// and against the rest of the knowledge folder.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	opt, err := readParams(in.Params)
	if err != nil {
		return check.Result{}, err
	}
	r := &run{in: in, opt: opt}
	given := map[string]bool{}
	for _, f := range in.Files {
		given[f.Path] = true
		r.entries = append(r.entries, newEntry(f.Path, string(f.Content), true))
	}
	if in.Source != nil {
		files, err := in.Source.Files(projectinfo.KnowledgePaths.Knowledge)
		if err == nil {
			for _, p := range files {
				if len(r.entries) >= maxEntries {
					break
				}
				if given[p] || !indexed(p) {
					continue
				}
				b, err := in.Source.ReadFile(p)
				if err != nil || len(b) == 0 {
					continue
				}
				r.entries = append(r.entries, newEntry(p, string(b), false))
			}
		}
	}
	for _, e := range r.entries {
		if err := ctx.Err(); err != nil {
			return check.Result{}, err
		}
		if e.given {
			r.checkEntry(e)
		}
	}
	r.duplicateNames()
	r.vocabulary("category", func(d projectinfo.Doc) string { return d.Category }, opt.categories, "categories")
	r.vocabulary("maturity", func(d projectinfo.Doc) string { return d.Maturity }, opt.maturities, "maturities")
	if in.Source == nil {
		r.res.Notes = append(r.res.Notes, "content given inline: links to files and names of other entries are not checked")
	} else {
		entries := "entries"
		if len(r.entries) == 1 {
			entries = "entry"
		}
		r.res.Notes = append(r.res.Notes, fmt.Sprintf("%d knowledge %s read (%d checked)", len(r.entries), entries, len(in.Files)))
	}
	r.res.Findings = findcap.Apply(r.res.Findings)
	return r.res, nil
}

func newEntry(p, text string, given bool) *entry {
	e := &entry{path: p, given: given, text: text, doc: projectinfo.ParseDoc(projectinfo.DocKnowledge, p, text)}
	e.fm = parseFrontMatter(text)
	return e
}

// parseFrontMatter finds the front matter where the tools find it: the
// file starts with "---", and the first line starting with "---" after
// it closes it.
func parseFrontMatter(text string) *frontMatter {
	if len(text) > maxRead {
		text = text[:maxRead]
	}
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return nil
	}
	rest := text[strings.Index(text, "\n")+1:]
	end := strings.Index(rest, "\n---")
	fm := &frontMatter{first: 2, keys: map[string]*yaml.Node{}, lines: map[string]int{}}
	if end < 0 {
		return fm // not closed: the tools read it as body
	}
	var node yaml.Node
	if err := yaml.Unmarshal([]byte(rest[:end]), &node); err != nil {
		return fm
	}
	fm.root = &node
	if node.Kind == yaml.DocumentNode && len(node.Content) > 0 {
		fm.root = node.Content[0]
	}
	return fm
}

// maxRead is what the tools read of a file (projectinfo reads 256 KiB).
const maxRead = 256 << 10

func (r *run) find(e *entry, rule string, sev check.Severity, line, col int, msg, fix string) {
	r.res.Findings = append(r.res.Findings, check.Finding{Rule: rule, Severity: sev, File: e.path, Line: line, Col: col, Message: msg, Fix: fix})
}

var (
	yamlLine   = check.LazyRegexp(`line (\d+)`)
	yamlAtLine = check.LazyRegexp(`at line (\d+)`)
)

// checkEntry checks one given entry.
func (r *run) checkEntry(e *entry) {
	if r.in.Source != nil && !indexed(e.path) {
		why := "it is not a Markdown file under " + folder
		if strings.HasPrefix(e.path, folder) && strings.HasSuffix(e.path, ".md") {
			why = fmt.Sprintf("it is more than %d folders deep under %s", projectinfo.KnowledgeMaxDepth, folder)
		}
		r.find(e, ruleNotIndexed, "", 0, 0, "query_tkb and get_tkb_entry do not read this entry: "+why, "move it under "+folder+" (at most six folders deep)")
	} else if strings.TrimSpace(e.text) == "" && r.in.Source != nil {
		r.find(e, ruleNotIndexed, "", 1, 1, "the entry is empty: the knowledge tools skip empty files", "write the entry")
		return
	}
	if e.doc.Truncated {
		r.find(e, ruleTruncated, "", 0, 0, fmt.Sprintf("the entry is %d KiB; the knowledge tools read its first %d KiB only", len(e.text)>>10, maxRead>>10), "split it, or move the bulk to linked files")
	}
	if !r.frontMatter(e) {
		return
	}
	r.fields(e)
	r.links(e)
}

// frontMatter reports front matter the tools cannot read; it returns
// whether its fields can be checked.
func (r *run) frontMatter(e *entry) bool {
	fm := e.fm
	if fm == nil {
		r.find(e, ruleNoFrontMatter, "", 1, 1, "the entry has no front matter: query_tkb cannot filter it by category, maturity or use case",
			"start the file with ---, then title, category, maturity, use_cases and description, then ---")
		return false
	}
	text := e.text
	if len(text) > maxRead {
		text = text[:maxRead]
	}
	rest := text[strings.Index(text, "\n")+1:]
	end := strings.Index(rest, "\n---")
	if end < 0 {
		r.find(e, ruleSyntax, "", 1, 1, "the front matter is not closed: the tools read the whole file as its body, and none of its fields",
			"end the front matter with a line of ---")
		return false
	}
	// ParseDoc read the front matter already; only when it kept nothing
	// is the YAML parsed again, for the error the tools swallowed.
	var err error
	if e.doc.Meta == nil {
		var meta map[string]any
		err = yaml.Unmarshal([]byte(rest[:end]), &meta)
	}
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "yaml: ")
		msg = strings.TrimPrefix(msg, "unmarshal errors:\n")
		line := 1
		if m := yamlLine().FindStringSubmatch(msg); m != nil {
			n, _ := strconv.Atoi(m[1])
			line = n + fm.first - 1
			msg = strings.Replace(msg, m[0], "line "+strconv.Itoa(line), 1)
			// "already defined at line N" names a YAML line too.
			if m2 := yamlAtLine().FindStringSubmatch(msg); m2 != nil {
				n2, _ := strconv.Atoi(m2[1])
				msg = strings.Replace(msg, m2[0], "at line "+strconv.Itoa(n2+fm.first-1), 1)
			}
		}
		msg = strings.Join(strings.Fields(msg), " ")
		r.find(e, ruleSyntax, "", line, 0, "the front matter does not parse, so the tools read none of its fields: "+msg,
			"fix the YAML; a key given twice counts as an error")
		return false
	}
	if fm.root == nil || fm.root.Kind != yaml.MappingNode {
		if fm.root != nil && fm.root.Kind == 0 {
			r.find(e, ruleNoFrontMatter, "", 1, 1, "the front matter is empty: query_tkb cannot filter the entry by category, maturity or use case",
				"write title, category, maturity, use_cases and description between the --- lines")
			return false
		}
		r.find(e, ruleSyntax, "", fm.first, 1, "the front matter is not a mapping of fields, so the tools read none of it", "write it as field: value lines")
		return false
	}
	for i := 0; i+1 < len(fm.root.Content); i += 2 {
		k, v := fm.root.Content[i], fm.root.Content[i+1]
		fm.keys[k.Value] = v
		fm.lines[k.Value] = k.Line + fm.first - 1
	}
	fm.ok = true
	return true
}

func (fm *frontMatter) line(key string) int {
	if l, ok := fm.lines[key]; ok {
		return l
	}
	return 1
}

// kindOf names a YAML value's kind as the tools' decoder sees it.
func kindOf(v *yaml.Node) string {
	for v != nil && v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	if v == nil {
		return "nothing"
	}
	switch v.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch v.ShortTag() {
	case "!!str":
		return "a string"
	case "!!int", "!!float":
		return "a number (" + v.Value + ")"
	case "!!bool":
		return "a boolean (" + v.Value + ")"
	case "!!null":
		return "empty"
	case "!!timestamp":
		return "a date (" + v.Value + ")"
	}
	return "a " + strings.TrimPrefix(v.ShortTag(), "!!")
}

func isString(v *yaml.Node) bool {
	for v != nil && v.Kind == yaml.AliasNode {
		v = v.Alias
	}
	return v != nil && v.Kind == yaml.ScalarNode && v.ShortTag() == "!!str"
}

// fields checks the kinds of the fields the tools read, synonyms, and the
// fields an entry must have.
func (r *run) fields(e *entry) {
	fm := e.fm
	for _, k := range stringFields {
		v, ok := fm.keys[k]
		if !ok || isString(v) || kindOf(v) == "empty" {
			continue
		}
		fix := "write it as a string"
		if v.Kind == yaml.ScalarNode {
			fix = "quote it: " + k + ": \"" + v.Value + "\""
		} else if v.Kind == yaml.SequenceNode && (k == "category" || k == "maturity" || k == "status") {
			fix = "give one " + k + "; put the others in tags"
		}
		r.find(e, ruleFieldType, "", fm.line(k), 0, fmt.Sprintf("%s is %s; the knowledge tools read it only as a string, so they ignore it", k, kindOf(v)), fix)
	}
	for _, k := range listFields {
		v, ok := fm.keys[k]
		if !ok {
			continue
		}
		for v.Kind == yaml.AliasNode && v.Alias != nil {
			v = v.Alias
		}
		switch {
		case isString(v) || kindOf(v) == "empty":
		case v.Kind == yaml.SequenceNode:
			for _, item := range v.Content {
				if !isString(item) {
					r.find(e, ruleFieldType, "", item.Line+fm.first-1, item.Column, fmt.Sprintf("an item of %s is %s; the tools keep only strings, so they drop it", k, kindOf(item)),
						"quote it, or write it as a string")
				}
			}
		default:
			r.find(e, ruleFieldType, "", fm.line(k), 0, fmt.Sprintf("%s is %s; the tools read a list of strings or a comma-separated string, so they ignore it", k, kindOf(v)),
				"write it as a list: "+k+": [a, b]")
		}
	}
	for _, pair := range synonyms {
		a, b := fm.keys[pair[0]], fm.keys[pair[1]]
		if a == nil || b == nil || !isString(a) || !isString(b) {
			continue
		}
		if strings.TrimSpace(a.Value) == strings.TrimSpace(b.Value) {
			continue
		}
		r.find(e, ruleIgnoredField, "", fm.line(pair[1]), 0, fmt.Sprintf("%s (%q) is ignored: the tools read %s (%q) first", pair[1], clip(b.Value), pair[0], clip(a.Value)),
			"keep one of "+pair[0]+" and "+pair[1])
	}
	have := map[string]bool{
		"title":       e.doc.Title != "",
		"name":        fm.keys["name"] != nil || fm.keys["id"] != nil,
		"description": e.doc.Description != "",
		"category":    e.doc.Category != "",
		"maturity":    e.doc.Maturity != "",
		"use_cases":   len(e.doc.UseCases) > 0,
		"tags":        len(e.doc.Tags) > 0,
	}
	why := map[string]string{
		"title":       "it is listed by its file name (no title field, no heading)",
		"description": "query_tkb lists it without a summary",
		"category":    "query_tkb's category filter never finds it",
		"maturity":    "query_tkb's maturity filter never finds it",
		"use_cases":   "query_tkb's use_case filter never finds it",
		"tags":        "its tags do not count in query_tkb's ranking",
		"name":        "get_tkb_entry finds it by its file name only",
	}
	for _, f := range r.opt.required {
		if !have[f] {
			r.find(e, ruleMissingField, "", 1, 1, fmt.Sprintf("the entry has no %s: %s", f, why[f]), "add "+f+": to the front matter")
		}
	}
	if !r.opt.explicit && !have["use_cases"] {
		r.find(e, ruleMissingField, check.Info, 1, 1, "the entry has no use_cases: "+why["use_cases"], "add use_cases: [a, b] to the front matter")
	}
}

func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:37] + "..."
}

// duplicateNames reports given entries whose name another entry earlier
// in path order has: get_tkb_entry returns that one.
func (r *run) duplicateNames() {
	sorted := slices.Clone(r.entries)
	slices.SortFunc(sorted, func(a, b *entry) int { return strings.Compare(a.path, b.path) })
	first := map[string]*entry{}
	for _, e := range sorted {
		if !indexed(e.path) && r.in.Source != nil {
			continue
		}
		key := strings.ToLower(e.doc.Name)
		f, ok := first[key]
		if !ok {
			first[key] = e
			continue
		}
		if !e.given {
			continue
		}
		// A name the author gave (name, id) that another entry holds is
		// an error; two README.md or index.md sharing a file name are
		// reached by path anyway: a warning.
		line, from, sev := 1, "its file name", check.Warning
		if e.fm != nil && e.fm.ok {
			for _, k := range []string{"name", "id"} {
				if v := e.fm.keys[k]; v != nil && isString(v) {
					line, from, sev = e.fm.line(k), "its "+k, check.Error
					break
				}
			}
		}
		r.find(e, ruleDuplicateName, sev, line, 0, fmt.Sprintf("this entry's name %q (from %s) is also the name of %s: get_tkb_entry %q returns that entry, not this one", e.doc.Name, from, f.path, e.doc.Name),
			"give this entry a name of its own (name: in the front matter)")
	}
}

// vocabulary reports category or maturity values outside the param's
// vocabulary, or, without one, spelled unlike the other entries' values.
func (r *run) vocabulary(field string, get func(projectinfo.Doc) string, vocab []string, param string) {
	line := func(e *entry) int {
		if e.fm != nil && e.fm.ok {
			if field == "maturity" && e.fm.keys["maturity"] == nil {
				return e.fm.line("status")
			}
			return e.fm.line(field)
		}
		return 1
	}
	if len(vocab) > 0 {
		for _, e := range r.entries {
			v := get(e.doc)
			if !e.given || v == "" || slices.ContainsFunc(vocab, func(w string) bool { return strings.EqualFold(w, v) }) {
				continue
			}
			r.find(e, ruleVocabulary, check.Error, line(e), 0, fmt.Sprintf("%s %q is not in the project's vocabulary (%s)", field, v, strings.Join(vocab, ", ")),
				"use one of "+strings.Join(vocab, ", ")+", or add it to the param "+param)
		}
		return
	}
	// Without a vocabulary: spellings that differ beyond case from the
	// most used spelling of the same word.
	counts := map[string]map[string]int{} // normalized → spelling (lower) → entries
	for _, e := range r.entries {
		v := get(e.doc)
		if v == "" {
			continue
		}
		n := normalize(v)
		if counts[n] == nil {
			counts[n] = map[string]int{}
		}
		counts[n][strings.ToLower(v)]++
	}
	for _, e := range r.entries {
		v := get(e.doc)
		if !e.given || v == "" {
			continue
		}
		spellings := counts[normalize(v)]
		best, bestN := "", 0
		for s, n := range spellings {
			if n > bestN || (n == bestN && s < best) {
				best, bestN = s, n
			}
		}
		if strings.EqualFold(v, best) || len(spellings) < 2 {
			continue
		}
		r.find(e, ruleVocabulary, "", line(e), 0, fmt.Sprintf("%s %q is spelled %q in %d other entr%s: query_tkb %s=%s does not find this one", field, v, best, bestN, plural(bestN, "y", "ies"), field, best),
			fmt.Sprintf("write %s: %s", field, best))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// normalize folds the spellings of one word: case, separators, a plural s.
func normalize(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.NewReplacer("-", "", "_", "", " ", "", ".", "").Replace(s)
	return strings.TrimSuffix(s, "s")
}

// Links.

var (
	inlineLink = check.LazyRegexp(`!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)]*)?\)`)
	refDef     = check.LazyRegexp(`^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?`)
	wikiLink   = check.LazyRegexp(`\[\[([^\]|#]+)(?:#[^\]|]*)?(?:\|[^\]]*)?\]\]`)
	scheme     = check.LazyRegexp(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// links checks the body's links and the front matter's references.
func (r *run) links(e *entry) {
	if r.in.Source == nil {
		return
	}
	fm := e.fm
	for _, k := range refFields {
		v, ok := fm.keys[k]
		if !ok {
			continue
		}
		var items []*yaml.Node
		switch {
		case v.Kind == yaml.SequenceNode:
			items = v.Content
		case isString(v):
			items = []*yaml.Node{v}
		}
		for _, it := range items {
			if !isString(it) {
				continue
			}
			for _, ref := range splitList(it.Value) {
				if !r.resolvesRef(e, ref) {
					r.find(e, ruleBrokenLink, "", it.Line+fm.first-1, it.Column, fmt.Sprintf("%s names %q, which is no entry (by path or name) and no file", k, ref),
						"name an existing entry or file")
				}
			}
		}
	}
	// The body, after the front matter, outside code.
	lines := strings.Split(e.text, "\n")
	start := 0
	if fm != nil {
		for i := 1; i < len(lines); i++ {
			if strings.HasPrefix(lines[i], "---") {
				start = i + 1
				break
			}
		}
	}
	fence := ""
	for i := start; i < len(lines) && i < 100000; i++ {
		line := lines[i]
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			switch {
			case fence == "":
				fence = t[:3]
			case strings.HasPrefix(t, fence):
				fence = ""
			}
			continue
		}
		if fence != "" || strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
			continue
		}
		line = stripCodeSpans(line)
		for _, m := range inlineLink().FindAllStringSubmatchIndex(line, -1) {
			r.checkLink(e, line[m[2]:m[3]], i+1, m[2]+1)
		}
		if m := refDef().FindStringSubmatchIndex(line); m != nil {
			r.checkLink(e, line[m[2]:m[3]], i+1, m[2]+1)
		}
		for _, m := range wikiLink().FindAllStringSubmatchIndex(line, -1) {
			ref := strings.TrimSpace(line[m[2]:m[3]])
			if !r.resolvesRef(e, ref) {
				r.find(e, ruleBrokenLink, "", i+1, m[0]+1, fmt.Sprintf("the wiki link [[%s]] names no entry and no file", ref), "name an existing entry")
			}
		}
	}
}

// stripCodeSpans blanks `code` so that links inside it are not read.
func stripCodeSpans(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	b := []byte(s)
	in := false
	for i, c := range b {
		if c == '`' {
			in = !in
			continue
		}
		if in {
			b[i] = ' '
		}
	}
	return string(b)
}

// checkLink reports a Markdown link to a project file that is not there.
func (r *run) checkLink(e *entry, target string, line, col int) {
	if target == "" || strings.HasPrefix(target, "#") || scheme().MatchString(target) || strings.HasPrefix(target, "//") {
		return
	}
	if i := strings.IndexAny(target, "#?"); i >= 0 {
		target = target[:i]
	}
	if dec, err := url.PathUnescape(target); err == nil {
		target = dec
	}
	if target == "" {
		return
	}
	p := target
	if strings.HasPrefix(p, "/") {
		p = path.Clean(strings.TrimPrefix(p, "/"))
	} else {
		p = path.Join(path.Dir(e.path), p)
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		r.find(e, ruleBrokenLink, "", line, col, fmt.Sprintf("the link %q leads out of the project", target), "link to a file inside the project, or to a URL")
		return
	}
	if r.exists(p) {
		return
	}
	r.find(e, ruleBrokenLink, "", line, col, fmt.Sprintf("the link %q leads to %s, which does not exist", target, p), "correct the path, or remove the link")
}

// exists reports whether p is a file or a folder of the project, asking
// the project once a path.
func (r *run) exists(p string) bool {
	if p == "." || p == "" {
		return true
	}
	if ok, seen := r.seen[p]; seen {
		return ok
	}
	ok := r.in.Source.Exists(p)
	if !ok {
		files, err := r.in.Source.Files(p)
		ok = err == nil && len(files) > 0
	}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	r.seen[p] = ok
	return ok
}

// resolvesRef reports whether ref names an entry as get_tkb_entry finds
// one (its path, its name, its path without .md), or a project file.
func (r *run) resolvesRef(e *entry, ref string) bool {
	ref = strings.TrimSpace(ref)
	if ref == "" || scheme().MatchString(ref) {
		return true
	}
	if r.byName == nil {
		r.byName = map[string]bool{}
		for _, x := range r.entries {
			r.byName[x.path] = true
			r.byName[strings.ToLower(x.doc.Name)] = true
			r.byName[strings.ToLower(strings.TrimSuffix(x.path, ".md"))] = true
		}
	}
	if r.byName[ref] || r.byName[strings.ToLower(ref)] {
		return true
	}
	for _, p := range []string{ref, path.Join(path.Dir(e.path), ref), folder + ref, folder + ref + ".md", path.Join(path.Dir(e.path), ref+".md")} {
		if !strings.HasPrefix(p, "../") && r.exists(path.Clean(p)) {
			return true
		}
	}
	return false
}
