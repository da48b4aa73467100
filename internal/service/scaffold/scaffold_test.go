package scaffold

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/projectinfo"
)

func paths(res Result) (written, skipped []string) {
	for _, f := range res.Written {
		written = append(written, f.Path)
	}
	for _, s := range res.Skipped {
		skipped = append(skipped, s.Path+": "+s.Why)
	}
	return written, skipped
}

func TestLevelsAndDryRun(t *testing.T) {
	root := t.TempDir()
	s := New(root, projectinfo.KnowledgePaths)
	dry, err := s.Scaffold(Request{Level: "full", DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Fatalf("a dry run wrote %v", entries)
	}
	min, err := s.Scaffold(Request{Level: "minimal"})
	if err != nil {
		t.Fatal(err)
	}
	w, _ := paths(min)
	if !slices.Equal(w, []string{"AGENTS.md", "knowledge/working-with-cairn.md"}) {
		t.Fatalf("minimal wrote %v", w)
	}
	full, err := s.Scaffold(Request{Level: "full"})
	if err != nil {
		t.Fatal(err)
	}
	w, sk := paths(full)
	if len(w)+2 != len(dry.Written) || len(sk) != 2 || !strings.Contains(sk[0], "AGENTS.md: has Cairn's section") {
		t.Fatalf("full after minimal: wrote %v, skipped %v; the dry run planned %d", w, sk, len(dry.Written))
	}
	// The knowledge reader sees what it wrote.
	k := projectinfo.NewDetector().Knowledge(root)
	kinds := map[string]int{}
	for _, d := range k.Docs {
		kinds[d.Kind]++
	}
	if kinds["knowledge"] != 2 || kinds["skill"] != 1 || kinds["agent"] != 1 || kinds["workflow"] != 2 || kinds["template"] != 1 {
		t.Fatalf("knowledge read back: %v", kinds)
	}
	if _, err := s.Scaffold(Request{Level: "huge"}); err == nil || !strings.Contains(err.Error(), "level") {
		t.Fatalf("unknown level: %v", err)
	}
}

// TestNeverOverwrites: a person's file stays byte for byte; AGENTS.md
// gains only Cairn's section, its text before kept.
func TestNeverOverwrites(t *testing.T) {
	root := t.TempDir()
	mine := filepath.Join(root, "workflows", "feature.md")
	os.MkdirAll(filepath.Dir(mine), 0o755)
	os.WriteFile(mine, []byte("my own workflow\n"), 0o600)
	os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("# Ours\n\nBe kind.\n"), 0o644)
	res, err := New(root, projectinfo.KnowledgePaths).Scaffold(Request{Level: "standard"})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(mine); string(b) != "my own workflow\n" {
		t.Fatalf("overwrote a person's file: %q", b)
	}
	_, sk := paths(res)
	if !slices.Contains(sk, "workflows/feature.md: exists: left as it is") {
		t.Fatalf("skipped: %v", sk)
	}
	b, _ := os.ReadFile(filepath.Join(root, "AGENTS.md"))
	if !strings.HasPrefix(string(b), "# Ours\n\nBe kind.\n") || !strings.Contains(string(b), projectinfo.CairnBegin) {
		t.Fatalf("AGENTS.md: %q", b)
	}
}

// TestRefusesLinksAndOutside: a folder that is a symbolic link (to outside
// the project) is not written through; a configured folder outside the
// project is refused.
func TestRefusesLinksAndOutside(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "knowledge")); err != nil {
		t.Skip(err)
	}
	p := projectinfo.KnowledgePaths
	p.Skills = "../escaped"
	res, err := New(root, p).Scaffold(Request{Level: "standard"})
	if err != nil {
		t.Fatal(err)
	}
	_, sk := paths(res)
	if !slices.Contains(sk, "knowledge/working-with-cairn.md: a symbolic link on the way (knowledge): refused") ||
		!slices.Contains(sk, "../escaped/plan-with-cairn/SKILL.md: outside the project: refused") {
		t.Fatalf("skipped: %v", sk)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("wrote outside the project: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "escaped")); err == nil {
		t.Fatal("wrote above the root")
	}
}
