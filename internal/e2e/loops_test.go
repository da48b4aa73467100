package e2e

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/pgtest"
)

var loopsOnly = []string{"--toolsets", "focus,plan,loops"}

// TestLoopLifecycle: three iterations, a checkpoint, a pause, a resume from
// the checkpoint, a completion; illegal transitions refused along the way.
func TestLoopLifecycle(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: loopsOnly})
	r := s.OK("loop_start", args{"objective": "Fix failing tests", "completion_criteria": "go test ./... passes", "max_iterations": 10, "tags": []string{"ci"}})
	id := r.Str("id")
	if r.Str("status") != "pending" || r.Str("uri") != "cairn://loops/"+id {
		t.Fatalf("start: %v", r.Structured)
	}
	s.OK("loop_record", args{"id": id, "last_action": "fixed auth test", "next_steps": []string{"fix db test"}, "percentage": 30, "artifacts_modified": 1})
	ck := s.OK("loop_checkpoint", args{"id": id, "note": "after one"})
	cpID := ck.Structured["checkpoint_id"]
	s.OK("loop_record", args{"id": id, "last_action": "fixed db test", "percentage": 60})
	r = s.OK("loop_record", args{"id": id, "last_action": "tried the flaky one", "next_steps": []string{"retry"}, "percentage": 70})
	if r.Structured["iteration"] != float64(3) || r.Str("status") != "running" {
		t.Fatalf("after three iterations: %v", r.Structured)
	}
	s.OK("loop_pause", args{"id": id})
	// An illegal transition names the state and the legal steps, and changes nothing.
	bad := s.Err("loop_record", args{"id": id, "last_action": "sneaky"})
	if !strings.Contains(bad.Text, "paused") || !strings.Contains(bad.Text, "loop_resume") {
		t.Fatalf("record on paused: %s", bad.Text)
	}
	r = s.OK("loop_resume", args{"id": id, "from_checkpoint": cpID})
	if r.Structured["iteration"] != float64(1) || r.Str("last_action") != "fixed auth test" ||
		r.Structured["progress"].(map[string]any)["percentage"] != float64(30) || r.Str("status") != "running" {
		t.Fatalf("resume from checkpoint: %v", r.Structured)
	}
	s.OK("loop_record", args{"id": id, "last_action": "fixed it properly", "percentage": 100})
	r = s.OK("loop_complete", args{"id": id, "evidence": "go test ./... ok, 0 failures"})
	if r.Str("status") != "completed" || len(r.Structured["legal_next"].([]any)) != 0 {
		t.Fatalf("complete: %v", r.Structured)
	}
	if bad := s.Err("loop_resume", args{"id": id}); !strings.Contains(bad.Text, "completed") {
		t.Fatalf("resume completed: %s", bad.Text)
	}
	st := s.OK("loop_status", args{"id": id, "history": true})
	if st.Str("evidence") == "" || !strings.Contains(st.Text, "resume from checkpoint") || st.Structured["history_total"] != float64(9) {
		t.Fatalf("status with history: %s", st.Text)
	}
	// The loop's own checkpoint between the two it made itself: when it
	// started and when it completed (seed 001).
	if cps := s.OK("loop_checkpoints", args{"id": id}); !strings.Contains(cps.Text, "3: iteration 2, completed, 100% loop completed\n2: iteration 1, running, 30% after one\n1: iteration 0, pending, 0% loop started") {
		t.Fatalf("checkpoints: %s", cps.Text)
	}
	// One model: the loop is a task, done in the plan and archived.
	if g := s.OK("get_task", args{"id": id}); g.Str("status") != "done" {
		t.Fatalf("loop task in the plan: %v", g.Structured)
	}
	if l := s.OK("loop_list", args{}); l.Structured["total"] != float64(0) {
		t.Fatalf("finished loops listed by default: %v", l.Structured)
	}
	if l := s.OK("loop_list", args{"status": "completed"}); l.Structured["total"] != float64(1) {
		t.Fatalf("loop_list completed: %v", l.Structured)
	}
	s.Err("loop_status", args{"id": "999"})
	notLoop := s.OK("create_task", args{"title": "plain"}).Str("id")
	if r := s.Err("loop_pause", args{"id": notLoop}); !strings.Contains(r.Text, "not a loop") {
		t.Fatalf("pause a plain task: %s", r.Text)
	}
}

func TestLoopBudget(t *testing.T) {
	s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: loopsOnly})
	id := s.OK("loop_start", args{"objective": "o", "completion_criteria": "c", "max_iterations": 2}).Str("id")
	s.OK("loop_record", args{"id": id, "last_action": "one"})
	r := s.OK("loop_record", args{"id": id, "last_action": "two"})
	e, _ := r.Structured["error"].(map[string]any)
	if r.Str("status") != "failed" || e["code"] != "MAX_ITERATIONS" || e["recoverable"] != true {
		t.Fatalf("at the budget: %v", r.Structured)
	}
	s.Err("loop_record", args{"id": id, "last_action": "three"})
	s.Err("loop_resume", args{"id": id}) // the budget is still spent
	r = s.OK("loop_resume", args{"id": id, "max_iterations": 5})
	if r.Str("status") != "running" {
		t.Fatalf("resume with a higher budget: %v", r.Structured)
	}
	if r := s.Err("update_task", args{"id": id, "status": "done"}); !strings.Contains(r.Text, "loop_complete") {
		t.Fatalf("plan status change on a loop: %s", r.Text)
	}
	s.OK("update_task", args{"id": id, "priority": "high"}) // other fields are the plan's
	s.OK("loop_fail", args{"id": id, "message": "disk full", "code": "ENOSPC"})
	if r := s.Err("loop_resume", args{"id": id}); !strings.Contains(r.Text, "not recoverable") {
		t.Fatalf("resume after an unrecoverable failure: %s", r.Text)
	}
}

// TestLoopSubscription: a client subscribed to a loop hears
// resources/updated when a second cairn process changes it.
func TestLoopSubscription(t *testing.T) {
	dir := cairntest.Project(t)
	var (
		mu      sync.Mutex
		updates []string
		got     = make(chan struct{}, 16)
	)
	watcher := cairntest.StartWith(t, cairntest.Options{Dir: dir, Args: loopsOnly}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			mu.Lock()
			updates = append(updates, req.Params.URI)
			mu.Unlock()
			got <- struct{}{}
		},
	})
	other := cairntest.Start(t, cairntest.Options{Dir: dir, Args: append(loopsOnly, "--agent", "other")})
	id := other.OK("loop_start", args{"objective": "watch me", "completion_criteria": "c"}).Str("id")
	uri := "cairn://loops/" + id

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// The loop shows in resources/list at once (it is not finished), even
	// though another process made it, and reads as JSON.
	if res, err := watcher.Session.ListResources(ctx, nil); err != nil || !slices.Equal(loopURIs(res.Resources), []string{uri}) {
		t.Fatalf("resources/list right after another process started a loop: %v %v", res, err)
	}
	read, err := watcher.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || !strings.Contains(read.Contents[0].Text, `"objective":"watch me"`) {
		t.Fatalf("read: %v %v", read, err)
	}
	if err := watcher.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	// resources/list brought the watcher up to date (it looks at the loops
	// before it answers), and the subscription is in: the next change is
	// news to it.
	other.OK("loop_record", args{"id": id, "last_action": "changed elsewhere"})
	select {
	case <-got:
	case <-ctx.Done():
		t.Fatal("no resources/updated after another process changed the loop")
	}
	mu.Lock()
	if updates[0] != uri {
		t.Fatalf("updated %q, want %q", updates[0], uri)
	}
	mu.Unlock()
	// Finished loops leave resources/list.
	other.OK("loop_cancel", args{"id": id})
	waitFor(t, ctx, func() bool {
		res, err := watcher.Session.ListResources(ctx, nil)
		return err == nil && len(loopURIs(res.Resources)) == 0
	})
	if tpl, err := watcher.Session.ListResourceTemplates(ctx, nil); err != nil || !slices.ContainsFunc(tpl.ResourceTemplates, func(r *mcp.ResourceTemplate) bool { return r.URITemplate == "cairn://loops/{id}" }) {
		t.Fatalf("templates: %v %v", tpl, err)
	}
}

// loopURIs are the loops among listed resources (the others are always
// there).
func loopURIs(rs []*mcp.Resource) []string {
	var out []string
	for _, r := range rs {
		if strings.HasPrefix(r.URI, "cairn://loops/") {
			out = append(out, r.URI)
		}
	}
	return out
}

func waitFor(t *testing.T, ctx context.Context, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatal("condition not met in time")
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestPostgresLoopSubscriptionAcrossHTTP: two `cairn serve --http`
// instances on one PostgreSQL project; a client subscribed to a loop on
// instance A hears resources/updated when a client of instance B changes
// the loop (B's commit NOTIFYs, A's store.Watcher hears it).
func TestPostgresLoopSubscriptionAcrossHTTP(t *testing.T) {
	env := []string{"CAIRN_DATABASE_URL=" + pgtest.URL(t), "CAIRN_PROJECT=" + pgtest.Project(t)}
	a := cairntest.StartHTTP(t, cairntest.Options{Dir: cairntest.Project(t), Args: loopsOnly, Env: env})
	b := cairntest.StartHTTP(t, cairntest.Options{Dir: cairntest.Project(t), Args: loopsOnly, Env: env})
	got := make(chan string, 16)
	watcher := a.Connect(cairntest.Client{Opts: &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			got <- req.Params.URI
		},
	}})
	other := b.Connect(cairntest.Client{Header: http.Header{"X-Cairn-Agent": {"other"}}})
	id := other.OK("loop_start", args{"objective": "watch me across instances", "completion_criteria": "c"}).Str("id")
	uri := "cairn://loops/" + id

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if res, err := watcher.Session.ListResources(ctx, nil); err != nil || !slices.Equal(loopURIs(res.Resources), []string{uri}) {
		t.Fatalf("resources/list on A right after B started a loop: %v %v", res, err)
	}
	if err := watcher.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	other.OK("loop_record", args{"id": id, "last_action": "changed through B"})
	select {
	case u := <-got:
		if u != uri {
			t.Fatalf("A notified %q, want %q", u, uri)
		}
	case <-ctx.Done():
		t.Fatalf("A sent no resources/updated after B changed the loop\nA's log:\n%s", a.Log())
	}
}

// TestLoopSubscriptionsBounded: a session subscribes only to loops that
// exist, and to at most 64 (issue 34, attack 7: 30,000 subscriptions held
// 264 MB for the session's life). On the 2025 protocol, whose
// resources/subscribe answers each request (the 2026 one subscribes
// through a listen stream, and the same handler admits it).
func TestLoopSubscriptionsBounded(t *testing.T) {
	dir := cairntest.Project(t)
	s := cairntest.Start(t, cairntest.Options{Dir: dir, Args: loopsOnly, ProtocolVersion: "2025-06-18"})
	ctx := context.Background()
	for _, bad := range []string{"cairn://loops/999999", "cairn://tasks/1", "https://example.com/x"} {
		if err := s.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: bad}); err == nil {
			t.Errorf("subscribe to %s: accepted", bad)
		}
	}
	var uris []string
	for i := range 65 {
		uris = append(uris, "cairn://loops/"+s.OK("loop_start", args{"objective": fmt.Sprintf("loop %d", i), "completion_criteria": "c"}).Str("id"))
	}
	for i, uri := range uris {
		err := s.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri})
		if i < 64 && err != nil || i == 64 && (err == nil || !strings.Contains(err.Error(), "unsubscribe")) {
			t.Fatalf("subscription %d: %v", i+1, err)
		}
	}
	if err := s.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: uris[0]}); err != nil {
		t.Fatalf("subscribing again to a loop held: %v", err)
	}
	if err := s.Session.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: uris[0]}); err != nil {
		t.Fatal(err)
	}
	if err := s.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: uris[64]}); err != nil {
		t.Fatalf("a subscription after an unsubscribe: %v", err)
	}
}
