package httpserver

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/testing/problemtest"
)

// TestErrorTables: every kind has its status, and a refusal is answered
// with it. The server's refusals name no action (what to do is their Fix).
func TestErrorTables(t *testing.T) {
	problemtest.Run(t, problemtest.Surface{
		Code: func(k problem.Kind) int { return httpStatus[k] },
		Answer: func(err error) (int, string) {
			e, _ := problem.As(err)
			a := answerFor("reason", e)
			return a.Status, a.Problem + "; " + a.Fix
		},
	})
}

// TestSDKRefusals: each refusal the SDK's handler answers in plain text
// reaches the client as a JSON problem with its own reason and a fix, told
// apart by status and by what the request sent, not by the SDK's words.
func TestSDKRefusals(t *testing.T) {
	const a, b = "aK3v9QxZ2mP7wL4t", "bR8n2YcF6hJ1sD5q"
	toks := []Token{{Name: "a", Secret: a, Projects: []string{"*"}}, {Name: "b", Secret: b, Projects: []string{"*"}}}
	_, ts := newTestServer(t, Config{Tokens: toks})
	cs, err := connectAs(ts.URL, a)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	sid := cs.ID()

	const ping = `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	for _, c := range []struct {
		name           string
		method, body   string
		header         map[string]string
		status         int
		reason, fixHas string
	}{
		{"no Content-Type", "POST", ping, map[string]string{"Content-Type": ""}, 415, "unsupported_media_type", "Content-Type: application/json"},
		{"Accept without event-stream", "POST", ping, map[string]string{"Accept": "application/json"}, 400, "not_acceptable", "Accept: application/json, text/event-stream"},
		{"unknown protocol version", "POST", ping, map[string]string{"MCP-Protocol-Version": "1999-01-01", "Mcp-Session-Id": sid}, 400, "unsupported_protocol_version", "MCP-Protocol-Version"},
		{"GET without a session", "GET", "", map[string]string{"Accept": "text/event-stream"}, 400, "session_required", "Mcp-Session-Id"},
		{"GET without event-stream", "GET", "", map[string]string{"Accept": "application/json", "Mcp-Session-Id": sid}, 400, "not_acceptable", "Accept: text/event-stream"},
		{"DELETE without a session", "DELETE", "", nil, 400, "session_required", "Mcp-Session-Id"},
		{"unknown session", "POST", ping, map[string]string{"Mcp-Session-Id": "no-such-session"}, 404, "session_not_found", "initialize a new one"},
		{"another token's session", "POST", ping, map[string]string{"Mcp-Session-Id": sid, "Authorization": "Bearer " + b}, 403, "session_token_mismatch", "send that token"},
		{"PUT", "PUT", ping, nil, 405, "method_not_allowed", "POST"},
	} {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(c.method, ts.URL+"/mcp", strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+a)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range c.header {
				if v == "" {
					req.Header.Del(k)
				} else {
					req.Header.Set(k, v)
				}
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			var eb struct {
				Error struct {
					Message string `json:"message"`
					Data    answer `json:"data"`
				} `json:"error"`
			}
			if err := json.Unmarshal(body, &eb); err != nil {
				t.Fatalf("status %d, body not JSON: %s", resp.StatusCode, body)
			}
			d := eb.Error.Data
			if resp.StatusCode != c.status || d.Status != c.status || d.Reason != c.reason || d.Problem == "" || !strings.Contains(d.Fix, c.fixHas) {
				t.Errorf("status %d, problem %+v; want %d %s with a fix naming %q", resp.StatusCode, d, c.status, c.reason, c.fixHas)
			}
		})
	}
}
