package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/testing/storetest"
)

// TestMemoryReadRoundTrips counts the round trips the memory tools' reads
// make to PostgreSQL (storetest.MemoryReads: searches, a listing, a
// timeline; BEGIN and COMMIT included), on a memory with superseded and
// expired entries (which a search leaves out after ranking). It fails when
// a read makes more than it did when last cut down; -v prints the counts.
func TestMemoryReadRoundTrips(t *testing.T) {
	ctx := context.Background()
	st, wl := openLogged(t)
	now := time.Now().UTC().Truncate(time.Microsecond)
	storetest.SeedMemoryReads(t, st, now)
	most := map[string]int{"search": 7, "search filtered": 7, "search second page": 7, "recent": 3, "context": 6}
	for _, r := range storetest.MemoryReads(now) {
		n := wl.len()
		if err := st.View(ctx, func(tx store.Tx) error { return r.Read(ctx, tx) }); err != nil {
			t.Fatalf("%s: %v", r.Name, err)
		}
		trips := 0
		for _, k := range wl.since(n) {
			trips += k
		}
		t.Logf("%s: %d round trips", r.Name, trips)
		if trips > most[r.Name] {
			t.Errorf("%s made %d round trips, more than %d", r.Name, trips, most[r.Name])
		}
	}
}
