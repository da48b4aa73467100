package e2e

import (
	"context"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// The protocol versions each way of reaching Cairn speaks, as the README's
// "Protocol versions" table says: the version a client asks for, and the one
// it gets. A 2026-07-28 client first tries server/discover and, where that
// is not served (stateful HTTP, the bridge), falls back to initialize at
// 2025-11-25, the newest version of that era.
var protocolModes = []struct {
	mode string
	// got maps the version asked for to the version negotiated.
	got map[string]string
}{
	{"stdio", legacyAnd("2026-07-28")},
	{"http", legacyAnd("2025-11-25")},
	{"http-stateless", legacyAnd("2026-07-28")},
	{"bridge", legacyAnd("2025-11-25")},
}

// legacyAnd is every version of the session era, each negotiated as asked,
// and 2026-07-28 negotiated as newest.
func legacyAnd(newest string) map[string]string {
	m := map[string]string{"2026-07-28": newest}
	for _, v := range []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"} {
		m[v] = v
	}
	return m
}

// TestProtocolVersions: a client of each protocol era, through each way of
// reaching Cairn (stdio, Streamable HTTP with and without sessions, the
// bridge), negotiates the version the README promises and can list and call
// tools, list prompts and resource templates, and read a loop resource.
func TestProtocolVersions(t *testing.T) {
	dir := cairntest.Project(t)
	remote := startRemote(t, "127.0.0.1:0", dir)
	stateless := cairntest.StartHTTP(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all", "--stateless"}})
	for _, m := range protocolModes {
		for _, asked := range slices.Sorted(func(yield func(string) bool) {
			for v := range m.got {
				if !yield(v) {
					return
				}
			}
		}) {
			t.Run(m.mode+"/"+asked, func(t *testing.T) {
				var cs *mcp.ClientSession
				switch m.mode {
				case "stdio":
					cs = connectAt(t, asked, stdioTransport(t, dir, "serve", "--toolsets", "all"))
				case "http":
					cs = connectAt(t, asked, httpTransport(remote.URL, http.Header{"Authorization": {"Bearer " + bridgeToken}}))
				case "http-stateless":
					cs = connectAt(t, asked, httpTransport(stateless.URL+"/mcp", nil))
				case "bridge":
					cs = connectAt(t, asked, stdioTransport(t, t.TempDir(), "bridge", remote.URL, "--token", bridgeToken, "--cache-dir", t.TempDir()))
				}
				if got := cs.InitializeResult().ProtocolVersion; got != m.got[asked] {
					t.Fatalf("asked for %s, negotiated %s; want %s", asked, got, m.got[asked])
				}
				exerciseLists(t, cs)
			})
		}
	}
}

// exerciseLists lists tools, prompts and resource templates, starts a loop
// and reads its resource: the surface works whatever version was negotiated.
func exerciseLists(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) == 0 {
		t.Fatalf("tools/list: %v %v", err, tools)
	}
	if _, err := cs.ListPrompts(ctx, nil); err != nil {
		t.Fatalf("prompts/list: %v", err)
	}
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) == 0 {
		t.Fatalf("resources/templates/list: %v", err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "loop_start", Arguments: args{"objective": "protocol check", "completion_criteria": "it answers"}})
	if err != nil || res.IsError {
		t.Fatalf("loop_start: %v %v", err, res)
	}
	d, err := cairntest.Decode(res)
	if err != nil {
		t.Fatal(err)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: d.Str("uri")})
	if err != nil || len(rr.Contents) == 0 || !strings.Contains(rr.Contents[0].Text, "protocol check") {
		t.Fatalf("read %s: %v %v", d.Str("uri"), err, rr)
	}
}

// TestListOrder: tools/list, prompts/list, resources/list and
// resources/templates/list answer in one fixed order, the one the README
// documents (tools and prompts by name, resources by URI, templates by URI
// template), the same on every call, after a restart, and in either era.
func TestListOrder(t *testing.T) {
	dir := cairntest.Project(t)
	lists := func(version string) [4][]string {
		cs := connectAt(t, version, stdioTransport(t, dir, "serve", "--toolsets", "all"))
		defer cs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var out [4][]string
		for tl, err := range cs.Tools(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			out[0] = append(out[0], tl.Name)
		}
		for p, err := range cs.Prompts(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			out[1] = append(out[1], p.Name)
		}
		for r, err := range cs.Resources(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			out[2] = append(out[2], r.URI)
		}
		for r, err := range cs.ResourceTemplates(ctx, nil) {
			if err != nil {
				t.Fatal(err)
			}
			out[3] = append(out[3], r.URITemplate)
		}
		return out
	}
	// Loops 1 to 12, so that an order by URI ("cairn://loops/10" before
	// "cairn://loops/2") differs from the order of creation.
	cs := connectAt(t, "2025-11-25", stdioTransport(t, dir, "serve", "--toolsets", "all"))
	for i := range 12 {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "loop_start", Arguments: args{"objective": "loop " + string(rune('a'+i)), "completion_criteria": "done"}})
		if err != nil || res.IsError {
			t.Fatalf("loop_start: %v %v", err, res)
		}
	}
	cs.Close()

	first := lists("2025-11-25")
	names := []string{"tools", "prompts", "resources", "resource templates"}
	for i, l := range first {
		if len(l) == 0 {
			t.Fatalf("no %s listed", names[i])
		}
		if !slices.IsSorted(l) {
			t.Errorf("%s are not in their documented order (sorted by name or URI): %v", names[i], l)
		}
	}
	if n := len(slices.DeleteFunc(slices.Clone(first[2]), func(u string) bool { return !strings.HasPrefix(u, "cairn://loops/") })); n != 12 {
		t.Errorf("resources/list has %d loops, want 12: %v", n, first[2])
	}
	for _, version := range []string{"2025-11-25", "2025-06-18", "2026-07-28"} {
		again := lists(version) // each a new process: a restart
		for i := range again {
			if !slices.Equal(first[i], again[i]) {
				t.Errorf("%s at %s differ from the first listing:\n got %v\nwant %v", names[i], version, again[i], first[i])
			}
		}
	}
}

// connectAt connects the SDK client asking for protocol version v.
func connectAt(t *testing.T, v string, tr mcp.Transport) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "protocol-" + v, Version: "1"}, nil)
	cs, err := c.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: v})
	if err != nil {
		t.Fatalf("connect at %s: %v", v, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// stdioTransport runs the cairn binary with args in dir.
func stdioTransport(t *testing.T, dir string, args ...string) mcp.Transport {
	cmd := exec.Command(cairntest.Binary(t), args...)
	cmd.Dir = dir
	return &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}
}

// httpTransport reaches a Streamable HTTP endpoint with the headers given.
func httpTransport(url string, h http.Header) mcp.Transport {
	return &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: headerRT{h}}, MaxRetries: -1}
}

type headerRT struct{ h http.Header }

func (t headerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.h) > 0 {
		r = r.Clone(r.Context())
		for k, v := range t.h {
			r.Header[k] = v
		}
	}
	return http.DefaultTransport.RoundTrip(r)
}

// TestStatelessAgentByEra: over stateless HTTP a 2026-07-28 client names
// itself in every request, so each client keeps its own focus as over
// stdio; a client of the session era names itself only at initialize, which
// no later request carries, so its agent is the default unless it sends
// X-Cairn-Agent (as the README says).
func TestStatelessAgentByEra(t *testing.T) {
	dir := cairntest.Project(t)
	h := cairntest.StartHTTP(t, cairntest.Options{Dir: dir, Args: []string{"--stateless"}})
	for _, tc := range []struct {
		version, bobSees string
	}{
		{"2026-07-28", "Zen (agent bob-2026-07-28)"},
		{"2025-11-25", "YOU ARE HERE: [1] alice's task (depth 1; agent default)"},
	} {
		t.Run(tc.version, func(t *testing.T) {
			conn := func(name string) *mcp.ClientSession {
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				cs, err := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil).
					Connect(ctx, httpTransport(h.URL+"/mcp", nil), &mcp.ClientSessionOptions{ProtocolVersion: tc.version})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { cs.Close() })
				return cs
			}
			alice, bob := conn("alice-"+tc.version), conn("bob-"+tc.version)
			if tc.version == "2025-11-25" {
				// The 2026-07-28 case left the task with alice-2026-07-28.
				if res := callVia(t, alice, "switch_focus", args{"task_id": "1"}); res.IsError {
					t.Fatalf("switch_focus: %v", res.Content)
				}
			} else if res := callVia(t, alice, "create_new_task", args{"title": "alice's task"}); res.IsError {
				t.Fatalf("create_new_task: %v", res.Content)
			}
			d, err := cairntest.Decode(callVia(t, bob, "get_current_task", args{}))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(d.Text, tc.bobSees) {
				t.Errorf("bob sees %q, want it to start %q", d.Text, tc.bobSees)
			}
		})
	}
}
