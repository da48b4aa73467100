// Package perf is the "perf" checker (tool audit_performance): what is
// known to cost in a project's assets and code, by the stack the project
// has.
//
// What is checked, on what:
//   - Assets: JavaScript bundles and CSS (gzip size, measured with
//     compress/gzip at the default level, as a server sends them), images
//     and fonts (raw size: they are compressed already) against budgets;
//     and built JavaScript or CSS (under dist/, build/, out/, public/,
//     static/, or named *.bundle.js, *.min.js, *.chunk.js) that is not
//     minified, by two measures taken on real minified and unminified
//     builds (jQuery, React DOM, Chart.js, Font Awesome): minified files
//     have under 3% whitespace and lines of hundreds of characters,
//     unminified ones 15-33% whitespace and lines of 16-36.
//   - Go (go/parser, go/ast): regexp.MustCompile/Compile of a constant
//     pattern inside a loop or an HTTP handler (compiled on every
//     iteration or request); defer inside a loop (runs at function exit,
//     piling up); += on a string inside a loop (quadratic copying);
//     time.After in a select inside a loop (a timer per iteration, leaked
//     until it fires before Go 1.23).
//   - JavaScript (github.com/tdewolff/parse/v2/js, ES2020+): synchronous
//     fs and child_process calls inside a request handler (app.get(…),
//     router.post(…), http.createServer(…)), which block every other
//     request; await inside a loop (sequential where Promise.all would
//     overlap).
//
// The stack is read the way Cairn's detect_project reads it: go.mod for
// Go, package.json for JavaScript (TypeScript is not parsed: the JS parser
// reads JavaScript only). Notes say what was checked ("checked: 12
// images, 3 bundles, 40 Go files") and the budgets applied.
//
// Build output is usually gitignored and the project walk respects
// .gitignore: the bundles a package.json's main, module and browser
// fields, or a Vite or Create React App manifest, name are read through
// the project's Source whether ignored or not; other built files are
// measured when their path is named.
//
// Params (sizes in KB, 1 KB = 1024 bytes):
//   - js_budget: a JavaScript file's gzip size (default 250).
//   - css_budget: a stylesheet's gzip size (default 100).
//   - image_budget: an image's size (default 200).
//   - font_budget: a font's size (default 100).
//
// Not checked: what only running shows (render time, memory), CSS and
// images that are not files (inline data: URIs), Python and other
// languages, TypeScript and JSX sources.
package perf

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
)

// Checker is the performance checker.
type Checker struct{}

// New returns the performance checker.
func New() *Checker { return &Checker{} }

// Name is "perf".
func (*Checker) Name() string { return "perf" }

// Rule ids.
const (
	ruleJSSize        = "perf/js-bundle-size"
	ruleCSSSize       = "perf/css-size"
	ruleImageSize     = "perf/image-size"
	ruleFontSize      = "perf/font-size"
	ruleUnminified    = "perf/unminified-asset"
	ruleRegexpLoop    = "perf/go-regexp-in-loop"
	ruleRegexpHandler = "perf/go-regexp-in-handler"
	ruleDeferLoop     = "perf/go-defer-in-loop"
	ruleConcatLoop    = "perf/go-string-concat-in-loop"
	ruleTimeAfterLoop = "perf/go-time-after-in-loop"
	ruleSyncInHandler = "perf/js-sync-io-in-handler"
	ruleAwaitInLoop   = "perf/js-await-in-loop"
	ruleSyntax        = "perf/syntax"
)

var rules = []check.Rule{
	{ID: ruleJSSize, Severity: check.Warning, Title: "JavaScript bundle over budget",
		Why: "Every kilobyte of JavaScript is downloaded, parsed and compiled before the page responds; on a mid-range phone 250 KB gzipped is seconds of main-thread work.",
		Fix: "Split the bundle (dynamic import() per route), drop or replace heavy dependencies, tree-shake; or raise js_budget if the size is deliberate.",
		Bad: "dist/app.js: 910 KB gzipped", Good: "dist/app.js: 140 KB, dist/admin.js loaded on /admin only", Link: "https://web.dev/articles/performance-budgets-101"},
	{ID: ruleCSSSize, Severity: check.Warning, Title: "stylesheet over budget",
		Why: "CSS blocks rendering: nothing is painted until every stylesheet in <head> is downloaded and parsed.",
		Fix: "Remove unused rules (PurgeCSS, Tailwind's content config), split per page, inline the critical CSS; or raise css_budget.",
		Bad: "dist/site.css: 300 KB gzipped", Good: "dist/site.css: 40 KB gzipped", Link: "https://web.dev/articles/performance-budgets-101"},
	{ID: ruleImageSize, Severity: check.Warning, Title: "image over budget",
		Why: "Images are most of a page's bytes; an oversized one delays the largest contentful paint.",
		Fix: "Resize to the size shown, compress, serve WebP or AVIF, lazy-load below the fold; or raise image_budget.",
		Bad: "public/hero.png: 2.4 MB", Good: "public/hero.avif: 120 KB", Link: "https://web.dev/articles/fast#optimize_your_images"},
	{ID: ruleFontSize, Severity: check.Warning, Title: "font over budget",
		Why: "Text waits for web fonts (or flashes when they arrive); a large font file is usually a TTF or OTF where WOFF2 would be a third of it, or a full character set where a subset would do.",
		Fix: "Serve WOFF2, subset to the scripts the site uses; or raise font_budget.",
		Bad: "static/fonts/Inter.ttf: 800 KB", Good: "static/fonts/Inter-latin.woff2: 48 KB", Link: "https://web.dev/articles/reduce-webfont-size"},
	{ID: ruleUnminified, Severity: check.Warning, Title: "built asset not minified",
		Why: "A built JavaScript or CSS file with its whitespace and comments still in is commonly 2-4 times the size of its minified form, and slower to parse.",
		Fix: "Build for production (NODE_ENV=production, vite build, webpack --mode production), or minify the file (esbuild --minify, terser, lightningcss).",
		Bad: "dist/app.js: 24% whitespace, lines of 30 characters", Good: "dist/app.js: 2% whitespace, minified", Link: "https://developer.mozilla.org/en-US/docs/Glossary/Minification"},
	{ID: ruleRegexpLoop, Severity: check.Warning, Title: "regexp compiled in a loop",
		Why: "regexp.MustCompile parses and compiles the pattern each time it runs; inside a loop a constant pattern is compiled on every iteration.",
		Fix: "Compile it once, in a package-level var (or sync.OnceValue), and reuse it.",
		Bad: "for _, l := range lines {\n\tif regexp.MustCompile(`^\\d+$`).MatchString(l) {", Good: "var digits = regexp.MustCompile(`^\\d+$`)\n\nfor _, l := range lines {\n\tif digits.MatchString(l) {", Link: "https://pkg.go.dev/regexp#MustCompile"},
	{ID: ruleRegexpHandler, Severity: check.Warning, Title: "regexp compiled per request",
		Why: "A constant pattern compiled inside an HTTP handler is compiled on every request.",
		Fix: "Compile it once, in a package-level var, and reuse it in the handler.",
		Bad: "func search(w http.ResponseWriter, r *http.Request) {\n\tre := regexp.MustCompile(`[a-z]+`)", Good: "var word = regexp.MustCompile(`[a-z]+`)\n\nfunc search(w http.ResponseWriter, r *http.Request) {", Link: "https://pkg.go.dev/regexp#MustCompile"},
	{ID: ruleDeferLoop, Severity: check.Warning, Title: "defer in a loop",
		Why: "A deferred call runs when the function returns, not at the end of the iteration: files opened in a loop stay open until then, and the deferred calls pile up.",
		Fix: "Move the loop body into a function (so defer runs per iteration), or close explicitly at the end of the iteration.",
		Bad: "for _, p := range paths {\n\tf, _ := os.Open(p)\n\tdefer f.Close()", Good: "for _, p := range paths {\n\tif err := process(p); err != nil {", Link: "https://go.dev/ref/spec#Defer_statements"},
	{ID: ruleConcatLoop, Severity: check.Warning, Title: "string built with += in a loop",
		Why: "Go strings are immutable: s += x copies s each time, so building a string in a loop is quadratic in its length.",
		Fix: "Use a strings.Builder (or bytes.Buffer), or strings.Join.",
		Bad: "for _, w := range words {\n\ts += w + \" \"", Good: "var b strings.Builder\nfor _, w := range words {\n\tb.WriteString(w)", Link: "https://pkg.go.dev/strings#Builder"},
	{ID: ruleTimeAfterLoop, Severity: check.Warning, Title: "time.After in a loop",
		Why: "time.After makes a new timer each time the select runs; before Go 1.23 none is freed until it fires, so a busy loop with a long timeout leaks timers.",
		Fix: "Create one time.Timer (or time.NewTicker) outside the loop and Reset it, or use a context with a deadline.",
		Bad: "for {\n\tselect {\n\tcase m := <-ch:\n\tcase <-time.After(time.Minute):", Good: "t := time.NewTimer(time.Minute)\nfor {\n\tselect {\n\tcase m := <-ch:\n\tcase <-t.C:", Link: "https://pkg.go.dev/time#After"},
	{ID: ruleSyncInHandler, Severity: check.Warning, Title: "synchronous I/O in a request handler",
		Why: "Node runs handlers on one thread: fs.readFileSync or execSync in a handler blocks every other request until it returns.",
		Fix: "Use the promise API (await fs.promises.readFile, util.promisify(exec)), or read the file once at start-up.",
		Bad: "app.get('/config', (req, res) => {\n  res.send(fs.readFileSync('config.json'))", Good: "app.get('/config', async (req, res) => {\n  res.send(await fs.promises.readFile('config.json'))", Link: "https://nodejs.org/en/learn/asynchronous-work/overview-of-blocking-vs-non-blocking"},
	{ID: ruleAwaitInLoop, Severity: check.Warning, Title: "await in a loop",
		Why: "Awaiting inside a loop runs the operations one after another; independent ones could overlap. ESLint: no-await-in-loop.",
		Fix: "Start them all and await Promise.all(items.map(async item => …)); keep the loop when each step needs the previous one.",
		Bad: "for (const id of ids) {\n  users.push(await fetchUser(id))\n}", Good: "const users = await Promise.all(ids.map(fetchUser))", Link: "https://eslint.org/docs/latest/rules/no-await-in-loop"},
	{ID: ruleSyntax, Severity: check.Info, Title: "file not parsed",
		Why: "A file the parser could not read was not checked for the patterns (a syntax error, or syntax the parser does not know: Flow types, a proposal).",
		Fix: "Fix the syntax error if there is one; otherwise nothing to do.",
		Bad: "function (", Good: "function f() {}"},
}

// Rules lists every rule.
func (*Checker) Rules() []check.Rule { return rules }

// Wants takes the files whose content is checked: Go, JavaScript, CSS and
// the manifests that say the stack. Images and fonts are binary, which the
// walk does not hand over: Check measures them through the Source.
func (*Checker) Wants(p string, head []byte) bool {
	base := path.Base(p)
	switch base {
	case "go.mod", "package.json":
		return true
	}
	switch strings.ToLower(path.Ext(base)) {
	case ".go", ".js", ".mjs", ".cjs", ".css":
		return true
	}
	return false
}

// budgets are the size budgets, in bytes.
type budgets struct{ js, css, image, font int }

func readParams(p map[string]string) (budgets, error) {
	b := budgets{js: 250 << 10, css: 100 << 10, image: 200 << 10, font: 100 << 10}
	for k, v := range p {
		var dst *int
		switch k {
		case "js_budget":
			dst = &b.js
		case "css_budget":
			dst = &b.css
		case "image_budget":
			dst = &b.image
		case "font_budget":
			dst = &b.font
		default:
			return b, &problem.FieldError{Field: k, Problem: "is not a param of audit_performance", Fix: "use js_budget, css_budget, image_budget or font_budget (KB)"}
		}
		n, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(v)), "KB")))
		if err != nil || n <= 0 || n > 1<<20 {
			return b, &problem.FieldError{Field: k, Problem: problem.Quote(v) + " is not a size in KB", Fix: "give a whole number of kilobytes, e.g. 250"}
		}
		*dst = n << 10
	}
	return b, nil
}

// Check measures in's files and the project's assets.
func (c *Checker) Check(ctx context.Context, in *check.Input) (check.Result, error) {
	b, err := readParams(in.Params)
	if err != nil {
		return check.Result{}, err
	}
	var res check.Result
	var stack []string
	hasGoMod, hasPkg := false, false
	for _, f := range in.Files {
		switch path.Base(f.Path) {
		case "go.mod":
			hasGoMod = true
		case "package.json":
			hasPkg = true
		}
	}
	if in.Source != nil {
		hasGoMod = hasGoMod || in.Source.Exists("go.mod")
		hasPkg = hasPkg || in.Source.Exists("package.json")
	}
	goVersion := ""
	if hasGoMod {
		stack = append(stack, "Go (go.mod)")
		goVersion = readGoVersion(in)
	}
	if hasPkg {
		stack = append(stack, "JavaScript (package.json)")
	}
	a := &assets{b: b}
	goFiles, jsFiles, tsSkipped := 0, 0, 0
	for _, f := range in.Files {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		ext := strings.ToLower(path.Ext(f.Path))
		switch ext {
		case ".go":
			if strings.HasSuffix(f.Path, "_test.go") {
				continue
			}
			goFiles++
			res.Findings = append(res.Findings, checkGo(f, goVersion)...)
		case ".js", ".mjs", ".cjs":
			a.text(f, &res)
			if built(f.Path) || isMinifiedName(f.Path) || looksMinified(f.Content) {
				continue // a bundle is measured, not read for source patterns
			}
			jsFiles++
			res.Findings = append(res.Findings, checkJS(f)...)
		case ".css":
			a.text(f, &res)
		}
	}
	if in.Source != nil {
		a.project(ctx, in, &res)
		if files, err := in.Source.Files(""); err == nil {
			for _, p := range files {
				if (strings.HasSuffix(p, ".ts") || strings.HasSuffix(p, ".tsx")) && !strings.HasSuffix(p, ".d.ts") {
					tsSkipped++
				}
			}
		}
	}
	if len(stack) == 0 {
		stack = append(stack, "no go.mod or package.json")
	}
	res.Notes = append(res.Notes,
		fmt.Sprintf("perf: stack %s; checked: %d images, %d fonts, %d JavaScript bundles and files, %d stylesheets, %d Go files, %d JavaScript sources for patterns%s",
			strings.Join(stack, ", "), a.images, a.fonts, a.js, a.css, goFiles, jsFiles, tsNote(tsSkipped)),
		fmt.Sprintf("perf: budgets: JavaScript %d KB and CSS %d KB gzipped (compress/gzip, default level), images %d KB and fonts %d KB as stored",
			b.js>>10, b.css>>10, b.image>>10, b.font>>10))
	res.Notes = append(res.Notes, a.notes...)
	slices.SortFunc(res.Findings, func(x, y check.Finding) int { return strings.Compare(x.File, y.File) })
	return res, nil
}

func tsNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d TypeScript files not parsed)", n)
}

// readGoVersion reads the go directive of the root go.mod.
func readGoVersion(in *check.Input) string {
	var b []byte
	for _, f := range in.Files {
		if f.Path == "go.mod" {
			b = f.Content
		}
	}
	if b == nil && in.Source != nil {
		b, _ = in.Source.ReadFile("go.mod")
	}
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		if f := strings.Fields(string(line)); len(f) == 2 && f[0] == "go" {
			return f[1]
		}
	}
	return ""
}
