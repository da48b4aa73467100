//go:build unix

package serve

import (
	"os"
	"os/signal"
	"syscall"
)

// onProfileSignal calls restart on each SIGUSR1 until cancel is called.
func onProfileSignal(restart func()) (cancel func()) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-c:
				restart()
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(c)
		close(done)
	}
}
