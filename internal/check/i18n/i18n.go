// Package i18n is the hands' check of locale files (tool validate_i18n):
// translations in JSON (i18next, vue-i18n, react-intl, VS Code's
// package.nls), YAML (Rails, Symfony), Flutter ARB, Chrome's
// _locales/*/messages.json and GNU gettext PO/POT, each compared with its
// base locale.
//
// Files are grouped in sets of sibling translations by the layouts their
// tools load (locales/en.json and locales/fr.json; locales/en/common.json
// and locales/fr/common.json; config/locales/*.yml with a top-level locale
// key; lib/l10n/app_en.arb; _locales/en/messages.json; po/*.po with a
// .pot; locale/fr/LC_MESSAGES/app.po). The base locale of a set is the
// param "base", else Chrome's manifest default_locale or Flutter's
// l10n.yaml template-arb-file, else the default package.nls.json, else
// en (en-US, en_GB, ...), else the .pot template, else the most complete
// locale; Notes say which and why. Siblings not given are read through the
// project (Input.Source) when there is one.
//
// What is checked, on which parser:
//   - Syntax, duplicate keys (which JSON.parse and YAML loaders drop
//     silently), each key's line: JSON and JSON5 with internal/jsonpos,
//     YAML with go.yaml.in/yaml/v3 nodes (aliases and merge keys
//     followed, bounded), PO with a gettext parser of its own (msgctxt,
//     plural forms, multi-line strings, flags, obsolete #~ entries).
//   - Keys missing or extra against the base (nested keys compared as
//     dotted paths, so nested and flat files compare; key order is not a
//     finding), namespace files missing from a locale, a message where the
//     base has a group.
//   - Placeholders compared with the base message: ICU MessageFormat
//     ({name}, plural/select parsed to any depth), i18next ({{name}},
//     $t(key)), printf (%s %d %1$s, by position and type), Rails (%{name}),
//     Python (%(name)s, {name}), Chrome ($name$, declared placeholders),
//     gettext's format flags (c-format, python-format, ...: msgid against
//     msgstr as msgfmt -c does).
//   - Plurals: ICU plural/select without other; the CLDR categories the
//     locale's language needs (i18next key_one/key_few, Rails one:/few:,
//     ICU branches); PO msgstr[n] against the header's nplurals.
//   - Empty translations, fuzzy PO entries, files that declare another
//     locale than their name, $t() references to keys that exist nowhere.
//
// Params: "base" (a locale, e.g. en or pt-BR: the base of every set) and
// "syntax" (auto, the default, or icu, i18next, printf, rails, python,
// brace, chrome, none: how messages write placeholders; auto reads ICU
// where a message has typed arguments and every named form elsewhere, and
// printf only in sets whose base messages use it).
//
// Not checked: whether the source code uses the keys (unused or undefined
// keys in code), the meaning of a translation, HTML inside messages,
// XLIFF, .properties, .strings and .resx files, and plural rules for
// ordinals (only their other branch).
package i18n

import (
	"cmp"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/check/internal/findcap"
	"github.com/cairn-dev/cairn/internal/check/internal/jsonpos"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Checker checks locale files.
type Checker struct{}

// New returns the i18n checker.
func New() *Checker { return &Checker{} }

// Name is "i18n".
func (*Checker) Name() string { return "i18n" }

// Rules lists the rules of the i18n check.
func (*Checker) Rules() []check.Rule { return slices.Clone(rules) }

// Wants picks locale files: .po, .pot, .arb, Chrome's messages.json,
// package.nls*.json, and JSON or YAML named for a locale (or in a folder
// named for one) inside a folder of translations (locales/, i18n/, lang/,
// translations/, config/locales/, ...).
func (*Checker) Wants(p string, head []byte) bool { return wants(p, head) }

type options struct {
	base   string
	syntax syntax
}

func readParams(params map[string]string) (options, error) {
	o := options{syntax: synAuto}
	for k, v := range params {
		v = strings.TrimSpace(v)
		switch k {
		case "base":
			if v != "" && !isLocale(v) {
				return o, &problem.FieldError{Field: "params.base", Problem: problem.Quote(v) + " is not a locale",
					Fix: "give the base locale as the files name it: en, en-US, pt_BR"}
			}
			o.base = v
		case "syntax":
			s := syntax(strings.ToLower(v))
			if v == "" {
				s = synAuto
			}
			if !slices.Contains(syntaxes, s) {
				names := make([]string, len(syntaxes))
				for i, x := range syntaxes {
					names[i] = string(x)
				}
				return o, &problem.FieldError{Field: "params.syntax", Problem: problem.Quote(v) + " is not a placeholder syntax",
					Fix: "use one of " + strings.Join(names, ", ")}
			}
			o.syntax = s
		default:
			return o, &problem.FieldError{Field: "params." + k, Problem: "is not a param of the i18n check", Fix: "use base or syntax"}
		}
	}
	return o, nil
}

// member is one file of a set.
type member struct {
	path    string
	locale  string
	format  format
	given   []byte // its content when it was given to check; nil otherwise
	isGiven bool
	doc     *doc
}

// set is the translations of one thing in every locale.
type set struct {
	pl       placement
	template *member // the .pot, or the default package.nls.json
	members  []*member
	base     *member
	why      string // how the base was chosen
}

type run struct {
	ctx   context.Context
	in    *check.Input
	opt   options
	res   check.Result
	cache map[string]*member
}

// Check groups the files into sets of translations and checks each.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	opt, err := readParams(in.Params)
	if err != nil {
		return check.Result{}, err
	}
	r := &run{ctx: ctx, in: in, opt: opt, cache: map[string]*member{}}
	sets := r.group()
	keys := make([]string, 0, len(sets))
	for k := range sets {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var notes []string
	for _, k := range keys {
		if err := ctx.Err(); err != nil {
			return check.Result{}, err
		}
		if note := r.checkSet(sets[k]); note != "" {
			notes = append(notes, note)
		}
	}
	r.missingFiles(sets)
	r.res.Notes = summarize(notes)
	r.res.Findings = findcap.Apply(r.res.Findings)
	return r.res, nil
}

// summarize keeps the notes short when there are many sets.
func summarize(notes []string) []string {
	if len(notes) <= 8 {
		return notes
	}
	return append(notes[:8:8], fmt.Sprintf("… and %d more locale sets", len(notes)-8))
}

// group places the given files in sets and adds their siblings.
func (r *run) group() map[string]*set {
	sets := map[string]*set{}
	for _, f := range r.in.Files {
		pl, ok := place(f.Path)
		if !ok {
			// A file named outright that no layout explains: checked alone.
			fm, ok := extFormat(f.Path)
			if !ok {
				fm = fmtJSON
			}
			pl = placement{pattern: f.Path, format: fm}
		}
		s := sets[pl.pattern]
		if s == nil {
			s = &set{pl: pl}
			sets[pl.pattern] = s
		}
		m := r.member(f.Path, pl.locale, pl.format)
		m.given, m.isGiven = f.Content, true
		s.add(m)
	}
	if r.in.Source != nil {
		for _, s := range sets {
			r.siblings(s)
		}
	}
	return sets
}

func (r *run) member(p, loc string, f format) *member {
	if m, ok := r.cache[p]; ok {
		return m
	}
	m := &member{path: p, locale: loc, format: f}
	r.cache[p] = m
	return m
}

func (s *set) add(m *member) {
	if m.format == fmtPOT || (m.format == fmtNLS && m.locale == "") {
		if s.template == nil {
			s.template = m
		}
		return
	}
	if !slices.Contains(s.members, m) {
		s.members = append(s.members, m)
	}
}

// siblings adds the set's other files from the project.
func (r *run) siblings(s *set) {
	star := strings.IndexByte(s.pl.pattern, '*')
	if star < 0 {
		return
	}
	dir := path.Dir(s.pl.pattern[:star] + "x")
	if dir == "." {
		dir = ""
	}
	files, err := r.in.Source.Files(dir)
	if err != nil {
		return
	}
	nlsDefault := ""
	if s.pl.format == fmtNLS {
		nlsDefault = path.Join(dir, "package.nls.json")
	}
	var pots []string
	for _, f := range files {
		if s.pl.format == fmtNLS {
			if f == nlsDefault {
				s.add(r.member(f, "", fmtNLS))
				continue
			}
			if loc, ok := (placement{pattern: strings.Replace(s.pl.pattern, "nls*", "nls.*", 1), format: fmtNLS}).match(f); ok {
				s.add(r.member(f, loc, fmtNLS))
			}
			continue
		}
		if s.pl.format == fmtPO || s.pl.format == fmtPOT {
			if path.Dir(f) == dir && strings.HasSuffix(f, ".pot") {
				pots = append(pots, f)
				continue
			}
		}
		fm, ok := extFormat(f)
		if !ok || !sameFamily(fm, s.pl.format) {
			continue
		}
		if loc, ok := s.pl.match(f); ok {
			s.add(r.member(f, loc, s.pl.format))
		}
	}
	if s.template == nil && (s.pl.format == fmtPO || s.pl.format == fmtPOT) {
		// The template beside the catalogs, or beside the locale folders:
		// one .pot, or the one named for the catalogs' domain.
		domain := strings.TrimSuffix(path.Base(s.pl.pattern), path.Ext(s.pl.pattern))
		for _, p := range pots {
			if len(pots) == 1 || strings.TrimSuffix(path.Base(p), ".pot") == domain {
				s.add(r.member(p, "", fmtPOT))
				break
			}
		}
	}
}

func sameFamily(a, b format) bool {
	fam := func(f format) format {
		if f == fmtPOT {
			return fmtPO
		}
		if f == fmtChrome || f == fmtNLS {
			return fmtJSON
		}
		return f
	}
	return fam(a) == fam(b)
}

// load parses a member, reading it from the project if it was not given.
func (r *run) load(m *member) *doc {
	if m.doc != nil {
		return m.doc
	}
	b := m.given
	if !m.isGiven {
		if r.in.Source == nil {
			return nil
		}
		var err error
		if b, err = r.in.Source.ReadFile(m.path); err != nil {
			r.res.Notes = append(r.res.Notes, fmt.Sprintf("%s could not be read (%v); not compared", m.path, err))
			m.doc = newDoc(m.path, m.format, m.locale)
			return m.doc
		}
	}
	m.doc = parseDoc(m.path, b, m.format, m.locale)
	return m.doc
}

// chooseBase picks the set's base locale and says why.
func (r *run) chooseBase(s *set) {
	byLoc := func(pred func(string) bool) *member {
		for _, m := range s.members {
			if pred(m.locale) {
				return m
			}
		}
		return nil
	}
	if r.opt.base != "" {
		if m := byLoc(func(l string) bool { return sameLocale(l, r.opt.base) }); m != nil {
			s.base, s.why = m, "the param base"
			return
		}
		if s.template != nil && len(s.members) == 0 {
			s.base, s.why = s.template, "the template"
			return
		}
		s.why = "the param base " + r.opt.base + " has no file in this set"
		return
	}
	if loc, from := r.configuredBase(s); loc != "" {
		if m := byLoc(func(l string) bool { return sameLocale(l, loc) }); m != nil {
			s.base, s.why = m, from
			return
		}
	}
	if s.template != nil && s.pl.format == fmtNLS {
		s.base, s.why = s.template, "the default file"
		return
	}
	for _, want := range []func(string) bool{
		func(l string) bool { return sameLocale(l, "en") },
		func(l string) bool { return sameLocale(l, "en-US") },
		func(l string) bool { return language(l) == "en" },
	} {
		if m := byLoc(want); m != nil {
			s.base, s.why = m, "guessed: English"
			return
		}
	}
	if s.template != nil {
		s.base, s.why = s.template, "the template"
		return
	}
	if len(s.members) < 2 {
		return
	}
	// The most complete locale.
	best, n := (*member)(nil), -1
	for _, m := range s.members {
		if d := r.load(m); d != nil && d.parsed && len(d.units) > n {
			best, n = m, len(d.units)
		}
	}
	s.base, s.why = best, "guessed: the locale with the most keys"
}

// configuredBase reads the base locale a project declares for its tool:
// the default_locale of a Chrome extension's manifest.json, the
// template-arb-file of Flutter's l10n.yaml.
func (r *run) configuredBase(s *set) (string, string) {
	if r.in.Source == nil {
		return "", ""
	}
	switch s.pl.format {
	case fmtChrome:
		dir := strings.TrimSuffix(s.pl.pattern, "_locales/*/messages.json")
		b, err := r.in.Source.ReadFile(dir + "manifest.json")
		if err != nil {
			return "", ""
		}
		root, err := jsonpos.Parse(b, jsonpos.Options{})
		if err != nil {
			return "", ""
		}
		if v := root.Get("default_locale"); v != nil && v.Kind == jsonpos.String {
			return v.Str, dir + "manifest.json's default_locale"
		}
	case fmtARB:
		b, err := r.in.Source.ReadFile("l10n.yaml")
		if err != nil {
			return "", ""
		}
		var cfg struct {
			Template string `yaml:"template-arb-file"`
		}
		if yaml.Unmarshal(b, &cfg) != nil || cfg.Template == "" {
			return "", ""
		}
		pl, ok := place(path.Join(path.Dir(s.pl.pattern), cfg.Template))
		if ok && pl.pattern == s.pl.pattern {
			return pl.locale, "l10n.yaml's template-arb-file"
		}
	}
	return "", ""
}

// checkSet checks a set's given files and compares them with its base;
// it returns the set's note.
func (r *run) checkSet(s *set) string {
	r.chooseBase(s)
	var base *doc
	if s.base != nil {
		base = r.load(s.base)
	}
	syn, printf := r.opt.syntax, false
	if syn == synAuto {
		switch s.pl.format {
		case fmtARB:
			syn = synICU
		case fmtChrome:
			syn = synChrome
		}
	}
	if syn == synAuto && base != nil {
		var values []string
		for _, u := range base.units {
			if u.leaf != nil && u.leaf.kind == vString {
				values = append(values, u.leaf.value)
			}
		}
		printf = guessPrintf(values)
	}
	all := slices.Clone(s.members)
	if s.template != nil {
		all = append([]*member{s.template}, all...)
	}
	for _, m := range all {
		if !m.isGiven {
			continue
		}
		d := r.load(m)
		d.syntax, d.printf = syn, printf
		isBase := s.base == m
		r.res.Findings = append(r.res.Findings, d.findings...)
		if !d.parsed {
			continue
		}
		var against *doc
		if !isBase && base != nil && base.parsed {
			against = base
			base.syntax, base.printf = syn, printf
		}
		r.checkDoc(d, against)
		if against != nil {
			r.compare(against, d)
		}
	}
	return r.note(s, base)
}

func (r *run) note(s *set, base *doc) string {
	if s.template == nil && len(s.members) < 2 {
		return ""
	}
	var locs []string
	for _, m := range s.members {
		locs = append(locs, cmp.Or(m.locale, "(default)"))
	}
	slices.Sort(locs)
	n := fmt.Sprintf("%s: %d locales (%s)", s.pl.pattern, len(locs), strings.Join(clipList(locs, 12), ", "))
	switch {
	case s.base == nil:
		n += "; no base locale (" + cmp.Or(s.why, "none is English, and there is no template") + "): not compared"
	case base != nil && !base.parsed:
		n += "; base " + s.base.path + " does not parse: not compared"
	case s.base.locale == "":
		n += "; base " + s.base.path + " (" + s.why + ")"
	default:
		n += "; base " + s.base.locale + " (" + s.why + ")"
	}
	return n
}

func clipList(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], fmt.Sprintf("+%d", len(s)-n))
}

// missingFiles reports, for translations kept one folder a locale
// (locales/fr/common.json), the base's namespace files a locale lacks
// while it has others.
func (r *run) missingFiles(sets map[string]*set) {
	if r.in.Source == nil {
		return
	}
	type famInfo struct {
		locales map[string]bool
		given   map[string]bool
	}
	fams := map[string]*famInfo{}
	famOf := func(s *set) string {
		star := strings.IndexByte(s.pl.pattern, '*')
		return s.pl.pattern[:star+1]
	}
	for _, s := range sets {
		if !s.pl.dirWise {
			continue
		}
		f := fams[famOf(s)]
		if f == nil {
			f = &famInfo{locales: map[string]bool{}, given: map[string]bool{}}
			fams[famOf(s)] = f
		}
		for _, m := range s.members {
			f.locales[m.locale] = true
			if m.isGiven {
				f.given[m.locale] = true
			}
		}
	}
	for _, s := range sets {
		if !s.pl.dirWise || s.base == nil || s.base.locale == "" {
			continue
		}
		f := fams[famOf(s)]
		have := map[string]bool{}
		for _, m := range s.members {
			have[m.locale] = true
		}
		var missing []string
		for loc := range f.locales {
			if !have[loc] && f.given[loc] {
				missing = append(missing, loc)
			}
		}
		slices.Sort(missing)
		for _, loc := range missing {
			want := strings.Replace(s.pl.pattern, "*", loc, 1)
			r.res.Findings = append(r.res.Findings, check.Finding{Rule: ruleMissingFile, File: want,
				Message: fmt.Sprintf("%s is missing: locale %s has other files of %s, and the base has %s", want, loc, famOf(s), s.base.path),
				Fix:     "add " + want + " with the " + loc + " translations of " + s.base.path})
		}
	}
}
