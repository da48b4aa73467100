package i18n

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

func (r *run) add(f check.Finding) { r.res.Findings = append(r.res.Findings, f) }

func (r *run) finding(d *doc, rule string, line, col int, msg, fix string) {
	r.add(check.Finding{Rule: rule, File: d.path, Line: line, Col: col, Message: msg, Fix: fix})
}

func (r *run) findingSev(d *doc, sev check.Severity, rule string, line, col int, msg, fix string) {
	r.add(check.Finding{Rule: rule, Severity: sev, File: d.path, Line: line, Col: col, Message: msg, Fix: fix})
}

// locName names a doc's locale in messages.
func locName(d *doc) string {
	if d.locale != "" {
		return d.locale
	}
	if d.format == fmtPOT {
		return "the template"
	}
	return d.path
}

// checkDoc checks one file on its own: ICU messages, declared
// placeholders, $t references, the file's declared locale, and a PO
// catalog's plural forms, flags and formats. base, when set, is the base
// locale's file it is compared with.
func (r *run) checkDoc(d *doc, base *doc) {
	if d.declared != "" && d.locale != "" && !compatibleLocales(d.declared, d.locale) {
		r.finding(d, ruleLocale, d.declLine, 0, fmt.Sprintf("the file is named for locale %s but declares %s", d.locale, d.declared),
			"make the declaration and the file name agree")
	}
	if d.po != nil {
		r.checkPO(d)
		return
	}
	for _, u := range d.units {
		for _, lf := range u.leaves() {
			if lf.kind != vString {
				continue
			}
			phs := r.messageChecks(d, lf)
			r.checkDeclared(d, base, u, lf, phs)
			r.checkRefs(d, base, lf, phs)
		}
	}
}

func (u *unit) leaves() []*leaf {
	if u.forms == nil {
		if u.leaf == nil {
			return nil
		}
		return []*leaf{u.leaf}
	}
	out := make([]*leaf, len(u.forms))
	for i, f := range u.forms {
		out[i] = f.leaf
	}
	return out
}

// messageChecks parses one message as ICU where its set's syntax says so,
// reports what does not parse and plural arguments that lack branches,
// and returns its placeholders.
func (r *run) messageChecks(d *doc, lf *leaf) []string {
	phs, args, err := placeholders(d.syntax, lf.value, d.printf)
	lf.phs, lf.phsErr, lf.phsDone = phs, err, true
	if err != nil {
		msg := err.Error()
		if ie, ok := err.(*icuError); ok {
			msg = fmt.Sprintf("%s (at byte %d of the message)", ie.Msg, ie.Off+1)
		}
		r.finding(d, ruleICU, lf.vline, 0, "the message "+strconv.Quote(clipText(lf.key))+" is not valid ICU MessageFormat: "+msg,
			"close every { with }, and quote literal braces as '{' '}'")
		return phs
	}
	for _, a := range args {
		r.checkPluralArg(d, lf, a)
	}
	return phs
}

// checkPluralArg checks the branches of one plural, selectordinal or
// select argument.
func (r *run) checkPluralArg(d *doc, lf *leaf, a icuArg) {
	if a.Type != "plural" && a.Type != "select" && a.Type != "selectordinal" {
		return
	}
	has := map[string]bool{}
	for _, s := range a.Selectors {
		has[s] = true
	}
	where := "{" + a.Name + ", " + a.Type + "} in " + strconv.Quote(clipText(lf.key))
	if !has["other"] {
		r.finding(d, rulePluralOther, lf.vline, 0, where+" has no other branch", "add other {…}; ICU refuses a "+a.Type+" without it")
	}
	if a.Type == "select" {
		return
	}
	for _, s := range a.Selectors {
		if !strings.HasPrefix(s, "=") && !isPluralCategory(s) {
			r.finding(d, rulePluralCat, lf.vline, 0, fmt.Sprintf("%s has the branch %q, which is no CLDR plural category and is never chosen", where, s),
				"use zero, one, two, few, many, other, or =N for an exact number")
		}
	}
	if a.Type != "plural" || d.locale == "" {
		return
	}
	var missing []string
	for _, c := range neededCategories(d.locale) {
		if !has[c] && c != "other" {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		r.finding(d, rulePluralCat, lf.vline, 0, fmt.Sprintf("%s lacks %s, which %s needs for whole numbers", where, strings.Join(missing, ", "), langName(d.locale)),
			"add "+strings.Join(missing, " {…}, ")+" {…}")
	}
}

func langName(loc string) string { return "the language " + language(loc) }

// checkDeclared reports placeholders a message uses but does not declare
// (Chrome's messages.json; ARB, where the template declares them).
func (r *run) checkDeclared(d *doc, base *doc, u *unit, lf *leaf, phs []string) {
	decl, has := lf.declared, lf.hasDecl
	if !has && base != nil && d.format == fmtARB {
		if bu := base.byKey[u.key]; bu != nil && bu.leaf != nil && bu.leaf.hasDecl {
			decl, has = bu.leaf.declared, true
		}
	}
	if !has {
		return
	}
	sev := check.Error
	fix := "declare it under \"placeholders\" of " + strconv.Quote(lf.key) + ", or correct the name"
	if d.format == fmtARB {
		sev = check.Warning
		fix = "declare it under \"placeholders\" of \"@" + lf.key + "\" in the template, or correct the name"
	}
	seen := map[string]bool{}
	for _, p := range phs {
		if seen[p] || strings.HasPrefix(p, "$") && len(p) == 2 { // $1: a positional substitution
			continue
		}
		seen[p] = true
		if !contains(decl, p) {
			r.findingSev(d, sev, ruleUndeclared, lf.vline, 0, fmt.Sprintf("the message %s uses %s, which it does not declare", strconv.Quote(clipText(lf.key)), p), fix)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkRefs reports i18next $t(key) nestings whose key exists neither in
// this file nor in the base.
func (r *run) checkRefs(d *doc, base *doc, lf *leaf, phs []string) {
	for _, p := range phs {
		if !strings.HasPrefix(p, "$t(") {
			continue
		}
		key := strings.TrimSuffix(strings.TrimPrefix(p, "$t("), ")")
		key = strings.Trim(key, `"' `)
		if key == "" || strings.Contains(key, ":") || strings.ContainsAny(key, "{}$") {
			continue // another namespace, or built at run time
		}
		if d.hasKey(key) || (base != nil && base.hasKey(key)) {
			continue
		}
		r.finding(d, ruleReference, lf.vline, 0, fmt.Sprintf("the message %s nests $t(%s), a key this locale does not have", strconv.Quote(clipText(lf.key)), key),
			"point $t() at an existing key, or add "+key)
	}
}

// hasKey reports whether key names a message or a group of the file.
func (d *doc) hasKey(key string) bool {
	if _, ok := d.byKey[key]; ok {
		return true
	}
	_, ok := d.objects[key]
	return ok
}

// ---- comparing with the base ----

// compare reports what the target lacks, adds or changes against base.
func (r *run) compare(base, t *doc) {
	if t.po != nil && base.po != nil {
		r.comparePO(base, t)
		return
	}
	shaped := map[string]bool{}
	for _, bu := range base.units {
		tu := t.byKey[bu.key]
		if tu == nil {
			if line, ok := t.objects[bu.key]; ok {
				r.finding(t, ruleShape, line, 0, fmt.Sprintf("%s is a group of keys here, but a message in %s (%s:%d)", bu.display(), locName(base), base.path, bu.line()),
					"make it a single message, as in the base locale")
				shaped[bu.key] = true
				continue
			}
			r.finding(t, ruleMissingKey, t.ancestorLine(bu.key), 0, fmt.Sprintf("%s of %s (%s:%d) is missing from %s", bu.display(), locName(base), base.path, bu.line(), locName(t)),
				"add its "+locName(t)+" translation")
			continue
		}
		r.compareUnit(base, t, bu, tu)
	}
	if n := len(t.listVsString); n > 0 {
		u := t.listVsString[0]
		r.findingSev(t, check.Info, ruleShape, u.line(), u.col(), fmt.Sprintf("%d message%s (%s first) %s a list in one of this file and %s and a string in the other",
			n, plural(n), u.display(), map[bool]string{true: "is", false: "are"}[n == 1], base.path),
			"if the code reads a string (or a list), give every locale that kind of value")
	}
	for _, tu := range t.units {
		if _, ok := base.byKey[tu.key]; ok {
			continue
		}
		if _, ok := base.objects[tu.key]; ok {
			r.finding(t, ruleShape, tu.line(), tu.col(), fmt.Sprintf("%s is a message here, but a group of keys in %s (%s:%d)", tu.display(), locName(base), base.path, base.objects[tu.key]),
				"make it a group of keys, as in the base locale")
			continue
		}
		if base.messageAbove(tu.key) || shapedAbove(shaped, tu.key) {
			continue // its parent is a message in the base: reported once there
		}
		r.finding(t, ruleExtraKey, tu.line(), tu.col(), fmt.Sprintf("%s is not in %s (%s)", tu.display(), locName(base), base.path),
			"rename it to a key of the base locale, or delete it")
	}
}

// ancestorLine is the line of the deepest group of key that the file has,
// where a missing key belongs; 0 if none.
func (d *doc) ancestorLine(key string) int {
	for {
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			return 0
		}
		key = key[:i]
		if line, ok := d.objects[key]; ok {
			return line
		}
	}
}

// messageAbove reports whether a prefix of key is a message in d.
func (d *doc) messageAbove(key string) bool {
	for {
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			return false
		}
		key = key[:i]
		if _, ok := d.byKey[key]; ok {
			return true
		}
	}
}

func shapedAbove(shaped map[string]bool, key string) bool {
	for {
		i := strings.LastIndexByte(key, '.')
		if i < 0 {
			return false
		}
		key = key[:i]
		if shaped[key] {
			return true
		}
	}
}

// compareUnit compares one message with the base's.
func (r *run) compareUnit(base, t *doc, bu, tu *unit) {
	bl, tl := bu.leaf, tu.leaf
	if bl.kind != tl.kind && (bl.kind == vString || tl.kind == vString) && bu.forms == nil && tu.forms == nil {
		if tl.kind == vNull || tl.kind == vObject && bl.kind == vString {
			if bl.value != "" {
				r.finding(t, ruleEmpty, tl.line, tl.col, fmt.Sprintf("%s has no value in %s", tu.display(), locName(t)), "translate it, or delete the key so that the fallback applies")
			}
			return
		}
		if bl.kind == vArray || tl.kind == vArray {
			// A list of alternatives beside a single string is often meant
			// (country names, synonyms): counted, said once a file.
			t.listVsString = append(t.listVsString, tu)
			return
		}
		r.findingSev(t, check.Warning, ruleShape, tl.line, tl.col, fmt.Sprintf("%s is %s here but %s in %s (%s:%d)", tu.display(), tl.kind, bl.kind, locName(base), base.path, bl.line),
			"give it the same kind of value as in the base locale")
		return
	}
	// Empty translations.
	for _, lf := range tu.leaves() {
		if lf.kind == vString && strings.TrimSpace(lf.value) == "" && baseHasText(bu) {
			r.finding(t, ruleEmpty, lf.line, lf.col, fmt.Sprintf("%s is empty in %s", strconv.Quote(clipText(lf.key)), locName(t)),
				"translate it, or delete the key so that the fallback applies")
		}
	}
	r.comparePlaceholders(base, t, bu, tu)
	if bu.forms != nil && tu.forms != nil && t.locale != "" {
		have := map[string]bool{}
		for _, f := range tu.forms {
			have[f.cat] = true
		}
		var missing []string
		for _, c := range neededCategories(t.locale) {
			if !have[c] {
				missing = append(missing, c)
			}
		}
		if len(missing) > 0 {
			r.finding(t, rulePluralCat, tu.line(), tu.col(), fmt.Sprintf("the plural %s lacks the %s form%s, which %s needs", tu.display(), strings.Join(missing, ", "), plural(len(missing)), langName(t.locale)),
				"add "+formNames(tu, missing))
		}
	}
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// formNames names the keys a family's missing forms take.
func formNames(u *unit, cats []string) string {
	sep := "_"
	if k := u.forms[0].leaf.key; strings.HasSuffix(k, "."+u.forms[0].cat) {
		sep = "."
	}
	out := make([]string, len(cats))
	for i, c := range cats {
		out[i] = u.key + sep + c
	}
	return strings.Join(out, ", ")
}

func baseHasText(u *unit) bool {
	for _, lf := range u.leaves() {
		if lf.kind == vString && strings.TrimSpace(lf.value) != "" {
			return true
		}
	}
	return false
}

// comparePlaceholders compares a translation's placeholders with the
// base message's. For plural families: every form may use only
// placeholders some base form has, and the other form must keep the base
// other form's.
func (r *run) comparePlaceholders(base, t *doc, bu, tu *unit) {
	if t.syntax == synNone {
		return
	}
	broken := false
	ph := func(d *doc, lf *leaf) []string {
		if lf.kind != vString {
			return nil
		}
		if !lf.phsDone {
			lf.phs, _, lf.phsErr = placeholders(d.syntax, lf.value, d.printf)
			lf.phsDone = true
		}
		broken = broken || lf.phsErr != nil
		return lf.phs
	}
	var union []string
	for _, lf := range bu.leaves() {
		union = append(union, ph(base, lf)...)
	}
	bOther, tOther := otherForm(bu), otherForm(tu)
	for _, lf := range tu.leaves() {
		broken = false
		have := ph(t, lf)
		if broken {
			continue // icu-syntax says what is wrong
		}
		var missing, extra []string
		if lf == tOther {
			missing, extra = diffPlaceholders(ph(base, bOther), have)
			_, extra = diffPlaceholders(union, extra)
		} else {
			_, extra = diffPlaceholders(union, have)
		}
		if len(missing) == 0 && len(extra) == 0 {
			continue
		}
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "lacks "+strings.Join(missing, ", "))
		}
		if len(extra) > 0 {
			parts = append(parts, "has "+strings.Join(extra, ", ")+" that the base does not")
		}
		// An extra or misspelled placeholder prints raw or fails; a dropped
		// one loses a value but renders (a translation may spell out what
		// the key already says).
		sev := check.Error
		if len(extra) == 0 {
			sev = check.Warning
		}
		r.findingSev(t, sev, rulePlaceholder, lf.vline, 0, fmt.Sprintf("%s %s (%s:%d has %s)", strconv.Quote(clipText(lf.key)), strings.Join(parts, " and "), base.path, bOther.vline, listOrNone(ph(base, bOther))),
			"use the base message's placeholders, unchanged")
	}
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	seen := map[string]bool{}
	var out []string
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return strings.Join(out, ", ")
}

// otherForm is the form a family's placeholders are compared on: other,
// else the last.
func otherForm(u *unit) *leaf {
	if u.forms == nil {
		return u.leaf
	}
	for _, f := range u.forms {
		if f.cat == "other" {
			return f.leaf
		}
	}
	return u.forms[len(u.forms)-1].leaf
}

// ---- gettext ----

func (r *run) checkPO(d *doc) {
	f := d.po
	hasPlural := false
	for _, e := range f.Entries {
		if e.Obsolete || (e.ID == "" && e.Ctxt == nil) {
			continue
		}
		if e.HasPlural {
			hasPlural = true
		}
		if d.format == fmtPOT {
			continue
		}
		fuzzy := e.hasFlag("fuzzy")
		switch {
		case !e.translated():
			r.findingSev(d, check.Info, ruleEmpty, e.StrLine, 1, e.display()+" is not translated; users see the source text", "translate it")
		case fuzzy:
			r.finding(d, ruleFuzzy, e.Line, 1, e.display()+" is fuzzy: msgfmt leaves it out, so users see the source text", "review the translation and remove the fuzzy flag")
		}
		if e.HasPlural && f.NPlurals > 0 && len(e.Str) != f.NPlurals && e.translated() {
			r.finding(d, rulePluralForms, e.StrLine, 1, fmt.Sprintf("%s has %d plural forms, but the header's Plural-Forms says nplurals=%d", e.display(), len(e.Str), f.NPlurals),
				fmt.Sprintf("give it msgstr[0] to msgstr[%d]", f.NPlurals-1))
		}
		if e.translated() && !fuzzy {
			r.checkPOFormat(d, e)
		}
	}
	if hasPlural && f.NPlurals == 0 && d.format == fmtPO {
		r.finding(d, rulePluralForms, 1, 1, "the catalog has plural entries but its header declares no Plural-Forms; gettext falls back to English's two forms",
			"add \"Plural-Forms: nplurals=N; plural=EXPR;\\n\" to the header for this language")
	}
}

// checkPOFormat compares an entry's msgstr with its msgid by the format
// its flags declare, as msgfmt --check-format does.
func (r *run) checkPOFormat(d *doc, e *poEntry) {
	syn, ok := poSyntax(e)
	if !ok || syn == synNone {
		return
	}
	strict := syn == synPrintf
	src := func(s string) []string {
		p, _, _ := placeholders(syn, s, strict)
		return p
	}
	id := src(e.ID)
	if !e.HasPlural {
		missing, extra := diffPlaceholders(id, src(e.Str[0]))
		r.reportPOFormat(d, e, e.StrLine, missing, extra, id)
		return
	}
	union := append(cloneList(id), src(e.IDPlural)...)
	for i, s := range e.Str {
		if s == "" {
			continue
		}
		// A form may drop a directive (one file: "un fichier"), but not
		// add or retype one.
		_, extra := diffPlaceholders(union, src(s))
		line := e.StrLine
		if i < len(e.StrLines) {
			line = e.StrLines[i]
		}
		r.reportPOFormat(d, e, line, nil, extra, union)
	}
}

func cloneList(s []string) []string { return append([]string(nil), s...) }

func (r *run) reportPOFormat(d *doc, e *poEntry, line int, missing, extra, want []string) {
	if len(missing) == 0 && len(extra) == 0 {
		return
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "lacks "+strings.Join(missing, ", "))
	}
	if len(extra) > 0 {
		parts = append(parts, "has "+strings.Join(extra, ", ")+" that the msgid does not")
	}
	flag := ""
	for _, fl := range e.Flags {
		if strings.HasSuffix(fl, "-format") && !strings.HasPrefix(fl, "no-") {
			flag = fl
			break
		}
	}
	r.finding(d, rulePlaceholder, line, 1, fmt.Sprintf("the msgstr of %s %s (%s; the msgid has %s)", e.display(), strings.Join(parts, " and "), flag, listOrNone(want)),
		"keep the msgid's format directives; %N$ numbers them when the order changes")
}

// comparePO compares a catalog with its template (or base catalog).
func (r *run) comparePO(base, t *doc) {
	for _, bu := range base.units {
		if _, ok := t.byKey[bu.key]; !ok {
			r.finding(t, ruleMissingKey, 0, 0, fmt.Sprintf("%s of %s (%s:%d) is missing from this catalog", bu.display(), locName(base), base.path, bu.line()),
				"update the catalog from the template: msgmerge --update "+t.path+" "+base.path)
		}
	}
	for _, tu := range t.units {
		if _, ok := base.byKey[tu.key]; !ok {
			r.finding(t, ruleExtraKey, tu.line(), 1, fmt.Sprintf("%s is not in %s (%s)", tu.display(), locName(base), base.path),
				"msgmerge marks it obsolete (#~); delete it if the message is gone")
		}
	}
}
