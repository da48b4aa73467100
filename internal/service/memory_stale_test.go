package service_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/service/memories"
	"github.com/cairn-dev/cairn/internal/store"
)

// TestMemoryStaleParts: an entry remembers the parts of its files it points
// at, and is stale only when one of them changed or is gone: an edit
// elsewhere in an active file is not news. An entry that names a whole
// file, or was recorded before parts were remembered (a bare hash), says
// only that the file changed since.
func TestMemoryStaleParts(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const goSrc = "package store\n\n// Open opens.\nfunc Open(dsn string) error {\n\treturn nil\n}\n\nfunc (s *Store) Close() error { return nil }\n\nfunc helper() {}\n"
	const pySrc = "def load_csv(path):\n    return open(path).read()\n\n\ndef other():\n    return 1\n"
	write("store/store.go", goSrc)
	write("analytics/load.py", pySrc)
	write("docs/steps.md", "one\ntwo\nthree\n")
	st := openStore(t)
	m := memories.NewMemory(st, memories.MemoryOptions{Root: root})
	add := func(e memory.Entry) memory.Entry {
		t.Helper()
		r, err := m.Add(ctx, "", e)
		if err != nil {
			t.Fatal(err)
		}
		return r.Entry
	}
	goEntry := add(memory.Entry{Type: memory.Decision, Title: "Open never dials", Content: "`Open` only parses the DSN; `Store.Close` is idempotent.",
		Files: []string{"store/store.go"}})
	pyEntry := add(memory.Entry{Type: memory.Convention, Title: "Read CSVs through load_csv()", Files: []string{"analytics/load.py"}})
	lines := add(memory.Entry{Type: memory.Context, Title: "The steps", Files: []string{"docs/steps.md:2-3"}})
	whole := add(memory.Entry{Type: memory.Insight, Title: "The docs are short", Files: []string{"docs/steps.md"}})
	if got := memory.ParseMark(goEntry.FileHashes["store/store.go"]); len(got.Parts) != 2 || got.Parts[0].Label != "func Open" || got.Parts[1].Label != "method Store.Close" {
		t.Fatalf("Go entry's mark: %+v", got)
	}
	// An entry recorded before parts were remembered: its mark is the
	// file's hash alone.
	legacy := goEntry
	legacy.ID, legacy.UID, legacy.Title = 0, "", "Open is cheap (old)"
	legacy.FileHashes = map[string]string{"store/store.go": memory.ParseMark(goEntry.FileHashes["store/store.go"]).File}
	if err := st.Update(ctx, func(tx store.Tx) (err error) { legacy, err = tx.PutMemory(ctx, legacy); return err }); err != nil {
		t.Fatal(err)
	}
	changes := func(e memory.Entry) []memory.FileChange {
		t.Helper()
		es, _, err := m.Get(ctx, []string{e.ID.String()})
		if err != nil {
			t.Fatal(err)
		}
		return es[0].Changed
	}
	for _, e := range []memory.Entry{goEntry, pyEntry, lines, whole, legacy} {
		if c := changes(e); len(c) != 0 {
			t.Fatalf("%s: nothing changed yet: %+v", e.Title, c)
		}
	}

	// Edits elsewhere in each file.
	write("store/store.go", strings.Replace(goSrc, "func helper() {}", "func helper() { println() }", 1))
	write("analytics/load.py", strings.Replace(pySrc, "return 1", "return 2", 1))
	write("docs/steps.md", "zero\none\ntwo\nthree\n")
	if c := changes(goEntry); len(c) != 0 {
		t.Errorf("Go: another function changed: %+v", c)
	}
	if c := changes(pyEntry); len(c) != 0 {
		t.Errorf("Python: another function changed: %+v", c)
	}
	if c := changes(lines); len(c) != 1 || c[0].Stale() || !slices.Equal(c[0].Moved, []string{"lines 2-3 now lines 3-4"}) {
		t.Errorf("lines moved: %+v", c)
	}
	if c := changes(whole); len(c) != 1 || c[0].Stale() || !c[0].WholeFile {
		t.Errorf("a whole file: %+v", c)
	}
	if c := changes(legacy); len(c) != 1 || c[0].Stale() || !c[0].WholeFile {
		t.Errorf("a mark recorded before parts: %+v", c)
	}

	// Edits to what the entries point at.
	write("store/store.go", strings.Replace(goSrc, "return nil\n}", "return dial(dsn)\n}", 1))
	write("analytics/load.py", strings.Replace(pySrc, "def load_csv(path)", "def load_rows(path)", 1))
	write("docs/steps.md", "one\nTWO\nthree\n")
	if c := changes(goEntry); len(c) != 1 || !c[0].Stale() || !slices.Equal(c[0].Parts, []string{"func Open changed"}) {
		t.Errorf("Go: Open changed: %+v", c)
	}
	if c := changes(pyEntry); len(c) != 1 || !slices.Equal(c[0].Parts, []string{"def load_csv gone"}) {
		t.Errorf("Python: load_csv renamed: %+v", c)
	}
	if c := changes(lines); len(c) != 1 || !slices.Equal(c[0].Parts, []string{"lines 2-3 changed"}) {
		t.Errorf("lines changed: %+v", c)
	}
	os.Remove(filepath.Join(root, "store/store.go"))
	if c := changes(goEntry); len(c) != 1 || !c[0].Gone || !c[0].Stale() {
		t.Errorf("file gone: %+v", c)
	}
	// A search hit says the same.
	res, err := m.Search(ctx, memories.SearchQuery{Text: "load_csv"})
	if err != nil || len(res.Hits) == 0 {
		t.Fatalf("search: %v %+v", err, res)
	}
	if stale, _, _ := memory.Changes(res.Hits[0].Changed); !slices.Equal(stale, []string{"analytics/load.py: def load_csv gone"}) {
		t.Errorf("hit: %q", stale)
	}
}
