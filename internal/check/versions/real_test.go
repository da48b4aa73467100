package versions

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"

	"github.com/cairn-dev/cairn/internal/check"
)

// sampleSize is how many of n names tally verifies.
func sampleSize(n int) int {
	if raceEnabled {
		return min(n, 8)
	}
	return n
}

// moduleDir finds a module of cairn's build graph in the module cache.
func moduleDir(t *testing.T, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", mod).Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("module %s is not in the module cache (go mod download %s)", mod, mod)
		}
		t.Skipf("module %s is not in the module cache", mod)
	}
	return dir
}

// repoRoot is cairn's own checkout.
func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..")
}

// tally runs Verify on every declared dependency of a real project and
// reports the verdicts; the project's committed lock is taken to agree
// with its manifest, so an error is a false error unless the test names it.
func tally(t *testing.T, dir string, names []string, opt Options) (agree, locked, findings int, errs []string) {
	t.Helper()
	if raceEnabled && len(names) > 8 {
		names = names[:8] // a sample: the race detector makes each lock parse slow
	}
	fsys := os.DirFS(dir)
	for _, n := range names {
		r, err := Verify(context.Background(), fsys, n, "", opt)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		if r.Agree {
			agree++
		}
		for _, e := range r.Evidence {
			if e.Kind == Locked {
				locked++
				break
			}
		}
		for _, f := range r.Findings {
			findings++
			if f.Severity == check.Error {
				errs = append(errs, f.String())
			}
		}
	}
	return agree, locked, findings, errs
}

func npmNames(t *testing.T, dir string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pj map[string]map[string]string
	_ = json.Unmarshal(b, &pj) // fields of other shapes are skipped
	var names []string
	for _, sec := range []string{"dependencies", "devDependencies", "optionalDependencies"} {
		for n := range pj[sec] {
			names = append(names, n)
		}
	}
	return names
}

// TestRealProjects runs Verify on lock files nobody here wrote: cairn's own
// go.mod and go.sum, and the JavaScript front ends that Go modules of
// cairn's build graph ship (npm's package-lock, pnpm's lock).
func TestRealProjects(t *testing.T) {
	if testing.Short() {
		t.Skip("reads real projects")
	}
	t.Run("cairn go.mod", func(t *testing.T) {
		root := repoRoot(t)
		b, err := os.ReadFile(filepath.Join(root, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		mf, err := modfile.Parse("go.mod", b, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range mf.Require {
			names = append(names, r.Mod.Path)
		}
		agree, locked, n, errs := tally(t, root, names, Options{})
		t.Logf("go: %d requirements, %d locked in go.sum, %d agree, %d findings", len(names), locked, agree, n)
		if want := min(len(names), sampleSize(len(names))); len(errs) > 0 || agree != want || locked != want {
			t.Errorf("false errors on cairn's own go.sum:\n%s", strings.Join(errs, "\n"))
		}
	})
	for _, p := range []struct{ mod, sub string }{
		{"vitess.io/vitess", "web/vtadmin"},
		{"github.com/pb33f/jsonpath", "web"},
	} {
		t.Run(p.mod+"/"+p.sub, func(t *testing.T) {
			dir := filepath.Join(moduleDir(t, p.mod), filepath.FromSlash(p.sub))
			names := npmNames(t, dir)
			agree, locked, n, errs := tally(t, dir, names, Options{NoCaches: true})
			t.Logf("npm: %d dependencies, %d locked, %d agree, %d findings", len(names), locked, agree, n)
			if len(names) == 0 || len(errs) > 0 || locked != sampleSize(len(names)) {
				t.Errorf("%d names; false errors:\n%s", len(names), strings.Join(errs, "\n"))
			}
		})
	}
}

// TestRealProjectDrift edits a real manifest so that one range excludes
// the locked version: exactly that dependency drifts.
func TestRealProjectDrift(t *testing.T) {
	if testing.Short() {
		t.Skip("reads real projects")
	}
	src := filepath.Join(moduleDir(t, "vitess.io/vitess"), "web", "vtadmin")
	dst := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "package.json" {
			var pj map[string]any
			if err := json.Unmarshal(b, &pj); err != nil {
				t.Fatal(err)
			}
			deps := pj["dependencies"].(map[string]any)
			deps["react"] = ">=999.0.0"
			if b, err = json.MarshalIndent(pj, "", "  "); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dst, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys := os.DirFS(dst)
	names := npmNames(t, dst)
	if raceEnabled {
		names = []string{"react", names[0]} // a sample under the race detector
	}
	for _, n := range names {
		r, err := Verify(context.Background(), fsys, n, "", Options{NoCaches: true})
		if err != nil {
			t.Fatal(err)
		}
		drift := hasRule(r.Findings, RuleLockDrift)
		if drift != (n == "react") {
			t.Errorf("%s: lock-drift %v, findings %v", n, drift, r.Findings)
		}
	}
}
