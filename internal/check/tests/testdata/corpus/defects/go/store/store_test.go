package store

import (
	"testing"
	"time"
)

func TestPutDoesNothingUseful(t *testing.T) {
	var s Store
	s.Put("a", "1")
	t.Log("put a value")
}

func TestGet(t *testing.T) {
}

func TestSkippedSilently(t *testing.T) {
	t.Skip()
	var s Store
	if _, ok := s.Get("x"); ok {
		t.Error("found x")
	}
}

func TestPutThenGetLater(t *testing.T) {
	var s Store
	go s.Put("a", "1")
	time.Sleep(50 * time.Millisecond)
	if v, _ := s.Get("a"); v != "1" {
		t.Errorf("Get = %q", v)
	}
}

func TestEnvInParallel(t *testing.T) {
	t.Parallel()
	t.Setenv("STORE_DIR", t.TempDir())
	var s Store
	s.Put("dir", "x")
	if _, ok := s.Get("dir"); !ok {
		t.Error("no dir")
	}
}

func TestParallelSubtestWithEnv(t *testing.T) {
	t.Setenv("STORE_MODE", "fast")
	t.Run("sub", func(t *testing.T) {
		t.Parallel()
		if false {
			t.Error("unreachable")
		}
	})
	t.Parallel()
}

func TestFatalFromGoroutine(t *testing.T) {
	var s Store
	done := make(chan struct{})
	go func() {
		defer close(done)
		if _, ok := s.Get("missing"); ok {
			t.Fatal("found a missing key")
		}
	}()
	<-done
}

func logOnly(t *testing.T, s *Store) {
	t.Helper()
	t.Logf("store has %v", s.m)
}

func TestHelperThatDoesNotAssert(t *testing.T) {
	var s Store
	s.Put("k", "v")
	logOnly(t, &s)
}
