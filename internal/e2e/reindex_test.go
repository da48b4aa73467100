package e2e

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/memory"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/wait"
)

// TestUpgradeReindexDoesNotBlock: a server started on a memory an older
// analyzer indexed answers its first search at once, saying from how many
// of the entries it answers, re-indexes in the background, and then
// answers exactly as it did before the upgrade. `cairn memory status`, run
// before any server, says nothing is indexed yet; get_config, while the
// re-index runs, says how far it has come.
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

	// A command (no upkeep) opens the store first: the re-index is begun,
	// nothing indexed, and it says so.
	cmd := exec.Command(cairntest.Binary(t), "memory", "status")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CAIRN_PROJECT_ROOT=", "CAIRN_DATABASE_URL=")
	out, err := cmd.Output()
	if err != nil || !strings.HasPrefix(string(out), "memory index: rebuilding, 0 of 3000 entries") {
		t.Fatalf("cairn memory status after the upgrade: %v\n%s", err, out)
	}

	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,context"}})
	// Like the first search below, the first get_config comes before a
	// re-index of 3,000 entries in steps can end.
	cfg := s.Call("get_config", map[string]any{})
	if !regexp.MustCompile(`memory index: rebuilding, \d+ of 3000 entries`).MatchString(cfg.Text) {
		t.Fatalf("get_config during the re-index does not say how far it has come:\n%s", cfg.Text)
	}
	first := s.Call("memory_search", query)
	if first.IsError || !regexp.MustCompile(`being rebuilt after an upgrade: results come from the \d+ of 3000 entries indexed so far`).MatchString(first.Text) {
		t.Fatalf("the first search after the upgrade does not say from how many entries it answers:\n%s", first.Text)
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
