//go:build race

package secrets

// slowdown is how much slower the race detector makes the hostile-input
// tests' bounds.
const slowdown = 10
