package service_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service"
)

// TestMemoryFilesRefuseSymlinks: a symbolic link committed under
// .cairn/memory (a hostile repository) makes export refuse rather than
// write outside the project, and import skip it rather than read outside.
func TestMemoryFilesRefuseSymlinks(t *testing.T) {
	ctx := context.Background()
	m := service.NewMemory(openStore(t), service.MemoryOptions{})
	if _, err := m.Add(ctx, "a", memory.Entry{Type: memory.Convention, Title: "tabs", Content: "use tabs"}); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	outside := t.TempDir()
	dir := filepath.Join(root, ".cairn", "memory")
	os.MkdirAll(dir, 0o755)

	// Export: a linked subdirectory, a linked memory directory, a linked .cairn.
	for _, link := range []struct{ at, to string }{
		{filepath.Join(dir, "conventions"), outside},
		{dir, outside},
		{filepath.Join(root, ".cairn"), outside},
	} {
		os.RemoveAll(filepath.Join(root, ".cairn"))
		os.MkdirAll(filepath.Dir(link.at), 0o755)
		if err := os.Symlink(link.to, link.at); err != nil {
			t.Fatal(err)
		}
		_, err := m.Export(ctx, dir)
		if !errors.Is(err, service.ErrSymlink) || !strings.Contains(err.Error(), link.at) {
			t.Errorf("export with %s linked: %v, want a refusal naming it", link.at, err)
		}
		if left, _ := os.ReadDir(outside); len(left) != 0 {
			t.Fatalf("export with %s linked wrote outside the project: %v", link.at, left)
		}
	}

	// A clean export, then import with a linked file among the real ones.
	os.RemoveAll(filepath.Join(root, ".cairn"))
	if _, err := m.Export(ctx, dir); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(outside, "secret.md")
	os.WriteFile(secret, []byte("---\nuid: abcdefgh12\ntype: decision\ntitle: stolen\n---\nfrom outside\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "decisions"), 0o755)
	if err := os.Symlink(secret, filepath.Join(dir, "decisions", "abcdefgh12.md")); err != nil {
		t.Fatal(err)
	}
	im, err := m.Import(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if im.Added != 0 || len(im.Problems) != 1 || !strings.Contains(im.Problems[0], "symbolic link, skipped") {
		t.Fatalf("import with a linked file: %+v", im)
	}
	// A linked memory directory is refused outright.
	os.RemoveAll(dir)
	os.Symlink(outside, dir)
	if _, err := m.Import(ctx, dir); !errors.Is(err, service.ErrSymlink) {
		t.Fatalf("import of a linked directory: %v", err)
	}
}

// TestImportRedactsBranchAndTags: an imported file's branch and tags go
// through redaction like its text.
func TestImportRedactsBranchAndTags(t *testing.T) {
	ctx := context.Background()
	m := service.NewMemory(openStore(t), service.MemoryOptions{})
	dir := filepath.Join(t.TempDir(), "memory")
	os.MkdirAll(filepath.Join(dir, "decisions"), 0o755)
	pat := "ghp_" + "Zq00a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"
	file := "---\nuid: abcdefgh12\ntype: decision\ntitle: use tabs\ntags: [style, " + pat + "]\nbranch: feature-" + pat +
		"\ncreated: 2026-01-02T03:04:05Z\nupdated: 2026-01-02T03:04:05Z\n---\nbody\n"
	os.WriteFile(filepath.Join(dir, "decisions", "abcdefgh12.md"), []byte(file), 0o644)
	im, err := m.Import(ctx, dir)
	if err != nil || im.Added != 1 || im.Redacted < 2 {
		t.Fatalf("import: %+v %v", im, err)
	}
	out := t.TempDir()
	if _, err := m.Export(ctx, out); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(out, "decisions", "abcdefgh12.md"))
	if strings.Contains(string(b), pat) || !strings.Contains(string(b), "style") {
		t.Fatalf("exported after import:\n%s", b)
	}
}

// TestScrubReachesEveryString: the one redaction pass reaches strings in
// structs, pointers, slices and map values (lifecycle evidence).
func TestScrubReachesEveryString(t *testing.T) {
	pat := "ghp_" + "Zq00a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6"
	type inner struct{ Note string }
	in := struct {
		Title    string
		Ptr      *string
		List     []string
		Evidence map[string]string
		Nested   []inner
		Map      map[string]inner
	}{Title: pat, Ptr: &pat, List: []string{"ok", pat}, Evidence: map[string]string{"tests_pass": "ran with " + pat},
		Nested: []inner{{Note: pat}}, Map: map[string]inner{"a": {Note: pat}}}
	p := pat
	in.Ptr = &p
	if n := service.ScrubForTest(&in); n != 6 {
		t.Fatalf("scrubbed %d, want 6: %+v", n, in)
	}
	for _, s := range []string{in.Title, *in.Ptr, in.List[1], in.Evidence["tests_pass"], in.Nested[0].Note, in.Map["a"].Note} {
		if strings.Contains(s, pat) {
			t.Fatalf("left verbatim: %+v", in)
		}
	}
	if in.List[0] != "ok" {
		t.Fatal("ordinary text changed")
	}
}
