package service_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/redact"
	"github.com/cairn-dev/cairn/internal/service/memories"
)

// TestMemoryFilesRefuseSymlinks: a symbolic link committed under
// .cairn/memory (a hostile repository) makes export refuse rather than
// write outside the project, and import skip it rather than read outside.
func TestMemoryFilesRefuseSymlinks(t *testing.T) {
	ctx := context.Background()
	m := memories.NewMemory(openStore(t), memories.MemoryOptions{})
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
		if !errors.Is(err, memories.ErrSymlink) || !strings.Contains(err.Error(), link.at) {
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
	if _, err := m.Import(ctx, dir); !errors.Is(err, memories.ErrSymlink) {
		t.Fatalf("import of a linked directory: %v", err)
	}
}

// TestImportRedactsBranchAndTags: an imported file's branch and tags go
// through redaction like its text.
func TestImportRedactsBranchAndTags(t *testing.T) {
	ctx := context.Background()
	m := memories.NewMemory(openStore(t), memories.MemoryOptions{})
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
	if n := redact.Scrub(&in); n != 6 {
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

// TestSupersessionTravelsInFiles: an export records which entry replaced
// which by uid, and an import into another store marks the same entry
// superseded (hidden from search), once; a file naming an unknown uid, or a
// pair of files that would make the chain loop, is imported with a note
// rather than linked; a file naming itself is skipped.
func TestSupersessionTravelsInFiles(t *testing.T) {
	ctx := context.Background()
	a := memories.NewMemory(openStore(t), memories.MemoryOptions{})
	old, err := a.Add(ctx, "x", memory.Entry{Type: memory.Decision, Title: "store sessions in redis", Content: "redis holds sessions"})
	if err != nil {
		t.Fatal(err)
	}
	nu, err := a.Record(ctx, "x", memories.AddRequest{Entry: memory.Entry{Type: memory.Decision, Title: "store sessions in postgres",
		Content: "postgres holds sessions"}, Supersedes: old.Entry.ID.String()})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "memory")
	if _, err := a.Export(ctx, dir); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "decisions", old.Entry.UID+".md"))
	if !strings.Contains(string(b), "superseded_by: "+nu.Entry.UID+"\n") {
		t.Fatalf("the replaced decision's file does not name its replacement:\n%s", b)
	}

	m := memories.NewMemory(openStore(t), memories.MemoryOptions{})
	im, err := m.Import(ctx, dir)
	if err != nil || im.Added != 2 || im.Superseded != 1 || len(im.Notes)+len(im.Problems) != 0 {
		t.Fatalf("import: %+v %v", im, err)
	}
	res, err := m.Search(ctx, memories.SearchQuery{Text: "where are sessions stored"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].Title != nu.Entry.Title {
		t.Fatalf("search after import lists %+v, want only the replacement", res.Hits)
	}
	if im, err := m.Import(ctx, dir); err != nil || im.Unchanged != 2 || im.Superseded != 0 || len(im.Notes) != 0 {
		t.Fatalf("second import: %+v %v", im, err)
	}

	// Hand-edited files: an unknown uid, a loop, and the entry itself.
	bad := filepath.Join(t.TempDir(), "memory")
	os.MkdirAll(filepath.Join(bad, "conventions"), 0o755)
	write := func(uid, by string) {
		f := "---\nuid: " + uid + "\ntype: convention\ntitle: rule " + uid + "\nsuperseded_by: " + by +
			"\ncreated: 2026-01-02T03:04:05Z\n---\nbody\n"
		os.WriteFile(filepath.Join(bad, "conventions", uid+".md"), []byte(f), 0o644)
	}
	write("aaaaaaaa01", "zzzzzzzz99")
	write("bbbbbbbb02", "cccccccc03")
	write("cccccccc03", "bbbbbbbb02")
	write("dddddddd04", "dddddddd04")
	im, err = m.Import(ctx, bad)
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(im.Notes, "\n")
	if im.Added != 3 || im.Superseded != 1 || len(im.Notes) != 2 || !strings.Contains(notes, "zzzzzzzz99 names no entry") ||
		!strings.Contains(notes, "loop") || len(im.Problems) != 1 || !strings.Contains(im.Problems[0], "names the entry itself") {
		t.Fatalf("import of hand-edited links: %+v", im)
	}
}

// TestMemoryFilesSkipFIFOsAndHugeFiles: a FIFO named like a memory file
// made import and export block for ever, and a 300 MB file was read whole
// (issue 34, attack 16). Import skips both with a reason and imports the
// rest; export refuses to compare against a FIFO.
func TestMemoryFilesSkipFIFOsAndHugeFiles(t *testing.T) {
	ctx := context.Background()
	m := memories.NewMemory(openStore(t), memories.MemoryOptions{})
	if _, err := m.Add(ctx, "a", memory.Entry{Type: memory.Convention, Title: "tabs", Content: "use tabs"}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), ".cairn", "memory")
	if _, err := m.Export(ctx, dir); err != nil {
		t.Fatal(err)
	}
	decisions := filepath.Join(dir, "decisions")
	os.MkdirAll(decisions, 0o755)
	if err := syscall.Mkfifo(filepath.Join(decisions, "fifo.md"), 0o644); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	huge := "---\nuid: hugehuge12\ntype: decision\ntitle: huge\n---\n" + strings.Repeat("x", 2<<20)
	os.WriteFile(filepath.Join(decisions, "huge.md"), []byte(huge), 0o644)
	os.WriteFile(filepath.Join(decisions, "ok.md"), []byte("---\nuid: okokokok12\ntype: decision\ntitle: use sqlite\ncreated: 2026-11-29T00:00:00Z\n---\nembedded\n"), 0o644)

	done := make(chan struct{})
	var im memories.Imported
	var err error
	go func() { im, err = m.Import(ctx, dir); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute): // a hang, not a speed budget
		t.Fatal("import blocked on the FIFO")
	}
	if err != nil {
		t.Fatal(err)
	}
	if im.Added != 1 || len(im.Problems) != 2 {
		t.Fatalf("import: %+v", im)
	}
	for _, p := range im.Problems {
		if !strings.Contains(p, "not a regular file") && !strings.Contains(p, "over 1024 KiB") {
			t.Errorf("problem %q does not say why", p)
		}
	}

	os.Remove(filepath.Join(decisions, "huge.md"))
	os.Remove(filepath.Join(decisions, "ok.md"))
	os.Remove(filepath.Join(decisions, "fifo.md"))
	convs, _ := filepath.Glob(filepath.Join(dir, "conventions", "*.md"))
	if len(convs) != 1 {
		t.Fatalf("exported conventions: %v", convs)
	}
	os.Remove(convs[0])
	if err := syscall.Mkfifo(convs[0], 0o644); err != nil {
		t.Fatal(err)
	}
	done = make(chan struct{})
	go func() { _, err = m.Export(ctx, dir); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("export blocked on the FIFO")
	}
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("export over a FIFO: %v", err)
	}
}
