// Package projectinfo reads what a repository says about itself: its
// languages, frameworks, package managers, build and test commands (from
// manifests such as go.mod and package.json, one module per manifest
// directory in a monorepo), and a digest of the instructions it gives
// agents (AGENTS.md, CLAUDE.md, .cursor/rules/ …). It only reads files: no
// subprocesses, a bounded directory walk, symlinks never followed, and
// results cached until a file or directory it read changes.
package projectinfo

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Module is one buildable unit: a directory with a manifest.
type Module struct {
	Dir             string   `json:"dir"` // relative to the root, "." for the root
	Name            string   `json:"name,omitempty"`
	Languages       []string `json:"languages"`
	Frameworks      []string `json:"frameworks,omitempty"`
	PackageManagers []string `json:"packageManagers,omitempty"`
	Build           []string `json:"build,omitempty"` // commands, run in Dir
	Test            []string `json:"test,omitempty"`
	Manifests       []string `json:"manifests"` // file names in Dir
	// LockFiles are the package managers' lock files in Dir.
	LockFiles []string `json:"lockFiles,omitempty"`
}

// Info is what Detect found.
type Info struct {
	Name            string   `json:"name"` // the root directory's name
	Languages       []string `json:"languages,omitempty"`
	Frameworks      []string `json:"frameworks,omitempty"`
	PackageManagers []string `json:"packageManagers,omitempty"`
	Modules         []Module `json:"modules,omitempty"`
	CI              []string `json:"ci,omitempty"`         // CI configuration files
	Containers      []string `json:"containers,omitempty"` // Dockerfiles and compose files
	// Instructions are the agent instruction files found, relative paths.
	Instructions []string `json:"instructions,omitempty"`
	// Partial says the walk stopped at its bound: a module deeper or past
	// the first MaxEntries entries may be missing.
	Partial bool `json:"partial,omitempty"`
}

// Bounds of the directory walk.
const (
	MaxDepth   = 4    // directories below the root
	MaxEntries = 4000 // directory entries looked at
	maxRead    = 256 << 10
)

// skipDirs are never walked: dependencies, build output, caches, fixtures.
var skipDirs = map[string]bool{
	".git": true, "node_modules": true, "vendor": true, "target": true, "dist": true, "build": true, "out": true,
	".venv": true, "venv": true, "__pycache__": true, ".cairn": true, ".idea": true, ".next": true, ".nuxt": true,
	"bin": true, "obj": true, "testdata": true, "fixtures": true, ".gradle": true, ".tox": true, ".mypy_cache": true,
	".pytest_cache": true, "coverage": true, ".terraform": true, "third_party": true, ".cache": true,
}

// manifests are the file names that make a directory a module.
var manifests = map[string]bool{
	"go.mod": true, "package.json": true, "Cargo.toml": true, "pyproject.toml": true, "setup.py": true,
	"pom.xml": true, "build.gradle": true, "build.gradle.kts": true, "Gemfile": true, "composer.json": true,
	"requirements.txt": true,
}

// walked is what one walk saw: every directory listed and file read, with
// their modification times, for the cache.
type walked struct {
	root   string
	stamps map[string]int64
}

func (w *walked) stamp(rel string, fi fs.FileInfo) {
	if fi != nil {
		w.stamps[rel] = fi.ModTime().UnixNano()
	}
}

func (w *walked) read(rel string) string {
	p := filepath.Join(w.root, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	w.stamp(rel, fi)
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	b := make([]byte, min(fi.Size(), maxRead))
	n, _ := f.Read(b)
	return string(b[:n])
}

func (w *walked) exists(rel string) bool {
	_, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(rel)))
	return err == nil
}

// detect walks root breadth first and reads what it finds.
func detect(root string) (Info, map[string]int64) {
	w := &walked{root: root, stamps: make(map[string]int64)}
	info := Info{Name: filepath.Base(root)}
	type dir struct {
		rel   string
		depth int
	}
	queue := []dir{{".", 0}}
	seen := 0
	modules := map[string][]string{} // dir → manifest names
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		p := filepath.Join(root, filepath.FromSlash(d.rel))
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() {
			continue
		}
		w.stamp(d.rel, fi)
		entries, err := os.ReadDir(p)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if seen++; seen > MaxEntries {
				info.Partial = true
				queue = nil
				break
			}
			name := e.Name()
			rel := path.Join(d.rel, name)
			if e.Type()&fs.ModeSymlink != 0 {
				continue
			}
			if e.IsDir() {
				if d.depth < MaxDepth && !skipDirs[name] && !(strings.HasPrefix(name, ".") && name != ".github" && name != ".circleci" && name != ".cursor" && name != ".claude") {
					queue = append(queue, dir{rel, d.depth + 1})
				} else if d.depth >= MaxDepth && !skipDirs[name] && !strings.HasPrefix(name, ".") {
					info.Partial = true
				}
				continue
			}
			switch {
			case manifests[name] || strings.HasSuffix(name, ".csproj") || (strings.HasPrefix(name, "requirements") && strings.HasSuffix(name, ".txt")):
				modules[d.rel] = append(modules[d.rel], name)
			case name == "Dockerfile" || strings.HasSuffix(name, ".Dockerfile") || strings.HasPrefix(name, "Dockerfile."),
				name == "docker-compose.yml", name == "docker-compose.yaml", name == "compose.yml", name == "compose.yaml":
				info.Containers = append(info.Containers, rel)
			case isCI(rel):
				info.CI = append(info.CI, rel)
			}
		}
	}
	dirs := make([]string, 0, len(modules))
	for d := range modules {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		m := w.module(d, modules[d])
		info.Modules = append(info.Modules, m)
		info.Languages = union(info.Languages, m.Languages...)
		info.Frameworks = union(info.Frameworks, m.Frameworks...)
		info.PackageManagers = union(info.PackageManagers, m.PackageManagers...)
	}
	if len(info.Containers) > 0 {
		info.Frameworks = union(info.Frameworks, "Docker")
	}
	info.Instructions = instructionFiles(w)
	return info, w.stamps
}

func isCI(rel string) bool {
	switch {
	case strings.HasPrefix(rel, ".github/workflows/") && (strings.HasSuffix(rel, ".yml") || strings.HasSuffix(rel, ".yaml")):
		return true
	case rel == ".gitlab-ci.yml", rel == ".circleci/config.yml", rel == "Jenkinsfile", rel == "azure-pipelines.yml",
		rel == ".travis.yml", rel == "bitbucket-pipelines.yml", rel == ".drone.yml", rel == ".ci/run":
		return true
	}
	return false
}

func union(dst []string, src ...string) []string {
	for _, s := range src {
		if s != "" && !slices.Contains(dst, s) {
			dst = append(dst, s)
		}
	}
	return dst
}

// module reads the manifests of one directory.
func (w *walked) module(dir string, files []string) Module {
	m := Module{Dir: dir, Manifests: files}
	sort.Strings(m.Manifests)
	rel := func(name string) string { return path.Join(dir, name) }
	for _, f := range m.Manifests {
		text := w.read(rel(f))
		switch {
		case f == "go.mod":
			w.goMod(&m, text)
		case f == "package.json":
			w.packageJSON(&m, dir, text)
		case f == "Cargo.toml":
			m.Languages = union(m.Languages, "Rust")
			m.PackageManagers = union(m.PackageManagers, "cargo")
			m.Build, m.Test = union(m.Build, "cargo build"), union(m.Test, "cargo test")
			m.Frameworks = union(m.Frameworks, known(tomlDeps(text), rustFrameworks)...)
			if m.Name == "" {
				m.Name = tomlValue(text, "package", "name")
			}
		case f == "pyproject.toml" || f == "setup.py" || strings.HasPrefix(f, "requirements"):
			w.python(&m, dir, f, text)
		case f == "pom.xml":
			m.Languages = union(m.Languages, "Java")
			m.PackageManagers = union(m.PackageManagers, "maven")
			m.Build, m.Test = union(m.Build, "mvn package"), union(m.Test, "mvn test")
			m.Frameworks = union(m.Frameworks, containsAny(text, javaFrameworks)...)
			if strings.Contains(text, "kotlin-maven-plugin") {
				m.Languages = union(m.Languages, "Kotlin")
			}
		case strings.HasPrefix(f, "build.gradle"):
			lang := "Java"
			if strings.HasSuffix(f, ".kts") || strings.Contains(text, "kotlin(") || strings.Contains(text, "org.jetbrains.kotlin") {
				lang = "Kotlin"
			}
			m.Languages = union(m.Languages, lang)
			m.PackageManagers = union(m.PackageManagers, "gradle")
			g := "gradle"
			if w.exists(rel("gradlew")) {
				g = "./gradlew"
			}
			m.Build, m.Test = union(m.Build, g+" build"), union(m.Test, g+" test")
			m.Frameworks = union(m.Frameworks, containsAny(text, javaFrameworks)...)
		case f == "Gemfile":
			m.Languages = union(m.Languages, "Ruby")
			m.PackageManagers = union(m.PackageManagers, "bundler")
			fw := containsAny(text, rubyFrameworks)
			m.Frameworks = union(m.Frameworks, fw...)
			if slices.Contains(fw, "RSpec") {
				m.Test = union(m.Test, "bundle exec rspec")
			} else {
				m.Test = union(m.Test, "bundle exec rake test")
			}
		case f == "composer.json":
			m.Languages = union(m.Languages, "PHP")
			m.PackageManagers = union(m.PackageManagers, "composer")
			var c struct {
				Name       string            `json:"name"`
				Require    map[string]string `json:"require"`
				RequireDev map[string]string `json:"require-dev"`
				Scripts    map[string]any    `json:"scripts"`
			}
			_ = json.Unmarshal([]byte(text), &c)
			if m.Name == "" {
				m.Name = c.Name
			}
			m.Frameworks = union(m.Frameworks, known(keys(c.Require, c.RequireDev), phpFrameworks)...)
			if _, ok := c.Scripts["test"]; ok {
				m.Test = union(m.Test, "composer test")
			} else if _, ok := c.RequireDev["phpunit/phpunit"]; ok {
				m.Test = union(m.Test, "vendor/bin/phpunit")
			}
		case strings.HasSuffix(f, ".csproj"):
			m.Languages = union(m.Languages, "C#")
			m.PackageManagers = union(m.PackageManagers, "dotnet")
			m.Build, m.Test = union(m.Build, "dotnet build"), union(m.Test, "dotnet test")
			if strings.Contains(text, "Microsoft.NET.Sdk.Web") {
				m.Frameworks = union(m.Frameworks, "ASP.NET Core")
			}
			m.Frameworks = union(m.Frameworks, containsAny(text, dotnetFrameworks)...)
		}
	}
	w.makefile(&m, dir)
	return m
}

func (w *walked) goMod(m *Module, text string) {
	lang := "Go"
	var deps []string
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "module" && m.Name == "":
			m.Name = f[1]
		case len(f) >= 2 && f[0] == "go":
			lang = "Go " + f[1]
		case len(f) >= 2 && (f[0] == "require" && f[1] != "("):
			deps = append(deps, f[1])
		case len(f) >= 2 && strings.Contains(f[0], ".") && !strings.HasPrefix(f[0], "//"):
			deps = append(deps, f[0])
		}
	}
	m.Languages = union(m.Languages, lang)
	m.PackageManagers = union(m.PackageManagers, "go modules")
	m.Build, m.Test = union(m.Build, "go build ./..."), union(m.Test, "go test ./...")
	for _, d := range deps {
		for prefix, name := range goFrameworks {
			if strings.HasPrefix(d, prefix) {
				m.Frameworks = union(m.Frameworks, name)
			}
		}
	}
	sort.Strings(m.Frameworks)
}

func (w *walked) packageJSON(m *Module, dir, text string) {
	var p struct {
		Name            string            `json:"name"`
		Scripts         map[string]string `json:"scripts"`
		Dependencies    map[string]string `json:"dependencies"`
		DevDependencies map[string]string `json:"devDependencies"`
		PackageManager  string            `json:"packageManager"`
		Workspaces      json.RawMessage   `json:"workspaces"`
	}
	_ = json.Unmarshal([]byte(text), &p)
	if m.Name == "" {
		m.Name = p.Name
	}
	deps := keys(p.Dependencies, p.DevDependencies)
	lang := "JavaScript"
	if slices.Contains(deps, "typescript") || w.exists(path.Join(dir, "tsconfig.json")) {
		lang = "TypeScript"
	}
	m.Languages = union(m.Languages, lang)
	m.Frameworks = union(m.Frameworks, known(deps, jsFrameworks)...)
	pm := ""
	if name, _, ok := strings.Cut(p.PackageManager, "@"); ok {
		pm = name
	}
	for _, l := range []string{"pnpm-lock.yaml", "yarn.lock", "bun.lockb", "bun.lock", "package-lock.json"} {
		if w.exists(path.Join(dir, l)) {
			m.LockFiles = append(m.LockFiles, l)
		}
	}
	// The lock file decides; in a workspace it sits at the root.
	for _, d := range []string{dir, "."} {
		if pm != "" {
			break
		}
		for _, l := range []struct{ file, pm string }{{"pnpm-lock.yaml", "pnpm"}, {"yarn.lock", "yarn"}, {"bun.lockb", "bun"}, {"bun.lock", "bun"}, {"package-lock.json", "npm"}} {
			if w.exists(path.Join(d, l.file)) {
				pm = l.pm
				break
			}
		}
	}
	if pm == "" {
		pm = "npm"
	}
	m.PackageManagers = union(m.PackageManagers, pm)
	run := pm + " run "
	if _, ok := p.Scripts["build"]; ok {
		m.Build = union(m.Build, run+"build")
	}
	if _, ok := p.Scripts["test"]; ok {
		m.Test = union(m.Test, pm+" test")
	}
	if len(p.Workspaces) > 0 || w.exists(path.Join(dir, "pnpm-workspace.yaml")) {
		m.Frameworks = union(m.Frameworks, pm+" workspaces")
	}
}

func (w *walked) python(m *Module, dir, file, text string) {
	m.Languages = union(m.Languages, "Python")
	var deps []string
	pm := "pip"
	switch {
	case file == "pyproject.toml":
		deps = tomlDeps(text)
		if m.Name == "" {
			m.Name = tomlValue(text, "project", "name")
		}
		switch {
		case strings.Contains(text, "[tool.poetry"):
			pm = "poetry"
		case w.exists(path.Join(dir, "uv.lock")) || strings.Contains(text, "[tool.uv"):
			pm = "uv"
		case strings.Contains(text, "[tool.pdm"):
			pm = "pdm"
		case strings.Contains(text, "[tool.hatch"):
			pm = "hatch"
		}
	case strings.HasPrefix(file, "requirements"):
		for _, line := range strings.Split(text, "\n") {
			if n := reqName(line); n != "" {
				deps = append(deps, n)
			}
		}
	}
	m.PackageManagers = union(m.PackageManagers, pm)
	fw := known(deps, pyFrameworks)
	m.Frameworks = union(m.Frameworks, fw...)
	prefix := map[string]string{"poetry": "poetry run ", "uv": "uv run ", "pdm": "pdm run ", "hatch": "hatch run "}[pm]
	if slices.Contains(fw, "pytest") || strings.Contains(text, "[tool.pytest") || w.exists(path.Join(dir, "pytest.ini")) {
		m.Test = union(m.Test, prefix+"pytest")
	} else if file == "pyproject.toml" || file == "setup.py" {
		m.Test = union(m.Test, prefix+"python -m unittest")
	}
	if file == "pyproject.toml" && pm != "pip" {
		m.Build = union(m.Build, pm+" build")
	}
}

// makeTarget is compiled on first use, not at every process start.
var makeTarget = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^(build|test|check|lint)\s*:`) })

// makefile adds `make build` and `make test` when the Makefile has them,
// and a scripts/test the repository runs its tests with.
func (w *walked) makefile(m *Module, dir string) {
	if text := w.read(path.Join(dir, "Makefile")); text != "" {
		for _, t := range makeTarget().FindAllStringSubmatch(text, -1) {
			switch t[1] {
			case "build":
				m.Build = union([]string{"make build"}, m.Build...)
			case "test", "check":
				m.Test = union([]string{"make " + t[1]}, m.Test...)
			}
		}
	}
	for _, s := range []string{"scripts/test", "script/test"} {
		if fi, err := os.Lstat(filepath.Join(w.root, dir, s)); err == nil && fi.Mode().IsRegular() {
			m.Test = union([]string{"./" + s}, m.Test...)
		}
	}
}

// tomlDeps returns the keys of every [*dependencies*] table and the
// package names in dependencies = [...] arrays.
func tomlDeps(text string) []string {
	var out []string
	in, inArray := false, false
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") && !inArray {
			in = strings.Contains(l, "dependencies")
			continue
		}
		if inArray {
			if strings.HasPrefix(l, "]") {
				inArray = false
				continue
			}
			if n := reqName(strings.Trim(l, `"',`)); n != "" {
				out = append(out, n)
			}
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if strings.HasSuffix(k, "dependencies") && strings.HasPrefix(v, "[") {
			for _, item := range strings.Split(strings.Trim(v, "[]"), ",") {
				if n := reqName(strings.Trim(strings.TrimSpace(item), `"'`)); n != "" {
					out = append(out, n)
				}
			}
			inArray = !strings.Contains(v, "]")
			continue
		}
		if in {
			out = append(out, strings.Trim(strings.SplitN(k, ".", 2)[0], `"`))
		}
	}
	return out
}

// tomlValue reads key = "value" in [table].
func tomlValue(text, table, key string) string {
	in := false
	for _, line := range strings.Split(text, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "[") {
			in = l == "["+table+"]"
			continue
		}
		if k, v, ok := strings.Cut(l, "="); in && ok && strings.TrimSpace(k) == key {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	return ""
}

// reqName is the package name of a requirement line such as
// "fastapi[all]>=0.100; python_version>'3.8'".
func reqName(line string) string {
	line = strings.TrimSpace(line)
	if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "-") {
		return ""
	}
	end := strings.IndexAny(line, "[<>=!~; @")
	if end >= 0 {
		line = line[:end]
	}
	return strings.ToLower(strings.TrimSpace(line))
}

func keys(ms ...map[string]string) []string {
	var out []string
	for _, m := range ms {
		for k := range m {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// known maps dependency names to the frameworks they are.
func known(deps []string, table map[string]string) []string {
	var out []string
	for _, d := range deps {
		if name, ok := table[strings.ToLower(d)]; ok {
			out = union(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func containsAny(text string, table map[string]string) []string {
	var out []string
	for needle, name := range table {
		if strings.Contains(text, needle) {
			out = union(out, name)
		}
	}
	sort.Strings(out)
	return out
}

var goFrameworks = map[string]string{
	"github.com/gin-gonic/gin": "Gin", "github.com/labstack/echo": "Echo", "github.com/gofiber/fiber": "Fiber",
	"github.com/go-chi/chi": "chi", "github.com/spf13/cobra": "Cobra", "google.golang.org/grpc": "gRPC",
	"gorm.io/gorm": "GORM", "github.com/modelcontextprotocol/go-sdk": "MCP Go SDK", "github.com/jackc/pgx": "pgx",
	"modernc.org/sqlite": "SQLite (modernc)", "github.com/mattn/go-sqlite3": "SQLite (cgo)", "github.com/stretchr/testify": "testify",
	"github.com/gorilla/mux": "gorilla/mux", "connectrpc.com/connect": "Connect", "github.com/urfave/cli": "urfave/cli",
}

var jsFrameworks = map[string]string{
	"react": "React", "next": "Next.js", "vue": "Vue", "nuxt": "Nuxt", "svelte": "Svelte", "@sveltejs/kit": "SvelteKit",
	"@angular/core": "Angular", "express": "Express", "fastify": "Fastify", "@nestjs/core": "NestJS", "vite": "Vite",
	"jest": "Jest", "vitest": "Vitest", "mocha": "Mocha", "@playwright/test": "Playwright", "cypress": "Cypress",
	"electron": "Electron", "@remix-run/react": "Remix", "astro": "Astro", "hono": "Hono", "koa": "Koa",
	"tailwindcss": "Tailwind CSS", "prisma": "Prisma", "@modelcontextprotocol/sdk": "MCP TypeScript SDK", "webpack": "webpack",
}

var rustFrameworks = map[string]string{
	"tokio": "Tokio", "axum": "axum", "actix-web": "Actix Web", "rocket": "Rocket", "serde": "Serde", "clap": "clap",
	"sqlx": "SQLx", "diesel": "Diesel", "tauri": "Tauri", "bevy": "Bevy", "warp": "warp",
}

var pyFrameworks = map[string]string{
	"django": "Django", "flask": "Flask", "fastapi": "FastAPI", "pytest": "pytest", "numpy": "NumPy", "pandas": "pandas",
	"torch": "PyTorch", "tensorflow": "TensorFlow", "sqlalchemy": "SQLAlchemy", "pydantic": "Pydantic", "celery": "Celery",
	"streamlit": "Streamlit", "mcp": "MCP Python SDK", "scikit-learn": "scikit-learn",
}

var javaFrameworks = map[string]string{
	"spring-boot": "Spring Boot", "io.quarkus": "Quarkus", "io.micronaut": "Micronaut", "junit-jupiter": "JUnit 5",
	"junit:junit": "JUnit 4", "com.android": "Android", "hibernate": "Hibernate",
}

var rubyFrameworks = map[string]string{"'rails'": "Rails", `"rails"`: "Rails", "rspec": "RSpec", "sinatra": "Sinatra"}

var phpFrameworks = map[string]string{
	"laravel/framework": "Laravel", "symfony/framework-bundle": "Symfony", "phpunit/phpunit": "PHPUnit", "slim/slim": "Slim",
}

var dotnetFrameworks = map[string]string{"xunit": "xUnit", "NUnit": "NUnit", "MSTest": "MSTest", "EntityFrameworkCore": "Entity Framework Core"}
