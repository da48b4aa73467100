package mcpserver_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/service"
)

// TestToolsetsCall: two sessions of one server (as HTTP sessions share
// one) each turn toolsets on and off for themselves; the one that changes
// hears list_changed and sees its new tools, the other keeps its list, and
// a tool of a toolset that is off is refused with the call that turns it on.
func TestToolsetsCall(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	srv, err := mcpserver.New(mcpserver.Options{Context: ctx,
		Services: func(context.Context) (*service.Set, error) { return nil, errors.New("no project here") }})
	if err != nil {
		t.Fatal(err)
	}
	connect := func(name string) (*mcp.ClientSession, chan struct{}) {
		changed := make(chan struct{}, 16)
		return connect(t, ctx, srv, name, &mcp.ClientOptions{
			ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed <- struct{}{} },
		}), changed
	}
	names := func(cs *mcp.ClientSession) []string {
		t.Helper()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tl := range res.Tools {
			out = append(out, tl.Name)
		}
		return out
	}
	call := func(cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return res
	}
	text := func(res *mcp.CallToolResult) string { return res.Content[0].(*mcp.TextContent).Text }

	a, aChanged := connect("a")
	b, bChanged := connect("b")
	def, err := mcpserver.ToolNames(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(a); !slices.Equal(sorted(got), def) {
		t.Fatalf("a starts with %v, want the default %v", got, def)
	}
	if res := call(a, "loop_list", nil); !res.IsError || !strings.Contains(text(res), `call toolsets with {"enable":["loops"]}`) {
		t.Errorf("loop_list while loops is off: %s", text(res))
	}
	if res := call(a, "toolsets", map[string]any{"enable": []any{"lops"}}); !res.IsError || !strings.HasPrefix(text(res), "error: enable[0] ") {
		t.Errorf("an unknown toolset: %s", text(res))
	}
	res := call(a, "toolsets", map[string]any{"enable": []any{"loops", "insight"}})
	if res.IsError || !strings.Contains(text(res), "loops [on, ") || !strings.Contains(text(res), "hands [off, ") {
		t.Fatalf("enable loops, insight: %s", text(res))
	}
	select {
	case <-aChanged:
	case <-ctx.Done():
		t.Fatal("no tools/list_changed after enabling toolsets")
	}
	got := names(a)
	for _, want := range []string{"loop_start", "loop_list", "tool_usage", "get_current_task", "toolsets"} {
		if !slices.Contains(got, want) {
			t.Errorf("after enabling loops and insight, a lists no %s: %v", want, got)
		}
	}
	if res := call(a, "loop_list", nil); strings.Contains(text(res), "toolset") {
		t.Errorf("loop_list once loops is on still refused for its toolset: %s", text(res))
	}
	// b shares the server, not the toolsets.
	if got := names(b); !slices.Equal(sorted(got), def) {
		t.Errorf("b lists %v after a enabled loops, want the default", got)
	}
	if res := call(b, "loop_list", nil); !res.IsError || !strings.Contains(text(res), "off in this session") {
		t.Errorf("b's loop_list: %s", text(res))
	}
	// Turning one off: a list_changed again, even though no tool was added.
	for len(aChanged) > 0 {
		<-aChanged
	}
	if res := call(a, "toolsets", map[string]any{"disable": []any{"insight", "memory"}}); res.IsError {
		t.Fatal(text(res))
	}
	select {
	case <-aChanged:
	case <-ctx.Done():
		t.Fatal("no tools/list_changed after disabling toolsets")
	}
	got = names(a)
	if slices.Contains(got, "tool_usage") || slices.Contains(got, "memory_search") || !slices.Contains(got, "loop_start") {
		t.Errorf("after disabling insight and memory, a lists %v", got)
	}
	_ = bChanged // b may hear of a's changes (the SDK notifies every session); its list is what counts
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}
