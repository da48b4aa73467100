package loadgen

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ProcStats is what the server process used during a level, read from
// Linux's /proc when the generator knows the server's pid.
type ProcStats struct {
	CPU     time.Duration `json:"cpuNs"`        // user+system time spent during the level
	RSS     int64         `json:"rssBytes"`     // resident set at the end of the level
	PeakRSS int64         `json:"peakRssBytes"` // the process's high-water mark so far
}

// clockTicks is USER_HZ, the unit of /proc/<pid>/stat's times; it is 100 on
// every Linux architecture Go supports.
const clockTicks = 100

// procCPU returns the user+system CPU time of process pid, all threads.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces; fields after it start
	// past the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("parse /proc/%d/stat: no ')'", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state); utime and stime are fields 14 and 15.
	if len(f) < 13 {
		return 0, fmt.Errorf("parse /proc/%d/stat: %d fields", pid, len(f))
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("parse /proc/%d/stat: %w", pid, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// procMem returns the VmRSS and VmHWM of process pid, in bytes.
func procMem(pid int) (rss, peak int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		f := strings.Fields(v) // "1234 kB"
		if len(f) != 2 || f[1] != "kB" {
			return 0, 0, fmt.Errorf("parse /proc/%d/status: %q", pid, line)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("parse /proc/%d/status: %w", pid, err)
		}
		if k == "VmRSS" {
			rss = n << 10
		} else {
			peak = n << 10
		}
	}
	return rss, peak, nil
}

// loadAverage returns the host's one-minute load average, or -1 where
// /proc/loadavg cannot be read: a level run on a busy host measures less
// than the server can do.
func loadAverage() float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return -1
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return -1
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return -1
	}
	return v
}
