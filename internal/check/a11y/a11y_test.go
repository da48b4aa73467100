package a11y

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

func TestRules(t *testing.T) { checktest.Rules(t, New()) }

// TestCorpus runs the markup rules (render=off) over the hand-written
// corpus: no error on valid files, every seeded defect found at its line.
func TestCorpus(t *testing.T) {
	tally := checktest.Corpus(t, New(), "testdata/corpus", map[string]string{"render": "off"})
	t.Log(tally)
	wants, err := checktest.ReadWants("testdata/corpus/defects/want.txt")
	if err != nil {
		t.Fatal(err)
	}
	seeded := map[string]bool{}
	for _, w := range wants {
		seeded[w.Rule] = true
	}
	for _, r := range staticRules {
		if !seeded[r.ID] {
			t.Errorf("rule %s has no seeded defect", r.ID)
		}
	}
}

// TestValidHasNoFindings: the hand-written valid files (templates of six
// engines among them) give no finding at all, warnings included.
func TestValidHasNoFindings(t *testing.T) {
	rep := run(t, "testdata/corpus/valid", map[string]string{"render": "off"})
	for _, f := range rep.Findings {
		t.Errorf("valid file: %s", f)
	}
	if rep.Files != 7 {
		t.Errorf("%d files checked, want 7 (every template kind wanted)", rep.Files)
	}
}

func run(t *testing.T, root string, params map[string]string) *check.Report {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root,
		Params: map[string]map[string]string{"a11y": params}})
	if err != nil {
		t.Fatal(err)
	}
	checktest.Declared(t, New(), rep.Findings)
	return rep
}

// TestExternal runs the markup rules over real HTML and templates nobody
// here wrote (html5-boilerplate, GOV.UK Frontend's 290 rendered component
// examples and its Nunjucks templates, reveal.js, axe-core's package): every
// error must be one of the reviewed true findings in known-external.txt.
func TestExternal(t *testing.T) {
	known := map[string]bool{}
	f, err := os.Open("testdata/known-external.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			known[l] = true
		}
	}
	files, errs, warns, found := 0, 0, 0, 0
	for _, pkg := range []string{"html5-boilerplate", "govuk-frontend", "reveal.js", "axe-core"} {
		dir := checktest.External(t, pkg)
		rep := run(t, dir, map[string]string{"render": "off"})
		files += rep.Files
		for _, fd := range rep.Findings {
			switch fd.Severity {
			case check.Error:
				errs++
				key := fmt.Sprintf("%s/%s %s %d", pkg, fd.File, fd.Rule, fd.Line)
				if known[key] {
					found++
					continue
				}
				t.Errorf("external error not among the reviewed ones: %s/%s", pkg, fd)
			case check.Warning:
				warns++
			}
		}
	}
	t.Logf("external: %d files, %d errors (%d reviewed true), %d warnings", files, errs, found, warns)
	if found != len(known) {
		t.Errorf("found %d of the %d reviewed external findings", found, len(known))
	}
}

// TestTemplates: template actions neither hide a defect nor make one.
func TestTemplates(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		want            []string // rules found
	}{
		{"go alt from data", "a.gohtml", `<img src="x.png" alt="{{.Alt}}">`, nil},
		{"go alt inside if", "a.gohtml", `<img src="x.png" {{if .A}}alt="{{.A}}"{{end}}>`, nil},
		{"go unquoted alt", "a.gohtml", `<img src=x.png alt={{.Alt}} class=pic>`, nil},
		{"go attrs from data", "a.gohtml", `<img src="x.png" {{.Attrs}}>`, nil},
		{"go missing alt", "a.gohtml", `{{range .}}<img src="{{.}}">{{end}}`, []string{ruleImageAlt}},
		{"go link text from data", "a.gohtml", `<a href="/x">{{.Name}}</a>`, nil},
		{"go link empty", "a.gohtml", `<a href="/x">{{/* nothing */}}</a>`, []string{ruleLinkName}},
		{"jinja label", "a.j2", `<label for="{{ id }}">Name</label><input id="{{ id }}">`, nil},
		{"jinja control is no text", "a.j2", `<button>{% if x %}{% endif %}</button>`, []string{ruleButtonName}},
		{"erb output", "a.erb", `<a href="/"><%= t("home") %></a>`, nil},
		{"erb comment", "a.erb", `<a href="/"><%# nothing %></a>`, []string{ruleLinkName}},
		{"vue bound alt", "a.vue", `<template><img :src="s" :alt="a"></template>`, nil},
		{"vue script ignored", "a.vue", "<script>const x = '<img src=y>'</script>\n<template><p>Hi</p></template>", nil},
		{"svelte braces", "a.svelte", `<img src={s} alt={a}><a href="/">{label}</a>`, nil},
		{"handlebars block", "a.hbs", `<a href="/">{{#if a}}A{{else}}B{{/if}}</a>`, nil},
		{"duplicate ids in branches", "a.gohtml", `{{if .A}}<div id="x">a</div>{{else}}<div id="x">b</div>{{end}}`, nil},
		{"duplicate ids without branches", "a.html", `<div id="x">a</div><div id="x">b</div>`, []string{ruleDuplicateID}},
		{"aria value from data", "a.gohtml", `<button aria-expanded="{{.Open}}">Menu</button>`, nil},
		{"angular binding", "a.html", `<img src="x" [alt]="alt">`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range audit(tc.file, parse(tc.file, []byte(tc.src))) {
				got = append(got, f.Rule)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPositions: findings are at the original file's line and column,
// after template actions of other lengths and over several lines.
func TestPositions(t *testing.T) {
	src := "{{define \"x\"}}\n{{ if .A }}\n  <p>{{.Long.Chain.Of.Fields}}</p> <img\n    src=\"a.png\">\n{{end}}"
	fs := audit("a.gohtml", parse("a.gohtml", []byte(src)))
	if len(fs) != 1 || fs[0].Line != 3 || fs[0].Col != 36 {
		t.Errorf("findings %v, want one at 3:36", fs)
	}
}

func TestContrast(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"#000", "#fff", 21},
		{"#777777", "white", 4.48},
		{"rgb(118, 118, 118)", "#ffffff", 4.54},
		{"hsl(0, 0%, 0%)", "hsl(0, 0%, 100%)", 21},
		{"#0b0c0c", "#ffdd00", 14.55},
	} {
		a, ok1 := parseColor(tc.a)
		b, ok2 := parseColor(tc.b)
		if !ok1 || !ok2 {
			t.Fatalf("parseColor(%q, %q) failed", tc.a, tc.b)
		}
		if got := contrast(a, b); math.Abs(got-tc.want) > 0.02 {
			t.Errorf("contrast(%s, %s) = %.3f, want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
	for _, s := range []string{"var(--x)", "currentColor", "rgba(0,0,0,.5)", "#12345", "transparent"} {
		if _, ok := parseColor(s); ok {
			t.Errorf("parseColor(%q) judged a color it cannot know", s)
		}
	}
}

func TestValidLangAndAutocomplete(t *testing.T) {
	for _, l := range []string{"en", "en-GB", "pt-BR", "zh-Hant-TW", "sr-Latn", "es-419", "x-klingon", "de-CH-1996"} {
		if !validLang(l) {
			t.Errorf("validLang(%q) = false", l)
		}
	}
	for _, l := range []string{"en_US", "english", "e", "en-", "12"} {
		if validLang(l) {
			t.Errorf("validLang(%q) = true", l)
		}
	}
	for _, v := range []string{"on", "off", "email", "shipping postal-code", "section-a billing street-address", "work tel", "username webauthn"} {
		if !validAutocomplete(v) {
			t.Errorf("validAutocomplete(%q) = false", v)
		}
	}
	for _, v := range []string{"phone", "work name", "email home", "nope"} {
		if validAutocomplete(v) {
			t.Errorf("validAutocomplete(%q) = true", v)
		}
	}
}

func TestParams(t *testing.T) {
	for _, p := range []map[string]string{
		{"render": "always"}, {"url": "http://example.com/"}, {"url": "ftp://127.0.0.1/"}, {"max_render": "-1"}, {"colour": "x"},
	} {
		if _, err := New().Check(context.Background(), &check.Input{Params: p}); err == nil {
			t.Errorf("params %v accepted", p)
		}
	}
	for _, u := range []string{"http://127.0.0.1:8080/", "http://localhost:3000/x", "https://[::1]/"} {
		if err := loopbackURL(u); err != nil {
			t.Errorf("loopbackURL(%q): %v", u, err)
		}
	}
}

// TestRenderedAudit runs axe-core in headless Chromium over a seeded page:
// its violations become a11y/axe-* findings at the element's line, and
// those a markup rule already reported at that line are not repeated.
// Without Chromium it skips, except under CI=true.
func TestRenderedAudit(t *testing.T) {
	if _, why := findChrome(""); why != "" {
		if os.Getenv("CI") == "true" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	axe := filepath.Join(checktest.External(t, "axe-core"), "axe.min.js")
	dir := t.TempDir()
	page := `<!doctype html>
<html lang="en">
<head><title>Rendered</title>
<link rel="stylesheet" href="css/site.css"></head>
<body><main>
<h1>Rendered</h1>
<p class="faint">Low contrast from a stylesheet.</p>
<img src="a.png">
<ul><div>not a list item</div></ul>
</main></body></html>
`
	must(t, os.MkdirAll(filepath.Join(dir, "css"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte(page), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "css/site.css"), []byte(".faint { color: #bbb; background: #fff; }"), 0o644))
	start := time.Now()
	rep := run(t, dir, map[string]string{"axe": axe, "render": "required"})
	t.Logf("rendered audit in %v: %v", time.Since(start), rep.Notes)
	got := map[string]int{}
	for _, f := range rep.Findings {
		got[f.Rule] = f.Line
	}
	for rule, line := range map[string]int{
		"a11y/axe-color-contrast": 7, // from the stylesheet: the markup rules cannot see it
		"a11y/axe-list":           9,
		ruleImageAlt:              8, // the markup rule; axe's image-alt at that line is dropped
	} {
		if got[rule] != line {
			t.Errorf("%s at line %d, want %d; findings: %v", rule, got[rule], line, rep.Findings)
		}
	}
	if _, ok := got["a11y/axe-image-alt"]; ok {
		t.Errorf("axe-core's image-alt repeats the markup rule's finding")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestNoChromeNote: without a browser the audit says so in a note.
func TestNoChromeNote(t *testing.T) {
	dir := t.TempDir()
	must(t, os.WriteFile(filepath.Join(dir, "a.html"), []byte("<p>x</p>"), 0o644))
	rep := run(t, dir, map[string]string{"chrome": "/nonexistent/chromium"})
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "did not run: the chrome param") {
		t.Errorf("notes: %v", rep.Notes)
	}
	if _, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: dir,
		Params: map[string]map[string]string{"a11y": {"chrome": "/nonexistent/chromium", "render": "required"}}}); err == nil {
		t.Error("render=required without a browser should fail")
	}
}

// TestHostileInput: deep nesting, unclosed tags, huge attributes and
// unterminated template actions stay fast.
func TestHostileInput(t *testing.T) {
	for name, src := range map[string]string{
		"deep":        strings.Repeat("<div>", 200000),
		"unclosed":    strings.Repeat("<a href=x><button><h2>", 50000),
		"attrs":       "<img " + strings.Repeat(`aria-x="1" `, 80000) + ">",
		"actions":     strings.Repeat("{{ ", 300000),
		"erb":         strings.Repeat("<%", 400000),
		"ids":         strings.Repeat(`<p id="a">x</p>`, 60000),
		"style chain": strings.Repeat(`<span style="color:#777">`, 60000) + "text",
	} {
		start := time.Now()
		audit("x.gohtml", parse("x.gohtml", []byte(src)))
		t.Logf("%s: %v", name, time.Since(start))
		if d := time.Since(start); d > slowdown*30*time.Second { // a hang or a blow-up, not a speed budget
			t.Errorf("%s: %v for %d bytes", name, d, len(src))
		}
	}
}

func FuzzAudit(f *testing.F) {
	f.Add("a.html", `<html lang="en"><title>x</title><img src=a><a href="/"></a></html>`)
	f.Add("a.gohtml", `<img {{if .A}}alt="{{.A}}"{{end}} src="{{.S}}">`)
	f.Add("a.vue", `<template><img :alt="a"></template>`)
	f.Add("a.svelte", `{#each xs as x}<img src={x}>{/each}`)
	f.Add("a.erb", `<a href="<%= u %>"><%= t %></a>`)
	f.Fuzz(func(t *testing.T, name, src string) {
		for _, fd := range audit(name, parse(name, []byte(src))) {
			if fd.Line < 1 || fd.Col < 1 {
				t.Fatalf("bad position: %+v", fd)
			}
		}
	})
}

// BenchmarkAudit: a typical page, a 1 MiB page, and the tokenizer alone
// on the same input as the baseline.
func BenchmarkAudit(b *testing.B) {
	typical, err := os.ReadFile("testdata/corpus/valid/index.html")
	if err != nil {
		b.Fatal(err)
	}
	large := []byte(strings.Repeat(string(typical), 1<<20/len(typical)))
	for _, in := range []struct {
		name string
		src  []byte
	}{{"typical", typical}, {"large-1MiB", large}} {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				audit("a.html", parse("a.html", in.src))
			}
		})
		b.Run(in.name+"-tokenizer-only", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				tokenizeOnly(in.src)
			}
		})
	}
}

// tokenizeOnly is the baseline: x/net/html's tokenizer over the input,
// nothing built.
func tokenizeOnly(src []byte) {
	z := newTokenizer(src)
	for z.Next() != 0 {
		z.Raw()
	}
}

var _ = exec.LookPath
