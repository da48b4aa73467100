package httpserver

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/internal/app"
)

type countHandler struct {
	slog.Handler
	n *int
}

func (h countHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h countHandler) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "unknown bearer token") {
		*h.n++
	}
	return nil
}

// TestSayOnlyWhatTheCallerMayKnow: /readyz (no token needed) names no
// path; a 403 does not name the token (a tokens file's path and line); a
// wrong token is logged once a minute, not once a request; a token bound
// to an agent cannot act as another.
func TestSayOnlyWhatTheCallerMayKnow(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".cairn"), 0o755)
	os.WriteFile(filepath.Join(dir, ".cairn", "cairn.db"), nil, 0o644) // refused: empty
	t.Setenv("CAIRN_PROJECT_ROOT", dir)
	projects, err := app.NewDirProjects(app.Config{}, map[string]string{"web": dir})
	if err != nil {
		t.Fatal(err)
	}
	defer projects.Close()
	logged := 0
	s, err := New(Config{Projects: projects, Logger: slog.New(countHandler{slog.DiscardHandler, &logged}),
		Tokens: []Token{
			{Name: "/etc/cairn/tokens.txt#3", Secret: "aK3v9QxZ2mP7wL4t", Projects: []string{"web"}},
			{Name: "bot", Secret: "bR8n2YcF6hJ1sD5q", Projects: []string{"*"}, Agent: "ci-bot"},
		}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()

	resp, err := http.Get(ts.URL + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 503 || strings.Contains(string(body), dir) || strings.Contains(string(body), "cairn.db") {
		t.Fatalf("readyz: %d %s", resp.StatusCode, body)
	}

	post := func(path, secret string, h ...string) (int, string) {
		req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer "+secret)
		for i := 0; i+1 < len(h); i += 2 {
			req.Header.Set(h[i], h[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if st, b := post("/p/default/mcp", "aK3v9QxZ2mP7wL4t"); st != 403 || strings.Contains(b, "tokens.txt") || !strings.Contains(b, "project_not_allowed") {
		t.Fatalf("403: %d %s", st, b)
	}
	for range 100 {
		if st, _ := post("/mcp", "wrong-but-long-enough-9876"); st != 401 {
			t.Fatalf("wrong token: %d", st)
		}
	}
	if logged != 1 {
		t.Fatalf("a wrong token sent 100 times was logged %d times, want 1", logged)
	}
	if st, b := post("/mcp", "bR8n2YcF6hJ1sD5q", HeaderAgent, "someone-else"); st != 403 || !strings.Contains(b, "agent_not_allowed") {
		t.Fatalf("a bound token acting as another agent: %d %s", st, b)
	}
	// The other way round (issue 34, attack 10): another token naming the
	// bound agent, which released ci-bot's claim.
	if st, b := post("/mcp", "aK3v9QxZ2mP7wL4t", HeaderAgent, "ci-bot"); st != 403 || !strings.Contains(b, "agent_not_allowed") || !strings.Contains(b, "bound to another token") {
		t.Fatalf("another token acting as the bound agent: %d %s", st, b)
	}
	if st, b := post("/mcp", "bR8n2YcF6hJ1sD5q", HeaderAgent, "ci-bot"); st == 403 {
		t.Fatalf("the bound token naming its own agent: %d %s", st, b)
	}
}

// TestOneTokenPerBoundAgent: two tokens bound to one agent name are a
// configuration error, said at start.
func TestOneTokenPerBoundAgent(t *testing.T) {
	_, err := newTokenSet([]Token{
		{Name: "a", Secret: "aK3v9QxZ2mP7wL4t", Projects: []string{"*"}, Agent: "ci-bot"},
		{Name: "b", Secret: "bR8n2YcF6hJ1sD5q", Projects: []string{"*"}, Agent: "ci-bot"},
	})
	if err == nil || !strings.Contains(err.Error(), "both bound to agent") {
		t.Fatalf("newTokenSet: %v", err)
	}
}
