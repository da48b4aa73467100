package httpserver

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/app"
)

func TestParseTokens(t *testing.T) {
	good, err := ParseTokens("env", " 0123456789abcdef:web, api :rw ;\n# a comment\nfedcba9876543210fe:*:ro\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(good) != 2 || good[0].Secret != "0123456789abcdef" || strings.Join(good[0].Projects, "|") != "web|api" || good[0].ReadOnly ||
		!good[1].ReadOnly || good[1].Projects[0] != "*" || good[1].Name != "env#2" {
		t.Fatalf("parsed %+v", good)
	}
	for _, c := range []struct{ in, want string }{
		{"short:web:rw", "at least 16"},
		{"0123456789abcdef:web", "SECRET:PROJECTS:ACCESS"},
		{"0123456789abcdef:web:write", "use rw"},
		{"0123456789abcdef::rw", "no projects"},
		{"0123456789abcdef:bad name:rw", "project name"},
		{"aaaaaaaaaaaaaaaa:web:rw", "too easy to guess"},
		{"abababababababab:web:rw", "too easy to guess"},
		{"0123456789abcdef:web:rw:bad\x01agent", "agent"},
	} {
		_, err := ParseTokens("env", c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseTokens(%q) = %v, want an error saying %q", c.in, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "0123456789abcdef") {
			t.Errorf("error repeats the secret: %v", err)
		}
	}
}

func TestLoadTokensFile(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "tokens.json")
	os.WriteFile(js, []byte(`{"tokens":[{"name":"ci","token":"0123456789abcdef01","projects":["web"],"access":"read-only"}]}`), 0o600)
	got, err := LoadTokensFile(js)
	if err != nil || len(got) != 1 || got[0].Name != "ci" || !got[0].ReadOnly {
		t.Fatalf("json file: %+v, %v", got, err)
	}
	lines := filepath.Join(dir, "tokens.txt")
	os.WriteFile(lines, []byte("0123456789abcdef01:web:rw\n"), 0o600)
	if got, err := LoadTokensFile(lines); err != nil || len(got) != 1 || got[0].ReadOnly {
		t.Fatalf("lines file: %+v, %v", got, err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"tokens":[{"secret":"x"}]}`), 0o600)
	if _, err := LoadTokensFile(bad); err == nil || !strings.Contains(err.Error(), "unknown field") {
		t.Fatalf("unknown field: %v", err)
	}
	if _, err := LoadTokensFile(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("missing file loaded")
	}
}

func TestTokenSet(t *testing.T) {
	a := Token{Name: "a", Secret: "aK3v9QxZ2mP7wL4t", Projects: []string{"x"}}
	b := Token{Name: "b", Secret: "bR8n2YcF6hJ1sD5q", Projects: []string{"*"}}
	ts, err := newTokenSet([]Token{a, b})
	if err != nil {
		t.Fatal(err)
	}
	for secret, want := range map[string]string{"aK3v9QxZ2mP7wL4t": "a", "bR8n2YcF6hJ1sD5q": "b", "aK3v9QxZ2mP7wL4": "", "aK3v9QxZ2mP7wL4tt": "", "": ""} {
		got, ok := ts.find(secret)
		if ok != (want != "") || got.Name != want {
			t.Errorf("find(%q) = %q %v, want %q", secret, got.Name, ok, want)
		}
	}
	if _, err := newTokenSet([]Token{a, {Name: "c", Secret: a.Secret, Projects: []string{"y"}}}); err == nil {
		t.Error("two tokens with one secret accepted")
	}
	if !b.allows("anything") || a.allows("y") || !a.allows("x") {
		t.Error("allows")
	}
	if p, ok := a.only(); !ok || p != "x" {
		t.Error("only")
	}
	if _, ok := b.only(); ok {
		t.Error("* is not one project")
	}
}

func newTestServer(t testing.TB, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	s := newServer(t, cfg)
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

// newServer is a server of one project, in a temporary directory.
func newServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".cairn"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("CAIRN_PROJECT_ROOT", dir)
	projects, err := app.NewDirProjects(app.Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { projects.Close() })
	cfg.Projects = projects
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestListenRefusesOpenAddressWithoutTokens(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	if _, err := s.Listen("0.0.0.0:0"); err == nil || !strings.Contains(err.Error(), "no bearer token") {
		t.Fatalf("Listen(0.0.0.0:0) without tokens: %v", err)
	}
	if _, err := s.Listen("nonsense"); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Fatalf("Listen(nonsense): %v", err)
	}
	ln, err := s.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	withTokens, _ := newTestServer(t, Config{Tokens: []Token{{Name: "t", Secret: "0123456789abcdef", Projects: []string{"*"}}}})
	ln, err = withTokens.Listen("0.0.0.0:0")
	if err != nil {
		t.Fatalf("Listen(0.0.0.0:0) with tokens: %v", err)
	}
	ln.Close()
}

func TestHostAndOrigin(t *testing.T) {
	_, ts := newTestServer(t, Config{AllowedHosts: []string{"cairn.internal"}, AllowedOrigins: []string{"https://board.example.com"}})
	port := ts.URL[strings.LastIndex(ts.URL, ":"):]
	const ping = `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	for _, c := range []struct {
		host, origin string
		forbidden    bool
	}{
		{"127.0.0.1" + port, "", false},
		{"localhost" + port, "", false},
		{"[::1]" + port, "", false},
		{"cairn.internal" + port, "", false},
		{"evil.example.com" + port, "", true},
		{"127.0.0.1" + port, "http://127.0.0.1" + port, false},
		{"127.0.0.1" + port, "https://board.example.com", false},
		{"127.0.0.1" + port, "https://evil.example.com", true},
		{"127.0.0.1" + port, "http://localhost" + port, true}, // another origin
		{"127.0.0.1" + port, "null", true},
	} {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(ping))
		req.Host = c.host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body errorBody
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if got := resp.StatusCode == http.StatusForbidden; got != c.forbidden {
			t.Errorf("Host %s Origin %q: status %d, want forbidden=%v", c.host, c.origin, resp.StatusCode, c.forbidden)
		}
		if c.forbidden && string(body.ID) != "7" {
			t.Errorf("Host %s Origin %q: error id %s, want the request's, 7", c.host, c.origin, body.ID)
		}
	}
}

func TestMetadataOnlyWithTokens(t *testing.T) {
	_, open := newTestServer(t, Config{})
	resp, err := http.Get(open.URL + "/.well-known/oauth-protected-resource")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("metadata without tokens: %d, want 404", resp.StatusCode)
	}
	_, guarded := newTestServer(t, Config{Tokens: []Token{{Name: "t", Secret: "0123456789abcdef", Projects: []string{"*"}}}})
	resp, err = http.Get(guarded.URL + "/.well-known/oauth-protected-resource")
	if err != nil {
		t.Fatal(err)
	}
	var meta map[string]any
	json.NewDecoder(resp.Body).Decode(&meta)
	resp.Body.Close()
	if resp.StatusCode != 200 || meta["resource"] != guarded.URL+"/mcp" {
		t.Errorf("metadata: %d %v", resp.StatusCode, meta)
	}
}

// TestSessionTimeout: an idle session is closed after the timeout, and a
// request on it is told to start a new one. In a bubble, over pipes: the
// idle time passes on the bubble's clock.
func TestSessionTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		url, hc := servePipes(t, newServer(t, Config{SessionTimeout: 200 * time.Millisecond}))
		ctx := context.Background()
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		sess, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: hc, MaxRetries: -1, DisableStandaloneSSE: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer sess.Close()
		call := func() error {
			_, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "get_current_task", Arguments: map[string]any{}})
			return err
		}
		if err := call(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(150 * time.Millisecond) // idle on the bubble's clock, within the timeout: a call renews it
		if err := call(); err != nil {
			t.Fatalf("a call within the timeout: %v", err)
		}
		time.Sleep(250 * time.Millisecond) // idle on the bubble's clock, past the timeout
		if err := call(); err == nil || !errors.Is(err, mcp.ErrSessionMissing) {
			t.Fatalf("call on an expired session: %v, want ErrSessionMissing", err)
		}
	})
}

func TestRequestID(t *testing.T) {
	for body, want := range map[string]string{
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`:    "3",
		`{"jsonrpc":"2.0","id":"a","method":"ping"}`:  `"a"`,
		`{"jsonrpc":"2.0","id":null,"method":"ping"}`: "",
		`{"jsonrpc":"2.0","method":"notify"}`:         "",
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`:  "",
		`{"id":{"x":1}}`: "",
		`not json`:       "",
	} {
		if got := string(requestID([]byte(body))); got != want {
			t.Errorf("requestID(%s) = %q, want %q", body, got, want)
		}
	}
}

// TestPeekRequest: the id and whether the request is an initialize, from
// one decode, as two decodes (each into its own field) read them.
func TestPeekRequest(t *testing.T) {
	for _, c := range []struct {
		body string
		id   string
		init bool
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, "1", true},
		{`{"jsonrpc":"2.0","id":"x","method":"\u0069nitialize"}`, `"x"`, true},
		{`{"jsonrpc":"2.0","id":2,"method":"tools/call"}`, "2", false},
		{`{"jsonrpc":"2.0","id":3,"method":5}`, "3", false}, // a method of another type leaves the id
		{`{"jsonrpc":"2.0","id":true,"method":"initialize"}`, "", true},
		{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "", false},
		{`[{"jsonrpc":"2.0","id":1,"method":"initialize"}]`, "", false},
		{`not json`, "", false},
	} {
		id, init := peekRequest([]byte(c.body))
		if string(id) != c.id || init != c.init {
			t.Errorf("peekRequest(%s) = %q, %v; want %q, %v", c.body, id, init, c.id, c.init)
		}
	}
}

// TestPeekRequestMatchesEncodingJSON: on valid JSON, peekRequest (which
// decodes with segmentio's Parse) reads the id and method encoding/json
// reads: field names in any case, the last of repeated keys, escapes.
func TestPeekRequestMatchesEncodingJSON(t *testing.T) {
	std := func(body []byte) (json.RawMessage, bool) {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method json.RawMessage `json:"method"`
		}
		if json.Unmarshal(body, &m) != nil {
			return nil, false
		}
		var method string
		init := len(m.Method) > 0 && m.Method[0] == '"' && json.Unmarshal(m.Method, &method) == nil && method == "initialize"
		if len(m.ID) == 0 || string(m.ID) == "null" || m.ID[0] != '"' && (m.ID[0] < '0' || m.ID[0] > '9') && m.ID[0] != '-' {
			return nil, init
		}
		return m.ID, init
	}
	for _, body := range []string{
		`{"ID":5,"METHOD":"initialize"}`, `{"Id":"x","mEthod":"initialize","id":6}`, `{"id":5,"id":7}`,
		`{"id":"a\u00e9\"","method":"initi\u0061lize"}`, `{"id":-1e400,"method":"ping"}`, `{"id":[1],"method":3}`,
		`{"id":1,"method":"initialize","params":{"a":[1,{"b":null}],"c":"\ud83d\ude00"}}`, `{"method":null,"id":"z"}`,
		` {"id":2} `, `[]`, `"initialize"`, `{"id":{"x":1},"method":"initialize"}`, `{"id":"\u0000"}`,
	} {
		if !json.Valid([]byte(body)) {
			t.Fatalf("%s is not valid JSON; fix the case", body)
		}
		id, init := peekRequest([]byte(body))
		wid, winit := std([]byte(body))
		if string(id) != string(wid) || init != winit {
			t.Errorf("peekRequest(%s) = %s, %v; encoding/json reads %s, %v", body, id, init, wid, winit)
		}
	}
}

func TestInflight(t *testing.T) {
	var f inflight
	for range 2 {
		if !f.add() {
			t.Fatal("add refused")
		}
	}
	done := make(chan bool)
	go func() { done <- f.wait(context.Background()) }()
	f.done()
	select {
	case <-done:
		t.Fatal("wait returned with a call in flight")
	case <-time.After(20 * time.Millisecond):
	}
	f.done()
	if !<-done {
		t.Fatal("wait did not report drained")
	}
	if f.add() {
		t.Fatal("add accepted after wait")
	}
	var g inflight
	g.add()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if g.wait(ctx) {
		t.Fatal("wait reported drained with a call in flight")
	}
}
