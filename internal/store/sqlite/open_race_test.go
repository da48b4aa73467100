package sqlite_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/internal/store/sqlite"
)

// TestConcurrentFirstOpen opens a new database from several connections at
// once, as several `cairn serve` processes starting on a new project do. The
// first connection's PRAGMA journal_mode=WAL upgrades a read lock to a write
// lock, which SQLite answers with SQLITE_BUSY at once instead of waiting out
// busy_timeout; Open must retry rather than fail.
func TestConcurrentFirstOpen(t *testing.T) {
	t.Parallel()
	const rounds, openers = 20, 8
	for range rounds {
		path := filepath.Join(t.TempDir(), "cairn.db")
		var wg sync.WaitGroup
		start := make(chan struct{})
		errs := make([]error, openers)
		for i := range openers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
				if err != nil {
					errs[i] = err
					return
				}
				errs[i] = s.Close()
			}()
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("opener %d of a new database: %v", i, err)
			}
		}
	}
}
