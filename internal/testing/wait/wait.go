// Package wait is how a test waits on what it cannot be signalled by:
// another process (a server's state, a database's sessions, a file a
// child has open) or a clock that is not the test's. It polls a condition
// until it holds or a deadline passes, and then fails the test saying what
// it waited for; a wait that can be signalled (a channel, a log write, a
// hook) or run in a synctest bubble should be, not polled.
package wait

import (
	"testing"
	"time"
)

// Until polls cond, at 5 ms at first and backing off to 200 ms, until it
// returns true; if timeout passes first it fails tb with "waited <timeout>
// for <what>". The deadline is a hang detector, never a budget: give it
// ample room for a loaded machine.
func Until(tb testing.TB, timeout time.Duration, what string, cond func() bool) {
	tb.Helper()
	if !For(timeout, cond) {
		tb.Fatalf("waited %v for %s", timeout, what)
	}
}

// For is Until returning whether cond held before the timeout, for a
// caller that reports the failure itself.
func For(timeout time.Duration, cond func() bool) bool {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	interval := 5 * time.Millisecond
	tick := time.NewTimer(0)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
		case <-deadline.C:
			return cond()
		}
		if cond() {
			return true
		}
		interval = min(2*interval, 200*time.Millisecond)
		tick.Reset(interval)
	}
}
