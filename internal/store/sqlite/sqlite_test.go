package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/sqlite"
	"github.com/cairn-dev/cairn/internal/store/storetest"
)

func open(t *testing.T, opts sqlite.Options) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), ".cairn", "cairn.db"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, sqlite.Options{}) })
}

func TestContractSyncFull(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return open(t, sqlite.Options{Sync: sqlite.SyncFull}) })
}

func TestOpenTwiceMigratesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cairn.db")
	for range 2 {
		s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
}

func TestOpenRejects(t *testing.T) {
	for _, tc := range []struct {
		name string
		path string
		opts sqlite.Options
	}{
		{"question mark in path", filepath.Join(t.TempDir(), "a?b.db"), sqlite.Options{}},
		{"bad sync", filepath.Join(t.TempDir(), "c.db"), sqlite.Options{Sync: "OFF"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if s, err := sqlite.Open(context.Background(), tc.path, tc.opts); err == nil {
				s.Close()
				t.Fatal("want an error")
			}
		})
	}
}
