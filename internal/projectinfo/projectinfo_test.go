package projectinfo

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDetectEcosystems(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		lang  string
		fw    string
		pm    string
		build string
		test  string
	}{
		{"go", map[string]string{"go.mod": "module x\n\ngo 1.22\n\nrequire (\n\tgithub.com/spf13/cobra v1.0.0\n)\n"}, "Go 1.22", "Cobra", "go modules", "go build ./...", "go test ./..."},
		{"npm", map[string]string{"package.json": `{"scripts":{"build":"tsc","test":"jest"},"devDependencies":{"jest":"1"}}`, "package-lock.json": "{}"}, "JavaScript", "Jest", "npm", "npm run build", "npm test"},
		{"yarn ts", map[string]string{"package.json": `{"scripts":{"test":"x"},"dependencies":{"next":"14"}}`, "tsconfig.json": "{}", "yarn.lock": ""}, "TypeScript", "Next.js", "yarn", "", "yarn test"},
		{"cargo", map[string]string{"Cargo.toml": "[package]\nname = \"a\"\n\n[dependencies]\naxum = \"0.7\"\nserde = { version = \"1\" }\n"}, "Rust", "axum", "cargo", "cargo build", "cargo test"},
		{"poetry", map[string]string{"pyproject.toml": "[tool.poetry]\nname = \"p\"\n\n[tool.poetry.dependencies]\ndjango = \"^5\"\npytest = \"*\"\n"}, "Python", "Django", "poetry", "poetry build", "poetry run pytest"},
		{"requirements", map[string]string{"requirements-dev.txt": "# dev\nflask==3.0\n-r base.txt\n"}, "Python", "Flask", "pip", "", ""},
		{"maven", map[string]string{"pom.xml": "<project><artifactId>spring-boot-starter-web</artifactId></project>"}, "Java", "Spring Boot", "maven", "mvn package", "mvn test"},
		{"gradle kts", map[string]string{"build.gradle.kts": "plugins { kotlin(\"jvm\") }", "gradlew": "#!/bin/sh"}, "Kotlin", "", "gradle", "./gradlew build", "./gradlew test"},
		{"ruby", map[string]string{"Gemfile": "gem 'rails'\ngem 'rspec-rails'\n"}, "Ruby", "Rails", "bundler", "", "bundle exec rspec"},
		{"php", map[string]string{"composer.json": `{"require":{"laravel/framework":"^11"},"require-dev":{"phpunit/phpunit":"^10"}}`}, "PHP", "Laravel", "composer", "", "vendor/bin/phpunit"},
		{"dotnet", map[string]string{"Api.csproj": `<Project Sdk="Microsoft.NET.Sdk.Web"></Project>`}, "C#", "ASP.NET Core", "dotnet", "dotnet build", "dotnet test"},
		{"makefile first", map[string]string{"go.mod": "module x\n", "Makefile": "build:\n\tgo build\ntest:\n\tgo test\n"}, "Go", "", "go modules", "make build", "make test"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, c.files)
			info := Detect(dir)
			if len(info.Modules) != 1 {
				t.Fatalf("modules: %+v", info.Modules)
			}
			m := info.Modules[0]
			if !slices.Contains(m.Languages, c.lang) {
				t.Errorf("languages %v, want %s", m.Languages, c.lang)
			}
			if c.fw != "" && !slices.Contains(m.Frameworks, c.fw) {
				t.Errorf("frameworks %v, want %s", m.Frameworks, c.fw)
			}
			if !slices.Contains(m.PackageManagers, c.pm) {
				t.Errorf("package managers %v, want %s", m.PackageManagers, c.pm)
			}
			if c.build != "" && (len(m.Build) == 0 || m.Build[0] != c.build) {
				t.Errorf("build %v, want %s first", m.Build, c.build)
			}
			if c.test != "" && (len(m.Test) == 0 || m.Test[0] != c.test) {
				t.Errorf("test %v, want %s first", m.Test, c.test)
			}
		})
	}
}

func TestDetectBoundsAndSymlinks(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"a/b/c/d/e/f/go.mod": "module deep\n", "vendor/x/go.mod": "module v\n"})
	outside := t.TempDir()
	write(t, outside, map[string]string{"go.mod": "module outside\n"})
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	info := Detect(dir)
	if len(info.Modules) != 0 || !info.Partial {
		t.Errorf("want no modules (too deep, vendored, behind a symlink) and a partial scan, got %+v", info)
	}
}

func TestDigest(t *testing.T) {
	text := "---\ndescription: Rules for the API\nglobs: api/**\n---\n# Guide\n\nSome prose about the project.\n\n## Testing\n\n- Always run `make test` before committing.\n" +
		"- Tests live beside the code.\n\n```sh\nmake test\ngo vet ./...\n```\n\n" + CairnBegin + "\n- Never skip cairn.\n" + CairnEnd + "\n1. Never push to main.\n"
	got := digestFile("x.mdc", text)
	var lines []string
	for _, l := range got {
		lines = append(lines, l.Kind+"|"+l.Section+"|"+l.Text)
	}
	want := []string{
		"summary||Rules for the API",
		"heading||Guide",
		"heading||Testing",
		"rule|Testing|Always run `make test` before committing.",
		"command|Testing|go vet ./...",
		"rule|Testing|Never push to main.",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("digest:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

func TestDetectorCache(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"go.mod": "module a\n", "AGENTS.md": "- Never do X.\n"})
	d := NewDetector()
	if got := d.Instructions(dir).Lines; len(got) != 1 {
		t.Fatalf("lines %+v", got)
	}
	write(t, dir, map[string]string{"CLAUDE.md": "- Always do Y.\n"})
	if got := d.Instructions(dir).Lines; len(got) != 2 {
		t.Errorf("a new instruction file was not seen: %+v", got)
	}
}

func TestCompatibility(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"web/package.json":      `{"devDependencies":{"jest":"29","vitest":"1"},"dependencies":{"react":"18"}}`,
		"web/package-lock.json": "{}", "web/yarn.lock": "",
		"api/go.mod": "module a\n\ngo 1.22\n", "tools/go.mod": "module t\n\ngo 1.26\n",
		"ml/pyproject.toml": "[project]\nname = \"ml\"\n", "ml/requirements.txt": "numpy\n",
	})
	r := Compatibility(Detect(dir), nil)
	var got []string
	for _, f := range r.Findings {
		got = append(got, f.Severity+" "+f.Module)
	}
	want := []string{"note ml", "conflict web", "overlap web", "note "}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("findings %q, want %q: %+v", got, want, r.Findings)
	}
	if r.Score != 100-20-10-3-3 {
		t.Errorf("score %d", r.Score)
	}
	r = Compatibility(Detect(dir), []string{"react", "Go", "Redis"})
	if !r.Stack[0].Found || r.Stack[0].Where[0] != "web" || !r.Stack[1].Found || len(r.Stack[1].Where) != 2 || r.Stack[2].Found {
		t.Errorf("stack: %+v", r.Stack)
	}
}

// TestDetectorConcurrent: one Detector serves many callers at once while
// files change (go test -race).
func TestDetectorConcurrent(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"go.mod": "module a\n", "AGENTS.md": "- Never do X.\n", "knowledge/a.md": "---\ntitle: A\n---\nx\n"})
	d := NewDetector()
	done := make(chan struct{})
	for i := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for j := range 20 {
				switch (i + j) % 3 {
				case 0:
					d.Detect(dir)
				case 1:
					d.Instructions(dir)
				default:
					d.Knowledge(dir)
				}
			}
		}()
	}
	for i := range 5 {
		write(t, dir, map[string]string{"CLAUDE.md": strings.Repeat("- Always do Y.\n", i+1)})
	}
	for range 8 {
		<-done
	}
	if n := len(d.Instructions(dir).Lines); n != 6 {
		t.Errorf("after the writes: %d lines, want 6", n)
	}
}
