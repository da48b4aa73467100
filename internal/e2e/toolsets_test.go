package e2e

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestToolsetsOnDemand: a client that honours list_changed starts with the
// default tools, turns loops and insight on with one call, hears
// tools/list_changed, and runs a loop without restarting Cairn, over stdio
// and over Streamable HTTP (where a second session keeps its own list); a
// client that ignores list changes gets loops from the start with
// --toolsets.
func TestToolsetsOnDemand(t *testing.T) {
	listNames := func(t *testing.T, s *cairntest.Server) []string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var out []string
		for tl, err := range s.Session.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, tl.Name)
		}
		return out
	}
	run := func(t *testing.T, s *cairntest.Server, changed chan struct{}) {
		t.Helper()
		before := listNames(t, s)
		if slices.Contains(before, "loop_start") || !slices.Contains(before, "toolsets") || !slices.Contains(before, "get_current_task") {
			t.Fatalf("the default list: %v", before)
		}
		if init := s.Session.InitializeResult(); !strings.Contains(init.Instructions, "call toolsets") || !init.Capabilities.Tools.ListChanged {
			t.Errorf("initialize: instructions %q, tools %+v", init.Instructions, init.Capabilities.Tools)
		}
		r := s.OK("toolsets", args{"enable": []string{"loops", "insight"}})
		if r.Structured["changed"] != true || !strings.Contains(r.Text, "loops [on, ") {
			t.Fatalf("toolsets enable: %s", r.Text)
		}
		select {
		case <-changed:
		case <-time.After(30 * time.Second):
			t.Fatal("no notifications/tools/list_changed after enabling loops and insight")
		}
		after := listNames(t, s)
		for _, want := range []string{"loop_start", "loop_record", "tool_usage", "get_current_task"} {
			if !slices.Contains(after, want) {
				t.Errorf("after enabling, no %s in %v", want, after)
			}
		}
		id := s.OK("loop_start", args{"objective": "Fix the flaky test", "completion_criteria": "ten green runs", "max_iterations": 3}).Str("id")
		if st := s.OK("loop_status", args{"id": id}); st.Str("status") != "pending" {
			t.Errorf("loop_status: %s", st.Text)
		}
	}
	notified := func() (chan struct{}, *mcp.ClientOptions) {
		ch := make(chan struct{}, 16)
		return ch, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { ch <- struct{}{} }}
	}

	t.Run("stdio", func(t *testing.T) {
		ch, opts := notified()
		s := cairntest.StartWith(t, cairntest.Options{Dir: cairntest.Project(t)}, opts)
		run(t, s, ch)
	})
	t.Run("http", func(t *testing.T) {
		h := cairntest.StartHTTP(t, cairntest.Options{Dir: cairntest.Project(t)})
		ch, opts := notified()
		a := h.Connect(cairntest.Client{Name: "a", Opts: opts})
		b := h.Connect(cairntest.Client{Name: "b"})
		run(t, a, ch)
		if got := listNames(t, b); slices.Contains(got, "loop_start") {
			t.Errorf("session b lists session a's toolsets: %v", got)
		}
		if r := b.Err("loop_list", nil); !strings.Contains(r.Text, `{"enable":["loops"]}`) {
			t.Errorf("b's loop_list: %s", r.Text)
		}
	})
	t.Run("--toolsets", func(t *testing.T) {
		s := cairntest.Start(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "default,loops"}})
		if got := listNames(t, s); !slices.Contains(got, "loop_start") || slices.Contains(got, "tool_usage") {
			t.Fatalf("--toolsets default,loops lists %v", got)
		}
		s.OK("loop_start", args{"objective": "o", "completion_criteria": "c"})
	})
}
