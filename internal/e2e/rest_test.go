package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
)

// TestRESTTools: GET /mcp/tools and POST /mcp/tools/{name} on the real
// binary: behind the same tokens and origin check as /mcp, the same
// answers as a tools/call (a task made over REST is the one MCP sees),
// 404 for an unknown tool, 400 naming the argument at fault, a read-only
// token's writes not served.
func TestRESTTools(t *testing.T) {
	t.Parallel()
	dir := cairntest.Project(t)
	h := cairntest.StartHTTP(t, cairntest.Options{Dir: dir, Args: []string{"--max-body", "65536"}, Env: []string{"CAIRN_TOKENS=" + tokDefault + ":default:rw;" + tokAll + ":*:ro"}})
	do := func(method, path, tok, body string, hdr ...string) (int, map[string]any) {
		t.Helper()
		var rd io.Reader
		if body != "" {
			rd = strings.NewReader(body)
		}
		req, err := http.NewRequest(method, h.URL+path, rd)
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		if tok != "" {
			req.Header.Set("Authorization", "Bearer "+tok)
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var out map[string]any
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s %s: %d, not JSON: %s", method, path, resp.StatusCode, b)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q", method, path, ct)
		}
		return resp.StatusCode, out
	}

	// Without a token, with an unknown one, from another site: refused as /mcp is.
	if st, out := do("GET", "/mcp/tools", "", ""); st != http.StatusUnauthorized {
		t.Errorf("no token: %d %v", st, out)
	}
	if st, _ := do("POST", "/mcp/tools/get_current_task", "not-a-configured-token", "{}"); st != http.StatusUnauthorized {
		t.Errorf("unknown token: %d", st)
	}
	if st, _ := do("GET", "/mcp/tools", tokDefault, "", "Origin", "http://evil.example"); st != http.StatusForbidden {
		t.Errorf("foreign origin: %d", st)
	}

	st, out := do("GET", "/mcp/tools", tokDefault, "")
	if st != http.StatusOK {
		t.Fatalf("GET /mcp/tools: %d %v", st, out)
	}
	byName := map[string]map[string]any{}
	for _, tl := range out["tools"].([]any) {
		m := tl.(map[string]any)
		byName[m["name"].(string)] = m
	}
	for _, want := range []string{"create_new_task", "loop_start", "validate_sql"} {
		if byName[want] == nil || byName[want]["inputSchema"] == nil {
			t.Errorf("GET /mcp/tools: no %s with its schema", want)
		}
	}
	if byName["toolsets"] != nil {
		t.Error("REST lists the toolsets tool, which changes an MCP session's list")
	}

	st, out = do("POST", "/mcp/tools/create_new_task", tokDefault, `{"title": "Made over REST"}`)
	if st != http.StatusOK || !strings.Contains(out["text"].(string), "Made over REST") || out["structured"] == nil {
		t.Fatalf("create_new_task: %d %v", st, out)
	}
	mcp := h.Connect(cairntest.Client{Header: bearer(tokDefault)})
	if r := mcp.OK("get_current_task", nil); !strings.Contains(r.Text, "Made over REST") {
		t.Errorf("MCP does not see the task made over REST: %s", r.Text)
	}
	// The same answer as a tools/call, for the same agent.
	viaMCP := mcp.OK("get_stack_overview", nil)
	if st, out = do("POST", "/mcp/tools/get_stack_overview", tokDefault, "", "X-Cairn-Agent", "cairntest"); st != http.StatusOK || out["text"] != viaMCP.Text {
		t.Errorf("get_stack_overview over REST: %d %q, over MCP %q", st, out["text"], viaMCP.Text)
	}

	if st, out = do("POST", "/mcp/tools/no_such_tool", tokDefault, "{}"); st != http.StatusNotFound || out["reason"] != "unknown_tool" {
		t.Errorf("unknown tool: %d %v", st, out)
	}
	st, out = do("POST", "/mcp/tools/create_new_task", tokDefault, `{"title": 7}`)
	if st != http.StatusBadRequest || out["field"] != "title" || out["fix"] == "" {
		t.Errorf("a bad argument: %d %v", st, out)
	}
	if st, out = do("POST", "/mcp/tools/create_new_task", tokDefault, `[1]`); st != http.StatusBadRequest {
		t.Errorf("arguments not an object: %d %v", st, out)
	}
	if st, out = do("POST", "/mcp/tools/switch_focus", tokDefault, `{"task_id": "999"}`); st != http.StatusNotFound || out["reason"] != "not_found" {
		t.Errorf("a missing task: %d %v", st, out)
	}
	big := `{"title": "` + strings.Repeat("x", 70000) + `"}`
	if st, _ = do("POST", "/mcp/tools/create_new_task", tokDefault, big); st != http.StatusRequestEntityTooLarge {
		t.Errorf("a body over the cap: %d", st)
	}

	// A read-only token reads, and finds no tool that writes.
	if st, out = do("POST", "/mcp/tools/get_current_task", tokAll, ""); st != http.StatusOK {
		t.Errorf("read-only token reading: %d %v", st, out)
	}
	if st, out = do("POST", "/mcp/tools/create_new_task", tokAll, `{"title": "nope"}`); st != http.StatusNotFound {
		t.Errorf("read-only token writing: %d %v", st, out)
	}
}
