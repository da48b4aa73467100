//go:build !race

package insight_test

const raceEnabled = false
