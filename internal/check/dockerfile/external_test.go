package dockerfile

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/internal/check"
	"github.com/cairn-dev/cairn/internal/testing/checktest"
)

// realSource is a set of real Dockerfiles nobody here wrote: in a module
// of go.mod or an npm package of testdata/corpus.txt, read where they are.
type realSource struct {
	name  string
	root  func(t *testing.T) string
	paths []string // files or directories under root
}

func goModule(mod string) func(t *testing.T) string {
	return func(t *testing.T) string { return moduleDir(t, mod) }
}

func npmPackage(pkg string) func(t *testing.T) string {
	return func(t *testing.T) string { return checktest.External(t, pkg) }
}

// realValid are real Dockerfiles that build: no finding of severity error
// is allowed on them.
var realValid = []realSource{
	{"buildkit", goModule("github.com/moby/buildkit"), []string{"Dockerfile", "examples/create-certs/Dockerfile",
		"frontend/dockerfile/cmd/dockerfile-frontend/Dockerfile", "hack/dockerfiles", "frontend/dockerfile/parser/testfile-line/Dockerfile"}},
	{"shfmt", goModule("mvdan.cc/sh/v3"), []string{"cmd/shfmt/Dockerfile"}},
	{"x/sys", goModule("golang.org/x/sys"), []string{"unix/linux/Dockerfile"}},
	{"x/net", goModule("golang.org/x/net"), []string{"internal/quic/cmd/interop/Dockerfile"}},
	{"gobwas/ws", goModule("github.com/gobwas/ws"), []string{"autobahn/docker"}},
	{"pgx", goModule("github.com/jackc/pgx/v5"), []string{".devcontainer/Dockerfile"}},
	{"bcrypt", npmPackage("bcrypt"), []string{"Dockerfile", "Dockerfile-alpine"}},
	{"dockerfilelint", npmPackage("dockerfilelint"), []string{"Dockerfile", "test/integration/Dockerfile",
		"test/examples/Dockerfile.arg-before-from", "test/examples/Dockerfile.busybox", "test/examples/Dockerfile.debian",
		"test/examples/Dockerfile.from-as", "test/examples/Dockerfile.from-with-port", "test/examples/Dockerfile.from-with-port-no-latest",
		"test/examples/Dockerfile.mongo", "test/examples/Dockerfile.multistage", "test/examples/Dockerfile.multistagenamed",
		"test/examples/Dockerfile.mysql", "test/examples/Dockerfile.nginx", "test/examples/Dockerfile.node",
		"test/examples/Dockerfile.redis", "test/examples/Dockerfile.registry", "test/examples/Dockerfile.shell.pass",
		"test/examples/Dockerfile.swarm", "test/examples/Dockerfile.ubuntu"}},
}

// realBroken are real Dockerfiles made to fail: each listed line must have
// an error finding of the rule.
var realBroken = []struct {
	realSource
	want []checktest.Want // File relative to root
}{
	{realSource{"buildkit negative parser tests", goModule("github.com/moby/buildkit"), []string{"frontend/dockerfile/parser/testfiles-negative"}},
		[]checktest.Want{
			{File: "frontend/dockerfile/parser/testfiles-negative/env_no_value/Dockerfile", Line: 3, Rule: RuleSyntax},
			{File: "frontend/dockerfile/parser/testfiles-negative/only_comments/Dockerfile", Line: 3, Rule: RuleSyntax},
			{File: "frontend/dockerfile/parser/testfiles-negative/shykes-nested-json/Dockerfile", Line: 1, Rule: RuleSyntax},
			{File: "frontend/dockerfile/parser/testfiles-negative/empty_dockerfile/Dockerfile", Line: 0, Rule: RuleSyntax},
		}},
	{realSource{"dockerfilelint failing fixtures", npmPackage("dockerfilelint"), []string{"test/examples/Dockerfile.misc", "test/examples/Dockerfile.shell.fail"}},
		[]checktest.Want{
			{File: "test/examples/Dockerfile.misc", Line: 4, Rule: RuleSyntax},  // CMD before FROM
			{File: "test/examples/Dockerfile.misc", Line: 7, Rule: RuleSyntax},  // unknown instruction
			{File: "test/examples/Dockerfile.misc", Line: 11, Rule: RuleSyntax}, // ADD without a destination
			{File: "test/examples/Dockerfile.misc", Line: 24, Rule: RuleBuildError},
			{File: "test/examples/Dockerfile.misc", Line: 27, Rule: RuleSyntax}, // ENV a=b c
			{File: "test/examples/Dockerfile.shell.fail", Line: 4, Rule: RuleSyntax},
		}},
}

func runReal(t *testing.T, s realSource) (string, *check.Report) {
	t.Helper()
	root := s.root(t)
	rep, err := check.Run(context.Background(), []check.Checker{New()}, check.Request{Root: root, Paths: s.paths, Only: []string{"dockerfile"}})
	if err != nil {
		t.Fatalf("%s: %v", s.name, err)
	}
	checktest.Declared(t, New(), rep.Findings)
	for _, sk := range rep.Skipped {
		t.Errorf("%s: %s skipped: %s", s.name, sk.Path, sk.Reason)
	}
	return root, rep
}

// TestRealDockerfiles runs the checker over real Dockerfiles from the
// modules of go.mod and the npm packages of testdata/corpus.txt: those
// that build give no error; those made to fail give theirs.
func TestRealDockerfiles(t *testing.T) {
	files, falseErrors, warnings := 0, 0, 0
	for _, s := range realValid {
		t.Run(s.name, func(t *testing.T) {
			_, rep := runReal(t, s)
			files += rep.ByChecker["dockerfile"]
			for _, f := range rep.Findings {
				switch f.Severity {
				case check.Error:
					falseErrors++
					t.Errorf("%s: %s", s.name, f)
				case check.Warning:
					warnings++
				}
			}
		})
	}
	seeded, caught := 0, 0
	for _, s := range realBroken {
		t.Run(s.name, func(t *testing.T) {
			_, rep := runReal(t, s.realSource)
			files += rep.ByChecker["dockerfile"]
			for _, w := range s.want {
				seeded++
				if slices.ContainsFunc(rep.Findings, func(f check.Finding) bool {
					return filepath.ToSlash(f.File) == w.File && f.Line == w.Line && f.Rule == w.Rule && f.Severity == check.Error
				}) {
					caught++
					continue
				}
				t.Errorf("%s: no %s error at %s:%d", s.name, w.Rule, w.File, w.Line)
			}
		})
	}
	t.Logf("real Dockerfiles: %d files, %d false errors (%d warnings) on those that build; %d/%d known failures caught",
		files, falseErrors, warnings, caught, seeded)
}
