package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/project"
	"github.com/cairn-dev/cairn/internal/render"
	"github.com/cairn-dev/cairn/internal/service/insight"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
	"github.com/cairn-dev/cairn/internal/usage"
)

// seededProject is a project whose store holds a generated history ending
// now: model-b passes its tests less often on frontend work, BUILD is the
// slow phase.
func seededProject(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	if _, err := project.Init(dir); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, project.DBPath(dir), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := func(name string, pass float64) benchseed.ModelProfile {
		return benchseed.ModelProfile{Name: name, DefaultPass: pass, Unresolved: 0.1, TaskMinutes: 20, CallErrors: 0.1}
	}
	b := m("model-b", 0.9)
	b.Pass = map[string]float64{usage.TypeFrontend: 0.5}
	err = benchseed.SeedHistory(ctx, st, benchseed.HistoryShape{Models: []benchseed.ModelProfile{m("model-a", 0.9), b}, Sessions: 400,
		Days: 20, End: time.Now().UTC(), Lifecycles: 30, Seed: 1,
		Phases: []benchseed.PhaseProfile{{Name: "PLAN", Median: time.Hour}, {Name: "BUILD", Median: 3 * time.Hour}, {Name: "SHIP", Median: time.Hour}}})
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	t.Setenv(project.EnvRoot, dir)
	t.Setenv("CAIRN_DATABASE_URL", "")
}

func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	root := Root("test")
	var out, errOut bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errOut)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		t.Fatalf("cairn %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String()
}

func TestStatsAndHealth(t *testing.T) {
	seededProject(t)
	out := runCLI(t, "stats")
	for _, want := range []string{"400 sessions in 30 days, by model", "model-a", "model-b", "█", "FRONTEND"} {
		if !strings.Contains(out, want) {
			t.Errorf("cairn stats lacks %q:\n%s", want, out)
		}
	}
	var perf render.PerformanceView
	if err := json.Unmarshal([]byte(runCLI(t, "stats", "--json")), &perf); err != nil || len(perf.Groups) != 2 || perf.Derived["test_pass"] == "" {
		t.Errorf("cairn stats --json: %+v, %v", perf, err)
	}
	if out := runCLI(t, "stats", "--compare", "--type", "frontend"); !strings.Contains(out, "model-a over model-b by") {
		t.Errorf("cairn stats --compare --type frontend names no difference:\n%s", out)
	}
	var rec render.RecommendView
	if err := json.Unmarshal([]byte(runCLI(t, "stats", "--recommend", "fix the layout of the signup form", "--json")), &rec); err != nil || rec.Model != "model-a" {
		t.Errorf("cairn stats --recommend: %+v, %v; want model-a", rec, err)
	}
	if out := runCLI(t, "stats", "--tools"); !strings.Contains(out, "memory_search") || !strings.Contains(out, "get_current_task → memory_search") {
		t.Errorf("cairn stats --tools:\n%s", out)
	}
	out = runCLI(t, "health")
	for _, want := range []string{"Project health", "tests", "lifecycle", "BUILD", "Bottleneck: BUILD"} {
		if !strings.Contains(out, want) {
			t.Errorf("cairn health lacks %q:\n%s", want, out)
		}
	}
	var h render.HealthView
	if err := json.Unmarshal([]byte(runCLI(t, "health", "--json")), &h); err != nil || h.Score <= 0 || len(h.Components) != len(insight.HealthComponents) {
		t.Errorf("cairn health --json: %+v, %v", h, err)
	}
}
