package retry

import "time"

// Backoff returns the delay before attempt n (0-based), doubling from base
// up to max.
func Backoff(n int, base, max time.Duration) time.Duration {
	d := base
	for i := 0; i < n && d < max; i++ {
		d *= 2
	}
	return min(d, max)
}
