package a11y

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// chromeNames are the binaries looked for on PATH.
var chromeNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// axePath is where a project keeps axe-core when it depends on it.
const axePath = "node_modules/axe-core/axe.min.js"

type rendered struct {
	findings []check.Finding
	notes    []string
}

// loopbackURL refuses a URL that is not http(s) on a loopback address.
func loopbackURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s is not an http(s) URL", problem.Quote(s))
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%s is not on a loopback address", problem.Quote(s))
}

// renderAudit runs axe-core on the plain HTML files (and the url param)
// when Chromium and axe-core are found, and says in a note why not
// otherwise.
func renderAudit(ctx context.Context, in *check.Input, o options, docs map[string]*doc) (rendered, error) {
	var r rendered
	if o.render == "off" {
		r.notes = append(r.notes, "a11y: the rendered audit (axe-core) did not run: render=off")
		return r, nil
	}
	var pages []check.File
	for _, f := range in.Files {
		d := docs[f.Path]
		if d != nil && !d.m.template && markupExt[strings.ToLower(path.Ext(f.Path))] && len(pages) < o.maxRender {
			pages = append(pages, f)
		}
	}
	if len(pages) == 0 && o.url == "" {
		r.notes = append(r.notes, "a11y: the rendered audit (axe-core) did not run: no plain HTML file to render (templates need their data; give the url param of a served page)")
		return r, nil
	}
	chrome, why := findChrome(o.chrome)
	var axe []byte
	if chrome != "" {
		axe, why = findAxe(o.axe, in.Source)
	}
	if chrome == "" || axe == nil {
		if o.render == "required" {
			return r, &problem.FieldError{Field: "render", Problem: "is required but the rendered audit cannot run: " + why,
				Fix: "install Chromium and axe-core (npm i -D axe-core), or give the chrome and axe params"}
		}
		r.notes = append(r.notes, "a11y: the rendered audit (axe-core) did not run: "+why)
		return r, nil
	}
	tmp, err := os.MkdirTemp("", "cairn-a11y-")
	if err != nil {
		return r, fmt.Errorf("a11y: temporary directory: %w", err)
	}
	defer os.RemoveAll(tmp)
	allocCtx, cancel := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome),
		chromedp.NoSandbox,
		chromedp.Flag("disable-gpu", true),
		// Nothing leaves the machine: every request that is not to a file
		// or a loopback address goes to a closed local port, and no name
		// but localhost resolves.
		chromedp.ProxyServer("http://127.0.0.1:9"),
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE localhost"),
	)...)
	defer cancel()
	browser, cancelBrowser := chromedp.NewContext(allocCtx)
	defer cancelBrowser()
	if err := chromedp.Run(browser); err != nil {
		r.notes = append(r.notes, fmt.Sprintf("a11y: the rendered audit (axe-core) did not run: %s did not start (%v)", chrome, err))
		return r, nil
	}
	run := func(target, file string, content []byte) {
		vs, err := axeRun(browser, target, string(axe))
		if err != nil {
			r.notes = append(r.notes, fmt.Sprintf("a11y: axe-core could not audit %s: %v", cmpOr(file, target), err))
			return
		}
		seen := &located{next: map[string]int{}}
		text := string(content)
		for _, v := range vs {
			r.findings = append(r.findings, v.findings(cmpOr(file, target), text, seen)...)
		}
	}
	for _, f := range pages {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		local, err := stage(tmp, f, docs[f.Path], in.Source)
		if err != nil {
			r.notes = append(r.notes, fmt.Sprintf("a11y: could not stage %s for rendering: %v", f.Path, err))
			continue
		}
		run("file://"+filepath.ToSlash(local), f.Path, f.Content)
	}
	if o.url != "" {
		run(o.url, "", nil)
	}
	r.notes = append(r.notes, fmt.Sprintf("a11y: axe-core audited %d rendered pages in %s", len(pages)+boolInt(o.url != ""), chrome))
	return r, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func findChrome(param string) (string, string) {
	if param != "" {
		if p, err := exec.LookPath(param); err == nil {
			return p, ""
		}
		return "", fmt.Sprintf("the chrome param %s is not an executable", problem.Quote(param))
	}
	for _, n := range chromeNames {
		if p, err := exec.LookPath(n); err == nil {
			return p, ""
		}
	}
	return "", "no Chromium found on PATH (" + strings.Join(chromeNames, ", ") + "); give the chrome param"
}

func findAxe(param string, src check.Source) ([]byte, string) {
	if param != "" {
		b, err := os.ReadFile(param)
		if err != nil {
			return nil, fmt.Sprintf("the axe param %s cannot be read (%v)", problem.Quote(param), err)
		}
		return b, ""
	}
	if src != nil {
		if b, err := src.ReadFile(axePath); err == nil {
			return b, ""
		}
	}
	return nil, "axe-core not found (" + axePath + " in the project); npm i -D axe-core, or give the axe param"
}

// stage copies a file into dir at its project path, with the stylesheets
// and scripts it links by relative URL, so the rendered page has its CSS.
func stage(dir string, f check.File, d *doc, src check.Source) (string, error) {
	write := func(rel string, b []byte) (string, error) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", err
		}
		return p, os.WriteFile(p, b, 0o644)
	}
	local, err := write(f.Path, f.Content)
	if err != nil || src == nil {
		return local, err
	}
	copied := 0
	for _, n := range d.all {
		ref := ""
		switch {
		case n.tag == "link":
			if rel, _ := n.attr("rel"); strings.Contains(lower(rel), "stylesheet") {
				ref, _ = n.attr("href")
			}
		case n.tag == "script":
			ref, _ = n.attr("src")
		}
		if ref == "" || isDyn(ref) || strings.Contains(ref, ":") || strings.HasPrefix(ref, "//") || copied >= 50 {
			continue
		}
		ref, _, _ = strings.Cut(ref, "?")
		ref, _, _ = strings.Cut(ref, "#")
		rel := path.Clean(path.Join(path.Dir(f.Path), ref))
		if strings.HasPrefix(ref, "/") {
			rel = path.Clean(strings.TrimPrefix(ref, "/"))
		}
		if strings.HasPrefix(rel, "../") || rel == ".." {
			continue
		}
		if b, err := src.ReadFile(rel); err == nil {
			if _, err := write(rel, b); err == nil {
				copied++
			}
		}
	}
	return local, nil
}

// violation is one of axe-core's results.
type violation struct {
	ID     string `json:"id"`
	Impact string `json:"impact"`
	Help   string `json:"help"`
	Nodes  []struct {
		HTML           string          `json:"html"`
		Target         json.RawMessage `json:"target"`
		FailureSummary string          `json:"failureSummary"`
	} `json:"nodes"`
}

// axeRun opens target in a new tab, injects axe-core and returns its
// violations.
func axeRun(browser context.Context, target, axe string) ([]violation, error) {
	tab, cancel := chromedp.NewContext(browser)
	defer cancel()
	tab, cancelT := context.WithTimeout(tab, 60*time.Second)
	defer cancelT()
	var out string
	err := chromedp.Run(tab,
		chromedp.Navigate(target),
		chromedp.Evaluate(axe+"\n;0", nil),
		chromedp.Evaluate(`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations))`, &out,
			func(p *runtime.EvaluateParams) *runtime.EvaluateParams { return p.WithAwaitPromise(true) }),
	)
	if err != nil {
		return nil, err
	}
	var vs []violation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		return nil, fmt.Errorf("axe-core's results: %w", err)
	}
	return vs, nil
}

// findings maps a violation to one finding per node, at the line where
// the node's markup is found in content (0 when it is not).
func (v violation) findings(file string, content string, seen *located) []check.Finding {
	id := "a11y/axe-" + v.ID
	if !knownAxe()[v.ID] {
		return nil
	}
	sev := check.Warning
	if v.Impact == "critical" || v.Impact == "serious" {
		sev = check.Error
	}
	var out []check.Finding
	for _, n := range v.Nodes {
		var t any
		_ = json.Unmarshal(n.Target, &t)
		target := strings.Join(flatten(t), " ")
		line, col := seen.locate(content, n.HTML)
		out = append(out, check.Finding{Rule: id, Severity: sev, File: file, Line: line, Col: col,
			Message: fmt.Sprintf("%s (axe-core %s, %s): %s", strings.TrimSuffix(v.Help, "."), v.ID, cmpOr(v.Impact, "minor"), target),
			Fix:     strings.ReplaceAll(strings.TrimSpace(n.FailureSummary), "\n", " ")})
	}
	return out
}

var knownAxe = sync.OnceValue(func() map[string]bool {
	return func() map[string]bool {
		m := map[string]bool{}
		for _, id := range axeRuleIDs {
			m[id] = true
		}
		return m
	}()
})

// flatten turns axe-core's target (selectors, nested for frames and
// shadow roots) into strings.
func flatten(t any) []string {
	switch v := t.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, e := range v {
			out = append(out, flatten(e)...)
		}
		return out
	}
	return nil
}

// located remembers, per start tag, where the last node with that markup
// was found, so two identical elements are found at their own lines.
type located struct{ next map[string]int }

// locate finds a node's markup, as the browser serialized it, in the
// file: its start tag as written (the next occurrence after the last one
// found), else its id, else its first long attribute value. 0, 0 when none
// is found.
func (l *located) locate(s string, outer string) (int, int) {
	if len(s) == 0 || outer == "" {
		return 0, 0
	}
	open := outer
	if i := strings.IndexByte(open, '>'); i >= 0 {
		open = open[:i+1]
	}
	from := l.next[open]
	at := strings.Index(s[from:], open)
	if at >= 0 {
		at += from
		l.next[open] = at + 1
	} else if at = strings.Index(s, open); at >= 0 {
		l.next[open] = at + 1
	}
	if at < 0 {
		for _, attr := range []string{`id="`, `href="`, `src="`, `name="`, `class="`} {
			i := strings.Index(open, attr)
			if i < 0 {
				continue
			}
			v := open[i+len(attr):]
			v, _, _ = strings.Cut(v, `"`)
			if len(v) < 2 {
				continue
			}
			if j := strings.Index(s, v); j >= 0 && strings.Count(s, v) == 1 {
				at = strings.LastIndexByte(s[:j], '<')
				break
			}
		}
	}
	if at < 0 {
		return 0, 0
	}
	line := 1 + strings.Count(s[:at], "\n")
	col := at - strings.LastIndexByte(s[:at], '\n')
	return line, col
}

// sameAs maps axe-core's rules to the markup rules that find the same
// thing, so a rendered audit does not repeat a finding.
var sameAs = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"image-alt": ruleImageAlt, "input-image-alt": ruleImageAlt, "area-alt": ruleImageAlt, "label": ruleInputLabel,
		"select-name": ruleInputLabel, "html-has-lang": ruleHTMLLang, "html-lang-valid": ruleLangValid,
		"heading-order": ruleHeadingOrder, "empty-heading": ruleEmptyHeading, "link-name": ruleLinkName,
		"button-name": ruleButtonName, "input-button-name": ruleButtonName, "aria-roles": ruleAriaRoles,
		"aria-valid-attr": ruleAriaValidAttr, "aria-valid-attr-value": ruleAriaAttrValue, "aria-allowed-attr": ruleAriaAllowed,
		"duplicate-id": ruleDuplicateID, "duplicate-id-aria": ruleDuplicateIDRef, "color-contrast": ruleContrast,
		"tabindex": ruleTabindex, "document-title": ruleDocTitle, "autocomplete-valid": ruleAutocomplete,
	}
})

// dedupeAxe drops the axe-core findings a markup rule already reported at
// the same line.
func dedupeAxe(static, axe []check.Finding) []check.Finding {
	type key struct {
		file, rule string
		line       int
	}
	have := map[key]bool{}
	for _, f := range static {
		have[key{f.File, f.Rule, f.Line}] = true
	}
	var out []check.Finding
	for _, f := range axe {
		if r, ok := sameAs()[strings.TrimPrefix(f.Rule, "a11y/axe-")]; ok && f.Line > 0 && have[key{f.File, r, f.Line}] {
			continue
		}
		out = append(out, f)
	}
	return out
}
