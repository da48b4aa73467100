package proc

import (
	"os"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/internal/memory"
)

func parent() int { return os.Getppid() }

// read reads /proc/PID/stat: the parent's pid (field 4) and the start
// time in clock ticks since boot (field 22), after the name, which is in
// parentheses and may hold spaces and parentheses itself. known is false
// when /proc cannot be read at all.
func read(pid int) (i info, ok, known bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		if _, serr := os.Stat("/proc/self/stat"); serr != nil {
			return info{}, false, false
		}
		return info{}, false, true
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return info{}, false, true
	}
	fields := strings.Fields(s[end+1:])
	// fields[0] is the state (field 3); ppid is field 4, starttime 22.
	if len(fields) < 20 {
		return info{}, false, true
	}
	ppid, err1 := strconv.Atoi(fields[1])
	start, err2 := strconv.ParseUint(fields[19], 10, 64)
	if err1 != nil || err2 != nil {
		return info{}, false, true
	}
	return info{proc: memory.Proc{PID: pid, Start: start}, ppid: ppid, name: s[open+1 : end]}, true, true
}
