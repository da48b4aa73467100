package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestBranchContextFiles: through the real server, each change of a branch
// context is written to .cairn/branches/<branch>.json (the name made safe),
// a merge writes both branches, the file is never read back, and
// [branches] files = false in .cairn/config.toml turns it off.
func TestBranchContextFiles(t *testing.T) {
	t.Parallel()
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all"}})
	s.OK("branch", args{"action": "save", "branch": "feature/login", "feature": "PKCE login", "notes": "redirect on :8080"})
	p := filepath.Join(dir, ".cairn", "branches", "feature%2Flogin.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil || got["branch"] != "feature/login" || got["feature"] != "PKCE login" {
		t.Fatalf("%s: %v\n%s", p, err, b)
	}
	// Edited by hand: not read back, and overwritten at the next change.
	os.WriteFile(p, []byte(`{"branch":"feature/login","feature":"edited"}`), 0o644)
	if g := s.OK("branch", args{"action": "get", "branch": "feature/login"}); strings.Contains(g.Text, "edited") {
		t.Errorf("the file was read back: %s", g.Text)
	}
	s.OK("branch", args{"action": "merge", "branch": "feature/login", "into": "main"})
	for _, f := range []string{"feature%2Flogin.json", "main.json"} {
		b, err := os.ReadFile(filepath.Join(dir, ".cairn", "branches", f))
		if err != nil || strings.Contains(string(b), "edited") || !strings.Contains(string(b), "PKCE login") && f == "feature%2Flogin.json" {
			t.Errorf("%s after the merge: %v\n%s", f, err, b)
		}
	}

	off := cairntest.Project(t)
	os.WriteFile(filepath.Join(off, ".cairn", "config.toml"), []byte("[branches]\nfiles = false\n"), 0o644)
	s2 := cairntest.Start(t, cairntest.Options{Dir: off, Args: []string{"--toolsets", "all"}})
	s2.OK("branch", args{"action": "save", "branch": "main", "notes": "kept in the store only"})
	if _, err := os.Stat(filepath.Join(off, ".cairn", "branches")); err == nil {
		t.Errorf("[branches] files = false, and the files were written")
	}
	if cfg := s2.OK("get_config", nil); !strings.Contains(cfg.Text, "branches.files") || !strings.Contains(cfg.Text, "off: branch contexts stay in the store only") {
		t.Errorf("get_config does not say the branch files are off:\n%s", cfg.Text)
	}
}
