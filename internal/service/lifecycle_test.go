package service_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/lifecycle"
	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/lifecycles"
)

func TestLifecycleDefinitions(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const one = "phases:\n  - name: A\n    exit:\n      - id: a\n        text: t\n"
	write("mine.yaml", "name: mine\n"+one)
	write("asdd.yaml", "name: asdd\n"+one) // a built-in's name
	write("broken.yaml", "name: broken\nphases: 3\n")
	outside := filepath.Join(t.TempDir(), "outside.yaml")
	os.WriteFile(outside, []byte("name: outside\n"+one), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "outside.yaml")); err != nil {
		t.Fatal(err)
	}
	l := lifecycles.NewLifecycles(openStore(t), dir, nil)
	ds, err := l.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range ds.List {
		names = append(names, d.Name)
	}
	if got := strings.Join(names, " "); got != "asdd asdd6 mine" {
		t.Errorf("definitions = %s; want asdd asdd6 mine", got)
	}
	var problems []string
	for _, p := range ds.Problems {
		problems = append(problems, lifecycle.Where(p))
	}
	want := []string{
		".cairn/lifecycles/asdd.yaml:1: name asdd is already defined; choose another",
		".cairn/lifecycles/broken.yaml:2:",
		".cairn/lifecycles/outside.yaml: is not a regular file",
	}
	if len(problems) != len(want) {
		t.Fatalf("problems = %q; want %q", problems, want)
	}
	for i := range want {
		if !strings.HasPrefix(problems[i], want[i]) {
			t.Errorf("problem %d = %q; want it to start %q", i, problems[i], want[i])
		}
	}
	if d, err := l.Definition(""); err != nil || d.Name != lifecycle.DefaultName {
		t.Errorf("the default definition: %v, %v", d.Name, err)
	}
	if _, err := l.Definition("broken"); !problem.Is(err, problem.Malformed) {
		t.Errorf("a malformed definition by name: %v; want it refused as malformed", err)
	} else if fp, _ := lifecycle.FileProblemOf(err); fp.Line != 2 {
		t.Errorf("a malformed definition by name: %v; want it at line 2", err)
	}
	var fe *problem.FieldError
	if _, err := l.Definition("nope"); !errors.As(err, &fe) || fe.Field != "definition" || !strings.Contains(fe.Fix, "asdd, asdd6, mine") {
		t.Errorf("an unknown definition: %v", err)
	}
}

// TestLifecycleDefinitionsBounded: a symlinked lifecycles directory is not
// followed, a directory of many files is read up to its bound, and an
// edited file is read again while an unchanged one is not (issue 34,
// attack 11: 300 files of 250 KB made every lifecycle call take 12-30 s).
func TestLifecycleDefinitionsBounded(t *testing.T) {
	const one = "phases:\n  - name: A\n    exit:\n      - id: a\n        text: t\n"
	root := t.TempDir()
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "leak.yaml"), []byte("name: leak\n"+one), 0o644)
	linked := filepath.Join(root, "lifecycles")
	if err := os.Symlink(outside, linked); err != nil {
		t.Fatal(err)
	}
	ds, err := lifecycles.NewLifecycles(openStore(t), linked, nil).Definitions()
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds.List {
		if d.Name == "leak" {
			t.Fatal("a definition was read through a symlinked directory")
		}
	}
	if len(ds.Problems) != 1 || !strings.Contains(lifecycle.Where(ds.Problems[0]), "symbolic link") {
		t.Fatalf("problems: %v", ds.Problems)
	}

	dir := t.TempDir()
	for i := range 70 {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("l%02d.yaml", i)), []byte(fmt.Sprintf("name: l%02d\n%s", i, one)), 0o644)
	}
	l := lifecycles.NewLifecycles(openStore(t), dir, nil)
	ds, err = l.Definitions()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(ds.List) - len(lifecycle.Builtins()); n != 64 || len(ds.Problems) != 1 || !strings.Contains(lifecycle.Where(ds.Problems[0]), "holds 70 definition files") {
		t.Fatalf("%d definitions read, problems %v", n, ds.Problems)
	}

	// A changed file is read again; its mtime moves with the write.
	f := filepath.Join(dir, "l00.yaml")
	os.WriteFile(f, []byte("name: renamed\n"+one), 0o644)
	later := time.Now().Add(time.Minute)
	os.Chtimes(f, later, later)
	if d, err := l.Definition("renamed"); err != nil || d.Name != "renamed" {
		t.Fatalf("the edited definition: %v %v", d.Name, err)
	}
}
