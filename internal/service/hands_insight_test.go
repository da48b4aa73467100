package service_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/service/hands"
)

// TestChecksReachProjectHealth: the checks the hands run are recorded by
// the insight recorder and make project_health's checks component, on a
// real store: one SQL file with an error and one without.
func TestChecksReachProjectHealth(t *testing.T) {
	root := t.TempDir()
	for rel, text := range map[string]string{
		"db/reset.sql":  "UPDATE accounts SET balance = 0 WHERE;\n",
		"db/schema.sql": "CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);\n",
		"docs/flow.mmd": "flowchart TD\n  A[Start] --> B[Done]\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	set := service.New(openStore(t), service.Options{Root: root})
	for _, only := range [][]string{{"sql"}, {"mermaid"}, {"sql", "mermaid"}} {
		res, err := set.Hands.Check(ctx, hands.Request{Checks: only, All: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Checks) != len(only) {
			t.Fatalf("checks %v ran %v", only, res.Checks)
		}
	}
	if err := set.Insight.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	h, err := set.Insight.Health(ctx, 7)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range h.Components {
		if c.Name != "checks" {
			continue
		}
		// Four runs (sql twice, mermaid twice); the SQL ones found the
		// syntax error, an error.
		if !c.HasData || c.N != 4 || c.Value != 0.5 {
			t.Errorf("checks component %+v: want 4 runs, half of them failed", c)
		}
		return
	}
	t.Errorf("project_health has no checks component: %+v", h.Components)
}
