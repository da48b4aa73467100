//go:build race

package i18n

// slow stretches the hostile-input tests' time limits: the race detector
// runs code several times slower.
const slow = 10
