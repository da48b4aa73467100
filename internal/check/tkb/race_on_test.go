//go:build race

package tkb

// slow stretches the hostile-input tests' time limits: the race detector
// runs code several times slower.
const slow = 10
