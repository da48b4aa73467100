package storetest

import (
	"context"
	"maps"
	"testing"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/store"
)

// testMemoryFileMarks: the marks of an entry's files (memory.Mark: the
// file's hash, then each part it points at with its hash) read back as
// written, from full reads and search hits, and an update rewrites them;
// a mark written before parts were (a bare hash) reads back as it was.
func testMemoryFileMarks(t *testing.T, s store.Store) {
	ctx := context.Background()
	marks := map[string]string{
		"internal/z.go": memory.Mark{File: "0123456789abcdef", Parts: []memory.Part{
			{Label: "func Parse", Hash: "aaaaaaaaaaaaaaaa"}, {Label: "method Memory.Stale", Hash: "bbbbbbbbbbbbbbbb"}}}.String(),
		"docs/notes.md:2-30":  memory.Mark{File: "fedcba9876543210", Parts: []memory.Part{{Label: "lines 2-30", Hash: "cccccccccccccccc"}}}.String(),
		"src/über load.py#L7": memory.Mark{File: "1111111111111111", Parts: []memory.Part{{Label: "line 7", Hash: "dddddddddddddddd"}}}.String(),
		"README.md":           "2222222222222222",
	}
	e := addMemory(t, s, memory.Entry{Type: memory.Decision, Title: "marks survive", Content: "`Parse` counts bytes",
		Files: []string{"internal/z.go", "docs/notes.md:2-30", "src/über load.py#L7", "README.md"}, FileHashes: marks})
	read := func(what string, want map[string]string) {
		t.Helper()
		view(t, s, func(tx store.Tx) error {
			got, err := store.Memories(ctx, tx, []memory.ID{e.ID}, 0)
			if err != nil {
				return err
			}
			if len(got) != 1 || !maps.Equal(got[0].FileHashes, want) {
				t.Errorf("%s: read back %v, want %v", what, got, want)
			}
			r, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: "marks survive"})
			if err != nil {
				return err
			}
			if len(r.Hits) != 1 || !maps.Equal(r.Hits[0].Entry.FileHashes, want) {
				t.Errorf("%s: a search hit's marks: %+v", what, r.Hits)
			}
			return nil
		})
	}
	read("added", marks)
	for n, m := range marks {
		if p := memory.ParseMark(m); n != "README.md" && len(p.Parts) != 1 && len(p.Parts) != 2 {
			t.Errorf("%s: %q parses to %+v", n, m, p)
		}
	}
	marks["internal/z.go"] = memory.Mark{File: "3333333333333333", Parts: []memory.Part{{Label: "func Parse", Hash: "eeeeeeeeeeeeeeee"}}}.String()
	e.FileHashes = marks
	update(t, s, func(tx store.Tx) error { _, err := tx.PutMemory(ctx, e); return err })
	read("updated", marks)
}
