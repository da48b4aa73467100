package e2e

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/wait"
)

// TestUpgradeReindexDoesNotBlock: a server started on a memory an older
// analyzer indexed answers its first search at once, saying how many
// entries are not searched yet, re-indexes in the background, and then
// answers exactly as it did before the upgrade.
func TestUpgradeReindexDoesNotBlock(t *testing.T) {
	src, err := benchseed.CachedMemory(context.Background(), 3000)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := benchseed.Clone(src, dir); err != nil {
		t.Fatal(err)
	}
	query := map[string]any{"query": benchseed.MemoryQueries(1)[0]}
	before := cairntest.Start(t, cairntest.Options{Dir: dir})
	want := before.Call("memory_search", query)
	before.Close()
	if want.IsError || !strings.Contains(want.Text, "Entries 1-") {
		t.Fatalf("before the upgrade the search found nothing:\n%s", want.Text)
	}

	db, err := sql.Open("sqlite", filepath.Join(dir, ".cairn", "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE memory_index SET analyzer = ?`, memory.AnalyzerVersion-1); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := cairntest.Start(t, cairntest.Options{Dir: dir})
	first := s.Call("memory_search", query)
	if first.IsError || !strings.Contains(first.Text, "being rebuilt after an upgrade") {
		t.Fatalf("the first search after the upgrade does not say the index is being rebuilt:\n%s", first.Text)
	}
	t.Logf("first search after the upgrade:\n%s", first.Text)
	// The re-index runs in the server, another process: poll its answer.
	var got cairntest.Result
	wait.Until(t, 5*time.Minute, "the background re-index of 3,000 entries to end", func() bool {
		got = s.Call("memory_search", query)
		return !strings.Contains(got.Text, "being rebuilt")
	})
	if got.Text != want.Text {
		t.Errorf("after the re-index the search answers differently:\n--- before the upgrade\n%s\n--- after\n%s", want.Text, got.Text)
	}
}
