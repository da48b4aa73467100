//go:build race

package versions

// raceEnabled: the race detector slows the real-project tests about
// tenfold; they then verify a sample of the names, not every one.
const raceEnabled = true
