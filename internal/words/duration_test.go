package words

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{-time.Second, "0s"},
		{0, "0s"},
		{400 * time.Millisecond, "0s"},
		{500 * time.Millisecond, "1s"},
		{48 * time.Second, "48s"},
		{59*time.Second + 400*time.Millisecond, "59s"},
		{59*time.Second + 600*time.Millisecond, "1m"}, // rounds up into the next unit
		{time.Minute, "1m"},
		{time.Minute + 29*time.Second, "1m"},
		{time.Minute + 30*time.Second, "2m"},
		{59*time.Minute + 29*time.Second, "59m"},
		{59*time.Minute + 30*time.Second, "1h"},
		{time.Hour + 5*time.Minute, "1h05m"},
		{time.Hour + 5*time.Minute + 31*time.Second, "1h06m"},
		{10*time.Hour + 59*time.Minute, "10h59m"},
		{23*time.Hour + 59*time.Minute + 40*time.Second, "1d"},
		{27 * time.Hour, "1d03h"},
		{50*time.Hour + 31*time.Minute, "2d03h"},
	} {
		if got := Duration(c.d); got != c.want {
			t.Errorf("Duration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 dependencies"}, {1, "1 dependency"}, {2, "2 dependencies"}} {
		if got := Plural(c.n, "dependency", "dependencies"); got != c.want {
			t.Errorf("Plural(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
