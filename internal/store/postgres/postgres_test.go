package postgres_test

import (
	"context"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/internal/store"
	"github.com/cairn-dev/cairn/internal/store/postgres"
	"github.com/cairn-dev/cairn/internal/store/postgres/pgtest"
	"github.com/cairn-dev/cairn/internal/store/storetest"
)

var (
	sharedOnce sync.Once
	shared     *postgres.DB
	sharedErr  error
)

// sharedDB is one pool for the tests' stores; each test gets its own
// project in it.
func sharedDB(t *testing.T) *postgres.DB {
	t.Helper()
	url := pgtest.URL(t)
	sharedOnce.Do(func() { shared, sharedErr = postgres.OpenDB(context.Background(), url, postgres.Options{}) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared
}

// openOwn opens a store on its own pool, as another process would.
func openOwn(t *testing.T, project string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), pgtest.URL(t), postgres.Options{Project: project})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newStore(t *testing.T) *postgres.Store {
	t.Helper()
	s, err := sharedDB(t).Project(context.Background(), pgtest.Project(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, storetest.Backend{
		Open: func(t *testing.T) store.Store { return newStore(t) },
		OpenAgain: func(t *testing.T, s store.Store) store.Store {
			return openOwn(t, s.(*postgres.Store).Name())
		},
	})
}
