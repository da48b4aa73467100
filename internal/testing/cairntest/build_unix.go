//go:build unix

package cairntest

import (
	"os"
	"path/filepath"
	"syscall"
)

// lockBuild takes a lock shared by every test process on the machine, so
// that builds of the binary run one at a time; it returns the unlock. If
// the lock cannot be had, builds run at once, which is only slower.
func lockBuild() func() {
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "cairntest-build.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return func() {}
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return func() {}
	}
	return func() { f.Close() } // closing the file releases the lock
}
