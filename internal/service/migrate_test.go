package service_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/migrate"
)

func TestPlanMigrationFromKnowledgeAndCreateTasks(t *testing.T) {
	root := t.TempDir()
	for rel, text := range map[string]string{
		"go.mod":                "module example.com/shop\n\ngo 1.26\n\nrequire github.com/spf13/cobra v1.8.0\n",
		"go.sum":                "github.com/spf13/cobra v1.8.0 h1:x=\ngithub.com/spf13/cobra v1.8.0/go.mod h1:y=\n",
		"knowledge/go/cobra.md": "---\ntitle: Cobra 2 upgrade notes\ncategory: cli\nmaturity: adopted\n---\nCobra 2 removed Command.SetOutput; use SetOut and SetErr.\nFlags are unchanged.\n",
		"knowledge/web/htmx.md": "---\ntitle: htmx\ncategory: frontend\nmaturity: trial\n---\nFragments.\n",
		"package.json":          `{"name":"web","dependencies":{"left-pad":"^1.3.0"}}`,
		"package-lock.json":     `{"name":"web","lockfileVersion":3,"packages":{"":{"dependencies":{"left-pad":"^1.3.0"}},"node_modules/left-pad":{"version":"1.3.0"}}}`,
		".cairn/config.toml":    "[[ci.commands]]\nname = \"unit tests\"\nrun = \"make test\"\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	set := service.New(openStore(t), service.Options{Root: root})
	m := migrate.New(set.Hands, set.Knowledge, set.Plan)
	ctx := context.Background()
	p, err := m.Plan(ctx, migrate.Request{Name: "github.com/spf13/cobra", To: "v2.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if p.From != "v1.8.0" || p.Ecosystem != "go" || !p.BreakingKnown || len(p.Breaking) != 1 || !strings.Contains(strings.Join(p.Breaking[0].Lines, " "), "removed Command.SetOutput") {
		t.Fatalf("plan: %+v", p)
	}
	if p.Steps[0].Kind != "guardrail" || !strings.Contains(p.Steps[0].Verify, "make test") || p.Steps[len(p.Steps)-1].Kind != "cleanup" {
		t.Errorf("steps: %+v", p.Steps)
	}
	// No knowledge names left-pad: its breaking changes are unknown.
	q, err := m.Plan(ctx, migrate.Request{Name: "left-pad", To: "2.0.0"})
	if err != nil || q.BreakingKnown || !strings.Contains(q.Steps[4].Title, "unknown") || q.From != "1.3.0" {
		t.Errorf("unknown breaking changes: %v %+v", err, q)
	}
	// A dry run writes nothing; Create makes a parent and a task a step,
	// each after the one it waits for.
	if st, _ := set.Plan.Stats(ctx); st.Total != 0 {
		t.Fatalf("the dry run wrote %d tasks", st.Total)
	}
	c, err := m.Create(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Tasks) != len(p.Steps) {
		t.Fatalf("created %v", c)
	}
	d, err := set.Plan.Get(ctx, strconvID(c.Tasks["s1"]))
	if err != nil || len(d.Deps) != 1 || d.Deps[0].ID != c.Tasks["g3"] || d.ParentID != c.Parent {
		t.Errorf("s1: %v %+v", err, d)
	}
	for _, bad := range []migrate.Request{{Name: "nope", To: "1"}, {Name: "left-pad", To: ""}, {Name: "left-pad", To: "1", Dir: "../x"}} {
		if _, err := m.Plan(ctx, bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

func strconvID(id interface{ String() string }) string { return id.String() }
