package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/testing/benchseed"
)

// BenchmarkSearchMemory is memory search in the store alone, on the
// benchmark's seeded memory (CAIRN_BENCH_DB names a cached project's
// database), for profiling; the end-to-end benchmark is internal/e2e's.
func BenchmarkSearchMemory(b *testing.B) {
	path := os.Getenv("CAIRN_BENCH_DB")
	if path == "" {
		b.Skip("set CAIRN_BENCH_DB to a seeded cairn.db")
	}
	ctx := context.Background()
	dir := b.TempDir()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	db := filepath.Join(dir, "cairn.db")
	if err := os.WriteFile(db, data, 0o600); err != nil {
		b.Fatal(err)
	}
	st, err := sqlite.Open(ctx, db, sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	qs := benchseed.MemoryQueries(200)
	var r0, r1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	defer func() {
		syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
		cpu := time.Duration(r1.Utime.Nano()+r1.Stime.Nano()-r0.Utime.Nano()-r0.Stime.Nano()) / time.Duration(b.N)
		b.ReportMetric(float64(cpu.Microseconds()), "cpu-µs/op")
	}()
	b.ResetTimer()
	for i := range b.N {
		if err := st.View(ctx, func(tx store.Tx) error {
			_, err := store.SearchMemory(ctx, tx, store.MemoryQuery{Text: qs[i%len(qs)], Limit: 10})
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
}
