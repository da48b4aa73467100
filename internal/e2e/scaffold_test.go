package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestScaffold: the scaffold tool writes the knowledge folders, and the
// context tools read what it wrote; a second run and a person's file are
// left alone; a dry run writes nothing.
func TestScaffold(t *testing.T) {
	dir := cairntest.Project(t)
	writeFile(t, filepath.Join(dir, "workflows", "feature.md"), "---\nname: our-feature\n---\nours\n")
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all"}, Env: []string{"XDG_CONFIG_HOME=" + t.TempDir()}})
	dry := s.OK("scaffold", args{"level": "full", "dry_run": true})
	if !strings.Contains(dry.Text, "Dry run: would write") {
		t.Fatalf("dry run: %s", dry.Text)
	}
	if _, err := os.Stat(filepath.Join(dir, "knowledge")); err == nil {
		t.Fatal("a dry run wrote the knowledge folder")
	}
	r := s.OK("scaffold", args{"level": "full"})
	if !strings.Contains(r.Text, "workflows/feature.md: exists: left as it is") || !strings.Contains(r.Text, "skills/plan-with-cairn/SKILL.md") {
		t.Fatalf("scaffold: %s", r.Text)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "workflows", "feature.md")); string(b) != "---\nname: our-feature\n---\nours\n" {
		t.Fatalf("a person's file changed: %q", b)
	}
	for _, c := range []struct {
		tool string
		args args
		want string
	}{
		{"query_tkb", args{}, "knowledge/working-with-cairn.md"},
		{"get_tkb_entry", args{"entry": "knowledge/testing.md"}, "fails without it"},
		{"get_agent", args{"name": "plan-with-cairn"}, "create_task"},
		{"get_agent", args{"name": "reviewer"}, "approve only what you would maintain"},
		{"classify_task", args{"description": "fix a regression bug"}, "bugfix"},
		{"get_competency_matrix", args{}, "reviewer"},
	} {
		if got := s.OK(c.tool, c.args).Text; !strings.Contains(got, c.want) {
			t.Errorf("%s %v after scaffold lacks %q:\n%s", c.tool, c.args, c.want, got)
		}
	}
	if again := s.OK("scaffold", args{"level": "full"}); !strings.Contains(again.Text, "Nothing to write") {
		t.Errorf("second scaffold: %s", again.Text)
	}
	if e := s.Err("scaffold", args{"level": "huge"}); !strings.Contains(e.Text, "level") {
		t.Errorf("unknown level: %s", e.Text)
	}
}

// TestInitScaffold: cairn init --scaffold writes the level's files beside
// the client configuration; --dry-run writes none of them.
func TestInitScaffold(t *testing.T) {
	dir := t.TempDir()
	out, err := runInit(t, dir, "--scaffold", "standard", "--dry-run")
	if err != nil || !strings.Contains(out, "would create knowledge/working-with-cairn.md") {
		t.Fatalf("dry run: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "knowledge")); err == nil {
		t.Fatal("--dry-run wrote the knowledge folder")
	}
	out, err = runInit(t, dir, "--scaffold", "standard")
	if err != nil || !strings.Contains(out, "created   skills/plan-with-cairn/SKILL.md") || strings.Count(out, "AGENTS.md") != 1 {
		t.Fatalf("init --scaffold (AGENTS.md said once, by init): %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, ".claude", "rules", "cairn.md")); err != nil {
		t.Fatal(err)
	}
	if out, err := runInit(t, dir, "--scaffold", "huge"); err == nil || !strings.Contains(out+err.Error(), "minimal, standard, full") {
		t.Fatalf("unknown level: %v %s", err, out)
	}
}
