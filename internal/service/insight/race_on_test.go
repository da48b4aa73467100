//go:build race

package insight_test

// raceEnabled: the race detector slows the pure-Go SQLite writes of the
// generated histories about fiftyfold; the statistics are checked over
// many histories without -race (scripts/test runs the package both ways),
// and once with it.
const raceEnabled = true
