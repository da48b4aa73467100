package proc

import (
	"os"

	"golang.org/x/sys/unix"

	"github.com/cairn-dev/cairn/internal/memory"
)

func parent() int { return os.Getppid() }

// read reads the kernel's record of pid (sysctl kern.proc.pid).
func read(pid int) (i info, ok, known bool) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || k.Proc.P_pid != int32(pid) {
		return info{}, false, true
	}
	tv := k.Proc.P_starttime
	start := uint64(tv.Sec)*1_000_000 + uint64(tv.Usec)
	name := unix.ByteSliceToString(k.Proc.P_comm[:])
	return info{proc: memory.Proc{PID: pid, Start: start}, ppid: int(k.Eproc.Ppid), name: name}, true, true
}
