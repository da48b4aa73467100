package kv

import (
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want map[string]string
	}{
		{"one pair", "a=1", map[string]string{"a": "1"}},
		{"two pairs", "a=1 b=2", map[string]string{"a": "1", "b": "2"}},
		{"empty value", "a=", map[string]string{"a": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Parse(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseRejectsBareWords(t *testing.T) {
	_, err := Parse("nokey")
	require.Error(t, err)
}

// mustParse is a helper that receives t and fails it.
func mustParse(t *testing.T, s string) map[string]string {
	t.Helper()
	m, err := Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFormatRoundTrip(t *testing.T) {
	m := mustParse(t, "b=2 a=1")
	if got := Format(m); got != "a=1 b=2" {
		t.Errorf("Format = %q", got)
	}
}

type checker struct{ t *testing.T }

func (c checker) equal(got, want string) {
	c.t.Helper()
	if got != want {
		c.t.Errorf("got %q, want %q", got, want)
	}
}

func TestFormatEmpty(t *testing.T) {
	c := checker{t}
	c.equal(Format(nil), "")
}

func TestConfigFromEnv(t *testing.T) {
	t.Setenv("KV_CONFIG", "a=1")
	if _, err := Parse(os.Getenv("KV_CONFIG")); err != nil {
		t.Error(err)
	}
}

func TestParseOnWindows(t *testing.T) {
	if os.PathSeparator != '\\' {
		t.Skip("only Windows paths have backslashes")
	}
	mustParse(t, `dir=C:\x`)
}

func TestConcurrentParse(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := Parse("a=1"); err != nil {
				t.Error(err) // Error, not Fatal, from a goroutine
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
}

func TestEventuallyReady(t *testing.T) {
	deadline := time.Now().Add(time.Second)
	ready := make(chan struct{})
	close(ready)
	for {
		select {
		case <-ready:
			return
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("never ready")
		}
		time.Sleep(10 * time.Millisecond) // polling, with a deadline
	}
}

func TestParseDoesNotPanicOnJunk(t *testing.T) {
	for _, s := range []string{"", "=", "==", "\x00"} {
		Parse(s)
	}
}

func BenchmarkParse(b *testing.B) {
	for b.Loop() {
		Parse("a=1 b=2 c=3")
	}
}

func ExampleFormat() {
	println(Format(map[string]string{"a": "1"}))
}

func FuzzParse(f *testing.F) {
	f.Add("a=1")
	f.Fuzz(func(t *testing.T, s string) {
		Parse(s)
	})
}
