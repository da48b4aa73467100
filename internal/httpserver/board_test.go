package httpserver

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/cairn-dev/cairn/internal/app"
	"github.com/cairn-dev/cairn/internal/service/plan"
)

// TestBoardEventsOutliveReadTimeout: the board's event stream stays open
// past the server's read deadline and carries a change made after it. In
// a bubble, over pipes: the deadline passes on the bubble's clock.
func TestBoardEventsOutliveReadTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newServer(t, Config{ReadTimeout: 300 * time.Millisecond})
		url, hc := servePipes(t, s)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", url+"/events", nil)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/event-stream" {
			t.Fatalf("GET /events: %d %s", resp.StatusCode, ct)
		}
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(resp.Body)
			for sc.Scan() {
				select {
				case lines <- sc.Text():
				case <-ctx.Done():
					return
				}
			}
			close(lines)
		}()
		wait := func(what string) {
			t.Helper()
			for {
				select {
				case l, ok := <-lines:
					if !ok {
						t.Fatalf("%s: the stream ended", what)
					}
					if strings.HasPrefix(l, "event: change") {
						return
					}
				case <-time.After(10 * time.Second): // the bubble's time: only if nothing else can happen
					t.Fatalf("%s: no change event", what)
				}
			}
		}
		wait("the current version")
		time.Sleep(time.Second) // past the read deadline, on the bubble's clock
		p, err := s.cfg.Projects.Get(ctx, "default")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Plan.Create(ctx, plan.NewTask{Title: "after the deadline"}); err != nil {
			t.Fatal(err)
		}
		wait("a change after the read deadline")
	})
}

// TestBoardStreamsBounded: one token's open /events streams are bounded,
// and all tokens' together take at most a quarter of the connection slots
// (issue 34, attack 6: any token could hold all 2,048 with /events, and
// /healthz and every MCP client got 503).
func TestBoardStreamsBounded(t *testing.T) {
	s := &Server{cfg: Config{MaxConns: 2048}}
	a, b := &Token{Name: "a"}, &Token{Name: "b"}
	var releases []func()
	for range DefaultMaxStreamsPerToken {
		r, p := s.admitStream(a)
		if p != nil {
			t.Fatalf("stream %d: %v", len(releases)+1, p.Problem)
		}
		releases = append(releases, r)
	}
	if _, p := s.admitStream(a); p == nil || p.Status != http.StatusTooManyRequests {
		t.Fatalf("a token's stream past the bound: %+v", p)
	}
	if r, p := s.admitStream(b); p != nil {
		t.Fatalf("another token's stream: %v", p.Problem)
	} else {
		r()
	}
	releases[0]()
	if _, p := s.admitStream(a); p != nil {
		t.Fatalf("a stream after one closed: %v", p.Problem)
	}

	small := &Server{cfg: Config{MaxConns: 8}}
	for i := range 2 {
		if _, p := small.admitStream(&Token{Name: strings.Repeat("x", i+1)}); p != nil {
			t.Fatalf("stream %d of 2: %v", i+1, p.Problem)
		}
	}
	if _, p := small.admitStream(&Token{Name: "z"}); p == nil {
		t.Fatal("streams past a quarter of the connections")
	}
}

// TestBoardNamesTheProject: the board's header calls the project of the
// directory it was started in by that directory's name, not by the route
// name "default"; a named project by its name.
func TestBoardNamesTheProject(t *testing.T) {
	root := filepath.Join(t.TempDir(), "a")
	other := filepath.Join(t.TempDir(), "web-repo")
	for _, d := range []string{root, other} {
		if err := os.MkdirAll(filepath.Join(d, ".cairn"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("CAIRN_PROJECT_ROOT", root)
	projects, err := app.NewDirProjects(app.Config{}, map[string]string{"web": other})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { projects.Close() })
	s, err := New(Config{Projects: projects})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	for path, want := range map[string]string{"/": "a", "/p/web/": "web"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(body), `Cairn <span class="proj">`+want+`</span>`) ||
			!strings.Contains(string(body), " · "+want+" · Cairn</title>") || strings.Contains(string(body), "default") {
			t.Errorf("GET %s: %d; want the header to name project %q:\n%s", path, resp.StatusCode, want, body)
		}
	}
}
