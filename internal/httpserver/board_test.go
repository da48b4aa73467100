package httpserver

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/service/plan"
)

// TestBoardEventsOutliveReadTimeout: the board's event stream stays open
// past the server's read deadline and carries a change made after it.
func TestBoardEventsOutliveReadTimeout(t *testing.T) {
	s, _ := newTestServer(t, Config{ReadTimeout: 300 * time.Millisecond})
	ln, err := s.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Serve(ctx, ln); close(done) }()
	t.Cleanup(func() { cancel(); <-done })

	resp, err := http.Get("http://" + ln.Addr().String() + "/events")
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
			lines <- sc.Text()
		}
		close(lines)
	}()
	changes := 0
	wait := func(what string) {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("%s: the stream ended", what)
				}
				if strings.HasPrefix(l, "event: change") {
					changes++
					return
				}
			case <-timeout:
				t.Fatalf("%s: no change event", what)
			}
		}
	}
	wait("the current version")
	time.Sleep(time.Second) // past the read deadline
	p, err := s.cfg.Projects.Get(ctx, "default")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Plan.Create(ctx, plan.NewTask{Title: "after the deadline"}); err != nil {
		t.Fatal(err)
	}
	wait("a change after the read deadline")
}
