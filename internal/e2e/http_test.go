package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite" // to hold a project's write lock from the test

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/wait"
)

// Streamable HTTP, end to end: the real binary (`cairn serve --http`) on a
// loopback port, driven by the official Go SDK client.

// Tokens for the tests: each at least 16 characters.
const (
	tokAll     = "all-projects-token-0001"
	tokOnlyA   = "project-a-token-000001"
	tokReadB   = "project-b-readonly-001"
	tokDefault = "default-only-token-001"
)

var testTokens = strings.Join([]string{
	tokAll + ":*:rw",
	tokOnlyA + ":a:rw",
	tokReadB + ":b:ro",
	tokDefault + ":default:rw",
}, ";")

// tokensFile writes tokReadB to a JSON tokens file.
func tokensFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "tokens.json")
	js := `{"tokens": [{"name": "b-reader", "token": "` + tokReadB + `", "projects": ["b"], "access": "ro"}]}`
	if err := os.WriteFile(p, []byte(js), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func bearer(tok string, more ...string) http.Header {
	h := http.Header{"Authorization": {"Bearer " + tok}}
	for i := 0; i+1 < len(more); i += 2 {
		h.Set(more[i], more[i+1])
	}
	return h
}

// projectDir makes an empty directory for a named project.
func projectDir(t *testing.T) string {
	t.Helper()
	return t.TempDir()
}

// dbFiles hashes a project's database files: a request that changed nothing
// leaves them byte for byte as they were.
func dbFiles(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, suf := range []string{"", "-wal"} {
		data, err := os.ReadFile(filepath.Join(dir, ".cairn", "cairn.db"+suf))
		if errors.Is(err, os.ErrNotExist) {
			fmt.Fprintf(&b, "cairn.db%s: none\n", suf)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "cairn.db%s: %d bytes %s\n", suf, len(data), hex.EncodeToString(sum[:8]))
	}
	return b.String()
}

// outlineOf is what the tools show of a project: every task, the archive and
// the agent's focus.
func outlineOf(t *testing.T, s *cairntest.Server) string {
	t.Helper()
	var b strings.Builder
	for _, c := range []struct {
		tool string
		args args
	}{
		{"get_stack_overview", args{"limit": 1000}},
		{"get_completed_tasks", args{"limit": 100}},
		{"get_current_task", args{}},
		{"get_tasks", args{"limit": 50}},
	} {
		j, err := json.Marshal(s.OK(c.tool, c.args).Structured)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s: %s\n", c.tool, j)
	}
	return b.String()
}

func toolNames(t *testing.T, s *cairntest.Server) []string {
	t.Helper()
	res, err := s.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tl := range res.Tools {
		out = append(out, tl.Name)
	}
	return out
}

// TestHTTPAgentsKeepTheirOwnFocus: tools work over HTTP, and each agent (the
// client's name, or X-Cairn-Agent) has its own YOU ARE HERE.
func TestHTTPAgentsKeepTheirOwnFocus(t *testing.T) {
	t.Parallel()
	h := cairntest.StartHTTP(t, cairntest.Options{Dir: cairntest.Project(t)})
	alice := h.Connect(cairntest.Client{Name: "alice"})
	bob := h.Connect(cairntest.Client{Name: "bob"})
	wantZen(t, alice)

	alice.OK("create_new_task", newTask("Alice: design the API"))
	alice.OK("create_new_task", newTask("Alice: write the schema"))
	bob.OK("create_new_task", newTask("Bob: fix the build"))
	cairntest.WantCurrent(t, alice, "Alice: write the schema")
	cairntest.WantCurrent(t, bob, "Bob: fix the build")

	// The header names the agent whatever the client is called.
	asAlice := h.Connect(cairntest.Client{Name: "some-editor", Header: http.Header{"X-Cairn-Agent": {"alice"}}})
	cairntest.WantCurrent(t, asAlice, "Alice: write the schema")
	asAlice.OK("extend_current_task", newTask("Alice: write the migration"))
	cairntest.WantCurrent(t, alice, "Alice: write the migration")
	cairntest.WantCurrent(t, bob, "Bob: fix the build")

	// Both agents' tasks are in the one project.
	over := alice.OK("get_stack_overview", args{"limit": 100}).Text
	for _, title := range []string{"Alice: design the API", "Bob: fix the build"} {
		if !strings.Contains(over, title) {
			t.Errorf("stack overview lacks %q:\n%s", title, over)
		}
	}
}

// TestHTTPProjectPerRequest: the project comes from the path, the
// X-Cairn-Project header or the token's one project; tokens are held to
// their projects and read-only tokens cannot write.
func TestHTTPProjectPerRequest(t *testing.T) {
	t.Parallel()
	def, a, b := cairntest.Project(t), projectDir(t), projectDir(t)
	// The read-only token comes from a tokens file, the others from the
	// environment.
	envTokens := strings.Replace(testTokens, tokReadB+":b:ro;", "", 1)
	if strings.Contains(envTokens, tokReadB) {
		t.Fatal("the read-only token is still in the environment")
	}
	h := cairntest.StartHTTP(t, cairntest.Options{Dir: def,
		Args: []string{"--project", "a=" + a, "--tokens-file", tokensFile(t)},
		Env:  []string{"CAIRN_TOKENS=" + envTokens, "CAIRN_PROJECTS=b=" + b}})

	byPath := h.Connect(cairntest.Client{Path: "/p/a/mcp", Header: bearer(tokAll)})
	byPath.OK("create_new_task", newTask("In A, by path"))
	byHeader := h.Connect(cairntest.Client{Header: bearer(tokAll, "X-Cairn-Project", "b")})
	byHeader.OK("create_new_task", newTask("In B, by header"))
	byToken := h.Connect(cairntest.Client{Header: bearer(tokOnlyA)})
	cairntest.WantCurrent(t, byToken, "In A, by path")
	wantZen(t, h.Connect(cairntest.Client{Header: bearer(tokAll)})) // plain /mcp: the default project
	for _, dir := range []string{a, b} {
		if _, err := os.Stat(filepath.Join(dir, ".cairn", "cairn.db")); err != nil {
			t.Errorf("named project's store not in its directory: %v", err)
		}
	}

	// A read-only token: it reads its project, lists no write tool, and a
	// write changes nothing.
	ro := h.Connect(cairntest.Client{Header: bearer(tokReadB)})
	cairntest.WantCurrent(t, ro, "In B, by header")
	names := toolNames(t, ro)
	for _, w := range []string{"create_new_task", "complete_current_task", "create_task", "update_task"} {
		if slices.Contains(names, w) {
			t.Errorf("read-only token lists %s", w)
		}
	}
	if !slices.Contains(names, "get_current_task") {
		t.Errorf("read-only token lacks get_current_task: %v", names)
	}
	before, files := outlineOf(t, byHeader), dbFiles(t, b)
	if r, err := ro.CallErr("create_new_task", newTask("Written with a read-only token")); err == nil && !r.IsError {
		t.Fatalf("read-only token wrote: %s", r.Text)
	}
	if after := outlineOf(t, byHeader); after != before {
		t.Errorf("read-only call changed project b:\nbefore %s\nafter %s", before, after)
	}
	if got := dbFiles(t, b); got != files {
		t.Errorf("read-only call changed b's files:\nbefore %s\nafter %s", files, got)
	}

	// Refusals at connect: the error the client reports says what is wrong.
	for _, c := range []struct {
		name   string
		client cairntest.Client
		want   string
	}{
		{"no token", cairntest.Client{}, "needs a bearer token"},
		{"unknown token", cairntest.Client{Header: bearer("not-a-configured-token")}, "not one this server knows"},
		{"token for another project", cairntest.Client{Path: "/p/b/mcp", Header: bearer(tokOnlyA)}, `may not use project "b"`},
		{"token for another project, by header", cairntest.Client{Header: bearer(tokDefault, "X-Cairn-Project", "a")}, `may not use project "a"`},
		{"unknown project", cairntest.Client{Path: "/p/nope/mcp", Header: bearer(tokAll)}, `unknown project "nope"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			sess, err := h.ConnectErr(c.client)
			if err == nil {
				sess.Close()
				t.Fatal("connected")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q does not say %q", err, c.want)
			}
		})
	}

	// A session belongs to its token: another token cannot use its id.
	post := func(tok, session string) *http.Response {
		req, _ := http.NewRequest("POST", h.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"ping"}`))
		req.Header = bearer(tok, "Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Mcp-Session-Id", session)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post(tokDefault, byToken.Session.ID())
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden && resp.StatusCode != http.StatusNotFound {
		t.Errorf("another token's session: status %d, want 403 or 404", resp.StatusCode)
	}
}

// TestHTTPStateless: with --stateless and --json-response every request
// stands alone; tools work and the agent comes from the header.
func TestHTTPStateless(t *testing.T) {
	t.Parallel()
	h := cairntest.StartHTTP(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--stateless", "--json-response"}})
	ci := h.Connect(cairntest.Client{Header: http.Header{"X-Cairn-Agent": {"ci"}}})
	if id := ci.Session.ID(); id != "" {
		t.Errorf("stateless server gave session id %q", id)
	}
	ci.OK("create_new_task", newTask("Stateless step"))
	ci.OK("create_new_task", newTask("Deeper stateless step"))
	cairntest.WantCurrent(t, ci, "Deeper stateless step")
	other := h.Connect(cairntest.Client{Header: http.Header{"X-Cairn-Agent": {"other"}}})
	other.OK("create_new_task", newTask("Other agent's step"))
	cairntest.WantCurrent(t, other, "Other agent's step")
	cairntest.WantCurrent(t, ci, "Deeper stateless step")
	// A toolset turned on would be gone at the next request: refused, saying how.
	if e := ci.Err("toolsets", map[string]any{"enable": []string{"memory"}}); !strings.Contains(e.Text, "stateless") || !strings.Contains(e.Text, "--toolsets") {
		t.Errorf("toolsets enable on a stateless server: %s", e.Text)
	}
	if out := ci.OK("toolsets", map[string]any{}); !strings.Contains(out.Text, "memory") || !strings.Contains(out.Text, "start it with --toolsets") || strings.Contains(out.Text, "for this session") {
		t.Errorf("toolsets list on a stateless server: %s", out.Text)
	}
}

// TestHTTPProbes: /healthz says the process is alive, /readyz that every
// project's store opens and answers.
func TestHTTPProbes(t *testing.T) {
	t.Parallel()
	gone := projectDir(t)
	h := cairntest.StartHTTP(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--project", "gone=" + gone}})
	get := func(path string) (int, map[string]any) {
		resp, err := http.Get(h.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatalf("%s: body is not JSON: %v", path, err)
		}
		return resp.StatusCode, body
	}
	if code, body := get("/healthz"); code != 200 || body["status"] != "ok" {
		t.Errorf("/healthz = %d %v", code, body)
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	code, body := get("/readyz")
	if code != http.StatusServiceUnavailable || !strings.Contains(fmt.Sprint(body), "gone") {
		t.Errorf("/readyz with a missing project = %d %v, want 503 naming it", code, body)
	}
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	if code, body := get("/readyz"); code != 200 || body["status"] != "ready" {
		t.Errorf("/readyz = %d %v", code, body)
	}
	if _, err := os.Stat(filepath.Join(gone, ".cairn", "cairn.db")); err != nil {
		t.Errorf("/readyz did not open the project: %v", err)
	}
}

// TestHTTPLoadsProjectsAhead: a served project that has a store is opened,
// and its plan loaded, before any request comes; one with no store yet is
// left for its first request, which creates it.
func TestHTTPLoadsProjectsAhead(t *testing.T) {
	t.Parallel()
	def, fresh := cairntest.Project(t), projectDir(t)
	s := cairntest.Start(t, cairntest.Options{Dir: def})
	s.OK("create_new_task", newTask("Loaded ahead"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// A store closed cleanly has no WAL; an open one has.
	wal := filepath.Join(def, ".cairn", "cairn.db-wal")
	if _, err := os.Stat(wal); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the WAL is still there after a clean stop: %v", err)
	}

	h := cairntest.StartHTTP(t, cairntest.Options{Dir: def, Args: []string{"--project", "fresh=" + fresh, "--log-level", "debug"}})
	h.WaitLog(t, "projects loaded ahead", 0)
	if !strings.Contains(h.Log(), "loaded=1 served=2") {
		t.Errorf("want the default project loaded ahead and the fresh one left:\n%s", h.Log())
	}
	if _, err := os.Stat(wal); err != nil {
		t.Errorf("the default project was not opened before any request: %v", err)
	}
	if _, err := os.Stat(filepath.Join(fresh, ".cairn")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a store was made for a project no request has used: %v", err)
	}
	cairntest.WantCurrent(t, h.Connect(cairntest.Client{}), "Loaded ahead")
	h.Connect(cairntest.Client{Path: "/p/fresh/mcp"}).OK("create_new_task", newTask("In the fresh project"))
	if _, err := os.Stat(filepath.Join(fresh, ".cairn", "cairn.db")); err != nil {
		t.Errorf("the first request did not make the fresh project's store: %v", err)
	}
}

// TestHTTPShutdownDrains: SIGTERM stops new connections at once, lets a call
// in flight finish and be answered, closes the stores and exits 0.
func TestHTTPShutdownDrains(t *testing.T) {
	t.Parallel()
	dir := cairntest.Project(t)
	h := cairntest.StartHTTP(t, cairntest.Options{Dir: dir, Args: []string{"--log-level", "debug"}})
	c := h.Connect(cairntest.Client{})
	c.OK("create_new_task", newTask("Before shutdown"))

	// Hold the project's write lock, so the next write waits in flight.
	db, err := sql.Open("sqlite", filepath.Join(dir, ".cairn", "cairn.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	type result struct {
		r   cairntest.Result
		err error
	}
	done := make(chan result, 1)
	// Wait for the client's standalone SSE stream (GET): the SDK's client
	// gives up on a session whose stream cannot open, and during the drain
	// none can.
	h.WaitLog(t, `msg="mcp request in" method=GET`, 0)
	const inFlight = `msg="mcp request in" method=POST`
	seen := strings.Count(h.Log(), inFlight)
	go func() {
		r, err := c.CallErr("create_new_task", newTask("In flight at SIGTERM"))
		done <- result{r, err}
	}()
	// Logged once admitted: the call is in flight, and SIGTERM must let it
	// finish, whether it waits on the write lock yet or is on its way.
	h.WaitLog(t, inFlight, seen)
	if err := h.Terminate(); err != nil {
		t.Fatal(err)
	}
	// New connections are refused while the call is still in flight (the
	// server, another process, closes its listener as it logs the drain).
	h.WaitLog(t, "shutting down: draining calls in flight", 0)
	wait.Until(t, 5*time.Second, "the server to refuse new connections after SIGTERM", func() bool {
		resp, err := http.Get(h.URL + "/healthz")
		if err != nil {
			return true
		}
		resp.Body.Close()
		return false
	})
	select {
	case r := <-done:
		t.Fatalf("the call finished while the lock was held: %+v", r)
	default:
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.r.IsError {
		t.Fatalf("call in flight at SIGTERM: %v %s\n%s", r.err, r.r.Text, h.Log())
	}
	if err := h.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, h.Log())
	}
	if !strings.Contains(h.Log(), "drained") && !strings.Contains(h.Log(), "shutdown") {
		t.Logf("log:\n%s", h.Log())
	}
	// The answered write is durable.
	again := cairntest.StartHTTP(t, cairntest.Options{Dir: dir})
	cairntest.WantCurrent(t, again.Connect(cairntest.Client{}), "In flight at SIGTERM")
}

// TestHTTPBadInput: requests that are wrong at the HTTP level get a clear
// status and a JSON body naming the problem and the fix, and change nothing.
// The server is stateless, so every request below is a complete, valid
// create_new_task call but for its one flaw: were a check missing, it would
// write (the control request shows it).
func TestHTTPBadInput(t *testing.T) {
	t.Parallel()
	def, a, b := cairntest.Project(t), projectDir(t), projectDir(t)
	h := cairntest.StartHTTP(t, cairntest.Options{Dir: def,
		Args: []string{"--stateless", "--max-body", "65536", "--project", "a=" + a, "--project", "b=" + b},
		Env:  []string{"CAIRN_TOKENS=" + testTokens}})
	reader := h.Connect(cairntest.Client{Header: bearer(tokAll, "X-Cairn-Agent", "reader")})
	reader.OK("create_new_task", newTask("Existing task"))

	const call = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_new_task","arguments":{"title":"Must not be created","body":""}}}`
	type req struct {
		method, path string
		header       http.Header
		body         string
		chunked      bool
	}
	good := func() req {
		return req{"POST", "/mcp", bearer(tokAll, "Content-Type", "application/json", "Accept", "application/json, text/event-stream"), call, false}
	}
	send := func(r req) (*http.Response, []byte) {
		t.Helper()
		var body io.Reader = strings.NewReader(r.body)
		if r.chunked {
			body = io.MultiReader(strings.NewReader(r.body)) // no length: sent chunked
		}
		hr, err := http.NewRequest(r.method, h.URL+r.path, body)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range r.header {
			if k == "Host" {
				hr.Host = v[0]
				continue
			}
			hr.Header[k] = v
		}
		resp, err := http.DefaultClient.Do(hr)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return resp, out
	}
	big := strings.Replace(call, `"body":""`, `"body":"`+strings.Repeat("x", 70000)+`"`, 1)

	cases := []struct {
		name   string
		edit   func(*req)
		status int
		reason string
	}{
		{"malformed JSON", func(r *req) { r.body = call[:40] }, 400, "parse_error"},
		{"text/plain body", func(r *req) { r.header.Set("Content-Type", "text/plain") }, 415, "unsupported_media_type"},
		{"form body", func(r *req) { r.header.Set("Content-Type", "application/x-www-form-urlencoded") }, 415, "unsupported_media_type"},
		{"no content type", func(r *req) { r.header.Del("Content-Type") }, 415, "unsupported_media_type"},
		{"Accept without event-stream", func(r *req) { r.header.Set("Accept", "application/json") }, 400, "not_acceptable"},
		{"oversized body", func(r *req) { r.body = big }, 413, "body_too_large"},
		{"oversized chunked body", func(r *req) { r.body, r.chunked = big, true }, 413, "body_too_large"},
		{"no token", func(r *req) { r.header.Del("Authorization") }, 401, "missing_token"},
		{"unknown token", func(r *req) { r.header.Set("Authorization", "Bearer not-a-configured-token") }, 401, "invalid_token"},
		{"basic auth", func(r *req) { r.header.Set("Authorization", "Basic dXNlcjpwYXNz") }, 401, "invalid_authorization"},
		{"token for another project", func(r *req) { r.path = "/p/b/mcp"; r.header.Set("Authorization", "Bearer "+tokOnlyA) }, 403, "project_not_allowed"},
		{"read-only token writes", func(r *req) { r.path = "/p/b/mcp"; r.header.Set("Authorization", "Bearer "+tokReadB) }, 200, ""},
		{"unknown project", func(r *req) { r.path = "/p/nope/mcp" }, 404, "unknown_project"},
		{"invalid project name", func(r *req) { r.header.Set("X-Cairn-Project", "no such/project") }, 400, "invalid_project"},
		{"path and header disagree", func(r *req) { r.path = "/p/a/mcp"; r.header.Set("X-Cairn-Project", "b") }, 400, "conflicting_project"},
		{"foreign Origin", func(r *req) { r.header.Set("Origin", "https://evil.example.com") }, 403, "origin_not_allowed"},
		{"null Origin", func(r *req) { r.header.Set("Origin", "null") }, 403, "origin_not_allowed"},
		{"rebound Host", func(r *req) { r.header.Set("Host", "evil.example.com") }, 403, "host_not_allowed"},
		{"over-long agent", func(r *req) { r.header.Set("X-Cairn-Agent", strings.Repeat("a", 200)) }, 400, "invalid_agent"},
		{"GET in stateless mode", func(r *req) { r.method = "GET" }, 405, "method_not_allowed"},
		{"PUT", func(r *req) { r.method = "PUT" }, 405, "method_not_allowed"},
		{"unknown path", func(r *req) { r.path = "/mcp/extra" }, 404, "not_found"},
	}
	projects := map[string]string{"default": def, "a": a, "b": b}
	state := func() string {
		var s strings.Builder
		for _, name := range []string{"default", "a", "b"} {
			s.WriteString(name + ":\n" + dbFiles(t, projects[name]))
		}
		return s.String() + outlineOf(t, reader)
	}
	before := state()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := good()
			c.edit(&r)
			resp, body := send(r)
			if c.status == 200 {
				// A read-only token's write is a tool error: the tool is not there.
				if resp.StatusCode != 200 || !bytes.Contains(body, []byte("create_new_task")) || !bytes.Contains(body, []byte("error")) {
					t.Errorf("status %d body %s: want 200 with an error naming the tool", resp.StatusCode, body)
				}
				return
			}
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d; body %s", resp.StatusCode, c.status, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			var eb struct {
				Error struct {
					Message string `json:"message"`
					Data    struct {
						Status  int    `json:"status"`
						Reason  string `json:"reason"`
						Problem string `json:"problem"`
						Fix     string `json:"fix"`
					} `json:"data"`
				} `json:"error"`
			}
			if err := json.Unmarshal(body, &eb); err != nil {
				t.Fatalf("body is not JSON: %v: %s", err, body)
			}
			d := eb.Error.Data
			if d.Status != c.status || d.Reason != c.reason || d.Problem == "" || eb.Error.Message == "" {
				t.Errorf("problem = %+v, want status %d reason %s", d, c.status, c.reason)
			}
			if d.Fix == "" && c.reason != "unknown_project" && c.reason != "invalid_project" {
				t.Errorf("no fix in %s", body)
			}
			if len(body) > 1024 {
				t.Errorf("error body is %d bytes", len(body))
			}
			// A fix must be one the caller can carry out: no tool writes a
			// body in parts.
			if c.status == 413 && (strings.Contains(d.Fix, "in parts") || !strings.Contains(d.Fix, "--max-body") || !strings.Contains(d.Fix, "file")) {
				t.Errorf("413 fix %q: say what is true (large material in files, or --max-body)", d.Fix)
			}
			if c.status == 401 && !strings.Contains(resp.Header.Get("WWW-Authenticate"), "resource_metadata=") {
				t.Errorf("401 without WWW-Authenticate resource_metadata: %q", resp.Header.Get("WWW-Authenticate"))
			}
		})
	}
	if after := state(); after != before {
		t.Fatalf("bad requests changed the store:\nbefore %s\nafter %s", before, after)
	}

	// Control: the same request with no flaw writes, so each case above was
	// one check away from writing.
	if resp, body := send(good()); resp.StatusCode != 200 || bytes.Contains(body, []byte(`"isError":true`)) {
		t.Fatalf("control request: %d %s", resp.StatusCode, body)
	}
	if after := state(); after == before {
		t.Fatal("the control request changed nothing: the cases above prove nothing")
	}

	// Protected-resource metadata (RFC 9728) for the endpoint a 401 named.
	resp, body := send(req{"GET", "/.well-known/oauth-protected-resource/p/a/mcp", nil, "", false})
	var meta struct {
		Resource string   `json:"resource"`
		Methods  []string `json:"bearer_methods_supported"`
	}
	if err := json.Unmarshal(body, &meta); err != nil || resp.StatusCode != 200 || meta.Resource != h.URL+"/p/a/mcp" || !slices.Contains(meta.Methods, "header") {
		t.Errorf("metadata: %d %s (%v)", resp.StatusCode, body, err)
	}
}

// TestHTTPStartupRefusals: settings that would serve something unsafe or
// not what was asked do not start, and say why.
func TestHTTPStartupRefusals(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		args []string
		env  []string
		want []string
	}{
		{"open bind without tokens", []string{"--http", "0.0.0.0:0"}, nil, []string{"no bearer token", "CAIRN_TOKENS"}},
		{"short token", []string{"--http", "127.0.0.1:0"}, []string{"CAIRN_TOKENS=short:*:rw"}, []string{"at least 16"}},
		{"bad address", []string{"--http", "7777"}, nil, []string{"HOST:PORT"}},
		{"missing project directory", []string{"--http", "127.0.0.1:0", "--project", "x=/no/such/dir"}, nil, []string{"project x", "not a directory"}},
		{"bad project pair", []string{"--http", "127.0.0.1:0"}, []string{"CAIRN_PROJECTS=web"}, []string{"name=DIR"}},
		{"HTTP flag without --http", []string{"--stateless"}, nil, []string{"--stateless applies to HTTP only"}},
		{"unreadable tokens file", []string{"--http", "127.0.0.1:0", "--tokens-file", "/no/such/file"}, nil, []string{"read tokens file"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(cairntest.Binary(t), append([]string{"serve"}, c.args...)...)
			cmd.Dir = cairntest.Project(t)
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "CAIRN_") {
					cmd.Env = append(cmd.Env, kv)
				}
			}
			cmd.Env = append(cmd.Env, c.env...)
			done := make(chan struct{})
			var out []byte
			var err error
			go func() { out, err = cmd.CombinedOutput(); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("still running after 20s:\n%s", out)
			}
			if err == nil {
				t.Fatalf("started:\n%s", out)
			}
			for _, w := range c.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("output does not say %q:\n%s", w, out)
				}
			}
		})
	}
}
