//go:build !race

package versions

const raceEnabled = false
