package cairntest

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// KillSeed is the seed of a fault test's random kill instants: the clock,
// or CAIRN_KILL_SEED to replay a run; it is logged.
func KillSeed(tb testing.TB) uint64 {
	tb.Helper()
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("CAIRN_KILL_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			tb.Fatalf("CAIRN_KILL_SEED: %v", err)
		}
		seed = v
	}
	tb.Logf("kill seed %d (set CAIRN_KILL_SEED to replay)", seed)
	return seed
}

// DBState describes the files of the project's SQLite store in dir, to
// log where a kill landed.
func DBState(dir string) string {
	base := filepath.Join(dir, ".cairn", "cairn.db")
	var parts []string
	for _, suf := range []string{"", "-journal", "-wal", "-shm"} {
		if fi, err := os.Stat(base + suf); err == nil {
			parts = append(parts, fmt.Sprintf("db%s=%dB", suf, fi.Size()))
		}
	}
	if len(parts) == 0 {
		if _, err := os.Stat(filepath.Join(dir, ".cairn")); err != nil {
			return "no .cairn"
		}
		return "no db"
	}
	return strings.Join(parts, " ")
}

// Percentile returns the p-th percentile (0 < p ≤ 100) of sorted
// durations, by the nearest-rank method.
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(float64(len(sorted))*p/100)) - 1
	return sorted[min(max(rank, 0), len(sorted)-1)]
}
