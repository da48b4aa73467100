package evolution_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/service/evolution"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
)

// tree hashes every file under root (the engine's own bookkeeping under
// .cairn/evolution and .cairn/drafts aside).
func tree(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, ".cairn/evolution/") || strings.HasPrefix(rel, ".cairn/drafts/") {
			return nil
		}
		b, err := os.ReadFile(p)
		h := sha256.Sum256(b)
		out[rel] = hex.EncodeToString(h[:])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAutoApplyThenRevertIsByteIdentical(t *testing.T) {
	ctx := context.Background()
	s, _, root := engine(t, benchseed.DefaultEvolutionShape(7))
	// A person's files the changes touch: the routing table and the config.
	writeFile(t, root, "routing.md", "# Routing\n\n| work | agent |\n|---|---|\n| ui | frontend-dev |\n")
	writeFile(t, root, ".cairn/config.toml", "# the team's settings\n[insight]\nmin_sample = 10\n")
	before := tree(t, root)
	a, err := s.Analyze(ctx, evolution.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Applied) < 3 || len(a.Failed) > 0 {
		t.Fatalf("applied %d (want the mistake's rule, the severity, the routing line), failed %v", len(a.Applied), a.Failed)
	}
	if after := tree(t, root); len(after) == len(before) && after["routing.md"] == before["routing.md"] {
		t.Fatal("auto-apply changed nothing")
	}
	ann, err := s.Announcements("bootstrap")
	if err != nil || len(ann) != len(a.Applied) {
		t.Fatalf("announcements %v %v, want %d", ann, err, len(a.Applied))
	}
	if again, _ := s.Announcements("bootstrap"); len(again) != 0 {
		t.Fatalf("announced twice: %v", again)
	}
	for i := len(a.Applied) - 1; i >= 0; i-- {
		if _, err := s.Revert(a.Applied[i].Seq); err != nil {
			t.Fatal(err)
		}
	}
	after := tree(t, root)
	for p, h := range before {
		if after[p] != h {
			t.Errorf("%s: %s after revert, %s before", p, after[p], h)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s left behind by the revert", p)
		}
	}
	log, err := s.Log()
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 2*len(a.Applied) || log[len(log)-1].Action != "revert" || log[0].Action != "apply" {
		t.Fatalf("log holds %d entries, want %d applies then reverts", len(log), 2*len(a.Applied))
	}
	// Reverted patterns are not applied again.
	a2, err := s.Analyze(ctx, evolution.Query{})
	if err != nil || len(a2.Applied) != 0 || a2.Handled < len(a.Applied) {
		t.Fatalf("second analysis applied %d, handled %d (%v)", len(a2.Applied), a2.Handled, err)
	}
	if _, err := s.Revert(a.Applied[0].Seq); !problem.Is(err, problem.Transition) {
		t.Fatalf("reverting twice: %v", err)
	}
}

func TestKillSwitchAndLearningPeriodStopAutoApply(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct{ name, config string }{
		{"kill switch", "[evolution]\nenabled = false\n"},
		{"learning period", "[evolution]\nlearning_sessions = 1000\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, _, root := engine(t, benchseed.DefaultEvolutionShape(8))
			writeFile(t, root, ".cairn/config.toml", tc.config)
			before := tree(t, root)
			a, err := s.Analyze(ctx, evolution.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Applied) != 0 || len(a.Drafted) != 0 {
				t.Fatalf("%s: applied %d, drafted %d", tc.name, len(a.Applied), len(a.Drafted))
			}
			if len(a.Candidates) == 0 || !strings.Contains(a.Candidates[0].Why, map[string]string{"kill switch": "switched off", "learning period": "learning period"}[tc.name]) {
				t.Fatalf("the candidates do not say why they wait: %+v", a.Candidates)
			}
			if after := tree(t, root); len(after) != len(before) {
				t.Fatalf("files changed: %v", after)
			}
			st, err := s.Status(ctx)
			if err != nil || st.Off != (tc.name == "kill switch") || st.Learning != (tc.name == "learning period") || len(st.Pending) == 0 {
				t.Fatalf("status %+v %v", st, err)
			}
		})
	}
}

func TestDraftsApproveRejectConflict(t *testing.T) {
	ctx := context.Background()
	s, p, root := engine(t, benchseed.DefaultEvolutionShape(9))
	// Make every proposal a draft: nothing clears the auto bar.
	writeFile(t, root, ".cairn/config.toml", "[evolution]\nauto_confidence = 1\n")
	writeFile(t, root, "routing.md", "# Routing\n")
	a, err := s.Analyze(ctx, evolution.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Applied) != 0 || len(a.Drafted) != 4 {
		t.Fatalf("applied %d, drafted %d, want 0 and 4", len(a.Applied), len(a.Drafted))
	}
	byKind := map[string]evolution.Draft{}
	for _, d := range a.Drafted {
		byKind[d.Kind] = d
		if _, err := os.Stat(filepath.Join(root, d.File)); err != nil {
			t.Fatalf("draft file: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, evolution.ManifestFile)); err != nil {
		t.Fatal(err)
	}
	// Approve the rule: the file lands in the knowledge folder, as drafted.
	rule := byKind[evolution.KindRule]
	d, e, err := s.Approve(rule.ID)
	if err != nil || d.Status != evolution.StatusApproved || e.Action != "approve" {
		t.Fatalf("approve: %+v %+v %v", d, e, err)
	}
	got, _ := os.ReadFile(filepath.Join(root, rule.Target))
	if !strings.Contains(string(got), "recurred in 12 sessions") {
		t.Fatalf("approved rule: %s", got)
	}
	// A person edits the routing table after the draft: approval refuses,
	// naming the file, and changes nothing.
	writeFile(t, root, "routing.md", "# Routing\n\nedited by hand\n")
	route := byKind[evolution.KindRouting]
	if _, _, err := s.Approve(route.ID); !problem.Is(err, problem.Transition) || !strings.Contains(err.Error(), "routing.md changed") {
		t.Fatalf("approve over an edited file: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "routing.md")); string(b) != "# Routing\n\nedited by hand\n" {
		t.Fatalf("routing.md touched: %q", b)
	}
	// Rejected: not proposed again.
	wf := byKind[evolution.KindWorkflow]
	if _, err := s.Reject(wf.ID, "we do not want it"); err != nil {
		t.Fatal(err)
	}
	a2, err := s.Analyze(ctx, evolution.Query{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range a2.Candidates {
		if c.Key == "workflow:"+strings.Join(p.Sequence[:], ">") {
			t.Fatal("a rejected pattern is proposed again")
		}
	}
	ds, err := s.Drafts(evolution.DraftQuery{Status: evolution.StatusRejected})
	if err != nil || len(ds) != 1 {
		t.Fatalf("rejected drafts %v %v", ds, err)
	}
}

func TestWritesStayInsideTheProject(t *testing.T) {
	s, _, root := engine(t, benchseed.DefaultEvolutionShape(10))
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "workflows")); err != nil {
		t.Skip(err)
	}
	_, err := s.CreateDraft(nil, evolution.NewDraft{Kind: evolution.KindWorkflow, Title: "release", Content: "steps"})
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("draft through a symlink: %v", err)
	}
	if es, _ := os.ReadDir(outside); len(es) != 0 {
		t.Fatalf("wrote outside the project: %v", es)
	}
	if _, err := s.CreateDraft(nil, evolution.NewDraft{Kind: evolution.KindRule, Title: "../../etc/x", Content: "x"}); err != nil && strings.Contains(err.Error(), "leaves") {
		t.Fatalf("the title is slugged, never a path: %v", err)
	}
}
