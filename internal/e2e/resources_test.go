package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestResources reads every resource and template of a project with a
// task, a memory entry, a session, a lifecycle and a knowledge entry,
// completes ids, and hears resources/updated when another process changes
// a subscribed task.
func TestResources(t *testing.T) {
	dir := cairntest.Project(t)
	if err := os.MkdirAll(filepath.Join(dir, "knowledge"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "knowledge", "sqlite.md"), []byte("---\ntitle: SQLite in WAL mode\ncategory: storage\n---\nOne writer, many readers.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	other := cairntest.Start(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all", "--agent", "other"}})
	id := other.OK("create_task", args{"title": "Ship the importer"}).Str("id")
	m := other.OK("memory_add_decision", args{"title": "Use WAL", "rationale": "readers never wait"}).Str("id")
	sess := other.OK("session", args{"action": "start", "goal": "resources"})
	sid := sess.Structured["session"].(map[string]any)["id"].(string)
	lc := other.OK("lifecycle_init", args{"task_id": id})
	lid := lc.Structured["id"]

	updated := make(chan string, 16)
	w := cairntest.StartWith(t, cairntest.Options{Dir: dir}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) { updated <- req.Params.URI },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	list, err := w.Session.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	for _, want := range []string{"cairn://big-picture", "cairn://current", "cairn://plan", "cairn://next", "cairn://sessions", "cairn://branches",
		"cairn://lifecycles", "cairn://health", "cairn://project", "cairn://config", "cairn://knowledge", "cairn://agents"} {
		if !slices.Contains(uris, want) {
			t.Errorf("resources/list lacks %s: %v", want, uris)
		}
	}
	// Every concrete resource reads, as text, compactly.
	for _, u := range uris {
		rr, err := w.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: u})
		if err != nil || len(rr.Contents) != 1 || rr.Contents[0].Text == "" {
			t.Fatalf("read %s: %v %v", u, rr, err)
		}
		if n := len(rr.Contents[0].Text); n > 4096 {
			t.Errorf("%s is %d bytes", u, n)
		}
	}
	read := func(uri string) string {
		t.Helper()
		rr, err := w.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Fatalf("read %s: %v", uri, err)
		}
		return rr.Contents[0].Text
	}
	for uri, want := range map[string]string{
		"cairn://plan":                          "Ship the importer",
		"cairn://tasks/" + id:                   "Ship the importer",
		"cairn://memory/" + m:                   "Use WAL",
		"cairn://sessions/" + sid:               "resources",
		"cairn://lifecycles/" + toStr(lid):      "Ship the importer",
		"cairn://knowledge/knowledge/sqlite.md": "One writer, many readers.",
		"cairn://knowledge":                     "SQLite in WAL mode",
	} {
		if got := read(uri); !strings.Contains(got, want) {
			t.Errorf("%s does not say %q:\n%s", uri, want, got)
		}
	}
	// A template with an id that names nothing is not found.
	if _, err := w.Session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "cairn://tasks/999"}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("read a missing task: %v", err)
	}
	tpls, err := w.Session.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var tu []string
	for _, r := range tpls.ResourceTemplates {
		tu = append(tu, r.URITemplate)
	}
	for _, want := range []string{"cairn://tasks/{id}", "cairn://memory/{id}", "cairn://sessions/{id}", "cairn://branches/{+name}",
		"cairn://lifecycles/{id}", "cairn://knowledge/{+entry}", "cairn://agents/{name}"} {
		if !slices.Contains(tu, want) {
			t.Errorf("templates lack %s: %v", want, tu)
		}
	}
	complete := func(tpl, arg, prefix string) []string {
		t.Helper()
		res, err := w.Session.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: tpl},
			Argument: mcp.CompleteParamsArgument{Name: arg, Value: prefix}})
		if err != nil {
			t.Fatalf("complete %s: %v", tpl, err)
		}
		return res.Completion.Values
	}
	for _, c := range []struct{ tpl, arg, prefix, want string }{
		{"cairn://tasks/{id}", "id", "", id},
		{"cairn://memory/{id}", "id", "m", m},
		{"cairn://sessions/{id}", "id", "s", sid},
		{"cairn://lifecycles/{id}", "id", "", toStr(lid)},
		{"cairn://knowledge/{+entry}", "entry", "know", "knowledge/sqlite.md"},
	} {
		if got := complete(c.tpl, c.arg, c.prefix); !slices.Contains(got, c.want) {
			t.Errorf("complete %s %q: %v, want %s among them", c.tpl, c.prefix, got, c.want)
		}
	}
	if got := complete("cairn://memory/{id}", "id", "zz"); len(got) != 0 {
		t.Errorf("complete a prefix nothing has: %v", got)
	}

	// A subscription to a task hears a change another process makes; a
	// file-backed resource cannot be subscribed to.
	// (resources/subscribe, of the protocol before 2026-07-28, answers the
	// refusal; subscriptions/listen does not wait for it.)
	legacy := connectAt(t, "2025-11-25", stdioTransport(t, dir, "serve"))
	defer legacy.Close()
	if err := legacy.Subscribe(ctx, &mcp.SubscribeParams{URI: "cairn://knowledge"}); err == nil {
		t.Error("subscribed to a resource that never notifies")
	}
	if err := legacy.Subscribe(ctx, &mcp.SubscribeParams{URI: "cairn://plan"}); err != nil {
		t.Errorf("subscribe to the plan: %v", err)
	}
	uri := "cairn://tasks/" + id
	if err := w.Session.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatal(err)
	}
	// Under protocol 2026-07-28, Subscribe returns before the server has
	// taken the subscription in: a change made before then is not news to
	// it, so the other process changes the task until one is heard.
	for i := 0; ; i++ {
		other.OK("update_task", args{"id": id, "title": fmt.Sprintf("Ship the importer, twice (%d)", i)})
		select {
		case got := <-updated:
			if got != uri {
				t.Fatalf("updated %s, want %s", got, uri)
			}
		case <-time.After(time.Second):
			continue
		case <-ctx.Done():
			t.Fatal("no resources/updated after another process changed the task", w.Log())
		}
		break
	}
	if got := read(uri); !strings.Contains(got, "twice") {
		t.Fatalf("after the change: %s", got)
	}
}

// toStr is a JSON id as text: "1" for 1.
func toStr(v any) string { return fmt.Sprint(v) }
