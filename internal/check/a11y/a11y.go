// Package a11y is the "a11y" checker (tool audit_accessibility): the WCAG
// checks that can be made from markup, on HTML files and server templates,
// and, where Chromium and axe-core are installed, axe-core's audit of the
// rendered page mapped to the same findings.
//
// Parser: golang.org/x/net/html's HTML5 tokenizer, with a tree built here
// that keeps each start tag's byte offset (html.Parse drops positions), so
// every finding has the original file's line and column.
//
// Templates (Go html/template .tmpl/.gohtml, Jinja/Django/Nunjucks,
// Liquid, Twig, Handlebars/Mustache, ERB/EJS, Vue and Svelte components):
// each template action is replaced in place before tokenizing, at the same
// length with newlines kept. An action that prints ({{.Alt}}, <%= x %>)
// becomes an opaque value, so alt="{{.Alt}}" is an alt and a link whose
// text is {{.Name}} has a name; control flow and comments become spaces,
// so an attribute set inside {{if}} counts as present; an action among a
// tag's attributes ({{.Attrs}}) marks the element's attributes unknown and
// no attribute is reported missing on it. A file with control flow may
// hold one element in two branches, so duplicate ids are not reported in
// it. Vue's :attr/v-bind:attr, Angular's [attr] and Svelte's bind:attr
// count as the attribute; v-html and the like make content unknown. The
// page-level rules (html-has-lang, document-title) apply only to files
// that have an <html> element. JSX is not read.
//
// Rules, each mapped to its WCAG success criterion and axe-core rule:
// image-alt, label, html-has-lang, html-lang-valid, heading-order,
// empty-heading, link-name, button-name, aria-roles, aria-valid-attr,
// aria-valid-attr-value, aria-allowed-attr, redundant-role, duplicate-id,
// duplicate-id-aria, color-contrast (where the text's color and its
// background are both inline styles, with WCAG's relative luminance),
// tabindex, document-title, autocomplete-valid.
//
// Rendered audit: when a Chromium binary is found (chromium,
// chromium-browser, google-chrome, or the chrome param) and axe-core's
// axe.min.js is (the project's node_modules/axe-core/axe.min.js, or the
// axe param), each plain HTML file (not a template) is opened headless
// through chromedp from a temporary copy with its relative stylesheets and
// scripts, or the page at the url param (loopback only) is, and axe-core's
// violations become findings a11y/axe-<rule id> with the node's CSS
// selector, at the line where its markup is found in the file (0 when not
// found). Otherwise a note says why the rendered audit did not run.
//
// Params:
//   - render: "auto" (default: run axe-core when Chromium and axe are
//     found), "off", or "required" (fail when they are not).
//   - chrome: the path of a Chromium or Chrome binary.
//   - axe: the path of axe.min.js (otherwise node_modules/axe-core/axe.min.js
//     in the project).
//   - url: a page to audit rendered, on a loopback address
//     (http://127.0.0.1:8080/, http://localhost:3000/signup).
//   - max_render: how many files to render at most (default 20).
//
// Not checked: anything CSS or scripts decide (contrast from stylesheets,
// focus order, content added by JavaScript) without the rendered audit;
// whether alt text is good; JSX.
package a11y

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Checker is the accessibility checker.
type Checker struct{}

// New returns the accessibility checker.
func New() *Checker { return &Checker{} }

// Name is "a11y".
func (*Checker) Name() string { return "a11y" }

var rules = sync.OnceValue(buildRules)

// Rules lists every rule, axe-core's included.
func (*Checker) Rules() []check.Rule { return rules() }

// markupExt are the extensions read as markup; templateExt those that
// are templates whatever their content.
var markupExt = map[string]bool{".html": true, ".htm": true, ".xhtml": true, ".shtml": true}

var templateExt = map[string]bool{
	".tmpl": true, ".gohtml": true, ".gotmpl": true, ".jinja": true, ".jinja2": true, ".j2": true, ".njk": true,
	".erb": true, ".ejs": true, ".hbs": true, ".handlebars": true, ".mustache": true, ".liquid": true, ".twig": true,
	".vue": true, ".svelte": true, ".jsp": false,
}

// Wants takes HTML files, and template files whose first bytes look like
// markup (a .tmpl can be a text template).
func (*Checker) Wants(p string, head []byte) bool {
	ext := strings.ToLower(path.Ext(p))
	if markupExt[ext] {
		return true
	}
	if !templateExt[ext] {
		return false
	}
	if ext == ".vue" || ext == ".svelte" {
		return true
	}
	return looksLikeMarkup(head)
}

// tagRE and langRE are compiled on first use, not when the binary starts.
var tagRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<(?:[a-zA-Z][a-zA-Z0-9-]*|!doctype)[\s>/]`) })

func looksLikeMarkup(head []byte) bool { return tagRE().Match(head) }

type options struct {
	render    string
	chrome    string
	axe       string
	url       string
	maxRender int
}

func readParams(p map[string]string) (options, error) {
	o := options{render: "auto", maxRender: 20}
	for k, v := range p {
		v = strings.TrimSpace(v)
		switch k {
		case "render":
			if v != "auto" && v != "off" && v != "required" && v != "" {
				return o, &problem.FieldError{Field: "render", Problem: problem.Quote(v) + " is not a render mode", Fix: `use "auto" (the default), "off" or "required"`}
			}
			if v != "" {
				o.render = v
			}
		case "chrome":
			o.chrome = v
		case "axe":
			o.axe = v
		case "url":
			if err := loopbackURL(v); err != nil {
				return o, &problem.FieldError{Field: "url", Problem: err.Error(), Fix: "give an http(s) URL on 127.0.0.1, [::1] or localhost, such as http://127.0.0.1:8080/"}
			}
			o.url = v
		case "max_render":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || n > 1000 {
				return o, &problem.FieldError{Field: "max_render", Problem: problem.Quote(v) + " is not a count from 0 to 1000", Fix: "give how many files to render at most, e.g. 20"}
			}
			o.maxRender = n
		default:
			return o, &problem.FieldError{Field: k, Problem: "is not a param of audit_accessibility", Fix: "use render, chrome, axe, url or max_render"}
		}
	}
	return o, nil
}

// Check audits in's files.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	o, err := readParams(in.Params)
	if err != nil {
		return check.Result{}, err
	}
	var res check.Result
	docs := map[string]*doc{}
	templates := 0
	for _, f := range in.Files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		d := parse(f.Path, f.Content)
		docs[f.Path] = d
		if d.m.template {
			templates++
		}
		res.Findings = append(res.Findings, audit(f.Path, d)...)
	}
	res.Notes = append(res.Notes, fmt.Sprintf("a11y: %d files read as markup (%d with template actions, masked in place)", len(in.Files), templates))
	rendered, err := renderAudit(ctx, in, o, docs)
	if err != nil {
		return res, err
	}
	res.Notes = append(res.Notes, rendered.notes...)
	res.Findings = append(res.Findings, dedupeAxe(res.Findings, rendered.findings)...)
	return res, nil
}

// finder collects one file's findings.
type finder struct {
	path string
	d    *doc
	out  []check.Finding
}

func (f *finder) add(n *node, rule, msg, fix string) {
	line, col := f.d.pos(n.off)
	endLine, endCol := f.d.pos(max(n.off, n.end-1))
	f.out = append(f.out, check.Finding{Rule: rule, File: f.path, Line: line, Col: col, EndLine: endLine, EndCol: endCol, Message: msg, Fix: fix})
}

// describe names an element for a message: its tag and what identifies it.
func describe(n *node) string {
	s := "<" + n.tag
	for _, k := range []string{"id", "name", "type", "href", "src", "class"} {
		if v, ok := n.attr(k); ok && v != "" && !strings.ContainsRune(v, dyn) {
			if len(v) > 40 {
				v = v[:40] + "…"
			}
			s += " " + k + "=\"" + v + "\""
			break
		}
	}
	return s + ">"
}

func lower(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

func isDyn(s string) bool { return strings.ContainsRune(s, dyn) }

func blankText(s string) bool {
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '\u00a0' || r == '\u200b' }) == ""
}

// audit runs the markup rules over one parsed file.
func audit(p string, d *doc) []check.Finding {
	f := &finder{path: p, d: d}
	ids := map[string][]*node{}
	labelFor := map[string]bool{}
	refs := map[string]bool{} // ids a label or ARIA attribute points at
	var htmlEl *node
	for _, n := range d.all {
		if id, ok := n.attr("id"); ok && id != "" && !isDyn(id) {
			ids[id] = append(ids[id], n)
		}
		if n.tag == "label" {
			if v, ok := n.attr("for"); ok {
				labelFor[v] = true
				refs[v] = true
			}
		}
		for _, a := range []string{"aria-labelledby", "aria-describedby", "aria-controls", "aria-owns", "aria-activedescendant", "aria-errormessage", "aria-details", "aria-flowto"} {
			if v, ok := n.attr(a); ok {
				for _, id := range strings.Fields(v) {
					refs[id] = true
				}
			}
		}
		if n.tag == "html" && htmlEl == nil {
			htmlEl = n
		}
	}
	if htmlEl != nil {
		f.pageRules(htmlEl)
	}
	prevHeading := 0
	for _, n := range d.all {
		if inSVGOrMath(n) {
			continue
		}
		f.images(n)
		f.labels(n, labelFor)
		f.links(n)
		f.buttons(n)
		f.aria(n, ids)
		f.contrast(n)
		f.tabindex(n)
		f.autocomplete(n)
		if lvl := headingLevel(n); lvl > 0 {
			if prevHeading > 0 && lvl > prevHeading+1 {
				f.add(n, ruleHeadingOrder, fmt.Sprintf("This h%d follows an h%d: heading level %d is skipped", lvl, prevHeading, prevHeading+1),
					fmt.Sprintf("Make it an h%d, or add the missing level above it.", prevHeading+1))
			}
			prevHeading = lvl
			if text, dyn := textOf(n); !dyn && blankText(text) && !n.dynamic && !hasName(n) {
				f.add(n, ruleEmptyHeading, fmt.Sprintf("The heading %s has no text", describe(n)), "Put the heading's text in it, or remove it.")
			}
		}
	}
	if !d.m.control {
		f.duplicateIDs(ids, refs)
	}
	return f.out
}

func inSVGOrMath(n *node) bool { return n.foreign }

func headingLevel(n *node) int {
	if len(n.tag) == 2 && n.tag[0] == 'h' && n.tag[1] >= '1' && n.tag[1] <= '6' {
		if r, ok := n.attr("role"); ok && r != "heading" && r != "" {
			return 0
		}
		return int(n.tag[1] - '0')
	}
	if r, _ := n.attr("role"); r == "heading" {
		if l, ok := n.attr("aria-level"); ok {
			if v, err := strconv.Atoi(l); err == nil && v >= 1 && v <= 6 {
				return v
			}
		}
		return 2 // ARIA's default level for role=heading
	}
	return 0
}

// hasName reports whether n is named by its own attributes: aria-label,
// aria-labelledby or title (non-empty or from a template).
func hasName(n *node) bool {
	for _, a := range []string{"aria-label", "aria-labelledby", "title"} {
		if v, ok := n.attr(a); ok && (!blankText(v) || isDyn(v)) {
			return true
		}
	}
	return false
}

func (f *finder) pageRules(h *node) {
	lang, ok := h.attr("lang")
	if !ok {
		lang, ok = h.attr("xml:lang")
	}
	switch {
	case !ok && !h.dynamic:
		f.add(h, ruleHTMLLang, "The <html> element has no lang attribute", `Add the page's language: <html lang="en">.`)
	case ok && blankText(lang) && !isDyn(lang):
		f.add(h, ruleHTMLLang, "The <html> element's lang is empty", `Set the page's language: <html lang="en">.`)
	case ok && !isDyn(lang) && !validLang(lang):
		f.add(h, ruleLangValid, fmt.Sprintf("lang=%q is not a BCP 47 language tag", lang), "Use a tag such as en, en-GB or pt-BR (hyphens, not underscores).")
	}
	var title *node
	for _, n := range f.d.all {
		if n.tag == "title" && !inSVGOrMath(n) {
			title = n
			break
		}
	}
	if title == nil {
		f.add(h, ruleDocTitle, "The page has no <title>", "Add a <title> in <head> that says what the page is.")
	} else if text := strings.Join(title.text, ""); blankText(text) {
		f.add(title, ruleDocTitle, "The page's <title> is empty", "Put what the page is in its <title>.")
	}
}

var langRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?i)[a-z]{2,3}(?:-[a-z]{3}){0,3}(?:-[a-z]{4})?(?:-(?:[a-z]{2}|[0-9]{3}))?(?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*(?:-[a-wyz0-9](?:-[a-z0-9]{2,8})+)*(?:-x(?:-[a-z0-9]{1,8})+)?$|^(?i)x(?:-[a-z0-9]{1,8})+$`)
})

// validLang checks a lang value against BCP 47's grammar (langtag and
// privateuse; the grandfathered tags aside).
func validLang(s string) bool { return langRE().MatchString(strings.TrimSpace(s)) }

func (f *finder) images(n *node) {
	if n.dynamic {
		return
	}
	role, _ := n.attr("role")
	role = lower(role)
	switch n.tag {
	case "img":
		if role == "presentation" || role == "none" || n.has("alt") || hasName(n) || hidden(n) {
			return
		}
		src, _ := n.attr("src")
		f.add(n, ruleImageAlt, fmt.Sprintf("The image %s has no alt text", nameOrTag(src, n)), `Add alt="what the image shows", or alt="" if it is decorative.`)
	case "area":
		if !n.has("href") || hasName(n) {
			return
		}
		if alt, ok := n.attr("alt"); !ok || (blankText(alt) && !isDyn(alt)) {
			f.add(n, ruleImageAlt, "The image-map area "+describe(n)+" has no alt text", "Add alt saying where the area links.")
		}
	case "input":
		if t, _ := n.attr("type"); lower(t) == "image" {
			if alt, ok := n.attr("alt"); (!ok || blankText(alt) && !isDyn(alt)) && !hasName(n) {
				f.add(n, ruleImageAlt, "The image button "+describe(n)+" has no alt text", "Add alt saying what the button does.")
			}
		}
	}
}

func nameOrTag(src string, n *node) string {
	if src != "" && !isDyn(src) {
		if len(src) > 60 {
			src = "…" + src[len(src)-60:]
		}
		return src
	}
	return describe(n)
}

// labelable fields that need a label.
func needsLabel(n *node) bool {
	switch n.tag {
	case "select", "textarea":
		return true
	case "input":
		t, _ := n.attr("type")
		switch lower(t) {
		case "hidden", "submit", "button", "reset", "image":
			return false
		}
		return !isDyn(t)
	}
	return false
}

func (f *finder) labels(n *node, labelFor map[string]bool) {
	if !needsLabel(n) || n.dynamic || hidden(n) {
		return
	}
	if hasName(n) {
		return
	}
	if id, ok := n.attr("id"); ok && (labelFor[id] || isDyn(id)) {
		return
	}
	for p := n.parent; p != nil; p = p.parent {
		if p.tag == "label" {
			return
		}
	}
	if v, ok := n.attr("placeholder"); ok && (!blankText(v) || isDyn(v)) {
		return // axe-core accepts a placeholder as the name (label rule)
	}
	if r, _ := n.attr("role"); lower(r) == "presentation" || lower(r) == "none" {
		return
	}
	what := n.tag
	if t, ok := n.attr("type"); ok && n.tag == "input" {
		what = "input type=" + t
	}
	name := ""
	if v, ok := n.attr("name"); ok && !isDyn(v) {
		name = " named " + strconv.Quote(v)
	} else if v, ok := n.attr("id"); ok && !isDyn(v) {
		name = " with id " + strconv.Quote(v)
	}
	f.add(n, ruleInputLabel, fmt.Sprintf("The form field (%s)%s has no label", what, name),
		`Add <label for="its id">, wrap it in <label>, or give it aria-label.`)
}

func (f *finder) links(n *node) {
	if n.tag != "a" || !n.has("href") || n.dynamic || hidden(n) || hasName(n) {
		return
	}
	if r, _ := n.attr("role"); r != "" {
		return // another role names it differently
	}
	text, dynamic := textOf(n)
	if dynamic || !blankText(text) {
		return
	}
	href, _ := n.attr("href")
	target := "This link"
	if href != "" && !isDyn(href) {
		target = "The link to " + strconv.Quote(href)
	}
	f.add(n, ruleLinkName, target+" has no text a screen reader can announce", "Give it text, an aria-label, or an image inside with alt text.")
}

func (f *finder) buttons(n *node) {
	if n.dynamic || hidden(n) || hasName(n) {
		return
	}
	switch n.tag {
	case "button":
		text, dynamic := textOf(n)
		if dynamic || !blankText(text) {
			return
		}
		f.add(n, ruleButtonName, "The button "+describe(n)+" has no text a screen reader can announce", "Give it text, or an aria-label saying what it does.")
	case "input":
		t, _ := n.attr("type")
		switch lower(t) {
		case "button":
			if v, ok := n.attr("value"); !ok || blankText(v) && !isDyn(v) {
				f.add(n, ruleButtonName, "The input button "+describe(n)+" has no value to announce", "Give it a value saying what it does.")
			}
		}
	}
}

func (f *finder) aria(n *node, ids map[string][]*node) {
	roleAttr, hasRole := n.attr("role")
	role := ""
	if hasRole && !isDyn(roleAttr) {
		for _, r := range strings.Fields(lower(roleAttr)) {
			switch {
			case ariaRoles()[r]:
				if role == "" {
					role = r
				}
			case abstractRoles()[r]:
				f.add(n, ruleAriaRoles, fmt.Sprintf("role=%q is an abstract role, which authors must not use", r), "Use a concrete role (button, listbox, region…).")
			default:
				f.add(n, ruleAriaRoles, fmt.Sprintf("role=%q is not a WAI-ARIA role", r), "Use a role WAI-ARIA defines, or remove it.")
			}
		}
		if blankText(roleAttr) {
			return
		}
		if role != "" && role == implicitRole(n) && role != "generic" && strings.TrimSpace(lower(roleAttr)) == role {
			f.add(n, ruleRedundantRole, fmt.Sprintf("<%s> already has the role %q", n.tag, role), "Remove the role attribute.")
		}
	}
	effective := role
	if !hasRole {
		effective = implicitRole(n)
	}
	for _, a := range n.attrs {
		k := a.Key
		if bk := boundName(k); bk != "" {
			k = bk
		}
		if !strings.HasPrefix(k, "aria-") {
			continue
		}
		if !ariaAttrs()[k] {
			f.add(n, ruleAriaValidAttr, fmt.Sprintf("%s is not a WAI-ARIA attribute", k), "Fix the name (aria-labelledby, aria-describedby…) or remove it.")
			continue
		}
		if roles, ok := roleAttrs()[k]; ok && effective != "" && effective != "generic" && !roles[effective] {
			f.add(n, ruleAriaAllowed, fmt.Sprintf("%s is not supported by the role %q of %s", k, effective, describe(n)),
				"Give the element a role that has this state, or remove the attribute.")
		}
		if a.Key != k || isDyn(a.Val) {
			continue // a bound or templated value is not known here
		}
		if msg := badValue(k, a.Val, ids); msg != "" {
			f.add(n, ruleAriaAttrValue, msg, "Use a value the attribute takes.")
		}
	}
}

// badValue says what is wrong with an ARIA attribute's value, "" if nothing.
func badValue(k, v string, ids map[string][]*node) string {
	spec, ok := ariaValues()[k]
	if !ok {
		return ""
	}
	t := lower(v)
	switch spec.kind {
	case vBool:
		if t != "true" && t != "false" {
			return fmt.Sprintf("%s=%q: the value is true or false", k, v)
		}
	case vBoolUndefined:
		if t != "true" && t != "false" && t != "undefined" {
			return fmt.Sprintf("%s=%q: the value is true, false or undefined", k, v)
		}
	case vTristate:
		if t != "true" && t != "false" && t != "mixed" {
			return fmt.Sprintf("%s=%q: the value is true, false or mixed", k, v)
		}
	case vInteger:
		if _, err := strconv.Atoi(t); err != nil {
			return fmt.Sprintf("%s=%q: the value is an integer", k, v)
		}
	case vNumber:
		if _, err := strconv.ParseFloat(t, 64); err != nil {
			return fmt.Sprintf("%s=%q: the value is a number", k, v)
		}
	case vToken:
		if !spec.tokens[t] {
			return fmt.Sprintf("%s=%q: the value is one of %s", k, v, strings.Join(sortedKeys(spec.tokens), ", "))
		}
	case vTokens:
		for _, w := range strings.Fields(t) {
			if !spec.tokens[w] {
				return fmt.Sprintf("%s=%q: %q is not one of %s", k, v, w, strings.Join(sortedKeys(spec.tokens), ", "))
			}
		}
	case vIDRef, vIDRefs:
		refs := strings.Fields(v)
		if len(refs) == 0 {
			return fmt.Sprintf("%s is empty: it should name an element's id", k)
		}
		if spec.kind == vIDRef && len(refs) > 1 {
			return fmt.Sprintf("%s=%q: the value is one id", k, v)
		}
		for _, id := range refs {
			if len(ids[id]) == 0 && (k == "aria-labelledby" || k == "aria-describedby") && len(ids) > 0 {
				return fmt.Sprintf("%s=%q: no element in this file has the id %q", k, v, id)
			}
		}
	}
	return ""
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func (f *finder) contrast(n *node) {
	own, _ := n.attr("style")
	if isDyn(own) {
		return
	}
	ownFG, ownBG := styleDecl(own, "color"), backgroundColor(own)
	if ownFG == "" && ownBG == "" {
		return
	}
	direct := false
	for _, t := range n.text {
		if !blankText(t) {
			direct = true
		}
	}
	if !direct {
		return
	}
	fgS, bgS, large := ownFG, ownBG, largeText(own)
	for p := n.parent; p != nil && (fgS == "" || bgS == ""); p = p.parent {
		st, _ := p.attr("style")
		if isDyn(st) {
			return
		}
		if fgS == "" {
			fgS = styleDecl(st, "color")
		}
		if bgS == "" {
			bgS = backgroundColor(st)
		}
		if !large && styleDecl(own, "font-size") == "" {
			large = largeText(st)
		}
	}
	fg, ok1 := parseColor(fgS)
	bg, ok2 := parseColor(bgS)
	if !ok1 || !ok2 {
		return
	}
	need := 4.5
	if large {
		need = 3
	}
	if r := contrast(fg, bg); r < need {
		f.add(n, ruleContrast, fmt.Sprintf("The text of %s has a contrast of %.2f:1 (%s on %s), under the %.1f:1 WCAG AA asks for", describe(n), r, fgS, bgS, need),
			fmt.Sprintf("Change the colors until the ratio is at least %.1f:1.", need))
	}
}

func (f *finder) tabindex(n *node) {
	v, ok := n.attr("tabindex")
	if !ok || isDyn(v) {
		return
	}
	if i, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && i > 0 {
		f.add(n, ruleTabindex, fmt.Sprintf("%s has tabindex=%d, which moves it ahead of the page's order", describe(n), i), `Use tabindex="0" or "-1", and order the markup as it should be read.`)
	}
}

func (f *finder) autocomplete(n *node) {
	if n.tag != "input" && n.tag != "select" && n.tag != "textarea" {
		return
	}
	v, ok := n.attr("autocomplete")
	if !ok || isDyn(v) || blankText(v) {
		return
	}
	if !validAutocomplete(v) {
		f.add(n, ruleAutocomplete, fmt.Sprintf("autocomplete=%q on %s is not a value the HTML spec defines", v, describe(n)),
			"Use the spec's tokens (tel, email, given-name, street-address, current-password…), or on/off.")
	}
}

// validAutocomplete checks the autofill grammar: [section-*] [shipping|
// billing] [home|work|mobile|fax|pager] field [webauthn], or on/off.
func validAutocomplete(v string) bool {
	toks := strings.Fields(lower(v))
	if len(toks) == 1 && (toks[0] == "on" || toks[0] == "off") {
		return true
	}
	if len(toks) > 0 && toks[len(toks)-1] == "webauthn" {
		toks = toks[:len(toks)-1]
	}
	if len(toks) > 0 && strings.HasPrefix(toks[0], "section-") {
		toks = toks[1:]
	}
	if len(toks) > 0 && (toks[0] == "shipping" || toks[0] == "billing") {
		toks = toks[1:]
	}
	switch {
	case len(toks) == 1:
		return autofillFields()[toks[0]] || contactFields()[toks[0]]
	case len(toks) == 2:
		switch toks[0] {
		case "home", "work", "mobile", "fax", "pager":
			return contactFields()[toks[1]]
		}
	}
	return false
}

func (f *finder) duplicateIDs(ids map[string][]*node, refs map[string]bool) {
	keys := make([]string, 0, len(ids))
	for id := range ids {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	for _, id := range keys {
		ns := ids[id]
		if len(ns) < 2 {
			continue
		}
		first, _ := f.d.pos(ns[0].off)
		for _, n := range ns[1:] {
			if refs[id] {
				f.add(n, ruleDuplicateIDRef, fmt.Sprintf("id %q is also on line %d, and a label or ARIA attribute points at it", id, first), "Make the id unique so the reference names one element.")
			} else {
				f.add(n, ruleDuplicateID, fmt.Sprintf("id %q is also on line %d", id, first), "Make each id unique on the page.")
			}
		}
	}
}
