//go:build race

package dockerfile

// raceEnabled: the race detector slows the checker ten times; the hostile
// input test does not time it then.
const raceEnabled = true
