package mcpserver_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
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
		{nil, "Not served here: the loops, session, context, lifecycle toolsets; if a task needs one, ask the user to add it with --toolsets (or CAIRN_TOOLSETS) and restart Cairn."},
		{[]string{"default", "loops"}, "Not served here: the session, context, lifecycle toolsets;"},
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
