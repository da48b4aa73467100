package sqlite

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/problem"
	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/task"
)

// TestFullDiskIsAFault: when the database cannot grow (SQLite's own
// SQLITE_FULL, reached here by capping the page count, as a full disk
// reaches it), a write fails with a store.Fault that says the disk is
// full and what to do, not an internal error.
func TestFullDiskIsAFault(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "cairn.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var pages int
	if err := s.w.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := s.w.ExecContext(ctx, "PRAGMA max_page_count = "+strconv.Itoa(pages+2)); err != nil {
		t.Fatal(err)
	}
	body := strings.Repeat("x", 8000)
	t0 := time.Now()
	for i := range 1000 {
		err = s.Update(ctx, func(tx store.Tx) error {
			_, err := tx.CreateTask(ctx, task.New("t", body, t0), store.Placement{})
			return err
		})
		if err != nil {
			t.Logf("full after %d writes", i)
			break
		}
	}
	if msg := problem.Of(err).Problem; !problem.Is(err, problem.Storage) || !strings.Contains(msg, "is full") || !strings.Contains(msg, "free space") {
		t.Fatalf("a write to a full database: %v", err)
	}
	if strings.Contains(err.Error(), s.path) {
		t.Fatalf("the fault names the full path: %v", err)
	}
}
