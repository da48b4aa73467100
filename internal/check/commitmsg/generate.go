package commitmsg

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/internal/check"
)

// Input is what Generate writes a message from.
type Input struct {
	// Diff is a unified diff: git diff --cached, or git diff BASE...HEAD.
	Diff string
	// Old reads a file as it was before the diff (git show BASE:path, or
	// git show HEAD:path for a staged diff). nil: the exported API cannot
	// be compared, and the answer says so.
	Old func(path string) ([]byte, error)
	// New reads a file as it is after the diff (git show :path for a
	// staged diff). nil: the diff is applied to Old's content.
	New func(path string) ([]byte, error)
	// Refs are references for a "Refs:" footer: the Cairn tasks the
	// session completed, issue numbers.
	Refs []string
}

// Suggestion is a generated message and how it was inferred.
type Suggestion struct {
	Type     string `json:"type"`
	Scope    string `json:"scope,omitempty"`
	Breaking bool   `json:"breaking"`
	Subject  string `json:"subject"`
	Body     string `json:"body,omitempty"`
	// Message is the whole message, header, body and footers.
	Message string `json:"message"`
	// Reasons say how the type, scope and breaking flag were inferred.
	Reasons []string `json:"reasons"`
	// APIChanges are the exported declarations added, removed or changed.
	APIChanges []APIChange `json:"api_changes,omitempty"`
}

// APIChange is one exported declaration that changed.
type APIChange struct {
	File   string `json:"file"`
	Change string `json:"change"` // added, removed, changed
	Decl   string `json:"decl"`   // "func Open", "method Client.Do", "export parse"
	Old    string `json:"old,omitempty"`
	New    string `json:"new,omitempty"`
}

// ErrEmptyDiff says there is nothing to describe.
var ErrEmptyDiff = errors.New("the diff is empty: stage changes first (git add)")

// category is what a file is, for the type.
type category string

const (
	catDocs   category = "docs"
	catTest   category = "test"
	catCI     category = "ci"
	catDeps   category = "deps"
	catBuild  category = "build"
	catChore  category = "chore"
	catSource category = "source"
	catData   category = "data" // JSON, YAML, TOML... that no other category claims
)

var (
	docExt    = []string{".md", ".mdx", ".rst", ".adoc", ".asciidoc", ".txt", ".org"}
	docTools  = []string{"mkdocs.yml", "mkdocs.yaml", ".readthedocs.yaml", ".readthedocs.yml", "docusaurus.config.js", "docusaurus.config.ts", "conf.py", "book.toml", "antora.yml", "typedoc.json", ".vitepress"}
	docNames  = []string{"readme", "changelog", "license", "licence", "notice", "authors", "contributing", "code_of_conduct", "security", "history", "copying"}
	lockFiles = []string{"go.sum", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "uv.lock", "cargo.lock", "pipfile.lock", "gemfile.lock", "composer.lock"}
	manifests = []string{"go.mod", "package.json", "pyproject.toml", "cargo.toml", "pipfile", "gemfile", "composer.json"}
	buildName = []string{"makefile", "gnumakefile", "dockerfile", "containerfile", "cmakelists.txt", "justfile", "taskfile.yml", "magefile.go", "setup.py", "setup.cfg", "build.gradle", "pom.xml", ".dockerignore", "goreleaser.yml", ".goreleaser.yml", ".goreleaser.yaml"}
	choreName = []string{".gitignore", ".gitattributes", ".editorconfig", "codeowners", ".prettierrc", ".prettierignore", ".eslintrc", ".eslintrc.json", ".eslintrc.js", ".golangci.yml", ".golangci.yaml", "ruff.toml", ".pre-commit-config.yaml", "renovate.json", ".nvmrc", ".tool-versions", ".mailmap"}
	dataExt   = []string{".json", ".yaml", ".yml", ".toml", ".xml", ".csv", ".tsv", ".ini", ".cfg", ".conf", ".properties", ".env"}
	srcExt    = []string{".go", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".py", ".rs", ".java", ".kt", ".rb", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".swift", ".php", ".scala", ".sql", ".sh", ".css", ".scss", ".html", ".vue", ".svelte", ".proto", ".graphql", ".lua", ".ex", ".exs", ".dart", ".zig"}
)

func categorize(p string) category {
	lp := strings.ToLower(p)
	base := path.Base(lp)
	ext := path.Ext(base)
	segs := strings.Split(path.Dir(lp), "/")
	has := func(names ...string) bool {
		return slices.ContainsFunc(segs, func(s string) bool { return slices.Contains(names, s) })
	}
	switch {
	case strings.HasPrefix(lp, ".github/workflows/"), strings.HasPrefix(lp, ".circleci/"), strings.HasPrefix(lp, ".buildkite/"),
		base == ".gitlab-ci.yml", base == ".travis.yml", base == "azure-pipelines.yml", base == "jenkinsfile", base == "bitbucket-pipelines.yml", strings.HasPrefix(lp, ".ci/"):
		return catCI
	case slices.Contains(lockFiles, base), slices.Contains(manifests, base), strings.HasPrefix(base, "requirements") && ext == ".txt":
		return catDeps
	case strings.HasSuffix(base, "_test.go"), has("testdata", "__tests__", "__snapshots__", "test", "tests", "spec", "e2e", "fixtures"),
		strings.HasPrefix(base, "test_") && ext == ".py", strings.HasSuffix(base, "_test.py"), base == "conftest.py",
		strings.Contains(base, ".test."), strings.Contains(base, ".spec."):
		return catTest
	case slices.ContainsFunc(docNames, func(n string) bool { return strings.TrimSuffix(base, ext) == n || base == n }),
		slices.Contains(docTools, base) && (base != "conf.py" || has("docs", "doc")),
		slices.Contains(docExt, ext) && ext != ".txt", has("docs", "doc", "documentation") && !slices.Contains(srcExt, ext) || has("docs", "doc") && ext == ".txt",
		// A documentation site's own tree (Hugo's www/, Docusaurus'
		// website/): its templates, schemas and styles are docs.
		len(segs) > 0 && (segs[0] == "www" || segs[0] == "website") && !slices.Contains(dataExt, ext):
		return catDocs
	case slices.Contains(buildName, base), strings.HasPrefix(base, "dockerfile"), strings.HasPrefix(base, "docker-compose"), strings.HasPrefix(base, "compose."), ext == ".mk",
		strings.HasPrefix(base, "webpack.config"), strings.HasPrefix(base, "vite.config"), strings.HasPrefix(base, "rollup.config"), strings.HasPrefix(base, "tsconfig"), strings.HasPrefix(base, "babel.config"),
		strings.HasPrefix(base, "esbuild"), has("build"):
		return catBuild
	case slices.Contains(choreName, base), strings.HasPrefix(lp, ".github/"), strings.HasPrefix(lp, ".vscode/"), strings.HasPrefix(lp, ".idea/"), strings.HasPrefix(base, ".eslintrc"), strings.HasPrefix(base, ".prettierrc"):
		return catChore
	case slices.Contains(dataExt, ext):
		return catData
	}
	return catSource
}

// fileInfo is one changed file with what was learnt from it.
type fileInfo struct {
	*FileDiff
	cat        category
	newContent []byte   // the content after, when it was read
	depChanges []string // "golang.org/x/text v0.20.0 → v0.21.0"
	depOther   bool     // a manifest change that is not a dependency version
}

// Generate writes a Conventional Commits message for in.Diff.
func Generate(in Input) (*Suggestion, error) {
	files, err := ParseDiff(in.Diff)
	if err != nil && len(files) == 0 {
		return nil, fmt.Errorf("diff: %w", err)
	}
	if len(files) == 0 {
		return nil, ErrEmptyDiff
	}
	s := &Suggestion{}
	infos := make([]*fileInfo, 0, len(files))
	count := map[category]int{}
	for _, f := range files {
		fi := &fileInfo{FileDiff: f, cat: categorize(f.Path())}
		if fi.cat == catDeps {
			fi.depChanges, fi.depOther = depChanges(f)
		}
		infos = append(infos, fi)
		count[fi.cat]++
	}
	only := func(cats ...category) bool {
		for c, n := range count {
			if n > 0 && !slices.Contains(cats, c) {
				return false
			}
		}
		return true
	}
	var cats []string
	for _, c := range []category{catSource, catTest, catDocs, catDeps, catBuild, catCI, catChore, catData} {
		if count[c] > 0 {
			cats = append(cats, fmt.Sprintf("%d %s", count[c], c))
		}
	}
	s.Reasons = append(s.Reasons, "files: "+strings.Join(cats, ", "))

	// The exported API, old against new, per directory.
	api := apiChanges(infos, in, s)
	s.APIChanges = api.changes

	var subject string
	switch {
	case only(catDocs):
		s.Type = "docs"
		s.Reasons = append(s.Reasons, "type docs: only documentation files changed")
		subject = verbFor(infos) + " " + namesOf(infos, 3)
	case only(catTest):
		s.Type = "test"
		s.Reasons = append(s.Reasons, "type test: only test files and test data changed")
		subject = testSubject(infos)
	case only(catCI):
		s.Type = "ci"
		s.Reasons = append(s.Reasons, "type ci: only CI configuration changed")
		subject = verbFor(infos) + " " + namesOf(infos, 2) + " workflow"
		if len(infos) > 1 {
			subject = "update CI workflows"
		}
	case only(catDeps, catDocs) && count[catDeps] > 0 && !anyDepOther(infos):
		s.Type, s.Scope = "build", "deps"
		var bumps []string
		for _, fi := range infos {
			bumps = append(bumps, fi.depChanges...)
		}
		bumps = uniq(bumps)
		switch {
		case len(bumps) == 1:
			subject = "bump " + bumps[0]
		case len(bumps) > 1:
			subject = fmt.Sprintf("bump %s and %d more", strings.SplitN(bumps[0], " from ", 2)[0], len(bumps)-1)
		default:
			subject = "update " + namesOf(infos, 2)
		}
		s.Reasons = append(s.Reasons, fmt.Sprintf("type build(deps): only dependency manifests and lock files changed, %d version change(s)", len(bumps)))
	case only(catBuild, catDeps, catDocs):
		s.Type = "build"
		s.Reasons = append(s.Reasons, "type build: only build files (Makefile, Dockerfile, bundler config, manifests) changed")
		subject = verbFor(infos) + " " + namesOf(infos, 2)
	case only(catChore, catDocs, catBuild, catCI, catData):
		s.Type = "chore"
		s.Reasons = append(s.Reasons, "type chore: only repository housekeeping, configuration or data files changed")
		subject = verbFor(infos) + " " + namesOf(infos, 2)
	default:
		s.Type, subject = sourceType(infos, api, s)
	}

	if s.Scope == "" {
		s.Scope = scopeOf(infos, s)
	}
	if api.breaking {
		s.Breaking = true
	}
	s.Subject = fitSubject(subject, s.Type, s.Scope, s.Breaking)
	s.Body = body(infos, api)
	var footers []string
	if s.Breaking {
		footers = append(footers, wrap("BREAKING CHANGE: "+api.breakingText(), 72))
	}
	if len(in.Refs) > 0 {
		footers = append(footers, "Refs: "+strings.Join(in.Refs, ", "))
	}
	var msg strings.Builder
	msg.WriteString(header(s.Type, s.Scope, s.Breaking, s.Subject))
	if s.Body != "" {
		msg.WriteString("\n\n" + s.Body)
	}
	if len(footers) > 0 {
		msg.WriteString("\n\n" + strings.Join(footers, "\n"))
	}
	s.Message = msg.String() + "\n"
	return s, nil
}

func anyDepOther(infos []*fileInfo) bool {
	return slices.ContainsFunc(infos, func(fi *fileInfo) bool { return fi.depOther })
}

func header(typ, scope string, breaking bool, subject string) string {
	h := typ
	if scope != "" {
		h += "(" + scope + ")"
	}
	if breaking {
		h += "!"
	}
	return h + ": " + subject
}

// fitSubject keeps the header within 72 characters, lower-cases the first
// letter unless it starts an identifier, and drops a trailing period.
func fitSubject(subject, typ, scope string, breaking bool) string {
	subject = strings.TrimRight(strings.TrimSpace(subject), ".")
	if r, n := utf8.DecodeRuneInString(subject); n > 0 && r >= 'A' && r <= 'Z' {
		w, _, _ := strings.Cut(subject, " ")
		if !hasInnerUpper(w) && !slices.Contains([]string{"README", "CHANGELOG", "LICENSE"}, w) && !isGoExported(w) {
			subject = strings.ToLower(subject[:1]) + subject[1:]
		}
	}
	room := max(72-utf8.RuneCountInString(header(typ, scope, breaking, "")), 8)
	if utf8.RuneCountInString(subject) <= room {
		return subject
	}
	// Cut at a word boundary.
	r := []rune(subject)
	cut := string(r[:room])
	if i := strings.LastIndexByte(cut, ' '); i > room/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:")
}

// isGoExported is true for a word that names a Go or JS identifier
// ("Open", "Client.Do"): the subject keeps its case.
func isGoExported(w string) bool {
	return strings.Contains(w, ".") || strings.Contains(w, "(")
}

// verbFor is "add" when every file is new, "remove" when every file is
// gone, else "update".
func verbFor(infos []*fileInfo) string {
	all := func(st Status) bool {
		return !slices.ContainsFunc(infos, func(fi *fileInfo) bool { return fi.Status != st })
	}
	switch {
	case all(Added):
		return "add"
	case all(Deleted):
		return "remove"
	case all(Renamed):
		return "move"
	}
	return "update"
}

// namesOf names the files: up to n base names, else a count.
func namesOf(infos []*fileInfo, n int) string {
	var names []string
	for _, fi := range infos {
		b := path.Base(fi.Path())
		if ext := path.Ext(b); slices.Contains([]string{".md", ".yml", ".yaml", ".rst", ".txt"}, ext) && b != ext {
			b = strings.TrimSuffix(b, ext)
		}
		names = append(names, b)
	}
	names = uniq(names)
	if len(names) <= n {
		return joinAnd(names)
	}
	return fmt.Sprintf("%s and %d more files", strings.Join(names[:n-1], ", "), len(names)-n+1)
}

func joinAnd(xs []string) string {
	switch len(xs) {
	case 0:
		return ""
	case 1:
		return xs[0]
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

func uniq(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// Test names added: Go TestXxx, Python test_xxx, JS it("...")/test("...").
var (
	goTestRE = check.LazyRegexp(`^func (Test|Benchmark|Fuzz)(\w+)\(`)
	pyTestRE = check.LazyRegexp(`^\s*(?:async\s+)?def test_(\w+)\(`)
	jsTestRE = check.LazyRegexp(`^\s*(?:it|test|describe)\(\s*['"\x60]([^'"\x60]{1,60})`)
)

func testSubject(infos []*fileInfo) string {
	var names []string
	for _, fi := range infos {
		_, added := fi.sides()
		for _, l := range added {
			if m := goTestRE().FindStringSubmatch(l); m != nil {
				n := m[2]
				if i := strings.IndexByte(n, '_'); i > 0 {
					n = n[:i]
				}
				names = append(names, n)
			} else if m := pyTestRE().FindStringSubmatch(l); m != nil {
				names = append(names, m[1])
			} else if m := jsTestRE().FindStringSubmatch(l); m != nil && strings.HasPrefix(strings.TrimSpace(l), "describe") {
				names = append(names, m[1])
			}
		}
	}
	names = uniq(names)
	if len(names) > 0 {
		if len(names) > 3 {
			names = append(names[:2], fmt.Sprintf("%d more", len(names)-2))
		}
		return "add tests for " + joinAnd(names)
	}
	if verbFor(infos) == "add" {
		return "add " + namesOf(infos, 2)
	}
	return "update tests in " + namesOf(infos, 2)
}

// Dependency version changes in manifests and locks.
var (
	goRequireRE = check.LazyRegexp(`^\s*(?:require\s+)?([A-Za-z0-9][\w.\-~/]*\.[\w.\-~/]+)\s+(v[0-9][^\s/]*)(\s*// indirect)?\s*$`)
	jsonDepRE   = check.LazyRegexp(`^\s*"(@?[\w.\-]+(?:/[\w.\-]+)?)"\s*:\s*"([~^<>=]*\s*\d[^"]*)"\s*,?\s*$`)
	tomlDepRE   = check.LazyRegexp(`^\s*"?([A-Za-z0-9][\w.\-]*)"?\s*=\s*(?:"([^"]*\d[^"]*)"|\{.*version\s*=\s*"([^"]+)".*\})\s*$`)
	pepDepRE    = check.LazyRegexp(`^\s*"?([A-Za-z0-9][\w.\-]*)(?:\[[^\]]*\])?\s*((?:[<>=!~]=?|===)\s*[\w.*+!-]+(?:\s*,\s*(?:[<>=!~]=?)\s*[\w.*+!-]+)*)"?,?\s*$`)
)

// depChanges reads the version changes of a dependency manifest; other is
// true when the manifest changed in another way too (a script, the Go
// version, a package field), or when it could not be read.
func depChanges(f *FileDiff) (changes []string, other bool) {
	base := strings.ToLower(path.Base(f.Path()))
	if slices.Contains(lockFiles, base) {
		return nil, false // locks follow manifests; their noise says nothing
	}
	removed, added := f.sides()
	parse := func(l string) (string, string, bool) {
		switch {
		case base == "go.mod":
			if m := goRequireRE().FindStringSubmatch(l); m != nil && m[3] == "" {
				return m[1], m[2], true
			}
			if m := goRequireRE().FindStringSubmatch(l); m != nil {
				return m[1], m[2] + " (indirect)", true
			}
		case base == "package.json" || base == "composer.json":
			if m := jsonDepRE().FindStringSubmatch(l); m != nil && m[1] != "version" {
				return m[1], m[2], true
			}
		case base == "cargo.toml" || base == "pyproject.toml" || base == "pipfile":
			if m := tomlDepRE().FindStringSubmatch(l); m != nil && m[1] != "version" && m[1] != "python" {
				return m[1], m[2] + m[3], true
			}
			if m := pepDepRE().FindStringSubmatch(l); m != nil {
				return m[1], m[2], true
			}
		case strings.HasPrefix(base, "requirements"):
			if m := pepDepRE().FindStringSubmatch(l); m != nil {
				return m[1], m[2], true
			}
		}
		return "", "", false
	}
	oldV := map[string]string{}
	var order []string
	for _, l := range removed {
		if strings.TrimSpace(l) == "" || strings.TrimSpace(l) == "," {
			continue
		}
		if n, v, ok := parse(l); ok {
			oldV[n] = v
			continue
		}
		other = true
	}
	for _, l := range added {
		t := strings.TrimSpace(l)
		if t == "" || t == "," || t == ")" || t == "require (" {
			continue
		}
		n, v, ok := parse(l)
		if !ok {
			other = true
			continue
		}
		if strings.HasSuffix(v, "(indirect)") {
			continue // indirect requirements follow the direct ones
		}
		if ov, had := oldV[n]; had {
			if ov != v {
				order = append(order, n+" from "+strings.TrimSuffix(ov, " (indirect)")+" to "+v)
			}
		} else {
			order = append(order, "add "+n+" "+v)
		}
	}
	// "bump x" reads better than "bump add x": additions are named apart.
	for i, c := range order {
		order[i] = strings.TrimPrefix(c, "add ")
	}
	return order, other
}

// scopeOf is the area the change is in: the innermost directory shared by
// the files that decide the type (source files, else all), with container
// directories (internal, pkg, src, lib, cmd, app) set aside.
func scopeOf(infos []*fileInfo, s *Suggestion) string {
	var dirs []string
	for _, fi := range infos {
		if s.Type != "test" && s.Type != "docs" && fi.cat != catSource && slices.ContainsFunc(infos, func(o *fileInfo) bool { return o.cat == catSource }) {
			continue
		}
		dirs = append(dirs, path.Dir(fi.Path()))
	}
	if len(dirs) == 0 {
		return ""
	}
	common := strings.Split(dirs[0], "/")
	for _, d := range dirs[1:] {
		parts := strings.Split(d, "/")
		n := 0
		for n < len(common) && n < len(parts) && common[n] == parts[n] {
			n++
		}
		common = common[:n]
	}
	var kept []string
	for _, c := range common {
		if c == "." || slices.Contains([]string{"internal", "pkg", "src", "lib", "cmd", "app", "apps", "packages", "testdata", "test", "tests", "__tests__", "docs", "doc", ".github", "workflows"}, c) {
			continue
		}
		kept = append(kept, c)
	}
	if len(kept) == 0 {
		if s.Type == "docs" && len(infos) == 1 {
			b := strings.ToLower(path.Base(infos[0].Path()))
			return cleanScope(strings.TrimSuffix(b, path.Ext(b)))
		}
		s.Reasons = append(s.Reasons, "no scope: the files share no directory of their own")
		return ""
	}
	scope := cleanScope(kept[len(kept)-1])
	if scope == "" {
		s.Reasons = append(s.Reasons, "no scope: the shared directory's name is not a usable scope")
		return ""
	}
	s.Reasons = append(s.Reasons, "scope "+scope+": the directory the changed files share ("+strings.Join(common, "/")+")")
	return scope
}

var scopeJunk = check.LazyRegexp(`[^a-z0-9-]+`)

// cleanScope makes a directory name a scope: lower case, kebab-case, at
// most 24 characters ("" when nothing usable is left).
func cleanScope(s string) string {
	s = strings.Trim(scopeJunk().ReplaceAllString(strings.ToLower(s), "-"), "-")
	if len(s) > 24 {
		return ""
	}
	return s
}

// body lists the main changes, most telling first, at most 8 lines.
func body(infos []*fileInfo, api apiResult) string {
	var lines []string
	for _, c := range api.changes {
		switch c.Change {
		case "added":
			lines = append(lines, fmt.Sprintf("- add %s (%s)", c.Decl, c.File))
		case "removed":
			lines = append(lines, fmt.Sprintf("- remove %s (%s)", c.Decl, c.File))
		case "changed":
			lines = append(lines, fmt.Sprintf("- change %s: %s -> %s", c.Decl, c.Old, c.New))
		}
	}
	for _, fi := range infos {
		for _, d := range fi.depChanges {
			lines = append(lines, "- bump "+d)
		}
	}
	for _, fi := range infos {
		var what string
		switch fi.Status {
		case Added:
			what = fmt.Sprintf("- add %s (+%d)", fi.Path(), fi.Added)
		case Deleted:
			what = fmt.Sprintf("- remove %s (-%d)", fi.Path(), fi.Removed)
		case Renamed:
			what = fmt.Sprintf("- move %s to %s", fi.OldPath, fi.NewPath)
		default:
			what = fmt.Sprintf("- update %s (+%d -%d)", fi.Path(), fi.Added, fi.Removed)
		}
		if fi.Binary {
			what += " (binary)"
		}
		lines = append(lines, what)
	}
	lines = uniq(lines)
	if len(lines) <= 1 && len(infos) == 1 {
		return "" // one file, already named by the subject
	}
	if len(lines) > 8 {
		lines = append(lines[:7], fmt.Sprintf("- and %d more changes", len(lines)-7))
	}
	for i, l := range lines {
		if utf8.RuneCountInString(l) > 100 {
			lines[i] = string([]rune(l)[:99]) + "…"
		}
	}
	return strings.Join(lines, "\n")
}

// wrap folds text at width on spaces.
func wrap(text string, width int) string {
	var out, line strings.Builder
	for _, w := range strings.Fields(text) {
		if line.Len() > 0 && line.Len()+1+len(w) > width {
			out.WriteString(line.String() + "\n")
			line.Reset()
		}
		if line.Len() > 0 {
			line.WriteByte(' ')
		}
		line.WriteString(w)
	}
	out.WriteString(line.String())
	return out.String()
}
