//go:build !race

package testcheck

// raceSlowdown stretches time bounds under the race detector.
const raceSlowdown = 1
