package httpserver

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

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
