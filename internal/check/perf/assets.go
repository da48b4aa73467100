package perf

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/cairn-dev/cairn/internal/check"
)

var imageExt = map[string]bool{".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".avif": true,
	".bmp": true, ".tif": true, ".tiff": true, ".svg": true, ".ico": false}

var fontExt = map[string]bool{".woff": true, ".woff2": true, ".ttf": true, ".otf": true, ".eot": true}

// outputDirs are the directories build tools write to.
var outputDirs = map[string]bool{"dist": true, "build": true, "out": true, "public": true, "static": true, "www": true, "_site": true}

// built reports whether p is build output: under an output directory or
// named like a bundle.
func built(p string) bool {
	for _, d := range strings.Split(path.Dir(p), "/") {
		if outputDirs[d] {
			return true
		}
	}
	base := path.Base(p)
	return strings.Contains(base, ".bundle.") || strings.Contains(base, ".chunk.") || isMinifiedName(p)
}

func isMinifiedName(p string) bool {
	base := path.Base(p)
	return strings.Contains(base, ".min.") || strings.HasSuffix(base, "-min.js")
}

// assets measures what the budgets cover.
type assets struct {
	b                      budgets
	images, fonts, js, css int
	seen                   map[string]bool
	notes                  []string
}

// maxAssets bounds how many files of the project are measured.
const maxAssets = 5000

// gzipSize is the size of b gzipped at the default level, as a server
// compresses it.
func gzipSize(b []byte) int {
	var n countWriter
	w := gzip.NewWriter(&n)
	_, _ = w.Write(b)
	_ = w.Close()
	return int(n)
}

type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

var _ io.Writer = (*countWriter)(nil)

// minStats are the two measures that tell a minified file: the share of
// whitespace bytes and the mean line length.
func minStats(b []byte) (ws float64, meanLine float64) {
	n := 0
	for _, c := range b {
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			n++
		}
	}
	lines := bytes.Count(b, []byte("\n")) + 1
	return float64(n) / float64(max(len(b), 1)), float64(len(b)) / float64(lines)
}

// Thresholds between minified and not, from real builds (see the package
// doc and TestMinifiedThresholds): minified ≤ 2.5% whitespace and lines ≥
// 400 characters; unminified ≥ 14.8% and ≤ 36.
const (
	unminifiedWhitespace = 0.10
	unminifiedMeanLine   = 100
	minifyMinSize        = 2048
)

func looksMinified(b []byte) bool {
	if len(b) < minifyMinSize {
		return false
	}
	ws, ml := minStats(b)
	return ws < 0.05 && ml > 300
}

func unminified(b []byte) (bool, float64, float64) {
	if len(b) < minifyMinSize {
		return false, 0, 0
	}
	ws, ml := minStats(b)
	return ws > unminifiedWhitespace && ml < unminifiedMeanLine, ws, ml
}

// text measures a JavaScript or CSS file given with its content.
func (a *assets) text(f check.File, res *check.Result) {
	if a.seen == nil {
		a.seen = map[string]bool{}
	}
	a.seen[f.Path] = true
	isCSS := strings.HasSuffix(strings.ToLower(f.Path), ".css")
	rule, budget, kind := ruleJSSize, a.b.js, "JavaScript file"
	if isCSS {
		rule, budget, kind = ruleCSSSize, a.b.css, "stylesheet"
		a.css++
	} else {
		a.js++
	}
	if gz := gzipSize(f.Content); gz > budget {
		res.Findings = append(res.Findings, check.Finding{Rule: rule, File: f.Path,
			Message: fmt.Sprintf("The %s %s is %s gzipped (%s raw), over the %s budget", kind, f.Path, kb(gz), kb(len(f.Content)), kb(budget)),
			Fix:     rules[ruleIndex(rule)].Fix})
	}
	if built(f.Path) {
		if ok, ws, ml := unminified(f.Content); ok {
			res.Findings = append(res.Findings, check.Finding{Rule: ruleUnminified, File: f.Path,
				Message: fmt.Sprintf("The built file %s is not minified: %.0f%% whitespace, lines of %.0f characters on average", f.Path, ws*100, ml),
				Fix:     rules[ruleIndex(ruleUnminified)].Fix})
		}
	}
}

func ruleIndex(id string) int {
	for i, r := range rules {
		if r.ID == id {
			return i
		}
	}
	return 0
}

func kb(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KB", (n+512)>>10)
}

// size reads a project file's size through the Source (which enforces the
// root and the size cap); over the cap the error says the size. content
// is nil over the cap.
func size(src check.Source, p string) (int, []byte, error) {
	b, err := src.ReadFile(p)
	if err == nil {
		return len(b), b, nil
	}
	if se, ok := errors.AsType[*check.SizeError](err); ok {
		return int(se.Size), nil, nil
	}
	return 0, nil, err
}

// project measures the project's images and fonts, and the bundles its
// manifests name (often in gitignored build output the walk does not
// list).
func (a *assets) project(ctx context.Context, in *check.Input, res *check.Result) {
	if a.seen == nil {
		a.seen = map[string]bool{}
	}
	files, err := in.Source.Files("")
	if err != nil {
		a.notes = append(a.notes, "perf: the project's files could not be listed: "+err.Error())
		return
	}
	measured := 0
	for _, p := range files {
		if ctx.Err() != nil || measured >= maxAssets {
			break
		}
		ext := strings.ToLower(path.Ext(p))
		var rule, kind string
		var budget int
		switch {
		case imageExt[ext]:
			rule, kind, budget = ruleImageSize, "image", a.b.image
			a.images++
		case fontExt[ext]:
			rule, kind, budget = ruleFontSize, "font", a.b.font
			a.fonts++
		default:
			continue
		}
		measured++
		n, _, err := size(in.Source, p)
		if err != nil {
			continue
		}
		if n > budget {
			res.Findings = append(res.Findings, check.Finding{Rule: rule, File: p,
				Message: fmt.Sprintf("The %s %s is %s, over the %s budget", kind, p, kb(n), kb(budget)),
				Fix:     rules[ruleIndex(rule)].Fix})
		}
	}
	if measured >= maxAssets {
		a.notes = append(a.notes, fmt.Sprintf("perf: stopped measuring images and fonts at %d files", maxAssets))
	}
	for _, p := range manifestBundles(in.Source) {
		if a.seen[p] {
			continue
		}
		a.seen[p] = true
		n, b, err := size(in.Source, p)
		if err != nil {
			continue
		}
		if b == nil {
			a.notes = append(a.notes, fmt.Sprintf("perf: %s is %s, over the read cap: its gzip size was not measured", p, kb(n)))
			continue
		}
		a.text(check.File{Path: p, Content: b}, res)
	}
}

// manifestBundles lists the browser bundles the project's manifests name:
// package.json's browser, unpkg and jsdelivr fields, a Vite manifest
// (dist/.vite/manifest.json, dist/manifest.json) and Create React App's
// build/asset-manifest.json.
func manifestBundles(src check.Source) []string {
	var out []string
	add := func(p string) {
		p = path.Clean(strings.TrimPrefix(p, "./"))
		p = strings.TrimPrefix(p, "/")
		if p == "." || strings.HasPrefix(p, "../") {
			return
		}
		ext := strings.ToLower(path.Ext(p))
		if ext == ".js" || ext == ".mjs" || ext == ".css" {
			out = append(out, p)
		}
	}
	if b, err := src.ReadFile("package.json"); err == nil {
		var pkg map[string]json.RawMessage
		if json.Unmarshal(b, &pkg) == nil {
			for _, k := range []string{"browser", "unpkg", "jsdelivr"} {
				var s string
				if json.Unmarshal(pkg[k], &s) == nil && s != "" {
					add(s)
				}
			}
		}
	}
	for _, m := range []string{"dist/.vite/manifest.json", "dist/manifest.json"} {
		b, err := src.ReadFile(m)
		if err != nil {
			continue
		}
		var entries map[string]struct {
			File string   `json:"file"`
			CSS  []string `json:"css"`
		}
		if json.Unmarshal(b, &entries) != nil {
			continue
		}
		for _, e := range entries {
			if e.File != "" {
				add("dist/" + e.File)
			}
			for _, c := range e.CSS {
				add("dist/" + c)
			}
		}
	}
	if b, err := src.ReadFile("build/asset-manifest.json"); err == nil {
		var m struct {
			Files map[string]string `json:"files"`
		}
		if json.Unmarshal(b, &m) == nil {
			for _, f := range m.Files {
				add("build/" + strings.TrimPrefix(f, "/"))
			}
		}
	}
	return out
}
