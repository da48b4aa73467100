package mcpserver_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/service"
)

// TestInitializedDefersWork: Options.Initialized, where a stdio server opens
// the project and lets the collector run, is called once the client has
// its answer to initialize (or server/discover), not before, and only once,
// in both protocol eras.
func TestInitializedDefersWork(t *testing.T) {
	for _, v := range []string{"2025-06-18", "2025-11-25", "2026-07-28"} {
		t.Run(v, func(t *testing.T) { testInitializedDefersWork(t, v) })
	}
}

func testInitializedDefersWork(t *testing.T, version string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var calls atomic.Int32
	done := make(chan struct{}, 2)
	var opened atomic.Int32
	srv, err := mcpserver.New(mcpserver.Options{
		Services: func(context.Context) (*service.Set, error) {
			opened.Add(1)
			return nil, errors.New("not needed")
		},
		Initialized: func() { calls.Add(1); done <- struct{}{} },
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("Initialized called %d times by New", n)
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ProtocolVersion; got != version {
		t.Fatalf("negotiated %s, want %s", got, version)
	}
	if _, err := cs.ListTools(ctx, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatal("Initialized not called after the client's second message")
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("Initialized called %d times, want 1", n)
	}
	if n := opened.Load(); n != 0 {
		t.Errorf("initialize and tools/list asked for the services %d times; they need none", n)
	}
}

// TestInstructionsNameToolsetsNotServed: the instructions say which
// toolsets are not served and how a user adds one, so a model that needs
// loops in a default session can say what to do.
func TestInstructionsNameToolsetsNotServed(t *testing.T) {
	for _, tc := range []struct {
		toolsets []string
		want     string // "" means no such sentence
	}{
		{nil, "Not served here: the loops, session, context, lifecycle, insight, evolution, hands toolsets; if a task needs one, ask the user to add it with --toolsets (or CAIRN_TOOLSETS) and restart Cairn."},
		{[]string{"default", "loops"}, "Not served here: the session, context, lifecycle, insight, evolution, hands toolsets;"},
		{[]string{"all"}, ""},
	} {
		srv, err := mcpserver.New(mcpserver.Options{Toolsets: tc.toolsets,
			Services: func(context.Context) (*service.Set, error) { return nil, errors.New("not needed") }})
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		ct, st := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := cs.InitializeResult().Instructions
		cs.Close()
		ss.Close()
		switch {
		case tc.want == "" && strings.Contains(got, "Not served"):
			t.Errorf("%v: instructions name toolsets not served, but all are: %s", tc.toolsets, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%v: instructions %q lack %q", tc.toolsets, got, tc.want)
		}
	}
}

// TestToolsAddedBesideInitialize: New adds the tools while the server
// answers initialize; a tools/list right after it (or server/discover)
// still lists every tool served, and the tools added after the session
// began send no tools/list_changed, since the server says it sends none.
func TestToolsAddedBesideInitialize(t *testing.T) {
	want, err := mcpserver.ToolNames([]string{"all"}, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"2025-06-18", "2026-07-28"} {
		// In a bubble: the SDK's list-change notice waits on a timer, which
		// the bubble's clock runs past at once.
		t.Run(v, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				srv, err := mcpserver.New(mcpserver.Options{Toolsets: []string{"all"}, Context: ctx,
					Services: func(context.Context) (*service.Set, error) { return nil, errors.New("not needed") }})
				if err != nil {
					t.Fatal(err)
				}
				ct, st := mcp.NewInMemoryTransports()
				ss, err := srv.Connect(ctx, st, nil)
				if err != nil {
					t.Fatal(err)
				}
				defer ss.Close()
				var changed atomic.Int32
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{
					ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { changed.Add(1) },
				}).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: v})
				if err != nil {
					t.Fatal(err)
				}
				defer cs.Close()
				if caps := cs.InitializeResult().Capabilities; caps.Tools == nil || caps.Tools.ListChanged {
					t.Errorf("tools capability %+v, want present without listChanged", caps.Tools)
				}
				res, err := cs.ListTools(ctx, nil)
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				for _, tl := range res.Tools {
					got = append(got, tl.Name)
				}
				slices.Sort(got)
				slices.Sort(want)
				if !slices.Equal(got, want) {
					t.Fatalf("tools/list right after initialize: %d tools %v, want %d %v", len(got), got, len(want), want)
				}
				// The SDK sends a list change 10 ms after the last one: the
				// bubble's clock passes that, and every goroutine has done
				// what it will.
				time.Sleep(time.Second) // on the bubble's clock
				synctest.Wait()
				if n := changed.Load(); n != 0 {
					t.Errorf("%d tools/list_changed notifications, want none", n)
				}
			})
		})
	}
}
