//go:build race

package a11y

// slowdown is how much slower the race detector makes the hostile-input
// tests' bounds.
const slowdown = 10
