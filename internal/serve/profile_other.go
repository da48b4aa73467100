//go:build !unix

package serve

// onProfileSignal: no SIGUSR1 here; profiles cover the whole run.
func onProfileSignal(func()) (cancel func()) { return func() {} }
