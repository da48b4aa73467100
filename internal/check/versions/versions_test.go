package versions

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

// writeProject lays files under a new temporary root.
func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// noEnv keeps tests away from the machine's caches.
var noEnv = Options{Env: func(string) string { return "" }}

func verify(t *testing.T, files map[string]string, name, believed string, opt Options) *Report {
	t.Helper()
	r, err := Verify(context.Background(), os.DirFS(writeProject(t, files)), name, believed, opt)
	if err != nil {
		t.Fatalf("Verify(%s): %v", name, err)
	}
	return r
}

// outcome is what a test compares: the rules found (with file:line), what
// resolved, and whether everything agrees.
type outcome struct {
	Agree    bool
	Rules    []string
	Resolved map[string]string
}

func outcomeOf(r *Report) outcome {
	o := outcome{Agree: r.Agree, Resolved: r.Resolved}
	for _, f := range r.Findings {
		o.Rules = append(o.Rules, f.Rule+"@"+f.File+":"+itoa(f.Line))
	}
	slices.Sort(o.Rules)
	if len(o.Resolved) == 0 {
		o.Resolved = nil
	}
	return o
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

const goMod = `module example.com/shop

go 1.24

require (
	github.com/google/uuid v1.6.0
	golang.org/x/text v0.21.0 // indirect
)
`

const goSumAgree = `github.com/google/uuid v1.6.0 h1:NIvaJDMOsjHA8n1jAhLSgzrAzy1Hgr+hNrb57e+94F0=
github.com/google/uuid v1.6.0/go.mod h1:TIyPZe4MgqvfeYDBFedMoGGpEw/LqOeaOT+nhxU+yHo=
golang.org/x/text v0.21.0 h1:zyQAAkrwaneQ066sspRyJaG9VNi/YJ1NfzcGB3hZ/qo=
golang.org/x/text v0.21.0/go.mod h1:4IBbMaMmOPCJ8SecivzSH54+73PCFmPWxNTLm+vZkEQ=
`

// goSumDrift is go.sum left behind when go.mod was bumped by hand.
const goSumDrift = `github.com/google/uuid v1.5.0 h1:1p67kYwdtXjb0gL0BPiP1Av9wiZPo5A8z2cWkTZ+eyU=
github.com/google/uuid v1.5.0/go.mod h1:TIyPZe4MgqvfeYDBFedMoGGpEw/LqOeaOT+nhxU+yHo=
golang.org/x/text v0.21.0/go.mod h1:4IBbMaMmOPCJ8SecivzSH54+73PCFmPWxNTLm+vZkEQ=
`

func TestGo(t *testing.T) {
	cache := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cache, "github.com", "google", "uuid@v1.6.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	withCache := Options{Env: func(k string) string {
		if k == "GOMODCACHE" {
			return cache
		}
		return ""
	}}
	tests := []struct {
		name     string
		files    map[string]string
		dep      string
		believed string
		opt      Options
		want     outcome
	}{
		{"go.sum agrees", map[string]string{"go.mod": goMod, "go.sum": goSumAgree}, "github.com/google/uuid", "", noEnv,
			outcome{Agree: true, Resolved: map[string]string{"go": "v1.6.0"}}},
		{"a package path finds its module", map[string]string{"go.mod": goMod, "go.sum": goSumAgree}, "golang.org/x/text/language", "v0.21.0", noEnv,
			outcome{Agree: true, Resolved: map[string]string{"go": "v0.21.0"}}},
		{"go.sum drifted", map[string]string{"go.mod": goMod, "go.sum": goSumDrift}, "github.com/google/uuid", "", noEnv,
			outcome{Rules: []string{"versions/go-sum-missing@go.sum:0"}, Resolved: map[string]string{"go": "v1.6.0"}}},
		{"an indirect module keeps only its go.mod hash", map[string]string{"go.mod": goMod, "go.sum": goSumDrift}, "golang.org/x/text", "", noEnv,
			outcome{Agree: true, Resolved: map[string]string{"go": "v0.21.0"}}},
		{"module cache holds it", map[string]string{"go.mod": goMod, "go.sum": goSumAgree}, "github.com/google/uuid", "1.6", withCache,
			outcome{Agree: true, Resolved: map[string]string{"go": "v1.6.0"}}},
		{"belief of an older version", map[string]string{"go.mod": goMod, "go.sum": goSumAgree}, "github.com/google/uuid", "v1.3.0", noEnv,
			outcome{Agree: true, Rules: []string{"versions/belief-mismatch@:0"}, Resolved: map[string]string{"go": "v1.6.0"}}},
		{"vendored copy differs", map[string]string{"go.mod": goMod, "go.sum": goSumAgree,
			"vendor/modules.txt": "# github.com/google/uuid v1.5.0\n## explicit\ngithub.com/google/uuid\n"}, "github.com/google/uuid", "", noEnv,
			outcome{Rules: []string{"versions/installed-drift@vendor/modules.txt:0"}, Resolved: map[string]string{"go": "v1.5.0"}}},
		{"replaced by a directory", map[string]string{"go.mod": goMod + "\nreplace github.com/google/uuid => ../uuid\n", "go.sum": goSumDrift}, "github.com/google/uuid", "", noEnv,
			outcome{Agree: true, Resolved: map[string]string{"go": "v1.6.0 (replaced by ../uuid)"}}},
		{"go.mod that does not parse", map[string]string{"go.mod": "module x\n\nrequire (\n\tgithub.com/google/uuid\n)\n"}, "github.com/google/uuid", "", noEnv,
			outcome{Rules: []string{"versions/syntax@go.mod:4"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := outcomeOf(verify(t, tt.files, tt.dep, tt.believed, tt.opt))
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func TestGoModuleCacheEvidence(t *testing.T) {
	cache := t.TempDir()
	// Upper case in a module path is escaped with ! in the cache.
	if err := os.MkdirAll(filepath.Join(cache, "github.com", "!burnt!sushi", "toml@v1.6.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"go.mod": "module m\n\ngo 1.24\n\nrequire github.com/BurntSushi/toml v1.6.0\n",
		"go.sum": "github.com/BurntSushi/toml v1.6.0 h1:dRaEfpa2VI55EwlIW72hMRHdWouJeRF7TPYhI+AUQjk=\ngithub.com/BurntSushi/toml v1.6.0/go.mod h1:ukJfTF/6rtPPRCnwkur4qwRxa8vTRFBF0uk2lLoLwho=\n",
	}
	r := verify(t, files, "github.com/BurntSushi/toml", "", Options{Env: func(k string) string {
		return map[string]string{"GOMODCACHE": cache}[k]
	}})
	if !slices.ContainsFunc(r.Evidence, func(e Evidence) bool {
		return e.Kind == Installed && strings.HasSuffix(e.File, "!burnt!sushi/toml@v1.6.0")
	}) {
		t.Errorf("no installed evidence from the escaped cache path: %+v", r.Evidence)
	}
}

const packageJSON = `{
  "name": "storefront",
  "version": "1.4.0",
  "private": true,
  "scripts": {"build": "vite build", "test": "vitest"},
  "dependencies": {
    "react": "^18.2.0",
    "@tanstack/react-query": "~5.28.0",
    "lodash": "4.17.21"
  },
  "devDependencies": {
    "vite": ">=5.0.0 <6",
    "local-ui": "file:../ui"
  }
}
`

func packageLock(react, query string) string {
	return `{
  "name": "storefront",
  "version": "1.4.0",
  "lockfileVersion": 3,
  "requires": true,
  "packages": {
    "": {
      "name": "storefront",
      "version": "1.4.0",
      "dependencies": {"react": "^18.2.0", "@tanstack/react-query": "~5.28.0", "lodash": "4.17.21"}
    },
    "node_modules/@tanstack/react-query": {
      "version": "` + query + `",
      "resolved": "https://registry.npmjs.org/@tanstack/react-query/-/react-query-` + query + `.tgz",
      "integrity": "sha512-AAAA"
    },
    "node_modules/lodash": {
      "version": "4.17.21",
      "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz"
    },
    "node_modules/react": {
      "version": "` + react + `",
      "resolved": "https://registry.npmjs.org/react/-/react-` + react + `.tgz",
      "dependencies": {"loose-envify": "^1.1.0"}
    }
  }
}
`
}

const packageLockV1 = `{
  "name": "storefront",
  "version": "1.4.0",
  "lockfileVersion": 1,
  "requires": true,
  "dependencies": {
    "lodash": {
      "version": "4.17.20",
      "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.20.tgz"
    },
    "react": {
      "version": "18.2.0",
      "resolved": "https://registry.npmjs.org/react/-/react-18.2.0.tgz"
    }
  }
}
`

func pnpmLock9(react string) string {
	return `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    dependencies:
      '@tanstack/react-query':
        specifier: ~5.28.0
        version: 5.28.4(react@` + react + `)
      lodash:
        specifier: 4.17.21
        version: 4.17.21
      react:
        specifier: ^18.2.0
        version: ` + react + `

packages:

  react@` + react + `:
    resolution: {integrity: sha512-AAAA}
    engines: {node: '>=0.10.0'}
`
}

const pnpmLock5 = `lockfileVersion: 5.4

specifiers:
  react: ^18.2.0

dependencies:
  react: 18.2.0_biqbaboplfbrettd7655fr4n2y

packages:

  /react/18.2.0_biqbaboplfbrettd7655fr4n2y:
    resolution: {integrity: sha512-AAAA}
`

func yarnLockV1(react string) string {
	return `# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.
# yarn lockfile v1


"@tanstack/react-query@~5.28.0":
  version "5.28.4"
  resolved "https://registry.yarnpkg.com/@tanstack/react-query/-/react-query-5.28.4.tgz"
  dependencies:
    "@tanstack/query-core" "5.28.4"

lodash@4.17.21:
  version "4.17.21"
  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz"

react@^17.0.0:
  version "17.0.2"

react@^18.0.0, react@^18.2.0:
  version "` + react + `"
  resolved "https://registry.yarnpkg.com/react/-/react-` + react + `.tgz"
  dependencies:
    loose-envify "^1.1.0"
`
}

func yarnBerry(react string) string {
	return `# This file is generated by running "yarn install" inside your project.
# Manual changes might be lost - proceed with caution!

__metadata:
  version: 8
  cacheKey: 10c0

"lodash@npm:4.17.21":
  version: 4.17.21
  resolution: "lodash@npm:4.17.21"
  checksum: 10c0/d8cbea07
  languageName: node
  linkType: hard

"react@npm:^18.2.0":
  version: ` + react + `
  resolution: "react@npm:` + react + `"
  dependencies:
    loose-envify: "npm:^1.1.0"
  checksum: 10c0/283e8c5e
  languageName: node
  linkType: hard

"storefront@workspace:.":
  version: 0.0.0-use.local
  resolution: "storefront@workspace:."
  languageName: unknown
  linkType: soft
`
}

func TestNPM(t *testing.T) {
	pj := map[string]string{"package.json": packageJSON}
	with := func(extra map[string]string) map[string]string {
		m := map[string]string{}
		for k, v := range pj {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name     string
		files    map[string]string
		dep      string
		believed string
		want     outcome
	}{
		{"package-lock v3 agrees", with(map[string]string{"package-lock.json": packageLock("18.3.1", "5.28.4")}), "react", "18.3.1",
			outcome{Agree: true, Resolved: map[string]string{"npm": "18.3.1"}}},
		{"package-lock v3 drifted", with(map[string]string{"package-lock.json": packageLock("17.0.2", "5.28.4")}), "react", "",
			outcome{Rules: []string{"versions/lock-drift@package-lock.json:21"}, Resolved: map[string]string{"npm": "17.0.2"}}},
		{"scoped package, tilde range drifted", with(map[string]string{"package-lock.json": packageLock("18.3.1", "5.29.0")}), "@tanstack/react-query", "",
			outcome{Rules: []string{"versions/lock-drift@package-lock.json:12"}, Resolved: map[string]string{"npm": "5.29.0"}}},
		{"package-lock v1 drifted on an exact pin", with(map[string]string{"package-lock.json": packageLockV1}), "lodash", "",
			outcome{Rules: []string{"versions/lock-drift@package-lock.json:7"}, Resolved: map[string]string{"npm": "4.17.20"}}},
		{"declared but not in the lock", with(map[string]string{"package-lock.json": packageLockV1}), "@tanstack/react-query", "",
			outcome{Rules: []string{"versions/not-locked@package-lock.json:0"}}},
		{"pnpm v9 agrees", with(map[string]string{"pnpm-lock.yaml": pnpmLock9("18.3.1")}), "react", "",
			outcome{Agree: true, Resolved: map[string]string{"npm": "18.3.1"}}},
		{"pnpm v9 peer suffix stripped", with(map[string]string{"pnpm-lock.yaml": pnpmLock9("18.3.1")}), "@tanstack/react-query", "5.28",
			outcome{Agree: true, Resolved: map[string]string{"npm": "5.28.4"}}},
		{"pnpm v9 drifted", with(map[string]string{"pnpm-lock.yaml": pnpmLock9("17.0.2")}), "react", "",
			outcome{Rules: []string{"versions/lock-drift@pnpm-lock.yaml:17"}, Resolved: map[string]string{"npm": "17.0.2"}}},
		{"pnpm v5 underscore suffix", with(map[string]string{"pnpm-lock.yaml": pnpmLock5}), "react", "",
			outcome{Agree: true, Resolved: map[string]string{"npm": "18.2.0"}}},
		{"yarn v1 picks the entry of the declared range", with(map[string]string{"yarn.lock": yarnLockV1("18.3.1")}), "react", "",
			outcome{Agree: true, Resolved: map[string]string{"npm": "18.3.1"}}},
		{"yarn v1 drifted", with(map[string]string{"yarn.lock": yarnLockV1("18.1.0")}), "react", "",
			outcome{Rules: []string{"versions/lock-drift@yarn.lock:18"}, Resolved: map[string]string{"npm": "18.1.0"}}},
		{"yarn berry agrees", with(map[string]string{"yarn.lock": yarnBerry("18.3.1")}), "react", "",
			outcome{Agree: true, Resolved: map[string]string{"npm": "18.3.1"}}},
		{"yarn berry drifted", with(map[string]string{"yarn.lock": yarnBerry("18.0.0-rc.3")}), "react", "",
			outcome{Rules: []string{"versions/lock-drift@yarn.lock:15"}, Resolved: map[string]string{"npm": "18.0.0-rc.3"}}},
		{"installed copy differs from the lock", with(map[string]string{"package-lock.json": packageLock("18.3.1", "5.28.4"),
			"node_modules/react/package.json": `{"name":"react","version":"18.2.0"}`}), "react", "18.3.1",
			outcome{Rules: []string{"versions/belief-mismatch@:0", "versions/installed-drift@node_modules/react/package.json:0"}, Resolved: map[string]string{"npm": "18.2.0"}}},
		{"installed copy is the locked one", with(map[string]string{"package-lock.json": packageLock("18.3.1", "5.28.4"),
			"node_modules/react/package.json": `{"name":"react","version":"18.3.1"}`}), "react", "18",
			outcome{Agree: true, Resolved: map[string]string{"npm": "18.3.1"}}},
		{"a file: dependency is not evaluated", with(nil), "local-ui", "",
			outcome{Agree: true}},
		{"package.json that does not parse", map[string]string{"package.json": "{\n  \"dependencies\": {\n    \"react\": \"^18\",\n  }\n}\n"}, "react", "",
			outcome{Rules: []string{"versions/syntax@package.json:4"}}},
		{"not a dependency", with(map[string]string{"package-lock.json": packageLock("18.3.1", "5.28.4")}), "reactt", "",
			outcome{Rules: []string{"versions/not-found@:0"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := outcomeOf(verify(t, tt.files, tt.dep, tt.believed, noEnv))
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

const pyprojectPEP621 = `[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "ledger-api"
version = "0.3.0"
requires-python = ">=3.11"
dependencies = [
    "fastapi>=0.110,<0.116",
    "pydantic[email]~=2.7",
    "SQLAlchemy>=2.0.29",
    "uvloop>=0.19 ; sys_platform != 'win32'",
]

[project.optional-dependencies]
test = ["pytest>=8", "httpx==0.27.0"]

[dependency-groups]
dev = ["ruff>=0.4", {include-group = "lint"}]
lint = ["mypy>=1.10"]
`

func uvLock(pydantic string) string {
	return `version = 1
revision = 2
requires-python = ">=3.11"

[[package]]
name = "fastapi"
version = "0.115.6"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "httpx"
version = "0.27.0"
source = { registry = "https://pypi.org/simple" }

[[package]]
name = "ledger-api"
version = "0.3.0"
source = { editable = "." }

[[package]]
name = "pydantic"
version = "` + pydantic + `"
source = { registry = "https://pypi.org/simple" }
dependencies = [
    { name = "annotated-types" },
    { name = "pydantic-core" },
]

[[package]]
name = "sqlalchemy"
version = "2.0.36"
source = { registry = "https://pypi.org/simple" }
`
}

const pyprojectPoetry = `[tool.poetry]
name = "billing"
version = "1.2.0"
description = "Invoices"
authors = ["Ana <ana@example.com>"]

[tool.poetry.dependencies]
python = "^3.10"
requests = "^2.31"
Django = "~4.2"
celery = { version = ">=5.3,<6", extras = ["redis"] }
internal-sdk = { git = "https://git.example.com/sdk.git", tag = "v3" }
attrs = "23.2.0"

[tool.poetry.group.dev.dependencies]
pytest = "^8.0"
`

func poetryLock(requests, django string) string {
	return `# This file is automatically @generated by Poetry 1.8.3 and should not be changed by hand.

[[package]]
name = "attrs"
version = "23.2.0"
description = "Classes Without Boilerplate"
optional = false
python-versions = ">=3.7"
files = []

[[package]]
name = "celery"
version = "5.4.0"
description = "Distributed Task Queue."
optional = false
python-versions = ">=3.8"
files = []

[[package]]
name = "django"
version = "` + django + `"
description = "A high-level Python web framework"
optional = false
python-versions = ">=3.8"
files = []

[[package]]
name = "requests"
version = "` + requests + `"
description = "Python HTTP for Humans."
optional = false
python-versions = ">=3.7"
files = []

[metadata]
lock-version = "2.0"
python-versions = "^3.10"
content-hash = "0000"
`
}

func TestPython(t *testing.T) {
	venvMeta := func(dist, name, version string) map[string]string {
		return map[string]string{".venv/lib/python3.12/site-packages/" + dist + "-" + version + ".dist-info/METADATA": "Metadata-Version: 2.1\nName: " + name + "\nVersion: " + version + "\nSummary: x\n\nlong description\nVersion: 0.0.0\n"}
	}
	merge := func(ms ...map[string]string) map[string]string {
		out := map[string]string{}
		for _, m := range ms {
			for k, v := range m {
				out[k] = v
			}
		}
		return out
	}
	tests := []struct {
		name     string
		files    map[string]string
		dep      string
		believed string
		want     outcome
	}{
		{"uv.lock agrees with ~=", map[string]string{"pyproject.toml": pyprojectPEP621, "uv.lock": uvLock("2.9.2")}, "pydantic", "2.9",
			outcome{Agree: true, Resolved: map[string]string{"python": "2.9.2"}}},
		{"uv.lock drifted past ~=", map[string]string{"pyproject.toml": pyprojectPEP621, "uv.lock": uvLock("3.0.0")}, "pydantic", "",
			outcome{Rules: []string{"versions/lock-drift@uv.lock:21"}, Resolved: map[string]string{"python": "3.0.0"}}},
		{"names are normalized (SQLAlchemy, sqlalchemy)", map[string]string{"pyproject.toml": pyprojectPEP621, "uv.lock": uvLock("2.9.2")}, "sqlalchemy", "",
			outcome{Agree: true, Resolved: map[string]string{"python": "2.0.36"}}},
		{"a marker does not hide the requirement", map[string]string{"pyproject.toml": pyprojectPEP621, "uv.lock": uvLock("2.9.2")}, "uvloop", "",
			outcome{Rules: []string{"versions/not-locked@uv.lock:0"}}},
		{"dependency group", map[string]string{"pyproject.toml": pyprojectPEP621, "uv.lock": uvLock("2.9.2")}, "mypy", "",
			outcome{Rules: []string{"versions/not-locked@uv.lock:0"}}},
		{"installed in .venv agrees", merge(map[string]string{"pyproject.toml": pyprojectPEP621, "uv.lock": uvLock("2.9.2")}, venvMeta("pydantic", "pydantic", "2.9.2")), "pydantic", "1.10",
			outcome{Agree: true, Rules: []string{"versions/belief-mismatch@:0"}, Resolved: map[string]string{"python": "2.9.2"}}},
		{"installed in .venv drifted", merge(map[string]string{"pyproject.toml": pyprojectPEP621, "uv.lock": uvLock("2.9.2")}, venvMeta("pydantic", "pydantic", "2.7.0")), "pydantic", "",
			outcome{Rules: []string{"versions/installed-drift@.venv/lib/python3.12/site-packages/pydantic-2.7.0.dist-info/METADATA:0"}, Resolved: map[string]string{"python": "2.7.0"}}},
		{"poetry caret agrees", map[string]string{"pyproject.toml": pyprojectPoetry, "poetry.lock": poetryLock("2.32.3", "4.2.16")}, "requests", "",
			outcome{Agree: true, Resolved: map[string]string{"python": "2.32.3"}}},
		{"poetry caret drifted", map[string]string{"pyproject.toml": pyprojectPoetry, "poetry.lock": poetryLock("3.0.0", "4.2.16")}, "requests", "",
			outcome{Rules: []string{"versions/lock-drift@poetry.lock:28"}, Resolved: map[string]string{"python": "3.0.0"}}},
		{"poetry tilde drifted", map[string]string{"pyproject.toml": pyprojectPoetry, "poetry.lock": poetryLock("2.32.3", "5.0.1")}, "django", "",
			outcome{Rules: []string{"versions/lock-drift@poetry.lock:20"}, Resolved: map[string]string{"python": "5.0.1"}}},
		{"poetry table constraint", map[string]string{"pyproject.toml": pyprojectPoetry, "poetry.lock": poetryLock("2.32.3", "4.2.16")}, "celery", "",
			outcome{Agree: true, Resolved: map[string]string{"python": "5.4.0"}}},
		{"poetry bare version is exact", map[string]string{"pyproject.toml": pyprojectPoetry, "poetry.lock": strings.Replace(poetryLock("2.32.3", "4.2.16"), `"23.2.0"`, `"23.1.0"`, 1)}, "attrs", "",
			outcome{Rules: []string{"versions/lock-drift@poetry.lock:4"}, Resolved: map[string]string{"python": "23.1.0"}}},
		{"requirements with -r include and hashes", map[string]string{
			"requirements.txt":      "# prod\n-r requirements/base.txt\ngunicorn==22.0.0 \\\n    --hash=sha256:aaaa\n",
			"requirements/base.txt": "Flask>=3.0,<3.1  # web\nrequests[socks]==2.32.3\n",
		}, "flask", "",
			outcome{Agree: true}},
		{"pinned requirements resolve", map[string]string{"requirements.txt": "gunicorn==22.0.0 \\\n    --hash=sha256:aaaa\n"}, "gunicorn", "22.0.0",
			outcome{Agree: true, Resolved: map[string]string{"python": "22.0.0"}}},
		{"requirements pin and venv disagree", merge(map[string]string{"requirements.txt": "Flask==3.0.3\n"}, venvMeta("flask", "Flask", "2.3.2")), "flask", "",
			outcome{Rules: []string{"versions/installed-drift@.venv/lib/python3.12/site-packages/flask-2.3.2.dist-info/METADATA:0"}, Resolved: map[string]string{"python": "2.3.2"}}},
		{"pyproject.toml that does not parse", map[string]string{"pyproject.toml": "[project]\nname = \"x\"\ndependencies = [\"requests>=2\"\n"}, "requests", "",
			outcome{Rules: []string{"versions/syntax@pyproject.toml:3"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := outcomeOf(verify(t, tt.files, tt.dep, tt.believed, noEnv))
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

const cargoToml = `[package]
name = "tiler"
version = "0.4.1"
edition = "2021"

[dependencies]
serde = { version = "1.0.197", features = ["derive"] }
tokio = { version = "1.37", features = ["rt-multi-thread", "macros"] }
rand = "0.8"
img = { package = "image", version = "0.25.1", default-features = false }
geo-core = { path = "../geo-core" }

[dev-dependencies]
criterion = "0.5"

[target.'cfg(unix)'.dependencies]
nix = "=0.28.0"
`

func cargoLock(tokio, rand string) string {
	return `# This file is automatically @generated by Cargo.
# It is not intended for manual editing.
version = 3

[[package]]
name = "image"
version = "0.25.1"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "fd54d660e773627692c524beaad361aca785a4f9f5730ce91f42aabe5bce3d11"

[[package]]
name = "nix"
version = "0.28.0"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "rand"
version = "0.7.3"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "rand"
version = "` + rand + `"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "serde"
version = "1.0.203"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "tokio"
version = "` + tokio + `"
source = "registry+https://github.com/rust-lang/crates.io-index"
dependencies = [
 "pin-project-lite",
]
`
}

func TestCargo(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		dep   string
		want  outcome
	}{
		{"Cargo.lock agrees", map[string]string{"Cargo.toml": cargoToml, "Cargo.lock": cargoLock("1.38.0", "0.8.5")}, "tokio",
			outcome{Agree: true, Resolved: map[string]string{"cargo": "1.38.0"}}},
		{"Cargo.lock drifted (bare version is a caret)", map[string]string{"Cargo.toml": cargoToml, "Cargo.lock": cargoLock("1.36.0", "0.8.5")}, "tokio",
			outcome{Rules: []string{"versions/lock-drift@Cargo.lock:32"}, Resolved: map[string]string{"cargo": "1.36.0"}}},
		{"two versions locked, the one asked for is picked", map[string]string{"Cargo.toml": cargoToml, "Cargo.lock": cargoLock("1.38.0", "0.8.5")}, "rand",
			outcome{Agree: true, Resolved: map[string]string{"cargo": "0.8.5"}}},
		{"two versions locked, none fits", map[string]string{"Cargo.toml": cargoToml, "Cargo.lock": cargoLock("1.38.0", "0.9.0")}, "rand",
			outcome{Rules: []string{"versions/lock-drift@Cargo.lock:17"}}},
		{"renamed crate", map[string]string{"Cargo.toml": cargoToml, "Cargo.lock": cargoLock("1.38.0", "0.8.5")}, "image",
			outcome{Agree: true, Resolved: map[string]string{"cargo": "0.25.1"}}},
		{"target-specific exact requirement", map[string]string{"Cargo.toml": cargoToml, "Cargo.lock": cargoLock("1.38.0", "0.8.5")}, "nix",
			outcome{Agree: true, Resolved: map[string]string{"cargo": "0.28.0"}}},
		{"dev-dependency not locked", map[string]string{"Cargo.toml": cargoToml, "Cargo.lock": cargoLock("1.38.0", "0.8.5")}, "criterion",
			outcome{Rules: []string{"versions/not-locked@Cargo.lock:0"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := outcomeOf(verify(t, tt.files, tt.dep, "", noEnv))
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got)\n%s", d)
			}
		})
	}
}

func TestCargoRegistrySource(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "registry", "src", "index.crates.io-6f17d22bba15001f", "tokio-1.38.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := verify(t, map[string]string{"Cargo.toml": cargoToml, "Cargo.lock": cargoLock("1.38.0", "0.8.5")}, "tokio", "", Options{Env: func(k string) string {
		return map[string]string{"CARGO_HOME": home}[k]
	}})
	if !slices.ContainsFunc(r.Evidence, func(e Evidence) bool { return e.Kind == Installed && e.Version == "1.38.0" }) || !r.Agree {
		t.Errorf("want installed tokio 1.38.0 from the registry source, agreeing; got %+v", r)
	}
}

func TestBadArguments(t *testing.T) {
	for _, tt := range []struct{ name, believed, field string }{
		{"", "", "name"},
		{"a\nb", "", "name"},
		{"react", "1.0\x00", "believed"},
	} {
		_, err := Verify(context.Background(), os.DirFS(t.TempDir()), tt.name, tt.believed, noEnv)
		var fe *problem.FieldError
		if !errors.As(err, &fe) || fe.Field != tt.field {
			t.Errorf("Verify(%q, %q): err %v, want a FieldError on %s", tt.name, tt.believed, err, tt.field)
		}
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Verify(ctx, os.DirFS(writeProject(t, map[string]string{"go.mod": goMod})), "github.com/google/uuid", "", noEnv); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

func TestRules(t *testing.T) {
	checktest.Rules(t, rulesChecker{})
}

// rulesChecker lends Rules to checktest.Rules, which wants a Checker.
type rulesChecker struct{}

func (rulesChecker) Name() string              { return "versions" }
func (rulesChecker) Rules() []check.Rule       { return Rules() }
func (rulesChecker) Wants(string, []byte) bool { return false }
func (rulesChecker) Check(context.Context, *check.Input) (check.Result, error) {
	return check.Result{}, nil
}
