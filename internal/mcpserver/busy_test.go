package mcpserver_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cairn-dev/cairn/internal/mcpserver"
	"github.com/cairn-dev/cairn/internal/service"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

// TestBusyStoreIsUnavailable: a write that waits out the busy timeout
// behind another process's write lock is answered -32006 with advice to
// retry, not as an internal error.
func TestBusyStoreIsUnavailable(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	path := filepath.Join(t.TempDir(), "cairn.db")
	st, err := sqlite.Open(ctx, path, sqlite.Options{BusyTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	// The competing writer: another connection to the same file holding
	// the write lock.
	other, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK")

	set := service.New(st, service.Options{})
	srv, err := mcpserver.New(mcpserver.Options{Version: "test",
		Services: func(context.Context) (*service.Set, error) { return set, nil }})
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, ctx, srv, "busy", nil)

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "create_new_task", Arguments: map[string]any{"title": "blocked"}})
	if err != nil {
		t.Fatal(err)
	}
	var te mcpserver.ToolError
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &te); err != nil || !res.IsError {
		t.Fatalf("want a tool error, got %s", b)
	}
	if te.Code != mcpserver.CodeUnavailable || !strings.Contains(te.Message, "retry") || strings.Contains(te.Message, "SQLITE") {
		t.Fatalf("busy store answered %+v; want code %d with retry advice and no driver internals", te, mcpserver.CodeUnavailable)
	}
}
