package loadgen

import (
	"context"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"time"
)

// TestRunInProcess drives the real server (mcpserver over a real SQLite file
// behind the SDK's Streamable HTTP handler) with 4 agents making 50 calls
// each, every operation of the default mix among them (the seeded choices
// are the same every run), and fails if any call fails. It takes about a
// second; nothing in it depends on speed.
func TestRunInProcess(t *testing.T) {
	t.Setenv("CAIRN_PROJECT_ROOT", "")
	ctx := context.Background()
	srv, err := ServeInProcess(ctx, t.TempDir(), "s3cret", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
	}()
	target := Target{URL: srv.URL, Token: "s3cret"}
	if _, err := (Target{URL: srv.URL, Token: "wrong"}).Connect(ctx, "x"); err == nil {
		t.Fatal("connect with the wrong token: want an error")
	}
	plan, err := Seed(ctx, target, 60, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.All) != 60 || len(plan.Open) == 0 || len(plan.Open) == 60 {
		t.Fatalf("seeded %d tasks, %d open", len(plan.All), len(plan.Open))
	}
	mix, err := ParseMix(DefaultMix)
	if err != nil {
		t.Fatal(err)
	}
	pid := 0 // the server is this process; its stats come from Linux's /proc
	if _, err := os.Stat("/proc/self/stat"); err == nil {
		pid = os.Getpid()
	}
	res, err := Run(ctx, Config{Target: target, Clients: 4, Duration: time.Minute, MaxCalls: 50,
		Mix: mix, Plan: plan, RunID: "test", Seed: 1, ServerPID: pid})
	if err != nil {
		t.Fatal(err)
	}
	if res.Overall.Errors != 0 || res.WarmupErrors != 0 {
		t.Fatalf("%d calls failed (%d in warmup): %s", res.Overall.Errors, res.WarmupErrors, strings.Join(res.ErrorMsg, " | "))
	}
	if o := res.Overall; o.Calls != 200 || o.PerSec <= 0 || o.P50 <= 0 || o.P50 > o.P90 || o.P90 > o.P99 || o.P99 > o.Max {
		t.Fatalf("overall = %+v; want 200 calls and ordered percentiles", o)
	}
	if pid > 0 && (res.Server == nil || res.Server.CPU <= 0 || res.Server.RSS <= 0) {
		t.Fatalf("server stats = %+v", res.Server)
	}
	// Each agent kept its own focus: under its own task, not another's.
	for i := range 4 {
		name := AgentName("test", 4, i)
		cs, err := target.Connect(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		var cur struct {
			Title      string `json:"title"`
			Breadcrumb []struct {
				Title string `json:"title"`
			} `json:"breadcrumb"`
		}
		err = call(ctx, cs, "get_current_task", map[string]any{}, &cur)
		cs.Close()
		if err != nil {
			t.Fatal(err)
		}
		var agents []string
		for _, b := range append(cur.Breadcrumb, struct {
			Title string `json:"title"`
		}{cur.Title}) {
			if strings.HasPrefix(b.Title, "Agent ") {
				agents = append(agents, b.Title)
			}
		}
		if len(agents) != 1 || agents[0] != "Agent "+name {
			t.Errorf("%s is at %q under %q; want it under its own task %q", name, cur.Title, agents, "Agent "+name)
		}
	}
	calls := make(map[string]int)
	for _, s := range res.PerTool {
		calls[s.Tool] = s.Calls
	}
	for _, tool := range []string{"get_current_task", "get_task", "get_tasks", "get_next_task", "create_task",
		"update_task", "update_current_task", "create_new_task", "complete_current_task"} {
		if calls[tool] == 0 {
			t.Errorf("no %s calls recorded: %v", tool, calls)
		}
	}
}

func TestMixPick(t *testing.T) {
	m, err := ParseMix("get_task=3,get_tasks=1")
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	n := map[string]int{}
	for range 40000 {
		n[m.Pick(r)]++
	}
	if len(n) != 2 || n["get_task"] < 29000 || n["get_task"] > 31000 {
		t.Fatalf("picks %v, want about 30000 get_task and 10000 get_tasks", n)
	}
}
