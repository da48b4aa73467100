package versions

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestDrift(t *testing.T) {
	files := map[string]string{
		"go.mod":            goMod,
		"go.sum":            goSumDrift,
		"package.json":      packageJSON,
		"package-lock.json": packageLock("17.0.2", "5.28.4"),
		"pyproject.toml":    pyprojectPEP621,
		"uv.lock":           uvLock("2.9.2"),
		"Cargo.toml":        cargoToml,
		"Cargo.lock":        cargoLock("1.38.0", "0.8.5"),
	}
	got, err := Drift(context.Background(), os.DirFS(writeProject(t, files)), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range got {
		rules = append(rules, f.Rule+"@"+f.File+":"+itoa(f.Line))
	}
	slices.Sort(rules)
	want := []string{
		"versions/go-sum-missing@go.sum:0",         // uuid v1.6.0 without its checksum
		"versions/lock-drift@package-lock.json:21", // react ^18.2.0 locked at 17.0.2
		"versions/not-locked@Cargo.lock:0",         // criterion
		"versions/not-locked@package-lock.json:0",  // vite: the lock has none
		"versions/not-locked@uv.lock:0",            // pytest, ruff, mypy, uvloop...
	}
	if d := cmp.Diff(want, uniqRules(rules)); d != "" {
		t.Errorf("(-want +got)\n%s\nall: %v", d, rules)
	}
}

func uniqRules(rs []string) []string {
	var out []string
	for _, r := range rs {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func TestDriftOnARealProject(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("reads a real project: too slow under the race detector, run without -race")
	}
	dir := filepath.Join(moduleDir(t, "vitess.io/vitess"), "web", "vtadmin")
	got, err := Drift(context.Background(), os.DirFS(dir), Options{NoCaches: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("a real project's committed lock drifts? %v", got)
	}
	if n := len(DeclaredNames(os.DirFS(dir))["npm"]); n < 20 {
		t.Errorf("only %d npm names declared", n)
	}
}

func TestLocalDependenciesAreNotReportedUnlocked(t *testing.T) {
	files := map[string]string{
		"package.json":      `{"dependencies": {"ui": "file:../ui", "react": "^18.2.0"}}`,
		"package-lock.json": `{"lockfileVersion": 3, "packages": {"node_modules/react": {"version": "18.3.1"}, "node_modules/ui": {"link": true, "resolved": "../ui"}}}`,
		"Cargo.toml":        "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\ngeo = { path = \"../geo\" }\n",
		"Cargo.lock":        "version = 3\n\n[[package]]\nname = \"x\"\nversion = \"0.1.0\"\n",
	}
	got, err := Drift(context.Background(), os.DirFS(writeProject(t, files)), noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 0 {
		t.Errorf("want no findings for local dependencies, got %v", got)
	}
}
