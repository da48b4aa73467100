package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/cairn-dev/cairn/internal/testing/cairntest"
	"github.com/cairn-dev/cairn/internal/testing/wait"
)

// chromium returns the system Chromium (Debian's chromium package, which
// scripts/test installs). Outside CI a machine without it skips the browser
// tests; under CI=true its absence fails them.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CAIRN_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed: scripts/test installs Debian's chromium package (apt-get install chromium)")
	}
	t.Skip("chromium is not installed (apt-get install chromium); the browser tests need it")
	return ""
}

// browser starts a headless Chromium with a fresh profile and returns a
// tab's context; both end with the test.
func browser(t *testing.T) context.Context {
	t.Helper()
	// Not t.TempDir: Chromium's helper processes may still be writing its
	// profile for a moment after the browser is told to stop, and TempDir
	// fails the test when it cannot remove the directory at once.
	profile, err := os.MkdirTemp("", "cairn-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromium(t)),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1440, 1000),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelC()
		cancelA()
		// Chromium's helpers, other processes, may still be writing it.
		wait.For(5*time.Second, func() bool { return os.RemoveAll(profile) == nil })
	})
	if err := chromedp.Run(ctx); err != nil { // start the browser now
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// run runs browser actions with a deadline, failing the test on error. A
// page that navigates under an action (a form's answer arriving) makes it
// start over, so actions given to run must be safe to repeat: waits and
// reads. Clicks that submit go through submit.
func run(t *testing.T, ctx context.Context, d time.Duration, what string, actions ...chromedp.Action) {
	t.Helper()
	deadline := time.Now().Add(d)
	var err error
	// The browser, another process, may be loading the next page: poll
	// until the actions run on a page that stays.
	wait.For(d, func() bool {
		c, cancel := context.WithDeadline(ctx, deadline)
		err = chromedp.Run(c, actions...)
		cancel()
		return err == nil || !navigated(err)
	})
	if err != nil {
		var text string
		c, cancel := context.WithTimeout(ctx, 2*time.Second)
		_ = chromedp.Run(c, chromedp.Text("body", &text, chromedp.ByQuery))
		cancel()
		t.Fatalf("%s: %v\npage: %s", what, err, text)
	}
}

func navigated(err error) bool {
	s := err.Error()
	return strings.Contains(s, "navigated or closed") || strings.Contains(s, "context was destroyed") || strings.Contains(s, "Cannot find context")
}

// submit clicks a button that submits a form; the navigation that follows
// is not an error.
func submit(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Run(c, chromedp.Click(sel, chromedp.ByQuery)); err != nil && !navigated(err) {
		t.Fatalf("click %s: %v", sel, err)
	}
}

// mainHas waits until the page's <main> contains s.
func mainHas(s string) chromedp.Action {
	b, _ := json.Marshal(s)
	return chromedp.Poll(fmt.Sprintf(`document.querySelector("main") && document.querySelector("main").innerText.includes(%s)`, b), nil,
		chromedp.WithPollingInterval(50*time.Millisecond))
}

// live waits until the page's event stream is connected.
func live() chromedp.Action {
	return chromedp.WaitVisible(`#live[data-state="live"]`, chromedp.ByQuery)
}

var createdID = regexp.MustCompile(`(?:Created task|Started loop|Added subtask) (\d+)`)

func idOf(t *testing.T, r cairntest.Result) string {
	t.Helper()
	m := createdID.FindStringSubmatch(r.Text)
	if m == nil {
		t.Fatalf("no id in %q", r.Text)
	}
	return m[1]
}

// screenshots is where the browser tests write what each view looks like:
// $CAIRN_SCREENSHOTS, else a new temporary directory that is kept.
func screenshots(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("CAIRN_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	d, err := os.MkdirTemp("", "cairn-board-shots-")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func shoot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	var png []byte
	run(t, ctx, 10*time.Second, "screenshot "+name, chromedp.FullScreenshot(&png, 100))
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

const (
	boardRW = "board-rw-secret-0123456789"
	boardRO = "board-ro-secret-0123456789"
)

// TestBoardBrowser drives the board in a real headless Chromium against
// the real binary, with an agent's changes made over MCP (Streamable HTTP,
// the SDK's client) while the page is open.
func TestBoardBrowser(t *testing.T) {
	ctx := browser(t)
	dir := cairntest.Project(t)
	srv := cairntest.StartHTTP(t, cairntest.Options{Dir: dir, Args: []string{"--toolsets", "all"},
		Env: []string{"CAIRN_TOKENS=" + boardRW + ":*:rw;" + boardRO + ":*:ro"}})
	agent := srv.Connect(cairntest.Client{Name: "claude", Header: http.Header{"Authorization": {"Bearer " + boardRW}, "X-Cairn-Agent": {"claude"}}})
	shots := screenshots(t)
	t.Logf("screenshots in %s", shots)

	// Some history, so every view has something to show.
	alpha := idOf(t, agent.OK("create_task", map[string]any{"title": "Alpha: set up CI", "priority": "high", "description": "GitHub Actions, race detector on."}))
	beta := idOf(t, agent.OK("create_task", map[string]any{"title": "Beta: deploy to staging", "dependencies": []string{alpha}}))
	gamma := idOf(t, agent.OK("create_task", map[string]any{"title": "Gamma: write the release notes", "priority": "low", "dependencies": []string{beta}}))
	agent.OK("claim_task", map[string]any{"id": beta})
	agent.OK("lifecycle_init", map[string]any{"task_id": gamma})
	agent.OK("create_new_task", map[string]any{"title": "Investigate flaky login test"})
	agent.OK("create_new_task", map[string]any{"title": "Reproduce with -count=100"})
	agent.OK("memory_add_decision", map[string]any{"title": "PostgreSQL for team mode", "content": "Use PostgreSQL for team mode",
		"rationale": "many writers, LISTEN/NOTIFY for live updates", "alternatives": []string{"MySQL", "shared SQLite on NFS"}})
	agent.OK("memory_add_mistake", map[string]any{"title": "Forgot to close rows", "content": "too many open connections",
		"root_cause": "rows.Close missing in a loop", "fix": "defer rows.Close() right after Query"})
	loopID := idOf(t, agent.OK("loop_start", map[string]any{"objective": "Make the flaky test pass 100 times", "completion_criteria": "100 green runs", "max_iterations": 10}))
	agent.OK("loop_record", map[string]any{"id": loopID, "last_action": "ran the test 20 times", "percentage": 20})
	agent.OK("loop_checkpoint", map[string]any{"id": loopID, "note": "before changing the retry"})
	agent.OK("session", map[string]any{"action": "start", "goal": "stabilise CI"})

	// Sign in with a token in the fragment: the page trades it for the
	// cookie and drops it from the address bar.
	var loc string
	run(t, ctx, 15*time.Second, "sign in from the fragment",
		chromedp.Navigate(srv.URL+"/#token="+boardRW), live(), mainHas("Alpha: set up CI"), chromedp.Location(&loc))
	if strings.Contains(loc, "token") {
		t.Errorf("the address bar still has the token: %s", loc)
	}
	run(t, ctx, 5*time.Second, "outline marks the agent", mainHas("YOU ARE HERE · claude"))
	shoot(t, ctx, shots, "outline")

	t.Run("shows a task created over MCP", func(t *testing.T) {
		run(t, ctx, 10*time.Second, "plan", chromedp.Navigate(srv.URL+"/plan"), live(), mainHas("Alpha: set up CI"), mainHas("waits on #"+alpha),
			mainHas("held by claude"), chromedp.WaitVisible(`[data-id="`+gamma+`"] .phase`, chromedp.ByQuery))
		shoot(t, ctx, shots, "plan")
	})

	t.Run("changes over MCP appear without a reload", func(t *testing.T) {
		run(t, ctx, 10*time.Second, "plan", chromedp.Navigate(srv.URL+"/plan"), live())
		var marker string
		run(t, ctx, time.Second, "mark the page", chromedp.Evaluate(`window.notReloaded = "yes"`, &marker))

		start := time.Now()
		id := idOf(t, agent.OK("create_task", map[string]any{"title": "Delta: created while watching"}))
		run(t, ctx, 2*time.Second, "new task appears", mainHas("Delta: created while watching"))
		t.Logf("task created over MCP shown after %v", time.Since(start).Round(time.Millisecond))

		start = time.Now()
		agent.OK("update_task", map[string]any{"id": id, "status": "in-progress"})
		run(t, ctx, 2*time.Second, "status change appears",
			chromedp.WaitVisible(`.col-in-progress [data-id="`+id+`"]`, chromedp.ByQuery))
		t.Logf("status change shown after %v", time.Since(start).Round(time.Millisecond))

		run(t, ctx, 10*time.Second, "loops", chromedp.Navigate(srv.URL+"/loops"), live(),
			chromedp.WaitVisible(`.loop[data-id="`+loopID+`"]`, chromedp.ByQuery))
		run(t, ctx, time.Second, "mark the page", chromedp.Evaluate(`window.notReloaded = "yes"`, &marker))
		start = time.Now()
		agent.OK("loop_record", map[string]any{"id": loopID, "last_action": "retried with a longer timeout", "percentage": 45})
		run(t, ctx, 2*time.Second, "iteration appears", chromedp.Poll(
			`document.querySelector('.loop[data-id="`+loopID+`"] .iteration').textContent === "2"`, nil, chromedp.WithPollingInterval(50*time.Millisecond)))
		t.Logf("loop iteration shown after %v", time.Since(start).Round(time.Millisecond))
		run(t, ctx, time.Second, "still the same page", chromedp.Evaluate(`window.notReloaded`, &marker))
		if marker != "yes" {
			t.Error("the page was reloaded")
		}
		shoot(t, ctx, shots, "loops")
		run(t, ctx, 10*time.Second, "loop page", chromedp.Navigate(srv.URL+"/loop/"+loopID), live(), mainHas("before changing the retry"))
		shoot(t, ctx, shots, "loop")
	})

	t.Run("an edit on the board is what get_task sees", func(t *testing.T) {
		run(t, ctx, 10*time.Second, "edit",
			chromedp.Navigate(srv.URL+"/task/"+alpha), live(),
			chromedp.SetValue("#edit-title", "Alpha: set up CI with the race detector", chromedp.ByID),
			chromedp.SetValue("#edit-status", "done", chromedp.ByID))
		submit(t, ctx, "#edit-save")
		run(t, ctx, 10*time.Second, "edited page", mainHas("Alpha: set up CI with the race detector"))
		got := agent.OK("get_task", map[string]any{"id": alpha}).Text
		if !strings.Contains(got, "done") || !strings.Contains(got, "Alpha: set up CI with the race detector") {
			t.Errorf("get_task after the board's edit: %s", got)
		}
		shoot(t, ctx, shots, "task")
	})

	t.Run("a dependency cycle is refused with the MCP message", func(t *testing.T) {
		var refusal string
		run(t, ctx, 10*time.Second, "cycle",
			chromedp.Navigate(srv.URL+"/task/"+alpha), live(),
			chromedp.SetValue("#dep-add", beta, chromedp.ByID))
		submit(t, ctx, "#dep-submit")
		run(t, ctx, 10*time.Second, "refusal",
			chromedp.WaitVisible("#refusal", chromedp.ByID),
			chromedp.Text("#refusal", &refusal, chromedp.ByID))
		mcp := agent.Err("update_task", map[string]any{"id": alpha, "dependencies": []string{beta}}).Text
		want := strings.TrimPrefix(mcp, "error: ")
		if !strings.Contains(refusal, want) {
			t.Errorf("board refusal %q\nMCP says %q", refusal, want)
		}
		if got := agent.OK("get_task", map[string]any{"id": alpha}).Text; strings.Contains(got, "depends on") {
			t.Errorf("the refused edit changed the task: %s", got)
		}
		shoot(t, ctx, shots, "refusal")
	})

	t.Run("memory and sessions", func(t *testing.T) {
		run(t, ctx, 10*time.Second, "memory", chromedp.Navigate(srv.URL+"/memory?q=postgres+team"), live(),
			mainHas("many writers, LISTEN/NOTIFY"))
		shoot(t, ctx, shots, "memory")
		run(t, ctx, 10*time.Second, "mistakes", chromedp.Navigate(srv.URL+"/memory?type=mistake"), live(),
			mainHas("defer rows.Close() right after Query"))
		run(t, ctx, 10*time.Second, "sessions", chromedp.Navigate(srv.URL+"/sessions"), live(), mainHas("stabilise CI"))
		shoot(t, ctx, shots, "sessions")
		run(t, ctx, 10*time.Second, "dark plan", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}),
			chromedp.Navigate(srv.URL+"/plan"), live())
		shoot(t, ctx, shots, "plan-dark")
		run(t, ctx, 5*time.Second, "light again", emulation.SetEmulatedMedia().WithFeatures([]*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "light"}}))
	})

	t.Run("a read-only token cannot edit", func(t *testing.T) {
		var forms int
		run(t, ctx, 15*time.Second, "sign in read-only",
			chromedp.Navigate(srv.URL+"/#token="+boardRO), live(),
			chromedp.Navigate(srv.URL+"/task/"+beta), live(), mainHas("Beta: deploy to staging"),
			chromedp.Evaluate(`document.querySelectorAll("main form").length`, &forms))
		if forms != 0 {
			t.Errorf("a read-only board shows %d forms", forms)
		}
		var status int
		run(t, ctx, 10*time.Second, "post anyway", chromedp.Evaluate(`fetch("/task/`+beta+`", {method: "POST", body: new URLSearchParams({title: "hijacked"})}).then(r => r.status)`, &status,
			func(p *cdpruntime.EvaluateParams) *cdpruntime.EvaluateParams { return p.WithAwaitPromise(true) }))
		if status != http.StatusForbidden {
			t.Errorf("a read-only board's POST: status %d, want 403", status)
		}
		if got := agent.OK("get_task", map[string]any{"id": beta}).Text; strings.Contains(got, "hijacked") {
			t.Errorf("a read-only board changed the task: %s", got)
		}
		shoot(t, ctx, shots, "read-only")
	})

	t.Run("a request from another Origin is refused", func(t *testing.T) {
		// localhost and 127.0.0.1 are different origins (and sites): a page
		// on one posting a form to the other is a cross-site request.
		other := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
		var body string
		run(t, ctx, 15*time.Second, "another origin", chromedp.Navigate(other+"/healthz")) // a page without the board's CSP, as an attacker's would be
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		err := chromedp.Run(c, chromedp.Evaluate(`(() => { const f = document.createElement("form"); f.method = "POST"; f.action = "`+srv.URL+`/tasks";
				const i = document.createElement("input"); i.name = "title"; i.value = "evil task"; f.appendChild(i);
				document.body.appendChild(f); f.submit(); return true })()`, nil))
		cancel()
		if err != nil && !navigated(err) {
			t.Fatal(err)
		}
		run(t, ctx, 15*time.Second, "cross-origin answer",
			chromedp.Poll(`location.href.startsWith("`+srv.URL+`/tasks")`, nil),
			chromedp.Text("body", &body, chromedp.ByQuery))
		if !strings.Contains(body, "origin_not_allowed") {
			t.Errorf("cross-origin POST answered: %s", body)
		}
		if got := agent.OK("get_tasks", map[string]any{}).Text; strings.Contains(got, "evil task") {
			t.Errorf("a cross-origin form created a task: %s", got)
		}
	})

	if strings.Contains(srv.Log(), boardRW) || strings.Contains(srv.Log(), boardRO) {
		t.Errorf("a token is in the server's log:\n%s", srv.Log())
	}
}

// TestBoardHTTP checks the board's doors without a browser: loopback with
// no tokens needs no login; with tokens a request without one gets the
// login form, a login sets an HttpOnly SameSite=Strict cookie, a form post
// without an Origin is refused, and `cairn board` prints a URL that serves.
func TestBoardHTTP(t *testing.T) {
	t.Run("loopback without tokens", func(t *testing.T) {
		srv := cairntest.StartHTTP(t, cairntest.Options{Dir: cairntest.Project(t)})
		resp, body := cairntest.Get(t, srv.URL+"/plan", nil)
		if resp.StatusCode != 200 || !strings.Contains(body, "<h1>Plan</h1>") {
			t.Errorf("GET /plan: %d %s", resp.StatusCode, body)
		}
		req, _ := http.NewRequest("POST", srv.URL+"/tasks", strings.NewReader("title=x"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r2, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r2.Body.Close()
		if r2.StatusCode != http.StatusForbidden {
			t.Errorf("POST without Origin: %d, want 403", r2.StatusCode)
		}
	})

	t.Run("with tokens", func(t *testing.T) {
		srv := cairntest.StartHTTP(t, cairntest.Options{Dir: cairntest.Project(t), Env: []string{"CAIRN_TOKENS=" + boardRW + ":*:rw;" + boardRO + ":*:ro"}})
		resp, body := cairntest.Get(t, srv.URL+"/", nil)
		if resp.StatusCode != http.StatusUnauthorized || !strings.Contains(body, `name="token"`) {
			t.Errorf("GET / without a token: %d, want 401 with the login form: %s", resp.StatusCode, body)
		}
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		req, _ := http.NewRequest("POST", srv.URL+"/login", strings.NewReader(url.Values{"token": {boardRW}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Origin", srv.URL)
		r2, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r2.Body.Close()
		sc := r2.Header.Get("Set-Cookie")
		if r2.StatusCode != http.StatusSeeOther || !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Strict") {
			t.Errorf("login: %d Set-Cookie %q", r2.StatusCode, sc)
		}
		if strings.Contains(r2.Header.Get("Location"), boardRW) {
			t.Error("the login redirect carries the token")
		}
		c := r2.Cookies()[0]
		resp, body = cairntest.Get(t, srv.URL+"/plan", c)
		if resp.StatusCode != 200 || !strings.Contains(body, "<h1>Plan</h1>") {
			t.Errorf("GET /plan with the cookie: %d", resp.StatusCode)
		}
		post := func(origin, auth string) int {
			req, _ := http.NewRequest("POST", srv.URL+"/tasks", strings.NewReader("title=refused"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if origin != "" {
				req.Header.Set("Origin", origin)
			}
			if auth != "" {
				req.Header.Set("Authorization", "Bearer "+auth)
			} else {
				req.AddCookie(c)
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}
		if got := post("https://evil.example", ""); got != http.StatusForbidden {
			t.Errorf("POST from another Origin: %d, want 403", got)
		}
		if got := post(srv.URL, boardRO); got != http.StatusForbidden {
			t.Errorf("POST with a read-only token: %d, want 403", got)
		}
		if got := post(srv.URL, ""); got != http.StatusSeeOther {
			t.Errorf("POST from the board with the cookie: %d, want 303", got)
		}
		if strings.Contains(srv.Log(), boardRW) || strings.Contains(srv.Log(), boardRO) {
			t.Errorf("a token is in the log:\n%s", srv.Log())
		}
	})

	t.Run("cairn board", func(t *testing.T) {
		cmd := exec.Command(cairntest.Binary(t), "board", "--no-open")
		cmd.Dir = cairntest.Project(t)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		u := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`).FindString(line)
		if u == "" {
			t.Fatalf("no URL in %q", line)
		}
		resp, body := cairntest.Get(t, u, nil)
		if resp.StatusCode != 200 || !strings.Contains(body, "<h1>Outline</h1>") {
			t.Errorf("GET %s: %d %s", u, resp.StatusCode, body)
		}
	})
}

// TestBoardShowsClaimsAndPhases: the plan and the task page show who holds
// a task, until when, and the phase of its lifecycle.
func TestBoardShowsClaimsAndPhases(t *testing.T) {
	srv := cairntest.StartHTTP(t, cairntest.Options{Dir: cairntest.Project(t), Args: []string{"--toolsets", "default,lifecycle"}})
	s := srv.Connect(cairntest.Client{Header: http.Header{"X-Cairn-Agent": {"ann"}}})
	id := s.OK("create_task", args{"title": "Export"}).Str("id")
	s.OK("claim_task", args{"id": id})
	s.OK("lifecycle_init", args{"task_id": id})
	for _, path := range []string{"/plan", "/task/" + id} {
		resp, body := cairntest.Get(t, srv.URL+path, nil)
		if resp.StatusCode != 200 || !strings.Contains(body, "held by ann until ") || !strings.Contains(body, "phase SYNC") {
			t.Errorf("GET %s: %d, no holder or phase in:\n%s", path, resp.StatusCode, body)
		}
	}
}

// TestBoardBrowserReconnect: when the server goes away the page says so,
// and when it is back the page reconnects by itself and catches up with
// what changed meanwhile, without a reload.
func TestBoardBrowserReconnect(t *testing.T) {
	ctx := browser(t)
	dir := cairntest.Project(t)
	srv := cairntest.StartHTTP(t, cairntest.Options{Dir: dir})
	addr := strings.TrimPrefix(srv.URL, "http://")
	srv.Connect(cairntest.Client{}).OK("create_task", map[string]any{"title": "Before the restart"})
	var marker string
	run(t, ctx, 15*time.Second, "plan", chromedp.Navigate(srv.URL+"/plan"), live(), mainHas("Before the restart"),
		chromedp.Evaluate(`window.notReloaded = "yes"`, &marker))

	srv.Kill()
	run(t, ctx, 10*time.Second, "the page says it is down", chromedp.WaitVisible(`#live[data-state="down"]`, chromedp.ByQuery))
	srv2 := cairntest.StartHTTPAt(t, addr, cairntest.Options{Dir: dir})
	srv2.Connect(cairntest.Client{}).OK("create_task", map[string]any{"title": "Made while the page was away"})
	run(t, ctx, 15*time.Second, "caught up", live(), mainHas("Made while the page was away"),
		chromedp.Evaluate(`window.notReloaded`, &marker))
	if marker != "yes" {
		t.Error("the page was reloaded")
	}
}

// TestBoardShowsStaleAndSuperseded: the memory view leaves superseded
// entries out unless asked, marks them with their replacement when listed,
// and marks an entry whose file (named as a whole) changed since it was
// recorded.
func TestBoardShowsStaleAndSuperseded(t *testing.T) {
	dir := cairntest.Project(t)
	if err := os.WriteFile(filepath.Join(dir, "schema.sql"), []byte("CREATE TABLE a (id int);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := cairntest.StartHTTP(t, cairntest.Options{Dir: dir})
	s := srv.Connect(cairntest.Client{})
	s.OK("memory_add_decision", args{"title": "Keep ids as integers", "content": "Integer ids in the schema", "rationale": "joins", "files": []string{"schema.sql"}})
	s.OK("memory_add_decision", args{"title": "Keep ids as text", "content": "Text ids in the schema", "rationale": "imports", "supersedes": "m1"})
	if err := os.WriteFile(filepath.Join(dir, "schema.sql"), []byte("CREATE TABLE a (id text);\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, body := cairntest.Get(t, srv.URL+"/memory?q=ids+schema", nil)
	if strings.Contains(body, "Keep ids as integers") || !strings.Contains(body, "Keep ids as text") {
		t.Errorf("default search should hide the superseded m1 and show m2:\n%s", body)
	}
	_, body = cairntest.Get(t, srv.URL+"/memory?q=ids+schema&all=1", nil)
	for _, want := range []string{"Keep ids as integers", `superseded by <a href="#m2">m2</a>`, "file changed since ", ": schema.sql", "replaces m1"} {
		if !strings.Contains(body, want) {
			t.Errorf("with all=1 the memory view lacks %q:\n%s", want, body)
		}
	}
}
