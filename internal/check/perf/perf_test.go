package perf

import (
	"context"
	"encoding/json"
	"fmt"
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

// small are budgets the seeded assets are over and the valid ones under.
var small = map[string]string{"js_budget": "2", "css_budget": "1", "image_budget": "1", "font_budget": "1"}

func TestRules(t *testing.T) { checktest.Rules(t, New()) }

func TestCorpus(t *testing.T) {
	tally := checktest.Corpus(t, New(), "testdata/corpus", small)
	t.Log(tally)
	wants, err := checktest.ReadWants("testdata/corpus/defects/want.txt")
	if err != nil {
		t.Fatal(err)
	}
	seeded := map[string]bool{}
	for _, w := range wants {
		seeded[w.Rule] = true
	}
	for _, r := range rules {
		if !seeded[r.ID] {
			t.Errorf("rule %s has no seeded defect", r.ID)
		}
	}
}

func run(t *testing.T, root string, params map[string]string) *check.Report {
	t.Helper()
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root,
		Params: map[string]map[string]string{"perf": params}})
	if err != nil {
		t.Fatal(err)
	}
	checktest.Declared(t, New(), rep.Findings)
	return rep
}

// TestValidHasNoFindings: the valid corpus (the good forms of every
// pattern) gives no finding at all, and the notes say what was checked.
func TestValidHasNoFindings(t *testing.T) {
	rep := run(t, "testdata/corpus/valid", small)
	for _, f := range rep.Findings {
		t.Errorf("valid file: %s", f)
	}
	notes := strings.Join(rep.Notes, "\n")
	for _, want := range []string{"stack Go (go.mod), JavaScript (package.json)", "checked: 1 images", "1 Go files", "budgets: JavaScript 2 KB"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
}

// TestMinifiedThresholds measures real builds of the same libraries,
// minified and not: the thresholds must tell every pair apart.
func TestMinifiedThresholds(t *testing.T) {
	pairs := []struct{ pkg, unmin, min string }{
		{"jquery", "dist/jquery.js", "dist/jquery.min.js"},
		{"jquery", "dist/jquery.slim.js", "dist/jquery.slim.min.js"},
		{"react-dom", "cjs/react-dom.development.js", "cjs/react-dom.production.min.js"},
		{"chart.js", "dist/chart.js", "dist/chart.umd.min.js"},
		{"font-awesome", "css/font-awesome.css", "css/font-awesome.min.css"},
	}
	for _, p := range pairs {
		dir := checktest.External(t, p.pkg)
		u, err1 := os.ReadFile(filepath.Join(dir, p.unmin))
		m, err2 := os.ReadFile(filepath.Join(dir, p.min))
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: %v %v", p.pkg, err1, err2)
		}
		uws, uml := minStats(u)
		mws, mml := minStats(m)
		t.Logf("%-40s whitespace %4.1f%% mean line %6.0f | %-36s whitespace %4.1f%% mean line %6.0f", p.unmin, uws*100, uml, p.min, mws*100, mml)
		if ok, _, _ := unminified(u); !ok {
			t.Errorf("%s/%s is unminified but not found so", p.pkg, p.unmin)
		}
		if ok, _, _ := unminified(m); ok {
			t.Errorf("%s/%s is minified but found not to be", p.pkg, p.min)
		}
	}
}

// TestExternal runs the checker over real packages: no errors (perf has
// none), and the warnings found are the unminified library builds and the
// fonts over budget, which are true.
func TestExternal(t *testing.T) {
	total := 0
	byRule := map[string]int{}
	for _, pkg := range []string{"jquery", "react-dom", "chart.js", "font-awesome", "express"} {
		rep := run(t, checktest.External(t, pkg), nil)
		total += rep.Files
		for _, f := range rep.Findings {
			byRule[f.Rule]++
			if f.Severity == check.Error {
				t.Errorf("error on a real package: %s", f)
			}
			if f.Rule == ruleSyntax {
				t.Errorf("the JS parser failed on a real file: %s", f)
			}
		}
	}
	t.Logf("external npm: %d files; findings by rule: %v", total, byRule)
	// Go modules of go.mod: the Go patterns on real code.
	goFiles, goFindings := 0, map[string]int{}
	for _, m := range []string{"github.com/chromedp/chromedp", "github.com/go-git/go-git/v5", "github.com/jackc/pgx/v5",
		"github.com/modelcontextprotocol/go-sdk", "github.com/spf13/cobra", "go.yaml.in/yaml/v3"} {
		dir, err := moduleDir(m)
		if err != nil || dir == "" {
			t.Fatalf("go list -m %s: %v", m, err)
		}
		rep := run(t, dir, nil)
		goFiles += rep.ByChecker["perf"]
		for _, f := range rep.Findings {
			if strings.HasSuffix(f.File, ".go") {
				goFindings[f.Rule]++
				if os.Getenv("PERF_VERBOSE") != "" {
					t.Log(m, f)
				}
			}
			if f.Rule == ruleSyntax && strings.HasSuffix(f.File, ".go") && !strings.Contains(f.File, "testdata") {
				t.Errorf("go/parser failed on a real file: %s", f)
			}
		}
	}
	t.Logf("external Go modules: %d files; Go pattern findings by rule: %v", goFiles, goFindings)
}

func TestGoPatterns(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"regexp in range", "for _, s := range xs { regexp.MustCompile(`a`).MatchString(s) }", []string{ruleRegexpLoop}},
		{"regexp dynamic pattern", "for _, s := range xs { regexp.MustCompile(s) }", nil},
		{"regexp in closure in loop", "for range xs { go func() { regexp.MustCompile(`a`) }() }", nil},
		{"defer in loop", "for _, s := range xs { defer println(s) }", []string{ruleDeferLoop}},
		{"defer then return", "for _, s := range xs { if s == \"\" { continue }; defer println(s); return }", nil},
		{"defer in closure in loop", "for _, s := range xs { func() { defer println(s) }() }", nil},
		{"string concat", "s := \"\"\nfor _, x := range xs { s += x }", []string{ruleConcatLoop}},
		{"string per iteration", "for _, x := range xs { line := \"- \" + x\nline += \"!\"\nprintln(line) }", nil},
		{"range var", "for _, x := range xs { x += \"!\"\nprintln(x) }", nil},
		{"int add", "n := 0\nfor _, x := range xs { n += len(x) }", nil},
		{"concat outside loop", "s := \"a\"\ns += \"b\"", nil},
		{"time.After in loop", "for { select { case <-time.After(1): return } }", []string{ruleTimeAfterLoop}},
		{"time.After once", "select { case <-time.After(1): }", nil},
		{"for cond not a loop body", "for i := 0; i < len(regexp.MustCompile(`a`).String()); i++ {}", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "package p\nimport (\"regexp\"; \"time\")\nvar _ = time.Now\nvar _ = regexp.QuoteMeta\nfunc f(xs []string) {\n" + tc.src + "\n}\n"
			var got []string
			for _, f := range checkGo(check.File{Path: "p.go", Content: []byte(src)}, "1.24") {
				got = append(got, f.Rule)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
		})
	}
}

func TestJSPatterns(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"sync in express handler", "app.get('/', (req, res) => { fs.readFileSync('x') })", []string{ruleSyncInHandler}},
		{"sync in router function", "router.post('/', function (req, res) { fs.statSync('x') })", []string{ruleSyncInHandler}},
		{"sync in createServer", "http.createServer((req, res) => { res.end(fs.readFileSync('x')) })", []string{ruleSyncInHandler}},
		{"sync in nested helper inside handler", "app.use((req, res, next) => { const f = () => fs.existsSync('x'); next() })", []string{ruleSyncInHandler}},
		{"sync at start-up", "const c = fs.readFileSync('c.json'); app.get('/', (req, res) => res.json(c))", nil},
		{"async handler", "app.get('/', async (req, res) => { await fs.promises.readFile('x') })", nil},
		{"await in for-of", "async function f(xs) { for (const x of xs) { await g(x) } }", []string{ruleAwaitInLoop}},
		{"await in while", "async function f() { while (more()) { await step() } }", []string{ruleAwaitInLoop}},
		{"for await", "async function f(s) { for await (const c of s) { use(c) } }", nil},
		{"await in callback in loop", "async function f(xs) { for (const x of xs) { xs.map(async y => await g(y)) } }", nil},
		{"promise all", "async function f(xs) { await Promise.all(xs.map(g)) }", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range checkJS(check.File{Path: "a.js", Content: []byte(tc.src)}) {
				got = append(got, f.Rule)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rules (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParams(t *testing.T) {
	for _, p := range []map[string]string{{"js_budget": "big"}, {"image_budget": "-3"}, {"speed": "1"}} {
		if _, err := New().Check(context.Background(), &check.Input{Params: p}); err == nil {
			t.Errorf("params %v accepted", p)
		}
	}
	if b, err := readParams(map[string]string{"js_budget": "170KB"}); err != nil || b.js != 170<<10 {
		t.Errorf("js_budget 170KB: %v %v", b, err)
	}
}

// TestManifestBundles: bundles in gitignored build output are measured
// when a manifest names them.
func TestManifestBundles(t *testing.T) {
	dir := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "dist/\n")
	write("package.json", `{"name": "app"}`)
	write("dist/.vite/manifest.json", `{"index.html": {"file": "assets/index-abc.js", "css": ["assets/index-def.css"]}}`)
	var sb strings.Builder
	for i := range 600 {
		fmt.Fprintf(&sb, "function f%d(a, b) {\n  return a * %d + b - %d;\n}\n", i, i*7919%1000, i*104729%997)
	}
	big := sb.String()
	write("dist/assets/index-abc.js", big)
	write("dist/assets/index-def.css", ".a { color: red; }\n")
	rep := run(t, dir, map[string]string{"js_budget": "1"})
	var got []string
	for _, f := range rep.Findings {
		got = append(got, f.File+" "+f.Rule)
	}
	want := []string{"dist/assets/index-abc.js perf/js-bundle-size", "dist/assets/index-abc.js perf/unminified-asset"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestHostileInput(t *testing.T) {
	for name, f := range map[string]check.File{
		"deep js":       {Path: "a.js", Content: []byte(strings.Repeat("(", 100000))},
		"many loops":    {Path: "a.js", Content: []byte("async function f(){" + strings.Repeat("for(;;){await g();", 20000) + strings.Repeat("}", 20000) + "}")},
		"deep go":       {Path: "a.go", Content: []byte("package p\nfunc f() {" + strings.Repeat("for {", 20000) + strings.Repeat("}", 20000) + "}")},
		"deep closures": {Path: "a.go", Content: []byte("package p\nvar f = " + strings.Repeat("func() {", 5000) + strings.Repeat("}", 5000))},
		"junk":          {Path: "a.js", Content: []byte(strings.Repeat("\x00\xff{[", 100000))},
		"long go expr":  {Path: "a.go", Content: []byte("package p\nvar x = " + strings.Repeat("1+", 200000) + "1")},
	} {
		start := time.Now()
		if strings.HasSuffix(f.Path, ".go") {
			checkGo(f, "")
		} else {
			checkJS(f)
		}
		t.Logf("%s: %v", name, time.Since(start))
		if d := time.Since(start); d > slowdown*30*time.Second { // a hang or a blow-up, not a speed budget
			t.Errorf("%s: %v", name, d)
		}
	}
}

func FuzzPatterns(f *testing.F) {
	f.Add("a.js", "app.get('/', (q, s) => fs.readFileSync('x'))")
	f.Add("a.go", "package p\nfunc f(xs []string) { for range xs { defer g() } }")
	f.Add("a.js", "async function f(){ for (const x of y) { await x } }")
	f.Fuzz(func(t *testing.T, name, src string) {
		file := check.File{Path: name, Content: []byte(src)}
		var fs []check.Finding
		if strings.HasSuffix(name, ".go") {
			fs = checkGo(file, "1.22")
		} else {
			fs = checkJS(file)
		}
		for _, fd := range fs {
			if fd.Line < 0 || fd.Col < 0 {
				t.Fatalf("bad position %+v", fd)
			}
		}
		minStats([]byte(src))
	})
}

// BenchmarkPerf: a typical Go and JS file, a large (1 MiB) JS file, with
// the bare parsers as the baseline.
func BenchmarkPerf(b *testing.B) {
	goSrc, _ := os.ReadFile("testdata/corpus/valid/main.go")
	jsSrc, _ := os.ReadFile("testdata/corpus/valid/server.js")
	// Each copy in its own function scope, so the 1 MiB file parses whole.
	seeded, _ := os.ReadFile("testdata/corpus/defects/server.js")
	large := []byte(strings.Repeat("(function () {\n"+string(seeded)+"\n})();\n", 1<<20/len(seeded)))
	if fs := checkJS(check.File{Path: "big.js", Content: large}); len(fs) == 0 || fs[0].Rule == ruleSyntax {
		b.Fatalf("the large file should parse and have findings: %v", fs[:min(len(fs), 1)])
	}
	b.Run("go-typical", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			checkGo(check.File{Path: "main.go", Content: goSrc}, "1.24")
		}
	})
	b.Run("js-typical", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			checkJS(check.File{Path: "server.js", Content: jsSrc})
		}
	})
	b.Run("js-large-1MiB", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			checkJS(check.File{Path: "big.js", Content: large})
		}
	})
	b.Run("js-large-1MiB-parser-only", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			parseOnly(large)
		}
	})
	b.Run("gzip-1MiB", func(b *testing.B) {
		for b.Loop() {
			gzipSize(large)
		}
	})
}

// moduleDir is the directory of a module of go.mod in the module cache,
// downloaded first when it is not there yet.
func moduleDir(m string) (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", m).Output()
	if dir := strings.TrimSpace(string(out)); err == nil && dir != "" {
		return dir, nil
	}
	out, err = exec.Command("go", "mod", "download", "-json", m).Output()
	if err != nil {
		return "", err
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(out, &info); err != nil {
		return "", err
	}
	return info.Dir, nil
}
