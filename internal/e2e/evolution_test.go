package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestEvolutionThroughTheBinary: over a planted history in the project's
// store, the real server's evolution_analyze applies the confident
// changes to files on disk, the next bootstrap announces them,
// evolution_revert restores the bytes, and a draft made by hand is
// approved into the project and another rejected.
func TestEvolutionThroughTheBinary(t *testing.T) {
	t.Parallel()
	dir := cairntest.Project(t)
	st, err := sqlite.Open(context.Background(), project.DBPath(dir), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := benchseed.DefaultEvolutionShape(3)
	h.End = time.Now().UTC()
	p, err := benchseed.SeedEvolution(context.Background(), st, h)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "default,context,evolution"}})
	dry := s.OK("evolution_analyze", args{"dry_run": true})
	if !strings.Contains(dry.Text, "rule:"+p.MistakeFingerprint) || !strings.Contains(dry.Text, "workflow:plan_next>run_tests>record_outcome") {
		t.Fatalf("the dry run misses planted patterns:\n%s", dry.Text)
	}
	r := s.OK("evolution_analyze", nil)
	if !strings.Contains(r.Text, "Applied change 1") {
		t.Fatalf("nothing applied:\n%s", r.Text)
	}
	rules, _ := filepath.Glob(filepath.Join(dir, "knowledge", "rules", "*.md"))
	if len(rules) != 1 {
		t.Fatalf("rule files on disk: %v", rules)
	}
	if b := s.OK("bootstrap", nil); !strings.Contains(b.Text, "Evolution applied on its own") {
		t.Fatalf("bootstrap does not announce the change:\n%s", b.Text)
	}
	// Revert every applied change: the rule file is gone again.
	for _, line := range strings.Split(r.Text, "\n") {
		if rest, ok := strings.CutPrefix(line, "Applied change "); ok {
			seq, _, _ := strings.Cut(rest, ":")
			n, _ := strconv.Atoi(seq)
			s.OK("evolution_revert", args{"seq": n})
		}
	}
	if _, err := os.Stat(rules[0]); !os.IsNotExist(err) {
		t.Fatalf("the rule survived its revert: %v", err)
	}
	s.OK("draft_create", args{"kind": "workflow", "title": "Release", "content": "1. tests\n2. tag\n"})
	s.OK("draft_approve", args{"id": "workflow-release"})
	if b, err := os.ReadFile(filepath.Join(dir, "workflows", "release.md")); err != nil || string(b) != "1. tests\n2. tag\n" {
		t.Fatalf("approved workflow: %q %v", b, err)
	}
	s.OK("draft_create", args{"kind": "rule", "title": "No sleeps", "content": "never sleep in tests"})
	s.OK("draft_reject", args{"id": "rule-no-sleeps"})
	if l := s.OK("draft_list", args{"status": "rejected"}); !strings.Contains(l.Text, "rule-no-sleeps") {
		t.Fatalf("draft_list: %s", l.Text)
	}
	if st := s.OK("evolution_status", nil); !strings.Contains(st.Text, "log entries") {
		t.Fatalf("status: %s", st.Text)
	}
}
