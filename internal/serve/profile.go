package serve

import (
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
)

// startProfiles is for developers measuring `cairn serve` (stdio, or --http
// under load: scripts/load.sh says how): with CAIRN_CPUPROFILE=FILE the server writes a
// CPU profile to FILE, and with CAIRN_MEMPROFILE=FILE its allocations to
// FILE, when it stops. On Unix, SIGUSR1 starts both over: the CPU profile
// from then on, and the allocations so far written to FILE.start, to
// subtract (go tool pprof -base FILE.start FILE). The returned stop writes
// the profiles; the server calls it once Serve has returned.
func startProfiles(log *slog.Logger) (stop func(), err error) {
	cpu, mem := os.Getenv("CAIRN_CPUPROFILE"), os.Getenv("CAIRN_MEMPROFILE")
	if cpu == "" && mem == "" {
		return func() {}, nil
	}
	var (
		mu sync.Mutex
		f  *os.File
	)
	if cpu != "" {
		if f, err = os.Create(cpu); err != nil {
			return nil, fmt.Errorf("CAIRN_CPUPROFILE: %w", err)
		}
		if err = pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("CAIRN_CPUPROFILE: %w", err)
		}
	}
	restart := func() {
		mu.Lock()
		defer mu.Unlock()
		if f != nil {
			pprof.StopCPUProfile()
			if err := f.Truncate(0); err != nil {
				log.Error("restart CPU profile", "file", cpu, "error", err)
			} else if _, err := f.Seek(0, 0); err != nil {
				log.Error("restart CPU profile", "file", cpu, "error", err)
			} else if err := pprof.StartCPUProfile(f); err != nil {
				log.Error("restart CPU profile", "file", cpu, "error", err)
			}
		}
		if mem != "" {
			writeAllocs(log, mem+".start")
		}
		log.Info("profiles started over")
	}
	cancel := onProfileSignal(restart)
	return func() {
		cancel()
		mu.Lock()
		defer mu.Unlock()
		if f != nil {
			pprof.StopCPUProfile()
			if err := f.Close(); err != nil {
				log.Error("write CPU profile", "file", cpu, "error", err)
			}
		}
		if mem != "" {
			writeAllocs(log, mem)
		}
	}, nil
}

// writeAllocs writes the allocations since the process started, and the
// heap live after a collection, to file.
func writeAllocs(log *slog.Logger, file string) {
	runtime.GC()
	m, err := os.Create(file)
	if err == nil {
		err = pprof.Lookup("allocs").WriteTo(m, 0)
		if cerr := m.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		log.Error("write heap profile", "file", file, "error", err)
	}
}
